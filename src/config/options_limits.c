/* SPDX-License-Identifier: BSD-2-Clause */
/* Options, group "server limits" (see options.h for the order). */
#include "config/options_priv.h"

const struct rperf_opt rperf_opts_limits[] = {
	/* what one client may cost a server (src/limits) */
	{ .name = "max-memory",
	  .type = RPERF_OT_SIZE,
	  .cmds = T,
	  .off = OFF(max_memory),
	  .min = 1 << 20,
	  .max = 1ll << 50,
	  .metavar = "SIZE",
	  .dflt = "a quarter of MemAvailable, 64M..4G",
	  .server = 1,
	  .help = "Server: refuse a run whose queues and buffers would pin more than SIZE (estimated from PARAMS before anything is allocated)." },
	{ .name = "max-qps",
	  .type = RPERF_OT_COUNT,
	  .cmds = T,
	  .off = OFF(max_qps),
	  .min = 1,
	  .max = 1024,
	  .metavar = "N",
	  .dflt = "1024",
	  .server = 1,
	  .help = "Server: refuse a run with more than N QPs." },
	{ .name = "stall-limit",
	  .type = RPERF_OT_TIME,
	  .cmds = T,
	  .off = OFF(stall_ns),
	  .min = 100 * NS_MS,
	  .max = 3600 * NS_S,
	  .unit = NS_S,
	  .metavar = "TIME",
	  .dflt = "5s",
	  .server = 1,
	  .help = "Server: a peer that makes no progress costs at most TIME (its sends stalled: the run ends; nothing arriving: the sink sleeps on completion events), whatever -u/--qp-timeout and retries the client asks for." },
};

const size_t rperf_nopts_limits =
	sizeof(rperf_opts_limits) / sizeof(rperf_opts_limits[0]);
