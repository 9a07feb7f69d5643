/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Options, group "perftest": perftest's flags with perftest's meanings where
 * rperf had no option for them (see options.h for the order). Their checks
 * and run-time notes are in parse_perftest.c.
 */
#include "job/options_priv.h"

/* Indexes: 0 is the only one rperf runs (parse_perftest.c refuses others). */
static const struct rperf_name conn_types[] = { { "RC", NULL }, { "UC", NULL },
						{ "UD", NULL }, { "XRC", NULL },
						{ "DC", NULL }, { "SRD", NULL },
						{ NULL, NULL } };
static const struct rperf_name limit_types[] = { { "SW", NULL },
						 { "HW", NULL },
						 { "PP", NULL },
						 { NULL, NULL } };

const struct rperf_opt rperf_opts_perftest[] = {
	{ .name = "CPU-freq",
	  .letter = 'F',
	  .type = RPERF_OT_FLAG,
	  .cmds = T,
	  .off = OFF(cpu_freq_f),
	  .scope = RPERF_SCOPE_HOST,
	  .help = "perftest: do not fail when the CPU's frequency looks wrong. Accepted and changes nothing: rperf never reads the CPU's MHz (it calibrates its clock against CLOCK_MONOTONIC_RAW; see 'rperf info')." },
	{ .name = "all-max",
	  .type = RPERF_OT_SIZE,
	  .cmds = T,
	  .off = OFF(all_max),
	  .min = 2,
	  .max = 1ll << 30,
	  .metavar = "SIZE",
	  .dflt = "8M, as perftest's -a",
	  .help = "With -a: the largest size (a slow path, e.g. an emulated lab, cannot move 200 messages of 8 MiB in reasonable time)." },
	{ .name = "connection",
	  .letter = 'c',
	  .type = RPERF_OT_ENUM,
	  .cmds = T,
	  .off = OFF(conn_type),
	  .choices = conn_types,
	  .metavar = "TYPE",
	  .dflt = "RC",
	  .help = "Connection type: RC only (UC, UD, XRC, DC and SRD are refused: every rperf method needs RC's remote ACK or its reliable echo)." },
	{ .name = "source_ip",
	  .letter = 'z',
	  .type = RPERF_OT_STR,
	  .cmds = T,
	  .off = OFF(source_ip),
	  .metavar = "ADDR",
	  .dflt = "the IPv4 address of the device's GID",
	  .scope = RPERF_SCOPE_CLIENT,
	  .help = "With -R: the client's rdma_cm source address (it must belong to the RDMA device, or the traffic may stay inside the host)." },
	{ .name = "rate_limit_type",
	  .type = RPERF_OT_ENUM,
	  .cmds = B,
	  .off = OFF(rate_limit_type),
	  .choices = limit_types,
	  .metavar = "TYPE",
	  .dflt = "SW",
	  .help = "How --rate_limit is enforced: SW (a token bucket in software; HW and PP are refused)." },
	{ .name = "burst_size",
	  .type = RPERF_OT_COUNT,
	  .cmds = B,
	  .min = 1,
	  .max = 16777216,
	  .metavar = "N",
	  .dflt = "the post list (-l)",
	  .job = JOB_AS_CLI("burst_size", BS | IN, 415, JSPEC(burst_size)),
	  .help = "With --rate_limit: messages the client may post back to back (the token bucket's depth)." },
	{ .name = "no_peak-bw",
	  .letter = 'N',
	  .type = RPERF_OT_FLAG,
	  .cmds = B,
	  .off = OFF(no_peak),
	  .scope = RPERF_SCOPE_CLIENT,
	  .help = "perftest: do not compute the peak bandwidth; where the report has a peak figure it shows 0, as perftest's does." },
};

const size_t rperf_nopts_perftest =
	sizeof(rperf_opts_perftest) / sizeof(rperf_opts_perftest[0]);
