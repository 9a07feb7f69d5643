/* SPDX-License-Identifier: BSD-2-Clause */
/* Options, group "verbs": perftest's other tests (see options.h for the
 * order); --verb itself is in the bw group. */
#include "job/options_priv.h"

const struct rperf_opt rperf_opts_verbs[] = {
	{ .name = "atomic_type",
	  .letter = 'A',
	  .type = RPERF_OT_ENUM,
	  .cmds = T,
	  .choices = rperf_atomic_names,
	  .metavar = "OP",
	  .dflt = "FETCH_AND_ADD",
	  .job = JOB_AS_CLI("atomic_op", LS | BS | IN, 322,
			    JSPEC(test.atomic_op)),
	  .help = "--verb atomic: FETCH_AND_ADD (adds 1) or CMP_AND_SWAP, 8 B each (perftest's -A)." },
	{ .name = "reversed",
	  .type = RPERF_OT_FLAG,
	  .cmds = B,
	  .off = OFF(reversed),
	  .help = "The server sends, the client receives (perftest's --reversed; not with -b, read or atomic)." },
	{ .name = "report-both",
	  .type = RPERF_OT_FLAG,
	  .cmds = B,
	  .off = OFF(report_both),
	  .scope = RPERF_SCOPE_CLIENT,
	  .help = "With -b: the text table reports each direction (TX client -> server, RX server -> client) instead of their sum." },
};

const size_t rperf_nopts_verbs =
	sizeof(rperf_opts_verbs) / sizeof(rperf_opts_verbs[0]);
