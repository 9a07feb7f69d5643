// SPDX-License-Identifier: BSD-2-Clause
/*
 * rperf clock: calibration against CLOCK_MONOTONIC_RAW and rperf_clock_init().
 *
 * At each end of a window we take a few (clock_gettime, ticks, clock_gettime)
 * triples and keep the tightest bracket. All windows share the first end, so
 * the window doubling 10, 20, 40, 80, 160 ms costs at most the last window.
 * Two successive estimates agreeing within tol_ppm (and brackets below it)
 * end the calibration.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "clock/clock_priv.h"

struct cal_point {
	uint64_t t0; /* CLOCK_MONOTONIC_RAW ns before the tick read */
	uint64_t width; /* ns between the two clock_gettime calls */
	uint64_t ticks;
};

void rperf_clock_calib_defaults(struct rperf_clock_calib_params *p)
{
	p->start_ms = 10.0;
	p->cap_ms = 250.0;
	p->tol_ppm = 10.0;
	p->triples = 10;
}

static void cal_sample(const struct rperf_clock *clk, unsigned int n,
		       struct cal_point *pt)
{
	unsigned int i;

	pt->width = UINT64_MAX;
	for (i = 0; i < n; i++) {
		uint64_t t0 = rperf_clock_posix_now();
		uint64_t tk = rperf_clock_start(clk);
		uint64_t t1 = rperf_clock_posix_now();

		if (t1 - t0 < pt->width) {
			pt->t0 = t0;
			pt->width = t1 - t0;
			pt->ticks = tk;
		}
	}
}

/* Sleep most of the way to @target (CLOCK_MONOTONIC_RAW ns), spin the rest. */
static void wait_until(uint64_t target)
{
	const uint64_t spin_ns = 200000;
	uint64_t now = rperf_clock_posix_now();

	if (now + spin_ns < target) {
		uint64_t d = target - now - spin_ns;
		struct timespec ts = { .tv_sec = (time_t)(d / 1000000000ull),
				       .tv_nsec = (long)(d % 1000000000ull) };

		while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
			;
	}
	while (rperf_clock_posix_now() < target)
		;
}

static bool params_ok(const struct rperf_clock_calib_params *p)
{
	return isfinite(p->start_ms) && isfinite(p->cap_ms) &&
	       isfinite(p->tol_ppm) && p->start_ms > 0 &&
	       p->cap_ms >= p->start_ms && p->cap_ms <= 10000.0 &&
	       p->tol_ppm > 0 && p->triples > 0 && p->triples <= 1000;
}

int rperf_clock_calibrate(const struct rperf_clock *clk,
			  const struct rperf_clock_calib_params *params,
			  struct rperf_clock_calib *out)
{
	struct rperf_clock_calib_params p;
	struct cal_point a, b;
	double window, prev = 0.0;

	if (!clk || !out)
		return EINVAL;
	if (params)
		p = *params;
	else
		rperf_clock_calib_defaults(&p);
	if (!params_ok(&p))
		return EINVAL;
	memset(out, 0, sizeof(*out));
	cal_sample(clk, p.triples, &a);
	for (window = p.start_ms; window <= p.cap_ms; window *= 2.0) {
		double interval;

		wait_until(a.t0 + (uint64_t)(window * 1e6));
		cal_sample(clk, p.triples, &b);
		interval = (double)(b.t0 - a.t0) +
			   ((double)b.width - (double)a.width) / 2.0;
		if (b.ticks <= a.ticks || !(interval > 0.0))
			return EIO;
		out->hz = (double)(b.ticks - a.ticks) * 1e9 / interval;
		out->bracket_ppm = ((double)a.width + (double)b.width) / 2.0 /
				   interval * 1e6;
		out->disagreement_ppm =
			prev > 0.0 ? fabs(out->hz - prev) / out->hz * 1e6 : 0.0;
		out->error_ppm = out->bracket_ppm + out->disagreement_ppm;
		out->window_ms = interval / 1e6;
		out->rounds++;
		if (prev > 0.0 && out->disagreement_ppm <= p.tol_ppm &&
		    out->bracket_ppm <= p.tol_ppm) {
			out->converged = true;
			break;
		}
		prev = out->hz;
	}
	return 0;
}

static void set_native_posix(struct rperf_clock *clk)
{
	clk->hz = 1e9;
	clk->ns_per_tick = 1.0;
	clk->error_ppm = 0.0;
	snprintf(clk->method, sizeof(clk->method),
		 "native:CLOCK_MONOTONIC_RAW");
}

/* Calibrate @clk's ticks into @cal and take its Hz; failing, fall back to
 * posix, untrusted (the tick source does not advance). */
static int calibrate(struct rperf_clock *clk, struct rperf_clock_calib *cal)
{
	int rc = rperf_clock_calibrate(clk, NULL, cal);

	if (rc) {
		clk->source = RPERF_CLOCK_POSIX;
		clk->trusted = false;
		set_native_posix(clk);
		rperf_clock_reason_add(clk->reason, sizeof(clk->reason),
				       "; calibration failed (%s), using posix",
				       strerror(rc));
		return rc;
	}
	clk->hz = cal->hz;
	clk->ns_per_tick = 1e9 / cal->hz;
	clk->error_ppm = cal->error_ppm;
	clk->calib_window_ms = cal->window_ms;
	clk->calib_rounds = cal->rounds;
	snprintf(clk->method, sizeof(clk->method),
		 "calibrated:CLOCK_MONOTONIC_RAW");
	if (!cal->converged) {
		clk->trusted = false;
		rperf_clock_reason_add(
			clk->reason, sizeof(clk->reason),
			"; calibration did not converge (last %.0f ms window: %.1f ppm)",
			cal->window_ms, cal->error_ppm);
	}
	return 0;
}

static int init_tsc(struct rperf_clock *clk)
{
	struct rperf_clock_calib cal;
	int rc = calibrate(clk, &cal);

	if (rc)
		return rc;
	clk->cpuid15_hz = rperf_clock_cpuid15_hz(&clk->platform);
	if (clk->cpuid15_hz > 0.0)
		clk->cross_check_ppm =
			(clk->hz - clk->cpuid15_hz) / clk->cpuid15_hz * 1e6;
	return 0;
}

static int init_arm(struct rperf_clock *clk)
{
	struct rperf_clock_calib cal;
	double nominal = (double)clk->platform.cntfrq;
	int rc = calibrate(clk, &cal);

	if (rc)
		return rc;
	if (nominal <= 0.0)
		return 0;
	clk->cross_check_ppm = (cal.hz - nominal) / nominal * 1e6;
	if (cal.converged &&
	    fabs(clk->cross_check_ppm) > fmax(100.0, 3.0 * cal.error_ppm)) {
		clk->trusted = false;
		rperf_clock_reason_add(
			clk->reason, sizeof(clk->reason),
			"; CNTFRQ_EL0 disagrees with calibration by %.0f ppm, using calibrated Hz",
			clk->cross_check_ppm);
		return 0;
	}
	/* CNTFRQ is the architectural frequency; calibration only checks it */
	clk->hz = nominal;
	clk->ns_per_tick = 1e9 / nominal;
	clk->error_ppm = fabs(clk->cross_check_ppm) + cal.error_ppm;
	snprintf(clk->method, sizeof(clk->method),
		 "nominal:CNTFRQ_EL0,checked:CLOCK_MONOTONIC_RAW");
	return 0;
}

int rperf_clock_init(struct rperf_clock *clk, enum rperf_clock_source want)
{
	struct rperf_clock_choice ch;
	int rc;

	if (!clk)
		return EINVAL;
	memset(clk, 0, sizeof(*clk));
	rperf_clock_probe(&clk->platform);
	rc = rperf_clock_decide(&clk->platform, want, &ch);
	clk->source = ch.source;
	clk->trusted = ch.trusted;
	clk->forced = ch.forced;
	memcpy(clk->reason, ch.reason, sizeof(clk->reason));
	if (rc) {
		/* usable but untrusted posix clock, reason says why */
		clk->source = RPERF_CLOCK_POSIX;
		clk->trusted = false;
		set_native_posix(clk);
		return rc;
	}
	switch (clk->source) {
	case RPERF_CLOCK_TSC:
		return init_tsc(clk);
	case RPERF_CLOCK_ARM:
		return init_arm(clk);
	default:
		set_native_posix(clk);
		return 0;
	}
}
