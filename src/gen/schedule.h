/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Probe schedules of the LSG (rperf lat --schedule, job key "schedule"):
 * when each sample is due. The spellings are a contract:
 *
 *   closed          the next sample when the previous one has completed
 *                   (the paper's method; coordinated omission: a closed
 *                   loop takes many samples while the path is fast and
 *                   few while it is slow)
 *   fixed:RATE      one sample every 1/RATE s
 *   poisson:RATE    exponential gaps of mean 1/RATE s (Poisson arrivals see
 *                   time averages: the unbiased estimator of the path's
 *                   time-average latency and of its share of slow time)
 *
 * RATE is in samples/s (a decimal number, k/M suffixes: "poisson:2k").
 * The gaps come from a seeded generator (xorshift of a splitmix64 seed), so
 * a run is reproducible from its seed.
 */
#ifndef RPERF_GEN_SCHEDULE_H
#define RPERF_GEN_SCHEDULE_H

#include <stddef.h>
#include <stdint.h>

enum rperf_sched_kind {
	RPERF_SCHED_CLOSED = 0,
	RPERF_SCHED_FIXED,
	RPERF_SCHED_POISSON,
};

#define RPERF_SCHED_MAX_RATE 1e7 /* samples/s */
#define RPERF_SCHED_TEXT 48 /* "poisson:" + a rate, with NUL */

struct rperf_sched {
	int kind; /* enum rperf_sched_kind */
	double rate; /* samples/s; 0 with closed */
};

/* "closed" | "fixed:RATE" | "poisson:RATE": 0, or EINVAL with @why naming
 * the accepted spellings. */
int rperf_sched_parse(const char *s, struct rperf_sched *out, char *why,
		      size_t whylen);
/* The contract spelling of @s ("poisson:500"); "?" when @s is not valid. */
void rperf_sched_format(const struct rperf_sched *s, char *buf, size_t n);
/* A schedule that parse would accept. */
int rperf_sched_valid(const struct rperf_sched *s);

/* The gap generator of an open schedule. */
struct rperf_sched_gen {
	struct rperf_sched s;
	uint64_t rng;
};

void rperf_sched_gen_init(struct rperf_sched_gen *g,
			  const struct rperf_sched *s, uint64_t seed);
/* The next gap, ns (fixed: 1e9/rate; poisson: exponential of that mean). */
double rperf_sched_next_ns(struct rperf_sched_gen *g);

#endif
