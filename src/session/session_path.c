/* SPDX-License-Identifier: BSD-2-Clause */
#include "session/session_path.h"

#include <errno.h>
#include <stdio.h>

#include "ctrl/ctrl.h"
#include "session/session.h"

int rperf_session_path_encode(const struct rperf_cli_config *cfg, json_t *obj)
{
	struct rperf_verbs_cfg v;

	rperf_session_verbs_cfg(cfg, &v); /* resolves --tclass / -T */
	if (rperf_ctrl_set_u64(obj, "mtu", cfg->mtu) ||
	    rperf_ctrl_set_i64(obj, "sl", cfg->sl) ||
	    rperf_ctrl_set_i64(obj, "tclass", v.tclass) ||
	    rperf_ctrl_set_i64(obj, "qp_timeout", cfg->qp_timeout) ||
	    rperf_ctrl_set_i64(obj, "retry_count", cfg->retry_count))
		return ENOMEM;
	return 0;
}

static int get(const json_t *obj, const char *key, int64_t max, int64_t *out,
	       char *why, size_t whylen)
{
	if (rperf_ctrl_get_i64(obj, key, 0, max, out)) {
		snprintf(
			why, whylen,
			"parameter '%s' missing or not an integer in [0, %lld]",
			key, (long long)max);
		return EBADMSG;
	}
	return 0;
}

int rperf_session_path_decode(const json_t *obj, struct rperf_session_path *out,
			      char *why, size_t whylen)
{
	int64_t mtu = 0;
	int rc = get(obj, "mtu", 4096, &mtu, why, whylen);

	if (!rc && mtu && (mtu < 256 || (mtu & (mtu - 1)))) {
		snprintf(why, whylen, "parameter 'mtu' %lld is not 256..4096",
			 (long long)mtu);
		rc = EBADMSG;
	}
	out->mtu = (uint64_t)mtu;
	if (!rc)
		rc = get(obj, "sl", 15, &out->sl, why, whylen);
	if (!rc)
		rc = get(obj, "tclass", 255, &out->tclass, why, whylen);
	if (!rc)
		rc = get(obj, "qp_timeout", 31, &out->qp_timeout, why, whylen);
	if (!rc)
		rc = get(obj, "retry_count", 7, &out->retry_count, why, whylen);
	return rc;
}

void rperf_session_path_apply(const struct rperf_session_path *p,
			      struct rperf_verbs_cfg *v)
{
	v->mtu = (int)p->mtu;
	v->sl = (uint8_t)p->sl;
	v->tclass = (uint8_t)p->tclass;
	v->qp_timeout = (uint8_t)p->qp_timeout;
	v->retry_count = (uint8_t)p->retry_count;
	v->inline_size = 0;
}
