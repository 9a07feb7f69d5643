/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The HCA's completion-timestamp clock: its frequency (hca_core_clock, kHz)
 * and counter width (completion_timestamp_mask) from ibv_query_device_ex,
 * cross-checked against CLOCK_MONOTONIC_RAW with two reads of the raw clock
 * (ibv_query_rt_values_ex) where the provider has it.
 */
#include "verbs/verbs.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <rperf/clock.h>

#include "util/err.h"

static int raw_clock(struct ibv_context *ctx, uint64_t *out)
{
	struct ibv_values_ex v = { .comp_mask = IBV_VALUES_MASK_RAW_CLOCK };
	int rc = ibv_query_rt_values_ex(ctx, &v);

	if (rc)
		return rc;
	if (!(v.comp_mask & IBV_VALUES_MASK_RAW_CLOCK))
		return ENOTSUP;
	/* providers put the cycle count in tv_nsec (tv_sec 0) */
	*out = (uint64_t)v.raw_clock.tv_sec * 1000000000ull +
	       (uint64_t)v.raw_clock.tv_nsec;
	return 0;
}

/* The counter's rate over @window_ms: 0 when the raw clock is unavailable. */
static double measure_hz(struct ibv_context *ctx, uint64_t mask,
			 double window_ms)
{
	struct timespec w = { .tv_sec = 0, .tv_nsec = (long)(window_ms * 1e6) };
	uint64_t r0, r1, t0, t1;

	t0 = rperf_clock_posix_now();
	if (raw_clock(ctx, &r0))
		return 0;
	nanosleep(&w, NULL);
	t1 = rperf_clock_posix_now();
	if (raw_clock(ctx, &r1) || t1 <= t0)
		return 0;
	return (double)((r1 - r0) & mask) * 1e9 / (double)(t1 - t0);
}

int rperf_dev_query_ts(struct rperf_dev *d, double window_ms,
		       struct rperf_dev_ts *out, char *err, size_t errlen)
{
	struct ibv_device_attr_ex a;
	int rc;

	memset(out, 0, sizeof(*out));
	memset(&a, 0, sizeof(a));
	rc = ibv_query_device_ex(d->ctx, NULL, &a);
	if (rc || !a.hca_core_clock || a.completion_timestamp_mask < 3)
		return rperf_fail(
			err, errlen, ENOTSUP,
			"%s has no NIC completion timestamps (hca_core_clock %llu kHz, completion_timestamp_mask 0x%llx)",
			d->name,
			rc ? 0ull : (unsigned long long)a.hca_core_clock,
			rc ? 0ull :
			     (unsigned long long)a.completion_timestamp_mask);
	out->hz = (double)a.hca_core_clock * 1000.0;
	out->mask = a.completion_timestamp_mask;
	if (window_ms > 0)
		out->measured_hz = measure_hz(d->ctx, out->mask, window_ms);
	if (out->measured_hz > 0)
		out->check_ppm = (out->measured_hz / out->hz - 1) * 1e6;
	return 0;
}
