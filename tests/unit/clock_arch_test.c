// SPDX-License-Identifier: BSD-2-Clause
/*
 * Plain-C clock test (no cmocka) for cross builds: run under qemu-aarch64 by
 * tests/unit/clock-aarch64.sh. Also compiles natively. Calibration under
 * emulation is noisy: untrusted results are tolerated, but every figure must
 * be finite and positive.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "clock/clock_priv.h"
#include "rperf/clock.h"

static int failures;

#define CHECK(cond)                                                            \
	do {                                                                   \
		if (!(cond)) {                                                 \
			fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, \
				__LINE__, #cond);                              \
			failures++;                                            \
		}                                                              \
	} while (0)

static void check_monotonic(const struct rperf_clock *clk)
{
	uint64_t a = rperf_clock_start(clk);
	int i;

	for (i = 0; i < 20000; i++) {
		uint64_t b = rperf_clock_end(clk);

		CHECK(b >= a);
		a = b;
	}
}

static void check_clock(const struct rperf_clock *clk)
{
	struct rperf_clock_selftest st;

	printf("source=%s trusted=%d forced=%d hz=%.0f method=%s error_ppm=%.2f cross_check_ppm=%.2f\nreason: %s\n",
	       rperf_clock_source_name(clk->source), clk->trusted, clk->forced,
	       clk->hz, clk->method, clk->error_ppm, clk->cross_check_ppm,
	       clk->reason);
	CHECK(isfinite(clk->hz) && clk->hz > 1e6);
	CHECK(isfinite(clk->ns_per_tick) && clk->ns_per_tick > 0.0);
	CHECK(isfinite(clk->error_ppm) && clk->error_ppm >= 0.0);
	CHECK(isfinite(clk->cross_check_ppm));
	CHECK(clk->method[0] != '\0' && clk->reason[0] != '\0');
	check_monotonic(clk);
	CHECK(rperf_clock_selftest(clk, 20.0, &st) == 0);
	printf("selftest: pair min=%.1f median=%.1f ns resolution=%.2f ns max_gap=%.0f ns spin=%.1f ms reads=%llu\n",
	       st.overhead_ns_min, st.overhead_ns_median, st.resolution_ns,
	       st.max_gap_ns, st.spin_ms, (unsigned long long)st.reads);
	CHECK(isfinite(st.overhead_ns_min) && st.overhead_ns_min >= 0.0);
	CHECK(st.overhead_ns_min <= st.overhead_ns_median);
	CHECK(isfinite(st.resolution_ns) && st.resolution_ns > 0.0);
	CHECK(isfinite(st.max_gap_ns) && st.max_gap_ns >= 0.0);
	CHECK(st.spin_ms >= 20.0 && st.reads > 1);
}

static void check_decide(void)
{
	struct rperf_clock_platform p;
	struct rperf_clock_choice c;
	enum rperf_clock_source s;

	memset(&p, 0, sizeof(p));
	p.is_arm64 = true;
	p.cntfrq = 25000000;
	CHECK(rperf_clock_decide(&p, RPERF_CLOCK_AUTO, &c) == 0);
	CHECK(c.source == RPERF_CLOCK_ARM && c.trusted && !c.forced);
	CHECK(rperf_clock_decide(&p, RPERF_CLOCK_TSC, &c) == ENOTSUP);
	CHECK(rperf_clock_decide(&p, RPERF_CLOCK_POSIX, &c) == 0);
	CHECK(c.source == RPERF_CLOCK_POSIX && c.forced);
	memset(&p, 0, sizeof(p));
	p.is_x86 = p.has_rdtscp = p.invariant_tsc = true;
	strcpy(p.clocksource, "hpet");
	CHECK(rperf_clock_decide(&p, RPERF_CLOCK_AUTO, &c) == 0);
	CHECK(c.source == RPERF_CLOCK_POSIX && c.trusted);
	CHECK(rperf_clock_decide(&p, RPERF_CLOCK_ARM, &c) == ENOTSUP);
	CHECK(rperf_clock_source_parse("arm", &s) == 0 && s == RPERF_CLOCK_ARM);
	CHECK(rperf_clock_source_parse("bogus", &s) == EINVAL);
}

static void check_this_platform(void)
{
	struct rperf_clock clk;
	struct rperf_clock_platform p;

	rperf_clock_probe(&p);
	printf("probe: x86=%d arm64=%d rdtscp=%d invariant=%d hypervisor=%d clocksource='%s' cntfrq=%llu\n",
	       p.is_x86, p.is_arm64, p.has_rdtscp, p.invariant_tsc,
	       p.hypervisor, p.clocksource, (unsigned long long)p.cntfrq);
	CHECK(rperf_clock_init(&clk, RPERF_CLOCK_AUTO) == 0);
	check_clock(&clk);
#if defined(__aarch64__)
	CHECK(p.is_arm64 && !p.is_x86 && p.cntfrq > 0);
	CHECK(clk.source == RPERF_CLOCK_ARM);
	CHECK(rperf_clock_init(&clk, RPERF_CLOCK_ARM) == 0);
	CHECK(clk.source == RPERF_CLOCK_ARM && clk.forced);
	CHECK(clk.calib_rounds >= 1);
	CHECK(rperf_clock_init(&clk, RPERF_CLOCK_TSC) == ENOTSUP);
	CHECK(clk.source == RPERF_CLOCK_POSIX && !clk.trusted);
#elif defined(__x86_64__)
	CHECK(p.is_x86 && !p.is_arm64);
	CHECK(rperf_clock_init(&clk, RPERF_CLOCK_ARM) == ENOTSUP);
#endif
	CHECK(rperf_clock_init(&clk, RPERF_CLOCK_POSIX) == 0);
	CHECK(clk.hz == 1e9 && clk.ns_per_tick == 1.0);
	check_clock(&clk);
}

int main(void)
{
	check_decide();
	check_this_platform();
	if (failures) {
		fprintf(stderr, "clock_arch_test: %d check(s) failed\n",
			failures);
		return 1;
	}
	printf("clock_arch_test: all checks passed\n");
	return 0;
}
