// SPDX-License-Identifier: BSD-2-Clause
/*
 * Histogram benchmark: cost of rperf_hist_record() and memory after 10^9
 * records. Prints one line per figure with its goal; exits 0 unless an
 * error occurred (a missed goal is reported, not fatal).
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "rperf/hist.h"

#define NVALUES 4096 /* power of two */
#define TIMED_RECORDS 100000000ull
#define MEM_RECORDS 1000000000ull

static uint64_t rng_next(uint64_t *s)
{
	uint64_t z = (*s += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/* Latency-like values: mostly 200 ns .. 20 us, some negatives, some huge. */
static void fill_values(int64_t *v, size_t n)
{
	uint64_t s = 42;
	size_t i;

	for (i = 0; i < n; i++) {
		uint64_t r = rng_next(&s);
		double u = ((double)(r >> 11) + 0.5) * 0x1.0p-53;

		v[i] = (int64_t)(200.0 * pow(100.0, u));
		if ((r & 31) == 0)
			v[i] = -v[i] / 4;
		if ((r & 1023) == 1)
			v[i] = (int64_t)(rng_next(&s) >> 1);
	}
	v[0] = INT64_MIN;
	v[1] = INT64_MAX;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void record_loop(struct rperf_hist *h, const int64_t *v,
			unsigned long long n)
{
	unsigned long long i;

	for (i = 0; i < n; i++)
		rperf_hist_record(h, v[i & (NVALUES - 1)] + (int64_t)(i & 7));
}

static int bench_record(const int64_t *v)
{
	struct rperf_hist *h;
	double t0, t1, ns;
	int ret;

	ret = rperf_hist_create(RPERF_HIST_DEFAULT_BITS, &h);
	if (ret)
		return ret;
	record_loop(h, v, NVALUES * 16); /* warm caches */
	rperf_hist_reset(h);
	t0 = now_s();
	record_loop(h, v, TIMED_RECORDS);
	t1 = now_s();
	ns = (t1 - t0) * 1e9 / (double)TIMED_RECORDS;
	if (rperf_hist_count(h) != TIMED_RECORDS)
		ret = EIO;
	printf("hist.record_ns per_record=%.2f goal<=5 [%s]\n", ns,
	       ns <= 5.0 ? "met" : "MISSED");
	printf("  (%llu records, p50=%lld p99=%lld p99.9=%lld)\n",
	       (unsigned long long)rperf_hist_count(h),
	       (long long)rperf_hist_percentile(h, 50),
	       (long long)rperf_hist_percentile(h, 99),
	       (long long)rperf_hist_percentile(h, 99.9));
	rperf_hist_destroy(h);
	return ret;
}

static int bench_memory(const int64_t *v)
{
	struct rperf_hist *h;
	size_t before, after;
	double t0;
	int ret;

	ret = rperf_hist_create(RPERF_HIST_DEFAULT_BITS, &h);
	if (ret)
		return ret;
	before = rperf_hist_memory(h);
	t0 = now_s();
	record_loop(h, v, MEM_RECORDS);
	after = rperf_hist_memory(h);
	if (rperf_hist_count(h) != MEM_RECORDS)
		ret = EIO;
	printf("hist.memory_bytes after 1e9 records=%zu goal<=262144 [%s]\n",
	       after, after <= 262144 && after == before ? "met" : "MISSED");
	printf("  (before=%zu, %llu records in %.2f s, serialized=%zu B)\n",
	       before, (unsigned long long)rperf_hist_count(h), now_s() - t0,
	       rperf_hist_serialized_size(h));
	rperf_hist_destroy(h);
	return ret;
}

int main(void)
{
	static int64_t values[NVALUES];
	int ret;

	fill_values(values, NVALUES);
	ret = bench_record(values);
	if (!ret)
		ret = bench_memory(values);
	if (ret)
		fprintf(stderr, "bench_hist: %s\n", strerror(ret));
	return ret ? 1 : 0;
}
