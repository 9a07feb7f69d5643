/* SPDX-License-Identifier: BSD-2-Clause */
#include "cli/sched_check.h"

#include <errno.h>
#include <stdio.h>

int rperf_cli_sched_check(struct rperf_cmdline *cfg, char *err, size_t errlen)
{
	char why[256];

	if (!cfg->schedule_text)
		return 0;
	if (rperf_sched_parse(cfg->schedule_text, &cfg->spec.schedule, why,
			      sizeof(why))) {
		snprintf(err, errlen, "--schedule: %s", why);
		return EINVAL;
	}
	if (cfg->spec.schedule.kind == RPERF_SCHED_CLOSED)
		return 0;
	if (cfg->rate > 0 || cfg->spec.latency_gap_ns) {
		snprintf(
			err, errlen,
			"--schedule: %s given with --rate or --latency_gap; accepted: one way of pacing",
			cfg->schedule_text);
		return EINVAL;
	}
	if (cfg->spec.test.method != RPERF_METHOD_RPERF ||
	    cfg->spec.pair_order == RPERF_PAIR_SEQUENTIAL) {
		snprintf(
			err, errlen,
			"--schedule: %s takes --method rperf and a pair order other than sequential; accepted: --schedule closed with those",
			cfg->schedule_text);
		return EINVAL;
	}
	return 0;
}
