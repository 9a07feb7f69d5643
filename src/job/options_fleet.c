/* SPDX-License-Identifier: BSD-2-Clause */
/* Options, group "fleet": offline job checks and the monitoring export
 * (see options.h for the order). */
#include "job/options_priv.h"

const struct rperf_opt rperf_opts_fleet[] = {
	{ .name = "check",
	  .type = RPERF_OT_FLAG,
	  .cmds = R,
	  .off = OFF(run_check),
	  .help = "Parse, resolve and plan the job (with --hosts-map, --set, --sweep) without contacting any agent, print the plan (instances per host, sweep points, expected duration) and exit 0, or 2 with FILE:LINE of the first error." },
	{ .name = "prom",
	  .type = RPERF_OT_STR,
	  .cmds = L | B | R,
	  .off = OFF(prom_file),
	  .metavar = "FILE",
	  .scope = RPERF_SCOPE_CLIENT,
	  .help = "Also write the results in the Prometheus/OpenMetrics text format to FILE, atomically (a temporary file renamed over it: node_exporter's textfile collector convention): RTT quantiles in seconds, Gb/s, sample and error counts, labelled by job, generator, class, host and peer." },
	{ .name = "every",
	  .type = RPERF_OT_TIME,
	  .cmds = R,
	  .off = OFF(every_ns),
	  .min = 10 * NS_MS,
	  .max = 7 * 24 * 3600 * NS_S,
	  .unit = NS_S,
	  .metavar = "TIME",
	  .help = "Continuous mode: run the job (or the mesh) again every TIME, start to start (at once when a run took longer), until SIGINT/SIGTERM, which stops between runs or cuts the current one short; the --prom file is replaced after each run, each run's JSON goes to its own numbered file (OUT.1.json, OUT.2.json, ... for --out_json_file OUT.json); exit status of the last run the signal did not cut short." },
};

const size_t rperf_nopts_fleet =
	sizeof(rperf_opts_fleet) / sizeof(rperf_opts_fleet[0]);
