/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Keys, group "job": the keys only job files have (see options.h; the keys
 * with a command-line spelling too are in their option's entry, .job).
 * .rank orders every job-file key in the lists of messages: [global] 1-9,
 * [host] 10-19, generators 20-49, [mesh]'s own 50-.
 */
#include "config/options_priv.h"

#include "engine/spec_traffic.h"

#define NS_H (3600 * NS_S)
#define MAX_BYTES (1ll << 50) /* bytes = ... */
#define MAX_MESSAGES 1000000000000000ll /* messages = ... */

/* A time of a generator section: start, on, off, stop, jitter. */
#define SPEC_TIME(n, sects_, rank_, m, lo, help_)         \
	{                                                 \
		.job = { .name = n,                       \
			 .sects = sects_,                 \
			 .rank = rank_,                   \
			 JSPEC(m),                        \
			 .type = RPERF_OT_TIME,           \
			 .min = lo,                       \
			 .max = RPERF_SPEC_MAX_TIME_NS }, \
		.help = help_                             \
	}
/* A key the job parser handles itself (job.c, job_mesh.c). */
#define SPECIAL(n, sects_, rank_, help_)             \
	{                                            \
		.job = { .name = n,                  \
			 .sects = sects_,            \
			 .rank = rank_,              \
			 .type = RPERF_OT_SPECIAL }, \
		.help = help_                        \
	}

const struct rperf_opt rperf_opts_job[] = {
	/* [global] (duration and timeout: the options' entries) */
	{ .job = { .name = "warmup",
		   .sects = GL,
		   .rank = 2,
		   JGLOBAL(warmup_ns),
		   .type = RPERF_OT_TIME,
		   .min = 0,
		   .max = NS_H },
	  .help = "BSGs run, LSG samples are not counted (default 1s)." },
	{ .job = { .name = "sink_completion",
		   .sects = GL,
		   .rank = 4,
		   JGLOBAL(sink_completion),
		   .type = RPERF_OT_ENUM,
		   .choices = rperf_completion_names },
	  .help = "How destination ends wait: event (the default) or poll." },
	/* [host] */
	SPECIAL("control", HO, 10,
		"ADDR[:PORT] where the host's agent listens (required)."),
	/* generators */
	SPECIAL("from", G, 20, "Comma list of hosts: one instance per host."),
	SPECIAL("count", G, 21, "Use the first N hosts of from."),
	SPECIAL("to", G, 22, "The destination host; * for all-to-all."),
	SPEC_TIME("start", G, 24, start_ns, 0,
		  "Offset after the common start."),
	{ .job = { .name = "rate",
		   .sects = G,
		   .rank = 37,
		   JSPEC(rate_bps),
		   .type = RPERF_OT_RATE,
		   .min = 0,
		   .max = (int64_t)RPERF_SPEC_MAX_RATE_BPS },
	  .help = "Offered bit/s (decimal prefixes); 0: unlimited." },
	{ .job = { .name = "cpu_node",
		   .sects = G,
		   .rank = 38,
		   JSPEC(cpu_node),
		   JOB_NODE },
	  .help = "NUMA node of the sources (auto: the from host's)." },
	{ .job = { .name = "mem_node",
		   .sects = G,
		   .rank = 39,
		   JSPEC(mem_node),
		   JOB_NODE },
	  .help = "NUMA node of the sources' buffers (auto: the host's)." },
	SPEC_TIME("on", BS, 41, on_ns, 1,
		  "On/off source: posts for this long, then pauses for off."),
	SPEC_TIME("off", BS, 42, off_ns, 1,
		  "On/off source: the pause after each on period."),
	SPEC_TIME("stop", BS, 44, stop_ns, 1,
		  "Offset after the common start at which posting stops."),
	{ .job = { .name = "bytes",
		   .sects = BS,
		   .rank = 45,
		   JSPEC(max_bytes),
		   .type = RPERF_OT_SIZE,
		   .min = 1,
		   .max = MAX_BYTES },
	  .help = "Payload bytes in all, split evenly over the QPs." },
	{ .job = { .name = "messages",
		   .sects = BS,
		   .rank = 46,
		   JSPEC(max_messages),
		   .type = RPERF_OT_COUNT,
		   .min = 1,
		   .max = MAX_MESSAGES },
	  .help = "Messages in all." },
	{ .job = { .name = "burst",
		   .sects = IN,
		   .rank = 47,
		   JSPEC(burst_bytes),
		   .type = RPERF_OT_SIZE,
		   .min = 1,
		   .max = (int64_t)RPERF_SPEC_MAX_BURST },
	  .help = "Bytes each sender posts per burst." },
	SPEC_TIME("period", IN, 48, period_ns, RPERF_SPEC_MIN_PERIOD_NS,
		  "One burst per period (at least 1 ms)."),
	SPEC_TIME("jitter", IN, 49, jitter_ns, 0,
		  "Each burst starts a uniform 0..jitter later (below period)."),
	/* [mesh]'s own (job_mesh.c); it takes the LSG keys too */
	SPECIAL("hosts", ME, 50, "Comma list of hosts, or all (the default)."),
	SPECIAL("schedule", ME, 51, "Pair schedule: rounds or concurrent."),
	SPECIAL("duration", ME, 52, "Per pair (default: [global]'s)."),
	SPECIAL("warmup", ME, 53, "Per pair (default: [global]'s)."),
	SPECIAL("out_above", ME, 54, "The smallest added RTT named."),
	SPECIAL("statistic", ME, 55, "The cells' p50 or p10."),
	SPECIAL("parallel", ME, 56, "At most this many pairs at once."),
	SPECIAL("samples", ME, 57, "Probes per pair instead of duration."),
	SPECIAL("probe_schedule", ME, 58,
		"The LSG probe schedule: closed, fixed:R or poisson:R."),
};

const size_t rperf_nopts_job =
	sizeof(rperf_opts_job) / sizeof(rperf_opts_job[0]);
