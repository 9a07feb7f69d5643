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
#include "session/session_path.h"

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
	v->huge_shift = cfg->hugepages == RPERF_HUGE_1G ? 30 :
			cfg->hugepages == RPERF_HUGE_2M ? 21 :
							  0;
	/* --tclass, else -T/--tos (rdma_cm's name for it), else 0 */
	v->tclass = (uint8_t)(cfg->tclass >= 0 ? cfg->tclass :
			      cfg->tos >= 0    ? cfg->tos :
						 0);
}

int rperf_session_dev_open(const struct rperf_cli_config *cfg,
			   const struct rperf_session_path *path,
			   struct rperf_verbs_cfg *v, struct rperf_dev **d,
			   char *err, size_t errlen)
{
	rperf_session_verbs_cfg(cfg, v);
	/* the client's choices for the path; the server's for the device */
	if (path)
		rperf_session_path_apply(path, v);
	return rperf_dev_open(v, d, err, errlen);
}

int rperf_session_check_depth(const struct rperf_dev *d, const char *opt,
			      uint64_t depth, char *err, size_t errlen)
{
	int wr = d->attr.max_qp_wr, cqe = d->attr.max_cqe;
	int max = cqe > 0 && cqe < wr ? cqe : wr;

	if (depth <= (uint64_t)max)
		return 0;
	snprintf(
		err, errlen,
		"%s: %llu is above what %s allows; accepted: at most %d (max_qp_wr %d, max_cqe %d)",
		opt, (unsigned long long)depth, d->name, max, wr, cqe);
	return ERANGE;
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
			struct rperf_pin_req *r,
			const struct rperf_session_path *path,
			uint64_t *stall_ns, char *why, size_t whylen)
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
