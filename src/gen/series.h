/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Per-interval time series of the generators (job key "interval"): an
 * LSG's samples, p50, p99 and max per interval; a BSG's messages and bytes
 * sent and received per interval. Starts are ns from the series' origin
 * (the caller's: rperf run reports them from GO). An interval with no
 * sample is kept (samples 0): slow periods are what a series is for.
 */
#ifndef RPERF_GEN_SERIES_H
#define RPERF_GEN_SERIES_H

#include <stddef.h>
#include <stdint.h>

struct rperf_hist;

struct rperf_lsg_interval {
	uint64_t start_ns;
	uint64_t samples;
	int64_t p50_ns, p99_ns, max_ns; /* 0 without samples */
};

struct rperf_lsg_series {
	struct rperf_lsg_interval *iv;
	size_t n, cap;
};

/* A BSG's interval: what completed in it (the source's view: sent). */
struct rperf_bsg_interval {
	uint64_t start_ns, dur_ns;
	uint64_t messages, bytes;
};

struct rperf_bsg_series {
	struct rperf_bsg_interval *iv;
	size_t n, cap;
};

#define RPERF_SERIES_MAX 100000 /* intervals kept: a day at 1 s */

/* Append the interval starting @start_ns from @h's samples (then reset);
 * 0, or ENOMEM (nothing appended), or E2BIG past RPERF_SERIES_MAX. */
int rperf_lsg_series_push(struct rperf_lsg_series *s, uint64_t start_ns,
			  struct rperf_hist *h);
void rperf_lsg_series_fini(struct rperf_lsg_series *s);
/* Append @v: 0, ENOMEM or E2BIG (nothing appended). */
int rperf_bsg_series_push(struct rperf_bsg_series *s,
			  const struct rperf_bsg_interval *v);
void rperf_bsg_series_fini(struct rperf_bsg_series *s);

#endif
