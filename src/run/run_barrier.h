/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The start barrier in the report (private to src/run): per agent its
 * clock offset, the offset's uncertainty (half the kept exchange's RTT)
 * and, when the agent reported when its sources actually started, the
 * start skew: that instant on the controller's clock (through the offset)
 * minus the intended one. The skew holds the agent's wake-up latency and
 * is known to within the uncertainty.
 */
#ifndef RPERF_RUN_BARRIER_H
#define RPERF_RUN_BARRIER_H

#include <stdio.h>

#include <jansson.h>

#include "run/run.h"

struct run_barrier_stats {
	size_t nsynced; /* agents with a measured offset */
	size_t nskew; /* ... that reported their actual start */
	uint64_t max_abs_skew_ns, p99_abs_skew_ns;
	int64_t min_skew_ns, max_skew_ns;
	uint64_t max_uncertainty_ns, p99_uncertainty_ns;
};

/* The skew of host @h: false when unknown. */
bool run_barrier_skew(const struct rperf_run_host *h, int64_t *skew_ns);
/* Over every host; 0 or ENOMEM. */
int run_barrier_stats(const struct rperf_run_results *r,
		      struct run_barrier_stats *s);
/* "Start barrier: ..." (nothing when no agent was synced); a line per
 * agent when there are at most RUN_BARRIER_TEXT_AGENTS. */
#define RUN_BARRIER_TEXT_AGENTS 16
void run_barrier_text(FILE *f, const struct rperf_run_results *r);
/* "start" [{host, offset_ns, rtt_ns, uncertainty_ns, skew_ns}] and
 * "start_skew" {agents, synced_agents, max_abs_ns, p99_abs_ns, min_ns,
 * max_ns, max_uncertainty_ns, p99_uncertainty_ns} (nulls when unknown)
 * into @cp; 0 or -1. */
int run_barrier_json(json_t *cp, const struct rperf_run_results *r);

#endif
