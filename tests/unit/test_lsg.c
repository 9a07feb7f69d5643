/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The LSG's timing logic on the scripted device (scripted_dev.h): every
 * pair order against loopback faster than the wire, the wire faster than
 * the loopback, precompleted SENDs, reordered completions, 1 % jitter, a
 * failed completion, a stall, the stop flag and a peer gone.
 *
 * The bound checked: a completion that becomes ready while the LSG polls is
 * stamped by the first poll that returns it, so each stamp is late by one
 * poll (the constant poll_ns, which cancels in the RTT) plus less than one
 * pass of the polling loop: ITER = 2 polls + 2 clock reads. The RTT error
 * is then within ITER. A completion that happens inside its own post
 * (precompleted) can only be seen when the post returns: its stamp is late
 * by up to the post's cost (POST) instead.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "job/cmdline.h"
#include "gen/lsg.h"
#include "scripted_dev.h"

#define N 2000
#define POST 100 /* the device's costs (sdev_create) */
#define POLL 20
#define CLK 5
#define ITER (2 * POLL + 2 * CLK)
#define NONE UINT64_MAX

enum { WIRE_QP = 0, LOOP_QP = 1, LOOP_RX = 2 };

struct fx {
	struct sdev *d;
	struct rperf_lsg_qps q;
	struct rperf_lsg_cfg cfg;
	struct rperf_lsg_res res;
	uint64_t lat[2][2]; /* [wire/loop][seq parity] ns */
	uint64_t reply_ns;
	double jitter; /* relative, +-: 0.01 = 1 % */
	uint64_t fail_at, never_at; /* wire WR seq, NONE: none */
};

static uint64_t splitmix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

/* The scripted latency of WR @seq on QP @qp (wire or loopback sender). */
static uint64_t lat_of(const struct fx *f, int qp, uint64_t seq)
{
	double u = (double)(splitmix(seq * 2 + (uint64_t)qp) >> 11) /
		   (double)(1ull << 53);
	double base = (double)f->lat[qp][seq & 1];

	return (uint64_t)(base * (1 + f->jitter * (2 * u - 1)));
}

static void script(void *arg, int qp, uint64_t seq, struct sdev_wr *w)
{
	const struct fx *f = arg;

	w->lat_ns = lat_of(f, qp, seq);
	w->reply_ns = f->reply_ns;
	if (qp == WIRE_QP && seq == f->fail_at)
		w->status = IBV_WC_RETRY_EXC_ERR;
	if (qp == WIRE_QP && seq == f->never_at)
		w->never = true;
}

static struct fx *fx_new(uint64_t wire, uint64_t loop)
{
	struct fx *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	f->d = sdev_create(script, f);
	assert_non_null(f->d);
	f->lat[0][0] = f->lat[0][1] = wire;
	f->lat[1][0] = f->lat[1][1] = loop;
	f->fail_at = f->never_at = NONE;
	f->q.wire = sdev_add_qp(f->d, -1, true);
	f->q.loop_tx = sdev_add_qp(f->d, LOOP_RX, false);
	f->q.loop_rx = sdev_add_qp(f->d, -1, false);
	f->q.send_buf = f->q.loop_rx_buf = f->q.wire_rx_buf = &f->d->buf;
	f->q.rx_depth = 64;
	f->d->qps[WIRE_QP].recvs = f->d->qps[LOOP_RX].recvs = 64;
	f->cfg = (struct rperf_lsg_cfg){ .clk = &f->d->clk,
					 .method = RPERF_METHOD_RPERF,
					 .size = 64,
					 .remote_size = sizeof(f->d->mem),
					 .iters = N,
					 .keep_raw = true,
					 .solicit_every = 16,
					 .stall_ns = 1000000,
					 .stop = &f->d->stop,
					 .peer_fd = -1,
					 .ops = &sdev_ops,
					 .ops_ctx = f->d };
	return f;
}

static void fx_free(struct fx *f)
{
	rperf_lsg_res_fini(&f->res);
	sdev_destroy(f->d);
	free(f);
}

static int run(struct fx *f, int order)
{
	f->cfg.pair_order = order;
	/* the server's software replies only in pingpong */
	f->d->qps[WIRE_QP].replies = f->cfg.method == RPERF_METHOD_PINGPONG;
	assert_int_equal(rperf_lsg_res_init(&f->res, f->cfg.method, false), 0);
	return rperf_lsg_run(&f->cfg, &f->q, &f->res);
}

/* A stamp's delay after the completion was ready, beyond the one poll. */
static void check_stamp(int64_t measured, uint64_t lat, uint64_t late_max,
			const char *what, size_t i)
{
	int64_t late = measured - (int64_t)(lat + CLK + POLL);

	if (late < 0 || late > (int64_t)late_max)
		fail_msg(
			"sample %zu: %s stamped %lld ns late (allowed 0..%llu)",
			i, what, (long long)late, (unsigned long long)late_max);
}

/*
 * Every sample against the script: each stamp, and the RTT within @bound.
 * A precompleted SEND (latency <= POST) may be stamped up to POST late.
 */
static void check_samples(const struct fx *f, uint64_t n, uint64_t bound)
{
	const struct rperf_lsg_res *r = &f->res;

	assert_int_equal(r->samples, n);
	assert_int_equal(r->nraw, n);
	assert_int_equal(f->d->rnr, 0);
	for (size_t i = 0; i < r->nraw; i++) {
		uint64_t w = lat_of(f, WIRE_QP, i), l = lat_of(f, LOOP_QP, i);
		int64_t want = (int64_t)w - (int64_t)l;
		int64_t err = r->raw[i].rtt_ns - want;

		check_stamp(r->raw[i].wire_ns, w, w <= POST ? POST : ITER,
			    "wire SEND", i);
		check_stamp(r->raw[i].loop_ns, l, l <= POST ? POST : ITER,
			    "loopback SEND", i);
		if (err > (int64_t)bound || err < -(int64_t)bound)
			fail_msg(
				"sample %zu: RTT %lld ns, scripted %lld ns (bound %llu)",
				i, (long long)r->raw[i].rtt_ns, (long long)want,
				(unsigned long long)bound);
	}
}

static void loop_faster(void **state, int order)
{
	struct fx *f = fx_new(2000, 1000);

	(void)state;
	assert_int_equal(run(f, order), 0);
	check_samples(f, N, ITER);
	assert_int_equal(f->res.nonpositive, 0);
	assert_int_equal(f->res.precompleted, 0);
	fx_free(f);
}

static void wire_faster(void **state, int order)
{
	struct fx *f = fx_new(1000, 3000);

	(void)state;
	assert_int_equal(run(f, order), 0);
	check_samples(f, N, ITER);
	assert_int_equal(f->res.nonpositive, N);
	fx_free(f);
}

static void both_precompleted(void **state, int order)
{
	struct fx *f = fx_new(60, 30);

	(void)state;
	assert_int_equal(run(f, order), 0);
	check_samples(f, N, POST);
	assert_int_equal(f->res.precompleted, N);
	assert_int_equal(f->res.loop_precompleted, N);
	fx_free(f);
}

static void one_precompleted(void **state, int order)
{
	struct fx *f = fx_new(3000, 40);

	(void)state;
	assert_int_equal(run(f, order), 0);
	check_samples(f, N, POST);
	assert_int_equal(f->res.precompleted, 0);
	assert_int_equal(f->res.loop_precompleted, N);
	fx_free(f);
}

/* Which SEND completes first changes from sample to sample. */
static void reordered(void **state, int order)
{
	struct fx *f = fx_new(3000, 1000);

	(void)state;
	f->lat[0][1] = 1000;
	f->lat[1][1] = 4000;
	assert_int_equal(run(f, order), 0);
	check_samples(f, N, ITER);
	assert_int_equal(f->res.nonpositive, N / 2);
	fx_free(f);
}

static void jitter(void **state, int order)
{
	struct fx *f = fx_new(10000, 4000);

	(void)state;
	f->jitter = 0.01;
	assert_int_equal(run(f, order), 0);
	check_samples(f, N, ITER);
	fx_free(f);
}

/* A wire SEND fails mid-run: EIO, the samples before it are kept. */
static void failed_completion(void **state, int order)
{
	struct fx *f = fx_new(2000, 1000);

	(void)state;
	f->fail_at = 500;
	assert_int_equal(run(f, order), EIO);
	assert_non_null(
		strstr(f->res.error, "wire SEND completed with status"));
	check_samples(f, 500, ITER);
	assert_int_equal(rperf_hist_count(f->res.rtt), 500);
	fx_free(f);
}

#define PER_ORDER(fn)                         \
	static void fn##_alternate(void **s)  \
	{                                     \
		fn(s, RPERF_PAIR_ALTERNATE);  \
	}                                     \
	static void fn##_wire_first(void **s) \
	{                                     \
		fn(s, RPERF_PAIR_WIRE_FIRST); \
	}                                     \
	static void fn##_loop_first(void **s) \
	{                                     \
		fn(s, RPERF_PAIR_LOOP_FIRST); \
	}                                     \
	static void fn##_sequential(void **s) \
	{                                     \
		fn(s, RPERF_PAIR_SEQUENTIAL); \
	}
#define ORDER_TESTS(fn)                                                      \
	cmocka_unit_test(fn##_alternate), cmocka_unit_test(fn##_wire_first), \
		cmocka_unit_test(fn##_loop_first),                           \
		cmocka_unit_test(fn##_sequential)

PER_ORDER(loop_faster)
PER_ORDER(wire_faster)
PER_ORDER(both_precompleted)
PER_ORDER(one_precompleted)
PER_ORDER(reordered)
PER_ORDER(jitter)
PER_ORDER(failed_completion)

/* A wire SEND never completes: ETIMEDOUT after the (virtual) stall limit. */
static void stall(void **state)
{
	struct fx *f = fx_new(2000, 1000);

	(void)state;
	f->never_at = 100;
	assert_int_equal(run(f, RPERF_PAIR_ALTERNATE), ETIMEDOUT);
	assert_int_equal(f->res.samples, 100);
	assert_non_null(strstr(f->res.error, "stall limit"));
	assert_true(f->res.seconds >= 0.001);
	fx_free(f);
}

static void stop_flag(void **state)
{
	struct fx *f = fx_new(2000, 1000);

	(void)state;
	f->d->stop_at = f->d->now + 100000;
	f->cfg.iters = 1000000;
	assert_int_equal(run(f, RPERF_PAIR_ALTERNATE), EINTR);
	assert_true(f->res.samples > 10 && f->res.samples < 100);
	fx_free(f);
}

/* The control socket becomes readable while a sample hangs. */
static void peer_gone(void **state)
{
	struct fx *f = fx_new(2000, 1000);
	int p[2];

	(void)state;
	assert_int_equal(pipe(p), 0);
	assert_int_equal(write(p[1], "x", 1), 1);
	f->cfg.peer_fd = p[0];
	f->never_at = 10;
	assert_int_equal(run(f, RPERF_PAIR_ALTERNATE), ECONNRESET);
	assert_int_equal(f->res.samples, 10);
	close(p[0]);
	close(p[1]);
	fx_free(f);
}

/* Duration mode on the virtual clock; warm-up samples are not recorded. */
static void duration_warmup(void **state)
{
	struct fx *f = fx_new(2000, 1000);

	(void)state;
	f->cfg.iters = 0;
	f->cfg.duration_ns = 10000000; /* 10 ms virtual */
	f->cfg.warmup = 50;
	f->cfg.keep_raw = false;
	assert_int_equal(run(f, RPERF_PAIR_ALTERNATE), 0);
	assert_int_equal(f->res.warmup, 50);
	/* a sample takes ~2.4 us of virtual time */
	assert_true(f->res.samples > 3000 && f->res.samples < 5000);
	assert_in_range(rperf_hist_percentile(f->res.rtt, 50), 1000 - ITER,
			1000 + ITER);
	fx_free(f);
}

/* iters with a window (rperf run's LSG): whichever comes first. ~2.4 us a
 * sample: 500 end long before 10 ms; 10^6 do not fit, the window ends
 * the run after ~4000. */
static void iters_in_window(void **state)
{
	struct fx *f = fx_new(2000, 1000);

	(void)state;
	f->cfg.iters = 500;
	f->cfg.duration_ns = 10000000; /* 10 ms virtual */
	f->cfg.keep_raw = false;
	assert_int_equal(run(f, RPERF_PAIR_ALTERNATE), 0);
	assert_int_equal(f->res.samples, 500);
	assert_true(f->res.seconds < 0.002);
	fx_free(f);
	f = fx_new(2000, 1000);
	f->cfg.iters = 1000000;
	f->cfg.duration_ns = 10000000;
	f->cfg.keep_raw = false;
	assert_int_equal(run(f, RPERF_PAIR_ALTERNATE), 0);
	assert_true(f->res.samples > 3000 && f->res.samples < 5000);
	assert_true(f->res.seconds >= 0.01 && f->res.seconds < 0.011);
	fx_free(f);
}

/* Pacing in samples/s, the one unit of both paths: 1000/s takes ~49 ms
 * for 50 samples (49 gaps of 1 ms on the virtual clock); 512 kb/s of
 * 64 B SENDs is 1000 samples/s. */
static void paced(void **state)
{
	struct fx *f = fx_new(2000, 1000);

	(void)state;
	f->cfg.iters = 50;
	f->cfg.rate = 1000;
	f->cfg.gap_ns = 5000000; /* not used with rate */
	f->cfg.keep_raw = false;
	assert_int_equal(run(f, RPERF_PAIR_ALTERNATE), 0);
	assert_int_equal(f->res.samples, 50);
	assert_true(f->res.seconds > 0.0489 && f->res.seconds < 0.0501);
	fx_free(f);
	assert_true(rperf_lsg_rate_of_bps(512000, 64) == 1000);
	assert_true(rperf_lsg_rate_of_bps(0, 64) == 0);
}

/* pingpong: RTT = the reply's stamp, whether the ACK comes before or after */
static void pingpong(void **state)
{
	struct fx *f = fx_new(5000, 0);

	(void)state;
	f->reply_ns = 2000;
	f->cfg.method = RPERF_METHOD_PINGPONG;
	assert_int_equal(run(f, RPERF_PAIR_ALTERNATE), 0);
	assert_int_equal(f->res.samples, N);
	for (size_t i = 0; i < f->res.nraw; i++)
		check_stamp(f->res.raw[i].wire_ns, 2000, ITER, "reply", i);
	rperf_lsg_res_fini(&f->res);
	f->lat[0][0] = f->lat[0][1] = 800; /* the ACK first */
	f->d->qps[WIRE_QP].recvs = 64;
	assert_int_equal(run(f, RPERF_PAIR_ALTERNATE), 0);
	for (size_t i = 0; i < f->res.nraw; i++)
		check_stamp(f->res.raw[i].wire_ns, 2000, ITER, "reply", i);
	fx_free(f);
}

static void postpoll(void **state)
{
	struct fx *f = fx_new(1500, 0);

	(void)state;
	f->cfg.method = RPERF_METHOD_POSTPOLL;
	assert_int_equal(run(f, RPERF_PAIR_ALTERNATE), 0);
	assert_int_equal(f->res.samples, N);
	for (size_t i = 0; i < f->res.nraw; i++)
		check_stamp(f->res.raw[i].wire_ns, 1500, POLL, "WRITE", i);
	fx_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		ORDER_TESTS(loop_faster),
		ORDER_TESTS(wire_faster),
		ORDER_TESTS(both_precompleted),
		ORDER_TESTS(one_precompleted),
		ORDER_TESTS(reordered),
		ORDER_TESTS(jitter),
		ORDER_TESTS(failed_completion),
		cmocka_unit_test(stall),
		cmocka_unit_test(stop_flag),
		cmocka_unit_test(peer_gone),
		cmocka_unit_test(duration_warmup),
		cmocka_unit_test(iters_in_window),
		cmocka_unit_test(paced),
		cmocka_unit_test(pingpong),
		cmocka_unit_test(postpoll),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
