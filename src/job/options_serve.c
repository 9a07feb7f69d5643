/* SPDX-License-Identifier: BSD-2-Clause */
/* Options, group "servers" (src/serve: the event loop of every server). */
#include "job/options_priv.h"

const struct rperf_opt rperf_opts_serve[] = {
	{ .name = "max-conns",
	  .type = RPERF_OT_COUNT,
	  .cmds = T | A,
	  .off = OFF(max_conns),
	  .min = 1,
	  .max = 4096, /* RPERF_SERVE_MAX_CONNS_LIMIT */
	  .metavar = "N",
	  .dflt = "64",
	  .scope = RPERF_SCOPE_HOST,
	  .help = "Server: connections held open before their HELLO (idle, slow or refused ones); one more is refused at once in words." },
	{ .name = "handshake-timeout",
	  .type = RPERF_OT_TIME,
	  .cmds = T | A,
	  .off = OFF(handshake_timeout_ns),
	  .min = 10 * NS_MS,
	  .max = 600 * NS_S,
	  .unit = NS_S,
	  .metavar = "TIME",
	  .dflt = "3s",
	  .scope = RPERF_SCOPE_HOST,
	  .help = "Server: how long a new connection may take to send its whole HELLO before it is closed (a bare number is seconds)." },
	{ .name = "one-off",
	  .type = RPERF_OT_FLAG,
	  .cmds = A,
	  .off = OFF(one_off),
	  .scope = RPERF_SCOPE_HOST,
	  .help = "Agent: serve one controller (its experiment ended either way), then exit 0, as iperf3 -1; an agent started for one run leaves nothing listening." },
};

const size_t rperf_nopts_serve =
	sizeof(rperf_opts_serve) / sizeof(rperf_opts_serve[0]);
