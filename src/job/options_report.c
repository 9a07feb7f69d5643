/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Options, group "report": perftest's output habits (-H, -U, --cpu_util,
 * -w/--limit_bw, --limit_lat) with perftest's letters and meanings, where
 * rperf has the concept, then rperf's layout (--wide, --half-rtt) and
 * --quiet (see options.h for the order).
 */
#include "job/options_priv.h"

const struct rperf_opt rperf_opts_report[] = {
	/* perftest's report options */
	{ .name = "report-histogram",
	  .letter = 'H',
	  .type = RPERF_OT_FLAG,
	  .cmds = L,
	  .off = OFF(report_histogram),
	  .scope = RPERF_SCOPE_CLIENT,
	  .help = "perftest's -H: print the RTT CDF after the table (the CSV that --hist FILE writes to a file)." },
	{ .name = "report-unsorted",
	  .letter = 'U',
	  .type = RPERF_OT_FLAG,
	  .cmds = L,
	  .off = OFF(report_unsorted),
	  .scope = RPERF_SCOPE_CLIENT,
	  .help = "perftest's -U: print every sample in the order measured after the table (the CSV that --raw FILE writes to a file)." },
	{ .name = "cpu_util",
	  .type = RPERF_OT_FLAG,
	  .cmds = T,
	  .off = OFF(cpu_util),
	  .scope = RPERF_SCOPE_CLIENT,
	  .help = "Show CPU_Util[%] where perftest does (lat: 10th column, bw: 6th): the measuring process's CPU time over the run's wall time, % of one CPU (perftest shows the whole host's)." },
	{ .name = "limit_bw",
	  .letter = 'w',
	  .type = RPERF_OT_RATE,
	  .cmds = B,
	  .off = OFF(limit_bw),
	  .min = 0,
	  .max = 1e12,
	  .metavar = "BW",
	  .scope = RPERF_SCOPE_CLIENT,
	  .help = "Exit 1 when a size's BW average is below BW, in the report's units (MB/s of 2^20 B, or Gb/s with --report_gbits), as perftest's -w." },
	{ .name = "limit_lat",
	  .type = RPERF_OT_TIME,
	  .cmds = L,
	  .off = OFF(limit_lat_ns),
	  .min = 1,
	  .max = 3600 * NS_S,
	  .unit = NS_US,
	  .metavar = "TIME",
	  .scope = RPERF_SCOPE_CLIENT,
	  .help = "Exit 1 when a size's t_typical (RTT p50) exceeds TIME (a bare number is microseconds; the same check as --max-p50)." },
	/* rperf's table layout and progress line */
	{ .name = "wide",
	  .type = RPERF_OT_FLAG,
	  .cmds = T,
	  .off = OFF(wide),
	  .scope = RPERF_SCOPE_CLIENT,
	  .help = "Print every column of the table (lat: other percentiles, wire and loopback times, perftest's full column names; bw: seconds, line%, wire efficiency); the default table fits 120 columns, perftest's columns first either way." },
	{ .name = "half-rtt",
	  .type = RPERF_OT_FLAG,
	  .cmds = L,
	  .off = OFF(half_rtt),
	  .scope = RPERF_SCOPE_CLIENT,
	  .help = "Show perftest's figure, half the round trip (RTT/2), in the table's time columns (the figure column says RTT/2); JSON, CSV and the thresholds keep the RTT." },
	{ .name = "quiet",
	  .type = RPERF_OT_FLAG,
	  .cmds = T | R,
	  .off = OFF(quiet),
	  .scope = RPERF_SCOPE_HOST,
	  .help = "No progress line (what runs, k of N, elapsed, time left), which is otherwise shown on stderr when it is a terminal." },
};

const size_t rperf_nopts_report =
	sizeof(rperf_opts_report) / sizeof(rperf_opts_report[0]);
