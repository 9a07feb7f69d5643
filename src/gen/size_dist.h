/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Message-size distributions of a BSG (job key `size = 64:0.5,4K:0.4,64K:0.1`
 * or `size = @FILE`): up to RPERF_SIZE_DIST_MAX sizes, each with a weight;
 * weights are relative (they need not sum to 1; they are normalized).
 * Sampling is by inverse CDF over the normalized weights with a caller's
 * uniform number, so the generator decides the random source (xorshift,
 * seeded per instance: runs are repeatable). Pure; unit tested.
 */
#ifndef RPERF_GEN_SIZE_DIST_H
#define RPERF_GEN_SIZE_DIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RPERF_SIZE_DIST_MAX 16

struct rperf_size_dist {
	uint32_t n; /* 0: none (the fixed size applies) */
	uint64_t size[RPERF_SIZE_DIST_MAX]; /* bytes, 1..max given to parse */
	double weight[RPERF_SIZE_DIST_MAX]; /* > 0, as given */
	double cdf[RPERF_SIZE_DIST_MAX]; /* cumulative, normalized; last 1 */
};

/*
 * Parse "SIZE:WEIGHT[,SIZE:WEIGHT...]" (sizes as the job file's: 64, 4K,
 * 1M; weights decimal > 0, e.g. 0.5 or 50) or, with @file_text non-NULL
 * (the text of a file), one "SIZE WEIGHT" or "SIZE:WEIGHT" per line, '#'
 * comments and blank lines ignored. Sizes in [1, @max_size], distinct.
 * 0 or EINVAL with a one-line @why naming the item and the fix.
 */
int rperf_size_dist_parse(const char *text, bool file_text, uint64_t max_size,
			  struct rperf_size_dist *out, char *why,
			  size_t whylen);
/* Normalize the weights into cdf (after filling size/weight by hand). */
void rperf_size_dist_finish(struct rperf_size_dist *d);
/* The size whose CDF bucket holds @u in [0, 1). */
uint64_t rperf_size_dist_pick(const struct rperf_size_dist *d, double u);
uint64_t rperf_size_dist_max(const struct rperf_size_dist *d);
double rperf_size_dist_mean(const struct rperf_size_dist *d);

/* A small fast PRNG (xorshift64*): next value, and a uniform in [0, 1). */
uint64_t rperf_xorshift(uint64_t *state);
double rperf_uniform(uint64_t *state);

#endif
