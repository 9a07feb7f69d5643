/* SPDX-License-Identifier: BSD-2-Clause */
#include "twohost/twohost_spec.h"

#include <stdio.h>
#include <string.h>

#include "util/err.h"

void rperf_twohost_spec(const struct rperf_cli_config *cfg,
			enum rperf_gen_kind kind, struct rperf_gen_spec *s)
{
	enum rperf_completion c = cfg->events ? RPERF_COMPLETION_EVENT :
						RPERF_COMPLETION_POLL;

	rperf_gen_spec_defaults(s, kind);
	snprintf(s->name, sizeof(s->name), "%s",
		 rperf_gen_latency(kind) ? "lat" : "bw");
	snprintf(s->from, sizeof(s->from), "client");
	snprintf(s->to, sizeof(s->to), "server");
	s->path = (struct rperf_path_spec){
		.mtu = (uint32_t)cfg->mtu,
		.sl = (uint8_t)cfg->sl,
		/* --tclass, else -T/--tos (rdma_cm's name for it), else 0 */
		.tclass = (uint8_t)(cfg->tclass >= 0 ? cfg->tclass :
				    cfg->tos >= 0    ? cfg->tos :
						       0),
		.qp_timeout = (uint8_t)cfg->qp_timeout,
		.retry_count = (uint8_t)cfg->retry_count
	};
	s->size = 0;
	for (size_t i = 0; i < cfg->nsizes; i++)
		s->size = cfg->sizes[i] > s->size ? cfg->sizes[i] : s->size;
	s->warmup_ns = 0;
	s->duration_ns = cfg->run_infinitely ? 0 : cfg->duration_ns;
	s->completion = c;
	s->sink_completion = c;
	s->verb = cfg->verb;
	s->tx_depth = (uint32_t)cfg->tx_depth;
	s->cq_mod = (uint32_t)cfg->cq_mod;
	s->post_list = (uint32_t)cfg->post_list;
	s->qps = (uint32_t)cfg->qps;
	s->inline_size = (uint32_t)cfg->inline_size;
	s->test = (struct rperf_test_spec){
		.method = cfg->method,
		.atomic_op = cfg->atomic_op,
		.iters = cfg->iters,
		.rx_depth = (uint32_t)cfg->rx_depth,
		.rdma_cm = cfg->rdma_cm,
	};
}

int rperf_twohost_dev_open(const struct rperf_cli_config *cfg,
			   struct rperf_dev **d, struct rperf_err *e)
{
	struct rperf_verbs_cfg v = { .dev_name = cfg->ib_dev,
				     .ib_port = (int)cfg->ib_port,
				     .gid_index = (int)cfg->gid_index,
				     .ipv6 = cfg->ipv6 };
	char err[256] = "";
	int rc = rperf_dev_open(&v, d, err, sizeof(err));

	if (rc)
		return rperf_err_set(e, RPERF_ERRC_USAGE, rc, "%s",
				     err[0] ? err : strerror(rc));
	return 0;
}

int rperf_twohost_check_device(const struct rperf_cli_config *cfg,
			       struct rperf_err *e)
{
	struct rperf_dev *d = NULL;
	int rc = rperf_twohost_dev_open(cfg, &d, e);

	if (!rc)
		rperf_dev_close(d);
	return rc;
}
