// SPDX-License-Identifier: BSD-2-Clause
/*
 * Shared fixture and helpers of the histogram unit tests (test_hist.c,
 * test_hist_serial.c): the percentile list, a fixed-seed PRNG, the sample
 * distributions, a histogram filled from one of them, and a deep equality
 * check of two histograms.
 *
 * Every function is static inline so that a test program which does not
 * use one of them does not trip -Wunused-function under -Werror.
 */
#ifndef RPERF_TESTS_UNIT_HIST_FIXTURE_H
#define RPERF_TESTS_UNIT_HIST_FIXTURE_H

#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "hist/hist_internal.h"
#include "rperf/hist.h"

static const double pcts[] = { 0,    0.001, 1,	  5,	 10,	 25,
			       33.3, 50,    66.7, 75,	 90,	 95,
			       99,   99.5,  99.9, 99.99, 99.999, 100 };
#define NPCTS (sizeof(pcts) / sizeof(pcts[0]))

/* splitmix64: fixed-seed PRNG */
static inline uint64_t rng_next(uint64_t *s)
{
	uint64_t z = (*s += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/* uniform in (0, 1) */
static inline double rng_unit(uint64_t *s)
{
	return ((double)(rng_next(s) >> 11) + 0.5) * 0x1.0p-53;
}

static inline double rng_normal(uint64_t *s)
{
	double u1 = rng_unit(s), u2 = rng_unit(s);

	return sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
}

enum dist { UNIFORM, BIMODAL, PARETO, LOGNORMAL, CONSTANT, NEGATIVE, WIDE };

static inline int64_t sample(enum dist d, uint64_t *s)
{
	switch (d) {
	case UNIFORM:
		return 1000 + (int64_t)(rng_next(s) % 999000);
	case BIMODAL:
		if (rng_next(s) & 1)
			return llround(500 + 20 * rng_normal(s));
		return llround(5000 + 200 * rng_normal(s));
	case PARETO:
		return llround(300.0 / pow(rng_unit(s), 1.0 / 1.5));
	case LOGNORMAL:
		return llround(exp(7.0 + 1.5 * rng_normal(s)));
	case CONSTANT:
		return 4242;
	case NEGATIVE:
		return llround(50 + 300 * rng_normal(s));
	case WIDE:
	default:
		return (int64_t)rng_next(s);
	}
}

/* Same buckets, counts and aggregates (iteration, percentiles, sums). */
static inline void assert_same(const struct rperf_hist *a,
			       const struct rperf_hist *b)
{
	struct rperf_hist_iter ia, ib;
	int64_t pa[NPCTS], pb[NPCTS];

	assert_int_equal(rperf_hist_count(a), rperf_hist_count(b));
	assert_int_equal(rperf_hist_min(a), rperf_hist_min(b));
	assert_int_equal(rperf_hist_max(a), rperf_hist_max(b));
	assert_true(rperf_hist_sum(a) == rperf_hist_sum(b));
	assert_true(rperf_hist_mean(a) == rperf_hist_mean(b));
	assert_true(rperf_hist_stdev(a) == rperf_hist_stdev(b));
	assert_int_equal(rperf_hist_count_negative(a),
			 rperf_hist_count_negative(b));
	assert_int_equal(rperf_hist_count_nonpositive(a),
			 rperf_hist_count_nonpositive(b));
	rperf_hist_iter_init(&ia, a);
	rperf_hist_iter_init(&ib, b);
	while (rperf_hist_next(&ia)) {
		assert_true(rperf_hist_next(&ib));
		assert_int_equal(ia.lo, ib.lo);
		assert_int_equal(ia.hi, ib.hi);
		assert_int_equal(ia.value, ib.value);
		assert_int_equal(ia.count, ib.count);
		assert_int_equal(ia.cumulative, ib.cumulative);
	}
	assert_false(rperf_hist_next(&ib));
	rperf_hist_percentiles(a, pcts, NPCTS, pa);
	rperf_hist_percentiles(b, pcts, NPCTS, pb);
	assert_memory_equal(pa, pb, sizeof(pa));
}

/* A default-bits histogram of n samples of d from seed. */
static inline struct rperf_hist *make(enum dist d, size_t n, uint64_t seed)
{
	struct rperf_hist *h;
	size_t i;

	assert_int_equal(rperf_hist_create(RPERF_HIST_DEFAULT_BITS, &h), 0);
	for (i = 0; i < n; i++)
		rperf_hist_record(h, sample(d, &seed));
	return h;
}

#endif /* RPERF_TESTS_UNIT_HIST_FIXTURE_H */
