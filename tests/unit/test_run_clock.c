/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The start barrier's clock offset estimator (src/run/run_clock.c) on
 * scripted exchanges: a known offset, delays there and back, the agent's
 * hold time; symmetric delays give the exact offset, asymmetric ones an
 * error within the stated uncertainty, a queued (noisy) exchange is not
 * chosen, contradictory stamps are rejected and counted.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "run/run_clock.h"

#define OFFSET 5000000000123ll /* agent clock - controller clock, ns */

/* One exchange sent at @t1 (controller), @d1 ns there, held @hold ns by
 * the agent, @d2 ns back. */
static struct run_clock_xchg xchg(uint64_t t1, uint64_t d1, uint64_t hold,
				  uint64_t d2)
{
	struct run_clock_xchg x;

	x.t1 = t1;
	x.t2 = t1 + d1 + (uint64_t)OFFSET;
	x.t3 = x.t2 + hold;
	x.t4 = t1 + d1 + hold + d2;
	return x;
}

static void test_symmetric_exact(void **state)
{
	struct run_clock_xchg x[4];
	struct run_clock_offset o;

	(void)state;
	for (size_t i = 0; i < 4; i++)
		x[i] = xchg(1000000 + i * 100000, 50000 + i * 1000, 20000,
			    50000 + i * 1000);
	assert_int_equal(run_clock_estimate(x, 4, &o), 0);
	assert_true(o.valid);
	assert_int_equal(o.offset_ns, OFFSET);
	assert_int_equal(o.rtt_ns, 100000); /* the first: least RTT */
	assert_int_equal(o.uncertainty_ns, 50000);
	assert_int_equal(o.used, 4);
	assert_int_equal(o.rejected, 0);
	assert_int_equal(run_clock_to_ctrl(&o, run_clock_to_agent(&o, 777)),
			 777);
}

/* 100 us there, 300 us back: off by (100 - 300) / 2 = -100 us, inside
 * the uncertainty (half the 400 us round trip). */
static void test_asymmetric_within_uncertainty(void **state)
{
	struct run_clock_xchg x[3];
	struct run_clock_offset o;
	int64_t err;

	(void)state;
	for (size_t i = 0; i < 3; i++)
		x[i] = xchg(2000000 + i * 1000000, 100000, 5000, 300000);
	assert_int_equal(run_clock_estimate(x, 3, &o), 0);
	err = o.offset_ns - OFFSET;
	assert_int_equal(err, -100000);
	assert_int_equal(o.uncertainty_ns, 200000);
	assert_true(llabs(err) <= (long long)o.uncertainty_ns);
}

/* Seven clean exchanges and one queued 5 ms on the way there (whose
 * estimate would be 2.5 ms off): the queued one is not chosen. */
static void test_noisy_sample_rejected(void **state)
{
	struct run_clock_xchg x[8];
	struct run_clock_offset o;

	(void)state;
	for (size_t i = 0; i < 8; i++)
		x[i] = xchg(3000000 + i * 1000000, 60000 + 3000 * (i % 3),
			    10000, 60000 + 3000 * (i % 3));
	x[0] = xchg(3000000, 5000000, 10000, 60000); /* queued */
	assert_int_equal(run_clock_estimate(&x[0], 1, &o), 0);
	assert_true(llabs(o.offset_ns - OFFSET) > 2000000); /* alone: off */
	assert_int_equal(run_clock_estimate(x, 8, &o), 0);
	assert_int_equal(o.offset_ns, OFFSET);
	assert_int_equal(o.rtt_ns, 120000);
}

/* Contradictory stamps (an answer before its question, an agent that
 * answered before it received) are rejected and counted; nothing usable:
 * ENODATA. */
static void test_contradictory_rejected(void **state)
{
	struct run_clock_xchg x[3];
	struct run_clock_offset o;

	(void)state;
	x[0] = xchg(1000000, 50000, 1000, 50000);
	x[0].t4 = x[0].t1 - 1; /* back before sent */
	x[1] = xchg(2000000, 50000, 1000, 50000);
	x[1].t3 = x[1].t2 - 10; /* answered before received */
	x[2] = xchg(3000000, 50000, 1000, 50000);
	x[2].t3 = x[2].t2 + 200000; /* held longer than the round trip */
	assert_int_equal(run_clock_estimate(x, 3, &o), ENODATA);
	assert_false(o.valid);
	assert_int_equal(o.rejected, 3);
	x[2] = xchg(3000000, 70000, 1000, 30000);
	assert_int_equal(run_clock_estimate(x, 3, &o), 0);
	assert_int_equal(o.rejected, 2);
	assert_int_equal(o.offset_ns, OFFSET + 20000);
	assert_int_equal(run_clock_estimate(x, 0, &o), ENODATA);
}

/* A negative offset (the agent's clock behind) and clocks far apart. */
static void test_negative_offset(void **state)
{
	struct run_clock_xchg x = { .t1 = 9000000000000ull,
				    .t2 = 1000050ull,
				    .t3 = 1000060ull,
				    .t4 = 9000000000110ull };
	struct run_clock_offset o;

	(void)state;
	assert_int_equal(run_clock_estimate(&x, 1, &o), 0);
	assert_int_equal(o.offset_ns, -8999999000000ll);
	assert_int_equal(o.rtt_ns, 100);
	assert_int_equal(run_clock_to_agent(&o, 9000000000000ull) + 0,
			 1000000ull);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_symmetric_exact),
		cmocka_unit_test(test_asymmetric_within_uncertainty),
		cmocka_unit_test(test_noisy_sample_rejected),
		cmocka_unit_test(test_contradictory_rejected),
		cmocka_unit_test(test_negative_offset),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
