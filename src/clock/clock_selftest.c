// SPDX-License-Identifier: BSD-2-Clause
/*
 * rperf clock: self-test -- read-pair overhead, resolution, largest gap.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "clock/clock_priv.h"

#define RPERF_SELFTEST_PAIRS 10001u

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* Back-to-back start/end pairs: min and median overhead, smallest delta. */
static int measure_pairs(const struct rperf_clock *clk,
			 struct rperf_clock_selftest *out, uint64_t *min_nz)
{
	uint64_t *d = malloc(RPERF_SELFTEST_PAIRS * sizeof(*d));
	unsigned int i;

	if (!d)
		return ENOMEM;
	for (i = 0; i < RPERF_SELFTEST_PAIRS; i++) {
		uint64_t a = rperf_clock_start(clk);
		uint64_t b = rperf_clock_end(clk);

		d[i] = b >= a ? b - a : 0;
	}
	qsort(d, RPERF_SELFTEST_PAIRS, sizeof(*d), cmp_u64);
	for (i = 0; i < RPERF_SELFTEST_PAIRS; i++) {
		if (d[i]) {
			*min_nz = d[i];
			break;
		}
	}
	out->overhead_ns_min = rperf_clock_ticks_to_ns(clk, (int64_t)d[0]);
	out->overhead_ns_median = rperf_clock_ticks_to_ns(
		clk, (int64_t)d[RPERF_SELFTEST_PAIRS / 2]);
	free(d);
	return 0;
}

/* Spin reading the clock; the largest gap reveals interrupts and SMIs. */
static void measure_spin(const struct rperf_clock *clk, double spin_ms,
			 struct rperf_clock_selftest *out, uint64_t *min_nz)
{
	uint64_t span = (uint64_t)(spin_ms * 1e-3 * clk->hz);
	uint64_t first = rperf_clock_end(clk), prev = first, now, max_gap = 0;
	uint64_t reads = 1;

	do {
		now = rperf_clock_end(clk);
		reads++;
		if (now > prev) {
			if (now - prev > max_gap)
				max_gap = now - prev;
			if (now - prev < *min_nz)
				*min_nz = now - prev;
		}
		prev = now;
	} while (now - first < span && now >= first);
	out->reads = reads;
	out->max_gap_ns = rperf_clock_ticks_to_ns(clk, (int64_t)max_gap);
	out->spin_ms =
		rperf_clock_ticks_to_ns(clk, (int64_t)(now - first)) / 1e6;
}

int rperf_clock_selftest(const struct rperf_clock *clk, double spin_ms,
			 struct rperf_clock_selftest *out)
{
	uint64_t min_nz = UINT64_MAX;
	int rc;

	if (!clk || !out || !isfinite(spin_ms) || spin_ms < 0.0 ||
	    spin_ms > 60000.0 || !(clk->hz > 0.0) || !(clk->ns_per_tick > 0.0))
		return EINVAL;
	memset(out, 0, sizeof(*out));
	rc = measure_pairs(clk, out, &min_nz);
	if (rc)
		return rc;
	measure_spin(clk, spin_ms, out, &min_nz);
	if (min_nz != UINT64_MAX)
		out->resolution_ns =
			rperf_clock_ticks_to_ns(clk, (int64_t)min_nz);
	return 0;
}
