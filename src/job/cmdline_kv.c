/* SPDX-License-Identifier: BSD-2-Clause */
#include "job/cmdline_kv.h"

#include <stdbool.h>
#include <string.h>

bool rperf_opt_kv(const struct rperf_cmdline *cfg, const struct rperf_opt *o,
		  struct rperf_kv *kv)
{
	kv->key = o->name;
	switch (o->type) {
	case RPERF_OT_FLAG:
		kv->type = RPERF_KV_BOOL;
		kv->v.b = rperf_opt_get(cfg, o) != 0;
		return true;
	case RPERF_OT_STR:
		kv->type = RPERF_KV_STR;
		kv->v.s = rperf_opt_str(cfg, o);
		return true;
	case RPERF_OT_INT:
		kv->type = RPERF_KV_INT;
		kv->v.i = rperf_opt_get(cfg, o);
		return true;
	case RPERF_OT_COUNT:
	case RPERF_OT_SIZE:
	case RPERF_OT_TIME:
		kv->type = RPERF_KV_UINT;
		kv->v.u = (uint64_t)rperf_opt_get(cfg, o);
		return true;
	case RPERF_OT_RATE:
		kv->type = RPERF_KV_DOUBLE;
		memcpy(&kv->v.d, (const char *)cfg + o->off, sizeof(double));
		return true;
	case RPERF_OT_ENUM:
		kv->type = RPERF_KV_STR;
		kv->v.s =
			rperf_name_cli(o->choices, (int)rperf_opt_get(cfg, o));
		return true;
	case RPERF_OT_SIZE_LIST:
		kv->type = RPERF_KV_LIST_UINT;
		kv->v.list.n = cfg->nsizes;
		kv->v.list.u = cfg->sizes;
		return true;
	case RPERF_OT_PCT_LIST:
		kv->type = RPERF_KV_LIST_DOUBLE;
		kv->v.list.n = cfg->npercentiles;
		kv->v.list.d = cfg->percentiles;
		return true;
	default:
		return false; /* help, version */
	}
}

size_t rperf_cmdline_kv(const struct rperf_cmdline *cfg, struct rperf_kv *kv)
{
	size_t n = 0;

	kv[n++] = (struct rperf_kv){ .key = "command",
				     .type = RPERF_KV_STR,
				     .v.s = rperf_cmd_name(cfg->cmd) };
	kv[n++] = (struct rperf_kv){ .key = "host",
				     .type = RPERF_KV_STR,
				     .v.s = cfg->host };
	for (size_t i = 0, nopt = rperf_opt_count(); i < nopt; i++) {
		const struct rperf_opt *o = rperf_opt_at(i);

		/* "sizes" and "size" share one field: report it once */
		if (!(o->cmds & cfg->cmd) ||
		    (o->type == RPERF_OT_SIZE_LIST && o->letter == 0))
			continue;
		if (rperf_opt_kv(cfg, o, &kv[n]))
			n++;
	}
	return n;
}
