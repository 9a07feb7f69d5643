/* SPDX-License-Identifier: BSD-2-Clause */
#include "twohost/twohost_spec.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "twohost/twohost_parity.h"
#include "util/err.h"

void rperf_twohost_spec(const struct rperf_cmdline *cfg,
			enum rperf_gen_kind kind, struct rperf_gen_spec *s)
{
	bool lsg = rperf_gen_latency(kind);

	*s = cfg->spec; /* every option with a generator key */
	s->kind = kind;
	snprintf(s->name, sizeof(s->name), "%s", lsg ? "lat" : "bw");
	snprintf(s->from, sizeof(s->from), "client");
	snprintf(s->to, sizeof(s->to), "server");
	/* --tclass, else -T/--tos (rdma_cm's name for it), else 0 */
	if (!rperf_cfg_given(cfg, "tclass") && cfg->tos >= 0)
		s->path.tclass = (uint8_t)cfg->tos;
	s->size = 0;
	for (size_t i = 0; i < cfg->nsizes; i++)
		s->size = cfg->sizes[i] > s->size ? cfg->sizes[i] : s->size;
	s->warmup_ns = 0;
	s->duration_ns = cfg->run_infinitely ? 0 : cfg->global.duration_ns;
	s->sink_completion = s->completion; /* -e: both sides */
}

int rperf_twohost_dev_open(const struct rperf_cmdline *cfg,
			   struct rperf_dev **d, struct rperf_err *e)
{
	struct rperf_verbs_cfg v = { .dev_name = cfg->sel.device,
				     .ib_port = (int)cfg->sel.port,
				     .gid_index = (int)cfg->sel.gid_index,
				     .ipv6 = cfg->ipv6 };
	char err[256] = "";
	int rc = rperf_dev_open(&v, d, err, sizeof(err));

	if (rc)
		return rperf_err_set(e, RPERF_ERRC_USAGE, rc, "%s",
				     err[0] ? err : strerror(rc));
	return 0;
}

int rperf_twohost_check_device(const struct rperf_cmdline *cfg,
			       struct rperf_err *e)
{
	struct rperf_dev *d = NULL;
	int rc = rperf_twohost_dev_open(cfg, &d, e);

	if (!rc)
		rperf_dev_close(d);
	return rc;
}
