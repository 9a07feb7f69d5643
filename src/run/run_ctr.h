/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Counters beside the latency in rperf run's report: each
 * interval of a generator gets the counters of its two hosts and of every
 * switch ("counters": {"HOST:DEV/PORT/NAME": delta, "SWITCH:NAME": ...}),
 * the row of each series nearest the interval's start; the summary ranks
 * the counters by Spearman's rank correlation with an LSG's interval p99.
 */
#ifndef RPERF_RUN_CTR_H
#define RPERF_RUN_CTR_H

#include <stdio.h>

#include <jansson.h>

#include "run/run.h"

#define RUN_TAIL_TOP 10 /* counters named per LSG */
#define RUN_TAIL_MIN 5 /* intervals with samples and a value, at least */

struct run_tail_item {
	char name[RPERF_NAME_LEN + RPERF_CTR_NAME + 1];
	double rho; /* Spearman with the interval p99 */
	double high_mean, low_mean; /* in intervals with p99 >= the median,
				       and below it */
	size_t n; /* intervals paired */
};

/* The top counters of LSG @in, rho descending (NaN ones left out). */
size_t run_tail_rank(const struct rperf_run_results *r,
		     const struct rperf_run_inst *in, struct run_tail_item *top,
		     size_t max);

/* "counters" into each of root's generators[].intervals[] and the summary
 * root.counters (nothing when no series exists): 0 or -1 (memory). */
int run_ctr_json(json_t *root, const struct rperf_run_results *r);
/* The text report's lines about counters (none without series). */
void run_ctr_text(FILE *f, const struct rperf_run_results *r);

#endif
