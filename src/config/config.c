/* SPDX-License-Identifier: BSD-2-Clause */
/* The configuration's defaults, and what it makes of a server's limits. */
#include "config/config.h"

#include <string.h>

#include "engine/limits.h"

/* Defaults before the command line is read (see config.h). */
void rperf_cli_config_defaults(struct rperf_cli_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->ib_port = 1;
	cfg->gid_index = -1;
	cfg->rx_depth = 512;
	cfg->qp_timeout = 14;
	cfg->retry_count = 7;
	cfg->tclass = -1;
	cfg->tos = -1;
	cfg->tcp_port = RPERF_DEFAULT_TCP_PORT;
	cfg->connect_timeout_ns = 10 * 1000000000ull;
	cfg->max_conns = 64; /* RPERF_SERVE_DEFAULT_MAX_CONNS */
	cfg->handshake_timeout_ns = 3 * 1000000000ull;
	cfg->cpu = -1;
	cfg->cpu_node = -1;
	cfg->mem_node = -1;
	cfg->vl = -1;
	cfg->iters = 10000;
	cfg->warmup = RPERF_WARMUP_MAX; /* then scaled to -n (parse.c) */
	cfg->repeat = 1;
	cfg->tx_depth = 128;
	cfg->cq_mod = 100;
	cfg->post_list = 1;
	cfg->qps = 1;
	cfg->rate_units = RPERF_RATE_GBPS; /* perftest's default */
	cfg->spin_ns = 200000000ull;
}

void rperf_limits_of(const struct rperf_cli_config *cfg,
		     struct rperf_limits *out)
{
	out->max_memory = cfg->max_memory;
	if (!out->max_memory)
		rperf_limits_auto_memory(NULL, &out->max_memory);
	out->max_qps = cfg->max_qps ? cfg->max_qps : RPERF_LIMITS_MAX_QPS;
	out->stall_ns = cfg->stall_ns ? cfg->stall_ns : RPERF_LIMITS_STALL_NS;
}
