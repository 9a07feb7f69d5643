// SPDX-License-Identifier: BSD-2-Clause
/*
 * Unit tests of the latency histogram: percentiles against an exact sort,
 * exact aggregates, merge, iteration, edge values (empty and extreme
 * histograms also round-trip through serialization). Serialization proper
 * (round trip, hostile input, fuzz corpus) is in test_hist_serial.c; shared
 * helpers are in hist_fixture.h.
 */
#include "hist_fixture.h"

#define NSAMPLES 1000000

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

static void check_bound(const struct rperf_hist *h, int64_t v, int64_t exact)
{
	long double err = fabsl((long double)v - (long double)exact);
	long double bound = rperf_hist_rel_error(h) * fabsl((long double)exact);

	if (err > bound + 1) {
		print_error("value %lld exact %lld err %Lg bound %Lg\n",
			    (long long)v, (long long)exact, err, bound);
		fail();
	}
}

static void check_pcts(const struct rperf_hist *h, const int64_t *sorted,
		       size_t n)
{
	int64_t out[NPCTS];
	size_t i;

	rperf_hist_percentiles(h, pcts, NPCTS, out);
	for (i = 0; i < NPCTS; i++) {
		uint64_t rank = rperf_hist_rank(n, pcts[i]);

		assert_int_equal(out[i], rperf_hist_percentile(h, pcts[i]));
		check_bound(h, out[i], sorted[rank - 1]);
	}
	assert_int_equal(out[0], sorted[0]);
	assert_int_equal(out[NPCTS - 1], sorted[n - 1]);
}

static void check_moments(const struct rperf_hist *h, const int64_t *v,
			  size_t n, bool stdev)
{
	long double sum = 0, m2 = 0, mean, sd;
	size_t i;

	for (i = 0; i < n; i++)
		sum += (long double)v[i];
	mean = sum / n;
	for (i = 0; i < n; i++)
		m2 += ((long double)v[i] - mean) * ((long double)v[i] - mean);
	sd = sqrtl(m2 / n);
	assert_true(fabsl(rperf_hist_mean(h) - mean) <=
		    1e-9L * fabsl(mean) + 1e-9L);
	if (stdev)
		assert_true(fabsl(rperf_hist_stdev(h) - sd) <=
			    1e-9L * sd + 1e-9L);
}

static void run_dist(enum dist d, unsigned int bits, size_t n, uint64_t seed)
{
	int64_t *v = malloc(n * sizeof(*v));
	uint64_t neg = 0, nonpos = 0;
	struct rperf_hist *h;
	size_t i;

	assert_non_null(v);
	assert_int_equal(rperf_hist_create(bits, &h), 0);
	for (i = 0; i < n; i++) {
		v[i] = sample(d, &seed);
		rperf_hist_record(h, v[i]);
		neg += v[i] < 0;
		nonpos += v[i] <= 0;
	}
	if (n == NSAMPLES)
		check_moments(h, v, n, d != WIDE);
	qsort(v, n, sizeof(*v), cmp_i64);
	assert_int_equal(rperf_hist_count(h), n);
	assert_int_equal(rperf_hist_min(h), v[0]);
	assert_int_equal(rperf_hist_max(h), v[n - 1]);
	assert_int_equal(rperf_hist_count_negative(h), neg);
	assert_int_equal(rperf_hist_count_nonpositive(h), nonpos);
	check_pcts(h, v, n);
	rperf_hist_destroy(h);
	free(v);
}

/* One distribution of NSAMPLES values; *state is its enum dist. */
static void test_dist(void **state)
{
	enum dist d = *(const enum dist *)*state;

	run_dist(d, RPERF_HIST_DEFAULT_BITS, NSAMPLES, 1 + (uint64_t)d);
}

/* Every bits value: bound, bucket geometry at powers of two and extremes. */
static void test_all_bits(void **state)
{
	static const enum dist ds[] = { PARETO, NEGATIVE, WIDE };
	unsigned int bits, i, e;

	(void)state;
	for (bits = RPERF_HIST_MIN_BITS; bits <= RPERF_HIST_MAX_BITS; bits++) {
		struct rperf_hist *h;

		for (i = 0; i < 3; i++)
			run_dist(ds[i], bits, 20000, bits * 10 + i);
		assert_int_equal(rperf_hist_create(bits, &h), 0);
		assert_true(rperf_hist_rel_error(h) == ldexp(1, -(int)bits));
		for (e = 0; e < 63; e++) {
			int64_t p = INT64_C(1) << e;
			int64_t vals[] = { p, p - 1, p + 1, -p, -p + 1, -p - 1 };
			size_t j;

			for (j = 0; j < 6; j++) {
				struct hist_bucket b;
				size_t ord = hist_ordinal(h, vals[j]);

				hist_bucket_of(h, ord, &b);
				assert_true(b.lo <= vals[j] && vals[j] <= b.hi);
				assert_true(b.lo <= b.rep && b.rep <= b.hi);
				check_bound(h, b.rep, vals[j]);
			}
		}
		rperf_hist_destroy(h);
	}
}

static void test_create_args(void **state)
{
	struct rperf_hist *h = NULL;

	(void)state;
	assert_int_equal(rperf_hist_create(RPERF_HIST_MIN_BITS - 1, &h),
			 EINVAL);
	assert_int_equal(rperf_hist_create(RPERF_HIST_MAX_BITS + 1, &h),
			 EINVAL);
	assert_int_equal(rperf_hist_create(RPERF_HIST_DEFAULT_BITS, NULL),
			 EINVAL);
	assert_int_equal(rperf_hist_create(RPERF_HIST_DEFAULT_BITS, &h), 0);
	assert_int_equal(rperf_hist_bits(h), RPERF_HIST_DEFAULT_BITS);
	assert_true(rperf_hist_rel_error(h) <= 0.01);
	assert_true(rperf_hist_memory(h) <= 256 * 1024);
	rperf_hist_destroy(h);
}

static void test_rank(void **state)
{
	static const struct {
		uint64_t n;
		double p;
		uint64_t rank;
	} t[] = { { 0, 50, 0 },
		  { 1000000, 0, 1 },
		  { 1000000, -5, 1 },
		  { 1000000, NAN, 1 },
		  { 1000000, 50, 500000 },
		  { 1000000, 99.9, 999000 },
		  { 1000000, 99.99, 999900 },
		  { 1000000, 99.999, 999990 },
		  { 1000000, 100, 1000000 },
		  { 1000000, 1e9, 1000000 },
		  { 10, 15, 2 },
		  { 3, 50, 2 },
		  { UINT64_MAX, 100, UINT64_MAX } };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		assert_int_equal(rperf_hist_rank(t[i].n, t[i].p), t[i].rank);
}

static void test_merge(void **state)
{
	struct rperf_hist *a, *b, *all, *other;
	uint64_t s1 = 11, s2 = 12;
	size_t i;

	(void)state;
	a = make(NEGATIVE, 0, 0);
	b = make(PARETO, 0, 0);
	all = make(PARETO, 0, 0);
	for (i = 0; i < 200000; i++) {
		int64_t x = sample(NEGATIVE, &s1), y = sample(LOGNORMAL, &s2);

		rperf_hist_record(a, x);
		rperf_hist_record(b, y);
		rperf_hist_record(all, x);
		rperf_hist_record(all, y);
	}
	assert_int_equal(rperf_hist_merge(a, b), 0);
	assert_same(a, all);
	rperf_hist_reset(b); /* merging an empty histogram changes nothing */
	assert_int_equal(rperf_hist_merge(a, b), 0);
	assert_same(a, all);
	assert_int_equal(rperf_hist_create(RPERF_HIST_DEFAULT_BITS + 1, &other),
			 0);
	assert_int_equal(rperf_hist_merge(a, other), EINVAL);
	assert_int_equal(rperf_hist_merge(other, a), EINVAL);
	assert_same(a, all);
	rperf_hist_destroy(other);
	rperf_hist_destroy(a);
	rperf_hist_destroy(b);
	rperf_hist_destroy(all);
}

static void test_iteration(void **state)
{
	struct rperf_hist *h = make(NEGATIVE, 100000, 21);
	struct rperf_hist_iter it;
	uint64_t sum = 0;
	int64_t prev_hi = INT64_MIN;
	bool first = true;

	(void)state;
	rperf_hist_iter_init(&it, h);
	while (rperf_hist_next(&it)) {
		assert_true(it.count > 0);
		assert_true(it.lo <= it.value && it.value <= it.hi);
		assert_true(first || it.lo > prev_hi);
		if (first)
			assert_true(it.lo <= rperf_hist_min(h) &&
				    rperf_hist_min(h) <= it.hi);
		first = false;
		prev_hi = it.hi;
		sum += it.count;
		assert_int_equal(it.cumulative, sum);
		assert_true(it.fraction > 0 && it.fraction <= 1.0);
	}
	assert_false(rperf_hist_next(&it));
	assert_true(it.lo <= rperf_hist_max(h) && rperf_hist_max(h) <= it.hi);
	assert_int_equal(it.cumulative, rperf_hist_count(h));
	assert_true(it.fraction == 1.0);
	rperf_hist_destroy(h);
}

static void test_empty(void **state)
{
	struct rperf_hist *h = make(UNIFORM, 0, 0), *d;
	struct rperf_hist_iter it;
	uint8_t buf[128];
	int64_t out[NPCTS];
	size_t len, i;

	(void)state;
	assert_int_equal(rperf_hist_count(h), 0);
	assert_int_equal(rperf_hist_min(h), 0);
	assert_int_equal(rperf_hist_max(h), 0);
	assert_true(rperf_hist_mean(h) == 0.0 && rperf_hist_stdev(h) == 0.0);
	assert_int_equal(rperf_hist_count_negative(h), 0);
	assert_int_equal(rperf_hist_count_nonpositive(h), 0);
	assert_int_equal(rperf_hist_percentile(h, 50), 0);
	rperf_hist_percentiles(h, pcts, NPCTS, out);
	for (i = 0; i < NPCTS; i++)
		assert_int_equal(out[i], 0);
	rperf_hist_iter_init(&it, h);
	assert_false(rperf_hist_next(&it));
	assert_int_equal(rperf_hist_serialize(h, buf, sizeof(buf), &len), 0);
	assert_int_equal(len, rperf_hist_serialized_size(h));
	assert_int_equal(rperf_hist_deserialize(buf, len, &d), 0);
	assert_same(h, d);
	rperf_hist_record(h, 7); /* one sample: stdev 0, every percentile 7 */
	assert_true(rperf_hist_stdev(h) == 0.0 && rperf_hist_mean(h) == 7.0);
	assert_int_equal(rperf_hist_percentile(h, 50), 7);
	rperf_hist_reset(h);
	assert_same(h, d);
	rperf_hist_destroy(d);
	rperf_hist_destroy(h);
}

static void test_extremes(void **state)
{
	struct rperf_hist *h = make(UNIFORM, 0, 0), *d;
	uint8_t buf[256];
	size_t len;

	(void)state;
	rperf_hist_record(h, INT64_MAX);
	rperf_hist_record(h, INT64_MIN);
	rperf_hist_record(h, 0);
	assert_int_equal(rperf_hist_min(h), INT64_MIN);
	assert_int_equal(rperf_hist_max(h), INT64_MAX);
	assert_int_equal(rperf_hist_percentile(h, 0), INT64_MIN);
	assert_int_equal(rperf_hist_percentile(h, 10), INT64_MIN);
	assert_int_equal(rperf_hist_percentile(h, 50), 0);
	check_bound(h, rperf_hist_percentile(h, 90), INT64_MAX); /* midpoint */
	assert_int_equal(rperf_hist_percentile(h, 100), INT64_MAX);
	assert_int_equal(rperf_hist_count_negative(h), 1);
	assert_int_equal(rperf_hist_count_nonpositive(h), 2);
	assert_true(rperf_hist_sum(h) == -1.0L);
	assert_true(fabs(rperf_hist_mean(h) + 1.0 / 3) < 1e-15);
	/* stdev of {-2^63, 2^63 - 1, 0}: sqrt(2/3) * 2^63 */
	assert_true(fabs(rperf_hist_stdev(h) / (sqrt(2.0 / 3) * 0x1p63) - 1) <
		    1e-12);
	assert_int_equal(rperf_hist_serialize(h, buf, sizeof(buf), &len), 0);
	assert_int_equal(rperf_hist_deserialize(buf, len, &d), 0);
	assert_same(h, d);
	rperf_hist_record_n(h, INT64_MIN, 1000);
	rperf_hist_record_n(d, INT64_MAX, 1000);
	assert_int_equal(rperf_hist_percentile(h, 50), INT64_MIN);
	check_bound(d, rperf_hist_percentile(d, 50), INT64_MAX);
	rperf_hist_destroy(d);
	rperf_hist_destroy(h);
}

static void test_record_n(void **state)
{
	struct rperf_hist *a = make(UNIFORM, 0, 0), *b = make(UNIFORM, 0, 0);
	static const int64_t vals[] = { -123456, -1, 0, 1, 255, 256, 99999 };
	size_t i, j;

	(void)state;
	for (i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
		rperf_hist_record_n(a, vals[i], 1000 + i);
		for (j = 0; j < 1000 + i; j++)
			rperf_hist_record(b, vals[i]);
	}
	rperf_hist_record_n(a, 1 << 30, 0); /* no-op, min/max untouched */
	assert_same(a, b);
	rperf_hist_destroy(a);
	rperf_hist_destroy(b);
}

#define DIST_TEST(d)                                                 \
	{                                                            \
		"dist_" #d, test_dist, NULL, NULL, (void *)&dists[d] \
	}

int main(void)
{
	static const enum dist dists[] = { UNIFORM,   BIMODAL,	PARETO,
					   LOGNORMAL, CONSTANT, NEGATIVE,
					   WIDE };
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_create_args),
		cmocka_unit_test(test_rank),
		DIST_TEST(UNIFORM),
		DIST_TEST(BIMODAL),
		DIST_TEST(PARETO),
		DIST_TEST(LOGNORMAL),
		DIST_TEST(CONSTANT),
		DIST_TEST(NEGATIVE),
		DIST_TEST(WIDE),
		cmocka_unit_test(test_all_bits),
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_iteration),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_extremes),
		cmocka_unit_test(test_record_n),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
