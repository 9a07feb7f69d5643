/* SPDX-License-Identifier: BSD-2-Clause */
/* rperf bw's and rperf lat's PARAMS against the server's limits. */
#include "limits/limits.h"

#include "bw/bw_params.h"
#include "lat/lat_params.h"
#include "session/session.h"

/* @r (buffers in the pages the server would allocate: --use_hugepages)
 * against this server's limits; the run's stall limit for @path. */
static int admit(const struct rperf_cli_config *cfg, struct rperf_pin_req *r,
		 const struct rperf_session_path *path, uint64_t *stall_ns,
		 char *why, size_t whylen)
{
	struct rperf_verbs_cfg v;
	struct rperf_limits l;

	rperf_session_verbs_cfg(cfg, &v);
	r->huge_shift = v.huge_shift;
	r->inline_size = cfg->inline_size;
	rperf_limits_of(cfg, &l);
	*stall_ns = rperf_limits_stall_ns(&l, (unsigned int)path->qp_timeout,
					  (unsigned int)path->retry_count);
	return rperf_limits_check(&l, r, why, whylen);
}

/* bw: qps QPs (send depth tx_depth with -b), one buffer of max_size. */
int rperf_limits_admit_bw(const struct rperf_cli_config *cfg,
			  const struct rperf_bw_params *p, uint64_t *stall_ns,
			  char *why, size_t whylen)
{
	struct rperf_pin_req r = {
		.qps = p->qps,
		.send_depth = p->bidir ? p->tx_depth : 1,
		.recv_depth = p->verb != RPERF_VERB_WRITE ? p->rx_depth : 1,
		.buf_bytes = p->max_size,
	};

	return admit(cfg, &r, &p->path, stall_ns, why, whylen);
}

/* lat: the wire QP (16 replies deep, rx_depth receives), one buffer. */
int rperf_limits_admit_lat(const struct rperf_cli_config *cfg,
			   const struct rperf_lat_params *p, uint64_t *stall_ns,
			   char *why, size_t whylen)
{
	struct rperf_pin_req r = { .qps = 1,
				   .send_depth = 16,
				   .recv_depth = p->rx_depth,
				   .buf_bytes = p->max_size };

	return admit(cfg, &r, &p->path, stall_ns, why, whylen);
}
