/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * RTT limits, one rule for every command: rperf lat's --max-p50,
 * --max-p999 and --limit_lat, an [lsg] section's max_p50 and max_p999
 * (rperf run). A limit is crossed when it is set and the RTT percentile
 * of a run that took samples is above it (equal passes).
 */
#ifndef RPERF_REPORT_LIMIT_H
#define RPERF_REPORT_LIMIT_H

#include <stdbool.h>
#include <stdint.h>

struct rperf_hist;

/* @limit_ns 0: no limit. True when crossed; *value (may be NULL) is the
 * percentile @p of @rtt in ns (0 when @rtt is NULL or empty). */
bool rperf_rtt_over(const struct rperf_hist *rtt, double p, uint64_t limit_ns,
		    int64_t *value);

#endif
