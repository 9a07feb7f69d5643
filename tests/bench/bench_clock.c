// SPDX-License-Identifier: BSD-2-Clause
/*
 * bench_clock: clock read-pair overhead (goal <= 25 ns), agreement of two
 * back-to-back calibrations (goal <= 10 ppm), CPUID 0x15 cross-check.
 * Exits 0 when a goal is missed (it reports), non-zero only on an error.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "rperf/clock.h"

#define GOAL_PAIR_NS 25.0
#define GOAL_AGREE_PPM 10.0
#define SPIN_MS 200.0

static const char *verdict(bool met)
{
	return met ? "met" : "MISSED";
}

static void print_clock(const char *label, const struct rperf_clock *clk)
{
	printf("clock.source[%s] source=%s trusted=%s forced=%s hz=%.0f method=%s error_ppm=%.2f window_ms=%.1f rounds=%u\n",
	       label, rperf_clock_source_name(clk->source),
	       clk->trusted ? "yes" : "no", clk->forced ? "yes" : "no", clk->hz,
	       clk->method, clk->error_ppm, clk->calib_window_ms,
	       clk->calib_rounds);
	printf("clock.reason[%s] %s\n", label, clk->reason);
}

static int bench_reads(const char *label, const struct rperf_clock *clk,
		       bool goal)
{
	struct rperf_clock_selftest st;
	int rc = rperf_clock_selftest(clk, SPIN_MS, &st);

	if (rc) {
		fprintf(stderr, "selftest[%s]: %s\n", label, strerror(rc));
		return rc;
	}
	printf("clock.read_pair_ns[%s] min=%.1f median=%.1f goal<=%.0f ", label,
	       st.overhead_ns_min, st.overhead_ns_median, GOAL_PAIR_NS);
	if (goal)
		printf("[%s]\n",
		       verdict(st.overhead_ns_median <= GOAL_PAIR_NS));
	else
		printf("[info: not the selected source]\n");
	printf("clock.resolution_ns[%s] value=%.2f\n", label, st.resolution_ns);
	printf("clock.max_gap_ns[%s] value=%.0f spin_ms=%.1f reads=%llu\n",
	       label, st.max_gap_ns, st.spin_ms, (unsigned long long)st.reads);
	return 0;
}

/* Two back-to-back calibrations of @src; |hz1 - hz2| / hz in ppm. */
static int bench_agreement(enum rperf_clock_source src)
{
	struct rperf_clock a, b;
	double ppm;
	int rc = rperf_clock_init(&a, src);

	if (!rc)
		rc = rperf_clock_init(&b, src);
	if (rc) {
		fprintf(stderr, "calibration: %s\n", strerror(rc));
		return rc;
	}
	ppm = fabs(a.hz - b.hz) / a.hz * 1e6;
	printf("clock.calib_agreement_ppm[%s] value=%.3f hz1=%.0f hz2=%.0f err1=%.2f err2=%.2f goal<=%.0f [%s]\n",
	       rperf_clock_source_name(a.source), ppm, a.hz, b.hz, a.error_ppm,
	       b.error_ppm, GOAL_AGREE_PPM, verdict(ppm <= GOAL_AGREE_PPM));
	return 0;
}

static void bench_cross_check(const struct rperf_clock *clk)
{
	if (clk->source == RPERF_CLOCK_ARM) {
		printf("clock.cntfrq_cross_check cntfrq_hz=%llu ppm=%.2f\n",
		       (unsigned long long)clk->platform.cntfrq,
		       clk->cross_check_ppm);
		return;
	}
	if (clk->source != RPERF_CLOCK_TSC || clk->cpuid15_hz <= 0.0) {
		printf("clock.cpuid15_cross_check not populated (leaf 0x15 eax=%u ebx=%u ecx=%u, 0x16 eax=%u)\n",
		       clk->platform.cpuid15_eax, clk->platform.cpuid15_ebx,
		       clk->platform.cpuid15_ecx, clk->platform.cpuid16_eax);
		return;
	}
	printf("clock.cpuid15_cross_check nominal_hz=%.0f calibrated_hz=%.0f ppm=%.2f\n",
	       clk->cpuid15_hz, clk->hz, clk->cross_check_ppm);
}

int main(void)
{
	struct rperf_clock sel, tsc, posix;
	bool have_tsc;
	int rc = rperf_clock_init(&sel, RPERF_CLOCK_AUTO);

	if (rc) {
		fprintf(stderr, "rperf_clock_init(auto): %s\n", strerror(rc));
		return 1;
	}
	print_clock("auto", &sel);
	if (bench_reads(rperf_clock_source_name(sel.source), &sel, true))
		return 1;
	/* a VM with an untrusted TSC: report both paths, clearly labelled */
	have_tsc = sel.source != RPERF_CLOCK_TSC &&
		   rperf_clock_init(&tsc, RPERF_CLOCK_TSC) == 0;
	if (have_tsc) {
		print_clock("forced-tsc", &tsc);
		if (bench_reads("forced-tsc", &tsc, false))
			return 1;
	}
	if (sel.source != RPERF_CLOCK_POSIX) {
		if (rperf_clock_init(&posix, RPERF_CLOCK_POSIX) ||
		    bench_reads("posix", &posix, false))
			return 1;
	}
	if (bench_agreement(have_tsc ? RPERF_CLOCK_TSC : sel.source))
		return 1;
	bench_cross_check(have_tsc ? &tsc : &sel);
	return 0;
}
