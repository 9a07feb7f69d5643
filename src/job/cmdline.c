/* SPDX-License-Identifier: BSD-2-Clause */
/* The command line's defaults, and what it makes of a server's limits. */
#include "job/cmdline.h"

#include <string.h>

#include "engine/limits.h"

/* Defaults before the command line is read (see cmdline.h). */
void rperf_cmdline_defaults(struct rperf_cmdline *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	/* a job file's defaults, then the command line's own */
	rperf_gen_spec_defaults(&cfg->spec, RPERF_GEN_LSG);
	rperf_host_sel_defaults(&cfg->sel);
	cfg->spec.test.rx_depth = 512;
	cfg->spec.test.iters = 10000;
	cfg->spec.interval_ns = 0; /* no interval reports */
	cfg->spec.sink_completion = RPERF_COMPLETION_POLL; /* as -e: no */
	cfg->tos = -1;
	cfg->tcp_port = RPERF_DEFAULT_TCP_PORT;
	cfg->connect_timeout_ns = 10 * 1000000000ull;
	cfg->max_conns = 64; /* RPERF_SERVE_DEFAULT_MAX_CONNS */
	cfg->handshake_timeout_ns = 3 * 1000000000ull;
	cfg->vl = -1;
	cfg->repeat = 1;
	cfg->rate_units = RPERF_RATE_GBPS; /* perftest's default */
	cfg->spin_ns = 200000000ull;
}

void rperf_limits_of(const struct rperf_cmdline *cfg, struct rperf_limits *out)
{
	out->max_memory = cfg->max_memory;
	if (!out->max_memory)
		rperf_limits_auto_memory(NULL, &out->max_memory);
	out->max_qps = cfg->max_qps ? cfg->max_qps : RPERF_LIMITS_MAX_QPS;
	out->stall_ns = cfg->stall_ns ? cfg->stall_ns : RPERF_LIMITS_STALL_NS;
}
