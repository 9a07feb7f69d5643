// SPDX-License-Identifier: BSD-2-Clause
/*
 * --max-p50, --max-p999 and --limit_lat (rperf_lat_thresholds) on RTTs the
 * LSG measured on the scripted device (scripted_dev.h), where the RTTs are
 * known: the wire takes 80 us, the loopback 20 us (RTT 60 us), one wire
 * SEND of 1000 takes 3 ms (the outlier that once set lab.methods' limit).
 * The limit logic is judged here, deterministically and with and without
 * the outlier: a limit at the run's own percentile passes, one ns below it
 * fails (exit 1 in the command layer), each limit names its option, size
 * and figure. The lab (methods.sh) then only checks limits far from any
 * RTT the emulator gives, 1 ns and 1 s, judged and reported by one run.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "job/cmdline.h"
#include "gen/lsg.h"
#include "twohost/twohost_lat.h"
#include "scripted_dev.h"

#define N 1000
#define OUTLIER_SEQ 500

enum { WIRE_QP = 0, LOOP_QP = 1, LOOP_RX = 2 };

struct fx {
	struct sdev *d;
	struct rperf_lsg_qps q;
	struct rperf_lsg_cfg lcfg;
	struct rperf_lsg_res res;
	struct rperf_cmdline cfg;
	struct rperf_lat_run run;
	bool outlier;
	char said[4][160];
	int nsaid;
};

static void script(void *arg, int qp, uint64_t seq, struct sdev_wr *w)
{
	const struct fx *f = arg;

	w->lat_ns = qp == WIRE_QP ? 80000 : 20000;
	if (qp == WIRE_QP && f->outlier && seq == OUTLIER_SEQ)
		w->lat_ns = 3000000;
}

static void said(void *arg, const char *msg)
{
	struct fx *f = arg;

	if (f->nsaid < 4)
		snprintf(f->said[f->nsaid++], sizeof(f->said[0]), "%s", msg);
}

static struct fx *measure(bool outlier)
{
	struct fx *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	f->outlier = outlier;
	f->d = sdev_create(script, f);
	assert_non_null(f->d);
	f->q.wire = sdev_add_qp(f->d, -1, true);
	f->q.loop_tx = sdev_add_qp(f->d, LOOP_RX, false);
	f->q.loop_rx = sdev_add_qp(f->d, -1, false);
	f->q.send_buf = f->q.loop_rx_buf = f->q.wire_rx_buf = &f->d->buf;
	f->q.rx_depth = 64;
	f->d->qps[WIRE_QP].recvs = f->d->qps[LOOP_RX].recvs = 64;
	f->lcfg = (struct rperf_lsg_cfg){ .clk = &f->d->clk,
					  .method = RPERF_METHOD_RPERF,
					  .pair_order = RPERF_PAIR_SEQUENTIAL,
					  .size = 64,
					  .remote_size = sizeof(f->d->mem),
					  .iters = N,
					  .solicit_every = 16,
					  .stall_ns = 10000000,
					  .stop = &f->d->stop,
					  .peer_fd = -1,
					  .ops = &sdev_ops,
					  .ops_ctx = f->d };
	assert_int_equal(rperf_lsg_res_init(&f->res, RPERF_METHOD_RPERF, false),
			 0);
	assert_int_equal(rperf_lsg_run(&f->lcfg, &f->q, &f->res), 0);
	assert_int_equal(f->res.samples, N);
	rperf_cmdline_defaults(&f->cfg);
	f->cfg.nsizes = 1;
	f->cfg.sizes[0] = 64;
	f->run.c.cfg = &f->cfg;
	f->run.res = &f->res;
	f->run.nres = 1;
	f->run.c.say = (struct rperf_say){ .line = said, .arg = f };
	return f;
}

static void unmeasure(struct fx *f)
{
	rperf_lsg_res_fini(&f->res);
	sdev_destroy(f->d);
	free(f);
}

/* rperf_lat_thresholds with only @max_p50, @max_p999 (0: none) */
static bool exceeded(struct fx *f, uint64_t max_p50, uint64_t max_p999)
{
	f->cfg.spec.max_p50_ns = max_p50;
	f->cfg.spec.max_p999_ns = max_p999;
	f->nsaid = 0;
	return rperf_lat_thresholds(&f->run);
}

static void limits_at_the_measured_figure(void **state)
{
	struct fx *f;
	int64_t p50, p999;

	(void)state;
	for (int o = 0; o < 2; o++) {
		f = measure(o);
		p50 = rperf_hist_percentile(f->res.rtt, 50);
		p999 = rperf_hist_percentile(f->res.rtt, 99.9);
		/* the scripted RTT: 60 us within the LSG's polling error */
		assert_true(p50 > 59000 && p50 < 61000);
		assert_false(exceeded(f, 0, 0));
		assert_int_equal(f->nsaid, 0);
		/* a limit at the figure passes, one ns below fails */
		assert_false(exceeded(f, 0, (uint64_t)p999));
		assert_true(exceeded(f, 0, (uint64_t)p999 - 1));
		assert_int_equal(f->nsaid, 1);
		assert_non_null(
			strstr(f->said[0], "--max-p999: RTT p99.9 at 64 B is"));
		assert_false(exceeded(f, (uint64_t)p50, 0));
		assert_true(exceeded(f, (uint64_t)p50 - 1, 0));
		assert_non_null(
			strstr(f->said[0], "--max-p50: RTT p50 at 64 B"));
		/* the lab's limits, far from any RTT: 1 ns fails, 1 s passes */
		assert_true(exceeded(f, 0, 1));
		assert_false(exceeded(f, 1000000000ull, 1000000000ull));
		/* --limit_lat is the p50 check under perftest's name */
		f->cfg.limit_lat_ns = (uint64_t)p50 - 1;
		assert_true(exceeded(f, 0, 0));
		assert_non_null(
			strstr(f->said[0], "--limit_lat: RTT p50 at 64 B"));
		f->cfg.limit_lat_ns = 0;
		/* the 3 ms outlier is the true max, whatever p99.9 is */
		if (o)
			assert_true(rperf_hist_max(f->res.rtt) > 2900000);
		unmeasure(f);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(limits_at_the_measured_figure),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
