/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The LSG's probe schedules (gen/schedule.h) on the scripted device's
 * virtual clock (scripted_dev.h), and the schedule spellings.
 *
 * The path: the wire SEND's latency alternates between two levels, BASE
 * for 70 % of every PERIOD and SLOW = 10 x BASE for the other 30 %
 * (decided by the virtual time at which the SEND is posted; completions
 * stay in order per QP, as RC). The loopback takes LOOP. The run lasts a
 * whole number of periods, so the path's share of slow time is exactly
 * SLOW_SHARE and its time-average RTT exactly AVG_RTT whatever the phase.
 *
 * Asserted: poisson recovers the slow share within +-2 points (SHARE_TOL)
 * and the time-average within 5 % (AVG_TOL); fixed does too (its rate does
 * not lock to the period's phase); closed is printed beside them (a closed
 * loop takes ten fast samples per slow one: it is expected to be biased,
 * and the test asserts that it is, so the comparison can fail). A slow
 * sample is one above 10x the idle median (as the lab's suite counts).
 * The sampling error: 10,000 poisson samples, binomial sd of the share
 * sqrt(0.3 * 0.7 / 10^4) = 0.46 points, so +-2 points is 4 sd.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gen/gen.h"
#include "gen/lsg.h"
#include "gen/schedule.h"
#include "scripted_dev.h"

#define BASE 10000ull /* ns: the wire's fast level */
#define SLOW (10 * BASE)
#define LOOP 2000ull
#define PERIOD 10000000ull /* 10 ms */
#define SLOW_SPAN (PERIOD * 3 / 10)
#define SLOW_SHARE 0.30
#define AVG_RTT (0.7 * (BASE - LOOP) + 0.3 * (SLOW - LOOP))
#define PERIODS 50
#define RATE 20000.0 /* samples/s: 10,000 in the 0.5 s run */
#define SHARE_TOL 0.02
#define AVG_TOL 0.05

enum { WIRE_QP = 0, LOOP_QP = 1, LOOP_RX = 2 };

struct fx {
	struct sdev *d;
	struct rperf_lsg_qps q;
	struct rperf_lsg_cfg cfg;
	struct rperf_lsg_res res;
	bool alternate; /* the two-level path; else BASE throughout */
	uint64_t step_at; /* !alternate: SLOW from this virtual time on; 0 */
	uint64_t wire_ns; /* with !alternate: the wire's latency */
};

static void script(void *arg, int qp, uint64_t seq, struct sdev_wr *w)
{
	const struct fx *f = arg;

	(void)seq;
	if (qp != WIRE_QP)
		w->lat_ns = LOOP;
	else if (!f->alternate)
		w->lat_ns = f->step_at && f->d->now >= f->step_at ? SLOW :
								    f->wire_ns;
	else
		w->lat_ns = f->d->now % PERIOD < SLOW_SPAN ? SLOW : BASE;
}

static struct fx *fx_new(bool alternate, const char *schedule)
{
	struct fx *f = calloc(1, sizeof(*f));
	char why[200];

	assert_non_null(f);
	f->alternate = alternate;
	f->wire_ns = BASE;
	f->d = sdev_create(script, f);
	assert_non_null(f->d);
	f->q.wire = sdev_add_qp(f->d, -1, false);
	f->q.loop_tx = sdev_add_qp(f->d, LOOP_RX, false);
	f->q.loop_rx = sdev_add_qp(f->d, -1, false);
	f->q.send_buf = f->q.loop_rx_buf = f->q.wire_rx_buf = &f->d->buf;
	f->q.rx_depth = 64;
	f->d->qps[LOOP_RX].recvs = 64;
	f->cfg = (struct rperf_lsg_cfg){ .clk = &f->d->clk,
					 .method = RPERF_METHOD_RPERF,
					 .size = 64,
					 .duration_ns = PERIODS * PERIOD,
					 .warmup = 10,
					 .keep_raw = true,
					 .stall_ns = 1000000000ull,
					 .stop = &f->d->stop,
					 .peer_fd = -1,
					 .seed = 42,
					 .max_inflight = 15,
					 .ops = &sdev_ops,
					 .ops_ctx = f->d };
	assert_int_equal(rperf_sched_parse(schedule, &f->cfg.schedule, why,
					   sizeof(why)),
			 0);
	assert_int_equal(rperf_lsg_res_init(&f->res, RPERF_METHOD_RPERF, false),
			 0);
	return f;
}

static void fx_free(struct fx *f)
{
	rperf_lsg_res_fini(&f->res);
	sdev_destroy(f->d);
	free(f);
}

/* The idle median RTT: a closed run on the fast level alone. */
static double idle_median(void)
{
	struct fx *f = fx_new(false, "closed");
	double m;

	f->cfg.duration_ns = 0;
	f->cfg.iters = 2000;
	assert_int_equal(rperf_lsg_run(&f->cfg, &f->q, &f->res), 0);
	m = (double)rperf_hist_percentile(f->res.rtt, 50);
	fx_free(f);
	return m;
}

struct figures {
	uint64_t n;
	double slow_share, mean_ns;
};

static struct figures run_alternating(const char *schedule, double slow_above)
{
	struct fx *f = fx_new(true, schedule);
	struct figures g = { 0 };
	uint64_t slow = 0;
	double sum = 0;

	assert_int_equal(rperf_lsg_run(&f->cfg, &f->q, &f->res), 0);
	assert_string_equal(f->res.error, "");
	assert_int_equal(f->res.nraw, f->res.samples);
	for (size_t i = 0; i < f->res.nraw; i++) {
		slow += (double)f->res.raw[i].rtt_ns > slow_above;
		sum += (double)f->res.raw[i].rtt_ns;
	}
	g.n = f->res.samples;
	g.slow_share = (double)slow / (double)g.n;
	g.mean_ns = sum / (double)g.n;
	printf("  %-14s %6llu samples, slow share %5.1f %% (path: %.1f %%), mean RTT %6.2f us (path's time-average %.2f us), late %llu, in flight <= %u\n",
	       schedule, (unsigned long long)g.n, 100 * g.slow_share,
	       100 * SLOW_SHARE, g.mean_ns / 1e3, AVG_RTT / 1e3,
	       (unsigned long long)f->res.late, f->res.inflight_max);
	if (f->cfg.schedule.kind != RPERF_SCHED_CLOSED)
		assert_false(rperf_lsg_fell_behind(&f->res));
	fx_free(f);
	return g;
}

static void check_unbiased(const struct figures *g, const char *what)
{
	double err = fabs(g->mean_ns - AVG_RTT) / AVG_RTT;

	if (fabs(g->slow_share - SLOW_SHARE) > SHARE_TOL)
		fail_msg(
			"%s: slow share %.2f %%, the path's %.0f %% +- %.0f points",
			what, 100 * g->slow_share, 100 * SLOW_SHARE,
			100 * SHARE_TOL);
	if (err > AVG_TOL)
		fail_msg(
			"%s: mean RTT %.0f ns, the path's time-average %.0f ns +- %.0f %%",
			what, g->mean_ns, AVG_RTT, 100 * AVG_TOL);
}

/* The Done-when of issue 20: poisson against the closed loop. */
static void poisson_sees_time_averages(void **state)
{
	double idle = idle_median();
	struct figures p, c, x;

	(void)state;
	printf("  idle median RTT %.2f us; slow = above %.1f us\n", idle / 1e3,
	       10 * idle / 1e3);
	p = run_alternating("poisson:20k", 10 * idle);
	x = run_alternating("fixed:20000", 10 * idle);
	c = run_alternating("closed", 10 * idle);
	assert_in_range(p.n, 9000, 11000);
	check_unbiased(&p, "poisson");
	check_unbiased(&x, "fixed");
	/* the closed loop's bias (what the schedules exist for) */
	assert_true(c.slow_share < SLOW_SHARE / 2);
	assert_true(c.mean_ns < AVG_RTT * 0.6);
	(void)RATE;
}

/*
 * Several samples in flight: a constant path 50 us long probed at 100k
 * samples/s keeps about 5 on the wire; every sample's RTT is still
 * Equation 1 of its own pair of SENDs (wire - loopback) within one pass of
 * the loop that posts a sample while a completion waits (2 posts, 5 polls:
 * 2 peeks, wire, loopback, the loopback receiver's refill; 4 clock reads),
 * and none is late.
 */
static void in_flight_equation_1(void **state)
{
	struct fx *f = fx_new(false, "poisson:100k");
	const uint64_t pass = 2 * 100 + 5 * 20 + 4 * 5;

	(void)state;
	f->wire_ns = 50000;
	f->cfg.duration_ns = 100000000;
	assert_int_equal(rperf_lsg_run(&f->cfg, &f->q, &f->res), 0);
	assert_in_range(f->res.samples, 9000, 11000);
	assert_true(f->res.inflight_max >= 5);
	assert_int_equal(f->d->rnr, 0);
	for (size_t i = 0; i < f->res.nraw; i++) {
		int64_t err = f->res.raw[i].rtt_ns - (int64_t)(50000 - LOOP);

		if (err > (int64_t)pass || err < -(int64_t)pass)
			fail_msg(
				"sample %zu: RTT %lld ns, scripted %llu +- %llu",
				i, (long long)f->res.raw[i].rtt_ns,
				(unsigned long long)(50000 - LOOP),
				(unsigned long long)pass);
	}
	/* lag: a sample due while earlier ones are being posted waits for
	 * them (poisson gaps are often shorter than a post) */
	printf("  lag p99 %lld ns, max %lld ns\n",
	       (long long)rperf_hist_percentile(f->res.lag, 99),
	       (long long)rperf_hist_max(f->res.lag));
	assert_int_equal(f->res.late, 0);
	assert_true(rperf_hist_percentile(f->res.lag, 99) < 1000);
	assert_true(rperf_hist_max(f->res.lag) < 10000);
	fx_free(f);
}

/* One sample in flight on a 100 us path cannot keep 50k samples/s: the
 * report says it fell behind instead of silently closing the loop. */
static void falls_behind(void **state)
{
	struct fx *f = fx_new(false, "fixed:50k");

	(void)state;
	f->wire_ns = 100000;
	f->cfg.max_inflight = 1;
	f->cfg.duration_ns = 50000000;
	assert_int_equal(rperf_lsg_run(&f->cfg, &f->q, &f->res), 0);
	assert_true(f->res.samples > 100);
	assert_true(f->res.late > f->res.samples / 2);
	assert_true(rperf_lsg_fell_behind(&f->res));
	assert_int_equal(f->res.lag_bound_ns, 20000);
	assert_true(rperf_hist_max(f->res.lag) > 1000000);
	fx_free(f);
}

/* Iteration mode: exactly iters samples after the warm-up. */
static void iterations(void **state)
{
	struct fx *f = fx_new(false, "poisson:1000");

	(void)state;
	f->cfg.duration_ns = 0;
	f->cfg.iters = 500;
	assert_int_equal(rperf_lsg_run(&f->cfg, &f->q, &f->res), 0);
	assert_int_equal(f->res.samples, 500);
	assert_int_equal(f->res.warmup, 10);
	/* 500 gaps of mean 1 ms */
	assert_true(f->res.seconds > 0.4 && f->res.seconds < 0.6);
	fx_free(f);
}

/* iters with a window (rperf run's LSG): whichever comes first. 300
 * samples at 1000/s end after ~0.3 s of a 0.5 s window; 5000 do not fit
 * in it: the window ends the run after ~500. */
static void iterations_in_window(void **state)
{
	struct fx *f = fx_new(false, "poisson:1000");

	(void)state;
	f->cfg.duration_ns = PERIODS * PERIOD; /* 0.5 s */
	f->cfg.iters = 300;
	assert_int_equal(rperf_lsg_run(&f->cfg, &f->q, &f->res), 0);
	assert_int_equal(f->res.samples, 300);
	assert_true(f->res.seconds > 0.2 && f->res.seconds < 0.4);
	fx_free(f);
	f = fx_new(false, "poisson:1000");
	f->cfg.iters = 5000;
	assert_int_equal(rperf_lsg_run(&f->cfg, &f->q, &f->res), 0);
	assert_in_range(f->res.samples, 400, 600);
	assert_true(f->res.seconds > 0.45 && f->res.seconds < 0.6);
	fx_free(f);
}

/*
 * The time series: a path fast for 100 ms, then slow (SLOW) for 100 ms,
 * 10 ms intervals. Every interval is reported (20), each with its level's
 * median; the samples per interval show what the schedule did: poisson
 * ~200 in each, closed ~10x fewer in the slow half.
 */
static void series_of(const char *schedule, uint64_t *fast_n, uint64_t *slow_n)
{
	struct fx *f = fx_new(false, schedule);
	const struct rperf_lsg_series *ser = &f->res.series;
	uint64_t sum = 0;

	f->cfg.warmup = 0;
	f->cfg.interval_ns = 10000000;
	f->cfg.duration_ns = 200000000;
	f->step_at = f->d->now + 100000000;
	assert_int_equal(rperf_lsg_run(&f->cfg, &f->q, &f->res), 0);
	assert_in_range(ser->n, 20, 21);
	*fast_n = *slow_n = 0;
	for (size_t i = 0; i < ser->n; i++) {
		const struct rperf_lsg_interval *iv = &ser->iv[i];
		int64_t want = i < 10 ? (int64_t)(BASE - LOOP) :
					(int64_t)(SLOW - LOOP);

		sum += iv->samples;
		assert_int_equal(iv->start_ns, i * 10000000ull);
		if (i == 9 || i == 10 || i >= 20)
			continue; /* the step's interval, a last partial one */
		assert_true(iv->samples > 0);
		assert_true(llabs(iv->p50_ns - want) < want / 10);
		assert_true(iv->max_ns >= iv->p99_ns &&
			    iv->p99_ns >= iv->p50_ns);
		*(i < 10 ? fast_n : slow_n) += iv->samples;
	}
	assert_int_equal(sum, f->res.samples);
	printf("  %-12s %zu intervals; samples in 8 fast ones %llu, in 8 slow ones %llu\n",
	       schedule, ser->n, (unsigned long long)*fast_n,
	       (unsigned long long)*slow_n);
	fx_free(f);
}

static void time_series(void **state)
{
	uint64_t pf, ps, cf, cs;

	(void)state;
	series_of("poisson:20k", &pf, &ps);
	series_of("closed", &cf, &cs);
	/* poisson: as many samples slow as fast (+-15 %: 1,600 each) */
	assert_true(ps * 100 > pf * 85 && ps * 100 < pf * 115);
	/* closed: the slow half is under-sampled about 10x */
	assert_true(cs * 5 < cf);
}

static void refusals(void **state)
{
	struct fx *f = fx_new(false, "poisson:1000");

	(void)state;
	f->cfg.pair_order = RPERF_PAIR_SEQUENTIAL;
	assert_int_equal(rperf_lsg_run(&f->cfg, &f->q, &f->res), EINVAL);
	assert_non_null(strstr(f->res.error, "schedule closed"));
	fx_free(f);
}

static void spellings(void **state)
{
	static const char *const good[][2] = {
		{ "closed", "closed" },
		{ "fixed:500", "fixed:500" },
		{ "poisson:500", "poisson:500" },
		{ "poisson:2k", "poisson:2000" },
		{ "fixed:1.5M", "fixed:1500000" },
		{ "poisson:0.5", "poisson:0.5" },
	};
	static const char *const bad[] = {
		"",	     "open",	    "poisson",	 "poisson:",
		"poisson:0", "fixed:-1",    "fixed:1e9", "poisson:5x",
		"Closed:1",  "poisson:nan", "closed:5"
	};
	struct rperf_sched s;
	char why[200], buf[RPERF_SCHED_TEXT];

	(void)state;
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		assert_int_equal(
			rperf_sched_parse(good[i][0], &s, why, sizeof(why)), 0);
		rperf_sched_format(&s, buf, sizeof(buf));
		assert_string_equal(buf, good[i][1]);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		why[0] = '\0';
		assert_int_equal(rperf_sched_parse(bad[i], &s, why,
						   sizeof(why)),
				 EINVAL);
		assert_non_null(strstr(why, "poisson:RATE"));
	}
}

/* The poisson gaps: mean 1/rate, coefficient of variation 1. */
static void poisson_gaps(void **state)
{
	struct rperf_sched s = { RPERF_SCHED_POISSON, 1000 };
	struct rperf_sched_gen g;
	double sum = 0, sq = 0, m, sd;
	const int n = 100000;

	(void)state;
	rperf_sched_gen_init(&g, &s, 7);
	for (int i = 0; i < n; i++) {
		double x = rperf_sched_next_ns(&g);

		assert_true(x >= 0);
		sum += x;
		sq += x * x;
	}
	m = sum / n;
	sd = sqrt(sq / n - m * m);
	/* the mean's sd is 1e6 / sqrt(1e5) = 3.2 us: 1 % is 3 sd */
	assert_true(fabs(m - 1e6) < 1e4);
	assert_true(fabs(sd / m - 1) < 0.02);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(spellings),
		cmocka_unit_test(poisson_gaps),
		cmocka_unit_test(poisson_sees_time_averages),
		cmocka_unit_test(in_flight_equation_1),
		cmocka_unit_test(falls_behind),
		cmocka_unit_test(iterations),
		cmocka_unit_test(iterations_in_window),
		cmocka_unit_test(refusals),
		cmocka_unit_test(time_series),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
