/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Keys, group "job": the keys only job files have (see options.h; a key
 * with a command-line spelling too is in its option's entry, .job). .rank
 * orders every job-file key in the lists of messages: [global] 10-90,
 * [host] 100-190, generators 200-490, [mesh]'s own 500- (room between
 * neighbours for a new key).
 */
#include "job/options_priv.h"

#include "engine/spec_traffic.h"

#define NS_H (3600 * NS_S)
#define MAX_TIME RPERF_SPEC_MAX_TIME_NS
#define MAX_BYTES (1ll << 50) /* bytes = ... */
#define MAX_MESSAGES 1000000000000000ll /* messages = ... */
#define TIME RPERF_OT_TIME

#define KEY(job_, help_)                   \
	{                                  \
		.job = job_, .help = help_ \
	}

const struct rperf_opt rperf_opts_job[] = {
	/* [global] (duration and timeout: the options' entries) */
	KEY(JOB_OWN("warmup", GL, 20, JGLOBAL(warmup_ns), TIME, 0, NS_H),
	    "BSGs run, LSG samples are not counted (default 1s)."),
	KEY(JOB_ENUM("sink_completion", GL, 40, JGLOBAL(sink_completion),
		     rperf_completion_names, 0),
	    "How destination ends wait: event (the default) or poll."),
	/* [host] */
	KEY(JOB_SPECIAL("control", HO, 100),
	    "ADDR[:PORT] where the host's agent listens (required)."),
	/* generators */
	KEY(JOB_SPECIAL("from", G, 200),
	    "Comma list of hosts: one instance per host."),
	KEY(JOB_SPECIAL("count", G, 210), "Use the first N hosts of from."),
	KEY(JOB_SPECIAL("to", G, 220),
	    "The destination host; * for all-to-all."),
	KEY(JOB_OWN("start", G, 240, JSPEC(start_ns), TIME, 0, MAX_TIME),
	    "Offset after the common start."),
	KEY(JOB_OWN("rate", G, 370, JSPEC(rate_bps), RPERF_OT_RATE, 0,
		    (int64_t)RPERF_SPEC_MAX_RATE_BPS),
	    "Offered bit/s (decimal prefixes); 0: unlimited."),
	KEY(JOB_NODE("cpu_node", G, 380, JSPEC(cpu_node)),
	    "NUMA node of the sources (auto: the from host's)."),
	KEY(JOB_NODE("mem_node", G, 390, JSPEC(mem_node)),
	    "NUMA node of the sources' buffers (auto: the host's)."),
	KEY(JOB_OWN("on", BS, 410, JSPEC(on_ns), TIME, 1, MAX_TIME),
	    "On/off source: posts for this long, then pauses for off."),
	KEY(JOB_OWN("off", BS, 420, JSPEC(off_ns), TIME, 1, MAX_TIME),
	    "On/off source: the pause after each on period."),
	KEY(JOB_OWN("stop", BS, 440, JSPEC(stop_ns), TIME, 1, MAX_TIME),
	    "Offset after the common start at which posting stops."),
	KEY(JOB_OWN("bytes", BS, 450, JSPEC(max_bytes), RPERF_OT_SIZE, 1,
		    MAX_BYTES),
	    "Payload bytes in all, split evenly over the QPs."),
	KEY(JOB_OWN("messages", BS, 460, JSPEC(max_messages), RPERF_OT_COUNT, 1,
		    MAX_MESSAGES),
	    "Messages in all."),
	KEY(JOB_OWN("burst", IN, 470, JSPEC(burst_bytes), RPERF_OT_SIZE, 1,
		    (int64_t)RPERF_SPEC_MAX_BURST),
	    "Bytes each sender posts per burst."),
	KEY(JOB_OWN("period", IN, 480, JSPEC(period_ns), TIME,
		    RPERF_SPEC_MIN_PERIOD_NS, MAX_TIME),
	    "One burst per period (at least 1 ms)."),
	KEY(JOB_OWN("jitter", IN, 490, JSPEC(jitter_ns), TIME, 0, MAX_TIME),
	    "Each burst starts a uniform 0..jitter later (below period)."),
	/* [mesh]'s own (job_mesh.c); it takes the LSG keys too */
	KEY(JOB_SPECIAL("hosts", ME, 500),
	    "Comma list of hosts, or all (the default)."),
	KEY(JOB_SPECIAL("schedule", ME, 510),
	    "Pair schedule: rounds or concurrent."),
	KEY(JOB_SPECIAL("duration", ME, 520),
	    "Per pair (default: [global]'s)."),
	KEY(JOB_SPECIAL("warmup", ME, 530), "Per pair (default: [global]'s)."),
	KEY(JOB_SPECIAL("out_above", ME, 540), "The smallest added RTT named."),
	KEY(JOB_SPECIAL("statistic", ME, 550), "The cells' p50 or p10."),
	KEY(JOB_SPECIAL("parallel", ME, 560),
	    "At most this many pairs at once."),
	KEY(JOB_SPECIAL("samples", ME, 570),
	    "Probes per pair instead of duration."),
	KEY(JOB_SPECIAL("probe_schedule", ME, 580),
	    "The LSG probe schedule: closed, fixed:R or poisson:R."),
};

const size_t rperf_nopts_job =
	sizeof(rperf_opts_job) / sizeof(rperf_opts_job[0]);
