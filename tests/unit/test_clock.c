// SPDX-License-Identifier: BSD-2-Clause
/* Unit tests for src/clock: decision, names, init, conversion, self-test. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "clock/clock_priv.h"
#include "rperf/clock.h"

static struct rperf_clock_platform x86(bool inv, const char *cs, bool hv)
{
	struct rperf_clock_platform p;

	memset(&p, 0, sizeof(p));
	p.is_x86 = true;
	p.has_rdtscp = true;
	p.invariant_tsc = inv;
	p.hypervisor = hv;
	strncpy(p.clocksource, cs, sizeof(p.clocksource) - 1);
	return p;
}

static struct rperf_clock_platform arm64(uint64_t cntfrq)
{
	struct rperf_clock_platform p;

	memset(&p, 0, sizeof(p));
	p.is_arm64 = true;
	p.cntfrq = cntfrq;
	strcpy(p.clocksource, "arch_sys_counter");
	return p;
}

static void test_decide_invariant_tsc(void **state)
{
	struct rperf_clock_platform p = x86(true, "tsc", false);
	struct rperf_clock_choice c;

	(void)state;
	assert_int_equal(rperf_clock_decide(&p, RPERF_CLOCK_AUTO, &c), 0);
	assert_int_equal(c.source, RPERF_CLOCK_TSC);
	assert_true(c.trusted);
	assert_false(c.forced);
	assert_non_null(strstr(c.reason, "invariant"));
	assert_null(strstr(c.reason, "hypervisor"));
}

static void test_decide_qemu_hpet(void **state)
{
	struct rperf_clock_platform p = x86(true, "hpet", true);
	struct rperf_clock_choice c;

	(void)state;
	assert_int_equal(rperf_clock_decide(&p, RPERF_CLOCK_AUTO, &c), 0);
	assert_int_equal(c.source, RPERF_CLOCK_POSIX);
	assert_true(c.trusted);
	assert_false(c.forced);
	assert_non_null(strstr(c.reason, "clocksource hpet"));
	assert_non_null(strstr(c.reason, "CLOCK_MONOTONIC_RAW"));
	assert_null(strstr(c.reason, "not invariant"));
}

static void test_decide_not_invariant(void **state)
{
	struct rperf_clock_platform p = x86(false, "tsc", false);
	struct rperf_clock_choice c;

	(void)state;
	assert_int_equal(rperf_clock_decide(&p, RPERF_CLOCK_AUTO, &c), 0);
	assert_int_equal(c.source, RPERF_CLOCK_POSIX);
	assert_true(c.trusted);
	assert_non_null(strstr(c.reason, "80000007H:EDX[8]"));
	assert_non_null(strstr(c.reason, "not invariant"));

	p = x86(false, "hpet", false);
	assert_int_equal(rperf_clock_decide(&p, RPERF_CLOCK_AUTO, &c), 0);
	assert_int_equal(c.source, RPERF_CLOCK_POSIX);
	assert_non_null(strstr(c.reason, "not invariant"));
	assert_non_null(strstr(c.reason, "clocksource hpet"));

	p = x86(true, "", false); /* clocksource unknown: not trusted */
	assert_int_equal(rperf_clock_decide(&p, RPERF_CLOCK_AUTO, &c), 0);
	assert_int_equal(c.source, RPERF_CLOCK_POSIX);
	assert_non_null(strstr(c.reason, "unknown"));
}

static void test_decide_hypervisor_tsc(void **state)
{
	struct rperf_clock_platform p = x86(true, "tsc", true);
	struct rperf_clock_choice c;

	(void)state;
	assert_int_equal(rperf_clock_decide(&p, RPERF_CLOCK_AUTO, &c), 0);
	assert_int_equal(c.source, RPERF_CLOCK_TSC);
	assert_true(c.trusted);
	assert_non_null(strstr(c.reason, "hypervisor"));
}

static void test_decide_forced(void **state)
{
	struct rperf_clock_platform p = x86(true, "hpet", true);
	struct rperf_clock_platform a = arm64(25000000);
	struct rperf_clock_choice c;

	(void)state;
	/* forced tsc on an untrusted TSC: used, but not trusted, and why */
	assert_int_equal(rperf_clock_decide(&p, RPERF_CLOCK_TSC, &c), 0);
	assert_int_equal(c.source, RPERF_CLOCK_TSC);
	assert_true(c.forced);
	assert_false(c.trusted);
	assert_non_null(strstr(c.reason, "hpet"));
	/* forced tsc on a trusted TSC */
	p = x86(true, "tsc", false);
	assert_int_equal(rperf_clock_decide(&p, RPERF_CLOCK_TSC, &c), 0);
	assert_int_equal(c.source, RPERF_CLOCK_TSC);
	assert_true(c.forced);
	assert_true(c.trusted);
	/* no RDTSCP: the end read cannot run */
	p.has_rdtscp = false;
	assert_int_equal(rperf_clock_decide(&p, RPERF_CLOCK_TSC, &c), ENOTSUP);
	assert_int_equal(rperf_clock_decide(&p, RPERF_CLOCK_AUTO, &c), 0);
	assert_int_equal(c.source, RPERF_CLOCK_POSIX);
	/* wrong architecture */
	p = x86(true, "tsc", false);
	assert_int_equal(rperf_clock_decide(&p, RPERF_CLOCK_ARM, &c), ENOTSUP);
	assert_non_null(strstr(c.reason, "arm"));
	assert_int_equal(rperf_clock_decide(&a, RPERF_CLOCK_TSC, &c), ENOTSUP);
	/* forced posix everywhere */
	assert_int_equal(rperf_clock_decide(&p, RPERF_CLOCK_POSIX, &c), 0);
	assert_int_equal(c.source, RPERF_CLOCK_POSIX);
	assert_true(c.forced);
	assert_true(c.trusted);
	assert_int_equal(rperf_clock_decide(&a, RPERF_CLOCK_POSIX, &c), 0);
	assert_int_equal(c.source, RPERF_CLOCK_POSIX);
	/* bad arguments */
	assert_int_equal(rperf_clock_decide(NULL, RPERF_CLOCK_AUTO, &c),
			 EINVAL);
	assert_int_equal(rperf_clock_decide(&p, (enum rperf_clock_source)42,
					    &c),
			 EINVAL);
}

static void test_decide_arm64(void **state)
{
	struct rperf_clock_platform a = arm64(25000000);
	struct rperf_clock_choice c;

	(void)state;
	assert_int_equal(rperf_clock_decide(&a, RPERF_CLOCK_AUTO, &c), 0);
	assert_int_equal(c.source, RPERF_CLOCK_ARM);
	assert_true(c.trusted);
	assert_false(c.forced);
	assert_non_null(strstr(c.reason, "25000000"));
	assert_non_null(strstr(c.reason, "40.0 ns"));
	assert_int_equal(rperf_clock_decide(&a, RPERF_CLOCK_ARM, &c), 0);
	assert_int_equal(c.source, RPERF_CLOCK_ARM);
	assert_true(c.forced);
	a.cntfrq = 0;
	assert_int_equal(rperf_clock_decide(&a, RPERF_CLOCK_AUTO, &c), 0);
	assert_int_equal(c.source, RPERF_CLOCK_ARM);
	assert_false(c.trusted);
}

static void test_decide_other_arch(void **state)
{
	struct rperf_clock_platform p;
	struct rperf_clock_choice c;

	(void)state;
	memset(&p, 0, sizeof(p));
	assert_int_equal(rperf_clock_decide(&p, RPERF_CLOCK_AUTO, &c), 0);
	assert_int_equal(c.source, RPERF_CLOCK_POSIX);
	assert_true(c.trusted);
	assert_int_equal(rperf_clock_decide(&p, RPERF_CLOCK_TSC, &c), ENOTSUP);
}

static void test_names(void **state)
{
	static const char *const names[] = { "auto", "tsc", "arm", "posix" };
	enum rperf_clock_source s;
	size_t i;

	(void)state;
	for (i = 0; i < 4; i++) {
		assert_int_equal(rperf_clock_source_parse(names[i], &s), 0);
		assert_int_equal((int)s, (int)i);
		assert_string_equal(rperf_clock_source_name(s), names[i]);
	}
	assert_int_equal(rperf_clock_source_parse("TSC", &s), EINVAL);
	assert_int_equal(rperf_clock_source_parse("", &s), EINVAL);
	assert_int_equal(rperf_clock_source_parse("tscx", &s), EINVAL);
	assert_int_equal(rperf_clock_source_parse("hpet", &s), EINVAL);
	assert_int_equal(rperf_clock_source_parse(NULL, &s), EINVAL);
	assert_int_equal(rperf_clock_source_parse("tsc", NULL), EINVAL);
	assert_string_equal(
		rperf_clock_source_name((enum rperf_clock_source)99),
		"unknown");
}

static void test_cpuid15(void **state)
{
	struct rperf_clock_platform p = x86(true, "tsc", false);

	(void)state;
	assert_true(rperf_clock_cpuid15_hz(&p) == 0.0);
	p.cpuid15_eax = 2;
	p.cpuid15_ebx = 250;
	p.cpuid15_ecx = 24000000; /* 24 MHz crystal * 125 = 3 GHz */
	assert_true(fabs(rperf_clock_cpuid15_hz(&p) - 3e9) < 1.0);
	p.cpuid15_ecx = 0;
	assert_true(rperf_clock_cpuid15_hz(&p) == 0.0);
	p.cpuid16_eax = 2100;
	assert_true(fabs(rperf_clock_cpuid15_hz(&p) - 2.1e9) < 1.0);
}

static void test_init_posix(void **state)
{
	struct rperf_clock clk;
	uint64_t a;
	int i;

	(void)state;
	assert_int_equal(rperf_clock_init(&clk, RPERF_CLOCK_POSIX), 0);
	assert_int_equal(clk.source, RPERF_CLOCK_POSIX);
	assert_true(clk.forced);
	assert_true(clk.trusted);
	assert_true(clk.hz == 1e9);
	assert_true(clk.ns_per_tick == 1.0);
	assert_string_equal(clk.method, "native:CLOCK_MONOTONIC_RAW");
	a = rperf_clock_start(&clk);
	for (i = 0; i < 100000; i++) {
		uint64_t b = rperf_clock_end(&clk);

		assert_true(b >= a);
		a = b;
	}
}

static void test_init_auto(void **state)
{
	struct rperf_clock clk;
	uint64_t a;
	int i;

	(void)state;
	assert_int_equal(rperf_clock_init(&clk, RPERF_CLOCK_AUTO), 0);
	assert_false(clk.forced);
	assert_true(clk.hz > 1e6);
	assert_true(isfinite(clk.hz));
	assert_true(fabs(clk.ns_per_tick * clk.hz - 1e9) < 1e-3);
	assert_true(isfinite(clk.error_ppm) && clk.error_ppm >= 0.0);
	assert_true(isfinite(clk.cross_check_ppm));
	assert_true(clk.reason[0] != '\0');
	assert_true(clk.method[0] != '\0');
	print_message(
		"auto: %s hz=%.0f err=%.2f ppm method=%s trusted=%d (%s)\n",
		rperf_clock_source_name(clk.source), clk.hz, clk.error_ppm,
		clk.method, clk.trusted, clk.reason);
	a = rperf_clock_start(&clk);
	for (i = 0; i < 100000; i++) {
		uint64_t b = rperf_clock_end(&clk);

		assert_true(b >= a);
		a = b;
	}
}

static void test_init_tsc_vs_wall(void **state)
{
	struct rperf_clock clk;
	struct timespec ts = { 0, 20000000 };
	uint64_t m0, m1, t0, t1;
	double ns;

	(void)state;
	if (rperf_clock_init(&clk, RPERF_CLOCK_TSC) == ENOTSUP)
		skip();
	assert_int_equal(clk.source, RPERF_CLOCK_TSC);
	assert_true(clk.forced);
	assert_true(clk.hz > 1e6);
	assert_true(clk.calib_rounds >= 1);
	assert_string_equal(clk.method, "calibrated:CLOCK_MONOTONIC_RAW");
	m0 = rperf_clock_posix_now();
	t0 = rperf_clock_start(&clk);
	nanosleep(&ts, NULL);
	t1 = rperf_clock_end(&clk);
	m1 = rperf_clock_posix_now();
	ns = rperf_clock_ticks_to_ns(&clk, (int64_t)(t1 - t0));
	/* within 1000 ppm + 50 us of CLOCK_MONOTONIC_RAW */
	assert_true(fabs(ns - (double)(m1 - m0)) < 50000.0 + 1e-3 * ns);
}

static void test_init_wrong_arch(void **state)
{
	struct rperf_clock clk;

	(void)state;
#if defined(__x86_64__)
	assert_int_equal(rperf_clock_init(&clk, RPERF_CLOCK_ARM), ENOTSUP);
#elif defined(__aarch64__)
	assert_int_equal(rperf_clock_init(&clk, RPERF_CLOCK_TSC), ENOTSUP);
#else
	assert_int_equal(rperf_clock_init(&clk, RPERF_CLOCK_TSC), ENOTSUP);
#endif
	/* still a usable clock, marked untrusted */
	assert_int_equal(clk.source, RPERF_CLOCK_POSIX);
	assert_false(clk.trusted);
	assert_true(clk.hz == 1e9);
	assert_true(strstr(clk.reason, "not available") != NULL);
	assert_int_equal(rperf_clock_init(NULL, RPERF_CLOCK_AUTO), EINVAL);
}

static void test_ticks_to_ns(void **state)
{
	struct rperf_clock clk;

	(void)state;
	memset(&clk, 0, sizeof(clk));
	clk.hz = 2.5e9;
	clk.ns_per_tick = 1e9 / clk.hz;
	assert_true(fabs(rperf_clock_ticks_to_ns(&clk, 2500) - 1000.0) < 1e-9);
	assert_true(fabs(rperf_clock_ticks_to_ns(&clk, -2500) + 1000.0) < 1e-9);
	assert_true(rperf_clock_ticks_to_ns(&clk, 0) == 0.0);
	/* a negative delta computed from unsigned reads keeps its sign */
	assert_true(rperf_clock_ticks_to_ns(&clk, (int64_t)(100ull - 350ull)) <
		    0.0);
	assert_true(fabs(rperf_clock_ticks_to_ns(&clk, INT64_MIN / 4) +
			 (double)(INT64_MAX / 4) * 0.4) < 1e6);
}

static void check_selftest(const struct rperf_clock *clk)
{
	struct rperf_clock_selftest st;

	assert_int_equal(rperf_clock_selftest(clk, 20.0, &st), 0);
	print_message(
		"%s: pair min=%.1f median=%.1f ns res=%.2f ns max_gap=%.0f ns spin=%.1f ms reads=%llu\n",
		rperf_clock_source_name(clk->source), st.overhead_ns_min,
		st.overhead_ns_median, st.resolution_ns, st.max_gap_ns,
		st.spin_ms, (unsigned long long)st.reads);
	assert_true(st.overhead_ns_min >= 0.0);
	assert_true(st.overhead_ns_min <= st.overhead_ns_median);
	assert_true(st.overhead_ns_median < 1e6);
	assert_true(st.resolution_ns > 0.0);
	assert_true(st.max_gap_ns >= 0.0);
	/* the spin ends at floor(20 ms * hz) ticks: up to a tick short */
	assert_true(st.spin_ms >= 20.0 - 1e-6 && st.spin_ms < 10000.0);
	assert_true(st.reads > 1);
	assert_int_equal(rperf_clock_selftest(clk, -1.0, &st), EINVAL);
	assert_int_equal(rperf_clock_selftest(clk, NAN, &st), EINVAL);
	assert_int_equal(rperf_clock_selftest(NULL, 1.0, &st), EINVAL);
}

static void test_selftest(void **state)
{
	struct rperf_clock clk;

	(void)state;
	assert_int_equal(rperf_clock_init(&clk, RPERF_CLOCK_AUTO), 0);
	check_selftest(&clk);
	assert_int_equal(rperf_clock_init(&clk, RPERF_CLOCK_POSIX), 0);
	check_selftest(&clk);
}

static void test_calibrate_params(void **state)
{
	struct rperf_clock clk;
	struct rperf_clock_calib cal;
	struct rperf_clock_calib_params p;

	(void)state;
	assert_int_equal(rperf_clock_init(&clk, RPERF_CLOCK_POSIX), 0);
	rperf_clock_calib_defaults(&p);
	assert_true(p.start_ms == 10.0 && p.cap_ms == 250.0);
	p.start_ms = 2.0;
	p.cap_ms = 8.0;
	assert_int_equal(rperf_clock_calibrate(&clk, &p, &cal), 0);
	assert_true(cal.rounds >= 1 && cal.rounds <= 3);
	assert_true(fabs(cal.hz - 1e9) / 1e9 < 1e-3);
	assert_true(isfinite(cal.error_ppm));
	p.cap_ms = 1.0; /* cap below start */
	assert_int_equal(rperf_clock_calibrate(&clk, &p, &cal), EINVAL);
	p.cap_ms = 8.0;
	p.triples = 0;
	assert_int_equal(rperf_clock_calibrate(&clk, &p, &cal), EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decide_invariant_tsc),
		cmocka_unit_test(test_decide_qemu_hpet),
		cmocka_unit_test(test_decide_not_invariant),
		cmocka_unit_test(test_decide_hypervisor_tsc),
		cmocka_unit_test(test_decide_forced),
		cmocka_unit_test(test_decide_arm64),
		cmocka_unit_test(test_decide_other_arch),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_cpuid15),
		cmocka_unit_test(test_init_posix),
		cmocka_unit_test(test_init_auto),
		cmocka_unit_test(test_init_tsc_vs_wall),
		cmocka_unit_test(test_init_wrong_arch),
		cmocka_unit_test(test_ticks_to_ns),
		cmocka_unit_test(test_selftest),
		cmocka_unit_test(test_calibrate_params),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
