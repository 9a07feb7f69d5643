/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rperf bw's "BW peak" (perftest's column 3): the best rate of a window
 * between two interval ticks at which completions arrived, fed with the
 * generator's ticks as bw_client feeds them (rperf_bw_on_interval).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include <rperf/report.h>

#include "twohost/twohost_bw.h"
#include "job/cmdline.h"
#include "gen/bw_math.h"
#include "twohost/twohost_spec.h"

#define NEAR(a, b) assert_true(fabs((a) - (b)) <= 1e-9 * fabs(b) + 1e-12)

static void tick(struct rperf_bw_run *run, double t0, double t1,
		 uint64_t messages, uint64_t size)
{
	struct rperf_bsg_tick t = { .messages = messages,
				    .bytes = messages * size,
				    .t_start = t0,
				    .t_end = t1 };

	rperf_bw_on_interval(run, &t);
}

/* Completions every 100 ms: the peak is the best 100 ms interval. */
static void steady(void **state)
{
	struct rperf_cmdline cfg;
	struct rperf_bw_run run;

	(void)state;
	rperf_cmdline_defaults(&cfg); /* no --interval: nothing printed */
	memset(&run, 0, sizeof(run));
	run.c.cfg = &cfg;
	tick(&run, 0, 0.1, 100, 1000); /* 1e5 B in 0.1 s: 8 Mb/s */
	tick(&run, 0.1, 0.2, 300, 1000); /* 2e5 B: 16 Mb/s */
	tick(&run, 0.2, 0.3, 350, 1000);
	NEAR(run.peak_gbps, 0.016);
}

/*
 * Signaled every 100th message, completions arrive in batches of 100 every
 * second while the ticks come every 100 ms: the batch is spread over the
 * second since the previous completion, never credited to one 100 ms
 * interval (which would be 10 times the real rate).
 */
static void batched(void **state)
{
	struct rperf_cmdline cfg;
	struct rperf_bw_run run;
	uint64_t done = 0;

	(void)state;
	rperf_cmdline_defaults(&cfg);
	memset(&run, 0, sizeof(run));
	run.c.cfg = &cfg;
	for (int k = 1; k <= 30; k++) {
		if (k % 10 == 0)
			done += 100;
		tick(&run, (k - 1) / 10.0, k / 10.0, done, 65536);
	}
	/* 100 x 65536 B per second = 52.4288 Mb/s, not 524 */
	NEAR(run.peak_gbps, 100 * 65536 * 8 / 1e9);
}

/*
 * The lab's case: 64 KiB messages signaled every 100th, one completion
 * every 0.17-0.21 s (a steady 33.5 MB/s with jitter), ticks every 100 ms.
 * A window between two ticks with completions holds one or two of them,
 * so its rate is a quantum (up to 2 x 100 x 64 KiB / 0.2 s = 62.5 MB/s,
 * the 1.6-1.7 x the average seen in the lab); a window of at least
 * RPERF_BW_PEAK_MIN_SIGNALS completions gives the rate to within 15 %.
 */
static double lab_peak(uint64_t min_bytes, double *avg)
{
	static const double gap[] = { 0.17, 0.21, 0.19, 0.18, 0.20,
				      0.21, 0.17, 0.19, 0.20, 0.18 };
	struct rperf_cmdline cfg;
	struct rperf_bw_run run;
	double next = gap[0];
	uint64_t done = 0;
	int k, g = 1;

	rperf_cmdline_defaults(&cfg);
	memset(&run, 0, sizeof(run));
	run.c.cfg = &cfg;
	run.peak_min_bytes = min_bytes;
	for (k = 1; k <= 100; k++) { /* 10 s */
		while (next <= k / 10.0) {
			done += 100;
			next += gap[g++ % 10];
		}
		tick(&run, (k - 1) / 10.0, k / 10.0, done, 65536);
	}
	*avg = (double)done * 65536 * 8 / 10.0 / 1e9;
	return run.peak_gbps;
}

static void quantised(void **state)
{
	double avg, peak;

	(void)state;
	assert_int_equal(rperf_bw_peak_min_bytes(65536, 1, 100),
			 RPERF_BW_PEAK_MIN_SIGNALS * 100ull * 65536);
	assert_int_equal(rperf_bw_peak_min_bytes(4096, 4, 100),
			 RPERF_BW_PEAK_MIN_SIGNALS * 400ull * 4096);
	assert_true(rperf_bw_peak_min_bytes(UINT64_MAX / 2, 64, 1000) ==
		    UINT64_MAX);
	/* without the minimum: the quantum, 1.5 x and more */
	peak = lab_peak(0, &avg);
	assert_true(peak > 1.5 * avg);
	/* with it: within 15 % of the average of this steady flow */
	peak = lab_peak(rperf_bw_peak_min_bytes(65536, 1, 100), &avg);
	assert_true(peak >= avg && peak <= 1.15 * avg);
}

/* Nothing completed: no peak (the report falls back to the average). */
static void idle(void **state)
{
	struct rperf_cmdline cfg;
	struct rperf_bw_run run;

	(void)state;
	rperf_cmdline_defaults(&cfg);
	memset(&run, 0, sizeof(run));
	run.c.cfg = &cfg;
	tick(&run, 0, 0.1, 0, 64);
	tick(&run, 0.1, 0.2, 0, 64);
	assert_true(run.peak_gbps == 0);
}

/* The generator's interval and duration for --interval / -D /
 * --run_infinitely (perftest's report period). */
static void ticks_and_duration(void **state)
{
	struct rperf_cmdline cfg;
	struct rperf_gen_spec s;

	(void)state;
	rperf_cmdline_defaults(&cfg);
	assert_int_equal(rperf_bw_tick_ns(&cfg), RPERF_BW_PEAK_NS);
	assert_false(rperf_bw_prints_intervals(&cfg));
	cfg.global.duration_ns = 3000000000ull;
	rperf_twohost_spec(&cfg, RPERF_GEN_BSG, &s);
	assert_int_equal(s.duration_ns, 3000000000ull);
	assert_false(rperf_bw_prints_intervals(&cfg));
	cfg.run_infinitely = true;
	assert_int_equal(rperf_bw_tick_ns(&cfg), 3000000000ull);
	rperf_twohost_spec(&cfg, RPERF_GEN_BSG, &s);
	assert_int_equal(s.duration_ns, 0);
	assert_true(rperf_bw_prints_intervals(&cfg));
	cfg.spec.interval_ns = 500000000ull;
	assert_int_equal(rperf_bw_tick_ns(&cfg), 500000000ull);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(steady),
		cmocka_unit_test(batched),
		cmocka_unit_test(quantised),
		cmocka_unit_test(idle),
		cmocka_unit_test(ticks_and_duration),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
