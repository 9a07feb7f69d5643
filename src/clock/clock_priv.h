/* SPDX-License-Identifier: BSD-2-Clause */
/* rperf clock: private interfaces shared by the src/clock translation units. */
#ifndef RPERF_CLOCK_PRIV_H
#define RPERF_CLOCK_PRIV_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#include "rperf/clock.h"

/* Calibration knobs; rperf_clock_calib_defaults() fills the documented ones. */
struct rperf_clock_calib_params {
	double start_ms; /* first window (10 ms) */
	double cap_ms; /* longest window allowed (250 ms) */
	double tol_ppm; /* two successive estimates must agree within (10) */
	unsigned int triples; /* (clock, ticks, clock) triples per end (10) */
};

/* Result of one calibration against CLOCK_MONOTONIC_RAW. */
struct rperf_clock_calib {
	double hz; /* best estimate (last window) */
	double error_ppm; /* bracket error of the last window + disagreement */
	double bracket_ppm; /* (start width + end width) / 2 / window */
	double disagreement_ppm; /* |last - previous| / last, 0 after one round */
	double window_ms; /* last window */
	unsigned int rounds; /* windows measured */
	bool converged;
};

void rperf_clock_calib_defaults(struct rperf_clock_calib_params *p);

/*
 * Calibrate the tick source of @clk (only ->source is used). @params may be
 * NULL for the defaults. Returns 0 (also when it did not converge: see
 * out->converged), EINVAL for bad parameters or EIO if the tick source does
 * not advance.
 */
int rperf_clock_calibrate(const struct rperf_clock *clk,
			  const struct rperf_clock_calib_params *params,
			  struct rperf_clock_calib *out);

/* Nominal TSC Hz from CPUID 0x15 (or 0x16 base MHz when 0x15 ECX is 0). */
double rperf_clock_cpuid15_hz(const struct rperf_clock_platform *p);

/* Append printf-style text to @buf (size @size), always NUL-terminated. */
void rperf_clock_reason_add(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif /* RPERF_CLOCK_PRIV_H */
