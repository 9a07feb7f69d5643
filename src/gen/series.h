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

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rperf/report.h> /* struct rperf_lsg_interval */

struct rperf_hist;

struct rperf_lsg_series {
	struct rperf_lsg_interval *iv;
	size_t n, cap;
};

/* A BSG's interval: what completed in it (the source's view: sent), or
 * what arrived in it (the sink's view: received, rperf_rx_series). */
struct rperf_bsg_interval {
	uint64_t start_ns, dur_ns;
	uint64_t messages, bytes;
};

struct rperf_bsg_series {
	struct rperf_bsg_interval *iv;
	size_t n, cap;
};

#define RPERF_SERIES_MAX 100000 /* intervals kept: a day at 1 s */

/* The receive side's series: arrivals counted into a grid of interval_ns
 * (set with at_ns before the first arrival; 0: none kept); an interval
 * without arrivals is kept (0). Rows start at at_ns + k x interval_ns
 * (at_ns: the grid's start from the series' origin); each lasts
 * interval_ns but the last, which ends where counting ended. */
struct rperf_rx_series {
	struct rperf_bsg_series s;
	uint64_t interval_ns, at_ns;
	uint64_t k; /* the open interval */
	uint64_t messages, bytes; /* counted in it */
	uint64_t last_ns; /* the last arrival, from the grid's start */
	bool open, full; /* an interval is open; RPERF_SERIES_MAX reached */
};

/* Count @messages and @bytes that arrived @t_ns after the grid's start:
 * the intervals before t's are closed (empty ones too). 0 or ENOMEM; past
 * RPERF_SERIES_MAX the rest is not kept (x->full) and 0 is returned. */
int rperf_rx_series_add(struct rperf_rx_series *x, uint64_t t_ns,
			uint64_t messages, uint64_t bytes);
/* Counting ended @end_ns after the grid's start (not before the last
 * arrival): the intervals up to it are closed, the last one ending there.
 * Nothing without arrivals. 0 or ENOMEM. */
int rperf_rx_series_end(struct rperf_rx_series *x, uint64_t end_ns);

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
