/* SPDX-License-Identifier: BSD-2-Clause */
#define _GNU_SOURCE
#include "session/session.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "host/place.h"
#include "engine/limits.h"
#include "session/session_err.h"

void rperf_session_verbs_cfg(const struct rperf_cli_config *cfg,
			     struct rperf_verbs_cfg *v)
{
	memset(v, 0, sizeof(*v));
	v->dev_name = cfg->ib_dev;
	v->ib_port = (int)cfg->ib_port;
	v->gid_index = (int)cfg->gid_index;
	v->ipv6 = cfg->ipv6;
	v->mtu = (int)cfg->mtu;
	v->inline_size = (uint32_t)cfg->inline_size;
	v->qp_timeout = (uint8_t)cfg->qp_timeout;
	v->retry_count = (uint8_t)cfg->retry_count;
	v->sl = (uint8_t)cfg->sl;
	v->huge_shift = rperf_hugepage_shift(cfg->hugepages);
	/* --tclass, else -T/--tos (rdma_cm's name for it), else 0 */
	v->tclass = (uint8_t)(cfg->tclass >= 0 ? cfg->tclass :
			      cfg->tos >= 0    ? cfg->tos :
						 0);
}

void rperf_session_spec(const struct rperf_cli_config *cfg,
			enum rperf_gen_kind kind, struct rperf_gen_spec *s)
{
	struct rperf_verbs_cfg v;
	enum rperf_completion c = cfg->events ? RPERF_COMPLETION_EVENT :
						RPERF_COMPLETION_POLL;

	rperf_gen_spec_defaults(s, kind);
	rperf_session_verbs_cfg(cfg, &v); /* resolves --tclass / -T */
	snprintf(s->name, sizeof(s->name), "%s",
		 kind == RPERF_GEN_LSG ? "lat" : "bw");
	snprintf(s->from, sizeof(s->from), "client");
	snprintf(s->to, sizeof(s->to), "server");
	s->path = (struct rperf_path_spec){
		.mtu = (uint32_t)cfg->mtu,
		.sl = (uint8_t)cfg->sl,
		.tclass = v.tclass,
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
		.infinite = cfg->run_infinitely,
		.rx_depth = (uint32_t)cfg->rx_depth,
		.rdma_cm = cfg->rdma_cm,
		.bidir = cfg->bidir && kind == RPERF_GEN_BSG,
		.reversed = cfg->reversed && kind == RPERF_GEN_BSG,
	};
}

int rperf_session_dev_open(const struct rperf_cli_config *cfg,
			   const struct rperf_path_spec *path,
			   struct rperf_verbs_cfg *v, struct rperf_dev **d,
			   char *err, size_t errlen)
{
	rperf_session_verbs_cfg(cfg, v);
	/* the client's choices for the path; the server's for the device */
	if (path) {
		v->mtu = (int)path->mtu;
		v->sl = path->sl;
		v->tclass = path->tclass;
		v->qp_timeout = path->qp_timeout;
		v->retry_count = path->retry_count;
		v->inline_size = 0;
	}
	return rperf_dev_open(v, d, err, errlen);
}

int rperf_session_pin_cpu(int64_t cpu, struct rperf_err *e)
{
	int rc = rperf_place_pin(cpu);

	return rc ? rperf_err_set(
			    e, RPERF_ERRC_USAGE, rc,
			    "--cpu: cannot pin to CPU %lld: %s; accepted: a CPU this process may run on",
			    (long long)cpu, strerror(rc)) :
		    0;
}

int rperf_session_admit(const struct rperf_cli_config *cfg,
			const struct rperf_gen_spec *s, uint64_t *stall_ns,
			char *why, size_t whylen)
{
	struct rperf_pin_req r = { .qps = 1,
				   .send_depth = 16,
				   .recv_depth = s->test.rx_depth,
				   .buf_bytes = s->size };
	struct rperf_verbs_cfg v;
	struct rperf_limits l;

	if (s->kind == RPERF_GEN_BSG)
		r = (struct rperf_pin_req){
			.qps = s->qps,
			.send_depth = s->test.bidir ? s->tx_depth : 1,
			.recv_depth = s->verb != RPERF_VERB_WRITE ?
					      s->test.rx_depth :
					      1,
			.buf_bytes = s->size,
		};
	rperf_session_verbs_cfg(cfg, &v);
	r.huge_shift = v.huge_shift;
	r.inline_size = cfg->inline_size;
	rperf_limits_of(cfg, &l);
	*stall_ns = rperf_limits_stall_ns(&l, s->path.qp_timeout,
					  s->path.retry_count);
	return rperf_limits_check(&l, &r, why, whylen);
}

int rperf_session_params(const struct rperf_cli_config *cfg, const json_t *obj,
			 uint64_t server_max, struct rperf_gen_spec *s,
			 uint64_t *stall_ns, char *why, size_t whylen)
{
	int rc = rperf_gen_spec_decode_test(obj, s, why, whylen);

	if (rc)
		return rc;
	if (s->size > server_max) {
		snprintf(
			why, whylen,
			"message size %llu B is above what this server allows (%llu B)",
			(unsigned long long)s->size,
			(unsigned long long)server_max);
		return EMSGSIZE;
	}
	if (!s->test.rx_depth) {
		snprintf(
			why, whylen,
			"parameter 'rx_depth' missing or not an integer in [1, %u]",
			RPERF_SPEC_TEST_MAX_RX_DEPTH);
		return EBADMSG;
	}
	return rperf_session_admit(cfg, s, stall_ns, why, whylen);
}
