/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What the reports of rperf lat and rperf bw fill and write alike
 * (twohost_report.c): the run's facts and notes in struct rperf_report, the
 * --out_json and --prom files after the text.
 */
#ifndef RPERF_TWOHOST_REPORT_H
#define RPERF_TWOHOST_REPORT_H

#include <stddef.h>

#include <rperf/report.h>

#include "twohost/twohost.h"

/* What a filled report points into. */
struct rperf_twohost_view {
	const char *warn[RPERF_MAX_WARNINGS];
	struct rperf_retrans rt;
	char rt_ev[384];
};

/* @rep's fields common to both commands from @c, after the caller set its
 * own (the retransmission view reads the results): command, config,
 * platform, placement, preflight, CPU and wide columns, warnings, partial
 * and error, retransmissions. */
struct rperf_kv;
void rperf_twohost_report_fill(const struct rperf_twohost_client *c,
			       const char *command,
			       const struct rperf_kv *config, size_t nconfig,
			       struct rperf_twohost_view *v,
			       struct rperf_report *rep);

/* --out_json (rperf.json unless named) through @write_json, then --prom;
 * a file that cannot be written is said on c->say. 0 or the first errno. */
int rperf_twohost_report_files(const struct rperf_twohost_client *c,
			       const struct rperf_report *rep,
			       int (*write_json)(const char *path,
						 const struct rperf_report *));

#endif
