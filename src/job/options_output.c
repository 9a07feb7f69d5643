/* SPDX-License-Identifier: BSD-2-Clause */
/* Options, group "output" (see options.h for the order). */
#include "job/options_priv.h"

static const struct rperf_name clocks[] = { { "auto", NULL },
					    { "tsc", NULL },
					    { "arm", NULL },
					    { "posix", NULL },
					    { NULL, NULL } };

const struct rperf_opt rperf_opts_output[] = {
	/* clock and output */
	{ .name = "clock",
	  .type = RPERF_OT_ENUM,
	  .cmds = T | A | I,
	  .off = OFF(clock),
	  .choices = clocks,
	  .metavar = "SRC",
	  .dflt = "auto",
	  .scope = RPERF_SCOPE_HOST,
	  .help = "Force a clock source: tsc, arm or posix (with a warning)." },
	{ .name = "spin",
	  .type = RPERF_OT_TIME,
	  .cmds = I,
	  .off = OFF(spin_ns),
	  .min = 1000000,
	  .max = 60 * NS_S,
	  .unit = 1000000,
	  .metavar = "TIME",
	  .dflt = "200ms",
	  .help = "How long the clock self-test spins looking for gaps (a bare number is ms)." },
	{ .name = "json",
	  .type = RPERF_OT_FLAG,
	  .cmds = I,
	  .off = OFF(json),
	  .help = "Print JSON instead of text." },
	{ .name = "out_json",
	  .type = RPERF_OT_FLAG,
	  .cmds = T | R | C,
	  .off = OFF(out_json),
	  .scope = RPERF_SCOPE_CLIENT,
	  .help = "Write the JSON report (to --out_json_file, default rperf.json)." },
	{ .name = "out_json_file",
	  .type = RPERF_OT_STR,
	  .cmds = T | R | C,
	  .off = OFF(out_json_file),
	  .metavar = "FILE",
	  .implies = "out_json",
	  .scope = RPERF_SCOPE_CLIENT,
	  .help = "Write the JSON report to FILE atomically (implies --out_json)." },
};

const size_t rperf_nopts_output =
	sizeof(rperf_opts_output) / sizeof(rperf_opts_output[0]);
