/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * NIC completion timestamps: the RTT arithmetic (gen/nic_ts.c) with scripted
 * NIC and CPU clocks at different frequencies and a narrow NIC counter that
 * wraps, and the LSG in NIC mode on the scripted device.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "job/cmdline.h"
#include "gen/dev_ops.h"
#include "gen/lsg.h"
#include "gen/nic_ts.h"
#include "scripted_dev.h"

#define NEAR(a, b, eps) assert_true(fabs((double)(a) - (double)(b)) <= (eps))
#define M48 ((1ull << 48) - 1)
#define M32 ((1ull << 32) - 1)

static struct rperf_clock cpu_clock(double hz)
{
	return (struct rperf_clock){ .hz = hz, .ns_per_tick = 1e9 / hz };
}

/* A scripted event at @ns on a clock of @hz started at @origin (mod mask). */
static uint64_t at(double ns, double hz, uint64_t origin, uint64_t mask)
{
	return (origin + (uint64_t)llround(ns * hz / 1e9)) & mask;
}

static void delta(void **state)
{
	(void)state;
	assert_int_equal(rperf_nic_delta(M48, 10, 25), 15);
	assert_int_equal(rperf_nic_delta(M48, 25, 10), -15);
	/* across the wrap of a 48-bit counter, both ways */
	assert_int_equal(rperf_nic_delta(M48, M48 - 4, 5), 10);
	assert_int_equal(rperf_nic_delta(M48, 5, M48 - 4), -10);
	assert_int_equal(rperf_nic_delta(7, 6, 1), 3);
	/* half the range is the positive end */
	assert_int_equal(rperf_nic_delta(7, 0, 4), 4);
	assert_int_equal(rperf_nic_delta(7, 0, 5), -3);
	assert_int_equal(rperf_nic_delta(UINT64_MAX, 5, 3), -2);
	assert_int_equal(rperf_nic_delta(UINT64_MAX, UINT64_MAX, 1), 2);
}

/*
 * One sample on two clocks: posts at @tpw/@tpl ns on a CPU clock of
 * @cpu_hz, completions at @tw/@tl ns on a NIC clock of @nic_hz whose
 * counter (width @mask) started at @origin. RTT = (tw - tl) - (tpw - tpl).
 */
static void sample(double cpu_hz, double nic_hz, uint64_t mask, uint64_t origin,
		   double tpw, double tpl, double tw, double tl)
{
	struct rperf_clock cpu = cpu_clock(cpu_hz);
	struct rperf_nic_clock nic = { .hz = nic_hz, .mask = mask };
	double want = (tw - tl) - (tpw - tpl);
	/* one tick of either clock at most, per stamp */
	double eps = 2e9 / nic_hz + 2e9 / cpu_hz;
	double got = rperf_nic_rtt_ns(&nic, &cpu, at(tw, nic_hz, origin, mask),
				      at(tl, nic_hz, origin, mask),
				      at(tpw, cpu_hz, 7777, UINT64_MAX),
				      at(tpl, cpu_hz, 7777, UINT64_MAX));

	if (fabs(got - want) > eps)
		fail_msg(
			"cpu %.0f Hz nic %.0f Hz mask %llx: RTT %.3f ns, want %.3f +- %.3f",
			cpu_hz, nic_hz, (unsigned long long)mask, got, want,
			eps);
}

static void frequencies(void **state)
{
	static const double cpus[] = { 2.9e9, 3.0e9, 1e9, 25e6 };
	static const double nics[] = { 156.25e6, 1e9, 1.0e8, 54e6, 3.2e9 };

	(void)state;
	for (size_t i = 0; i < sizeof(cpus) / sizeof(cpus[0]); i++)
		for (size_t j = 0; j < sizeof(nics) / sizeof(nics[0]); j++) {
			/* wire posted first, loopback faster */
			sample(cpus[i], nics[j], M48, 1000, 1e6, 1e6 + 180,
			       1e6 + 2500, 1e6 + 180 + 1100);
			/* loopback posted first; negative RTT */
			sample(cpus[i], nics[j], M48, 1000, 5e6 + 200, 5e6,
			       5e6 + 900, 5e6 + 1400);
		}
}

/* The NIC counter wraps between the two completions (48 and 32 bits). */
static void wrap(void **state)
{
	(void)state;
	/* at 156.25 MHz: 2,000 ns = 312.5 ticks; origin just below the wrap */
	sample(2.9e9, 156.25e6, M48, M48 - 200, 0, 150, 2150, 1000);
	sample(2.9e9, 156.25e6, M32, M32 - 200, 0, 150, 2150, 1000);
	sample(3e9, 1e9, M32, M32 - 1500, 10, 0, 3000, 1200);
	/* the loopback completes after the wrap, the wire before it */
	sample(3e9, 1e9, M32, M32 - 1000, 0, 0, 900, 1500);
}

/* The LSG in NIC mode on the scripted device: the RTT comes out exact. */
struct fx {
	uint64_t wire, loop;
};

static void script(void *arg, int qp, uint64_t seq, struct sdev_wr *w)
{
	const struct fx *f = arg;

	(void)seq;
	w->lat_ns = qp == 0 ? f->wire : f->loop;
}

static void lsg_nic(void **state)
{
	struct fx f = { .wire = 2000, .loop = 1200 };
	struct sdev *d = sdev_create(script, &f);
	struct rperf_nic_clock nic = { .hz = 156.25e6, .mask = M48 };
	struct rperf_lsg_qps q = { 0 };
	struct rperf_lsg_res res;
	struct rperf_lsg_cfg cfg;

	(void)state;
	assert_non_null(d);
	d->nic_hz = nic.hz;
	d->nic_mask = nic.mask;
	d->nic_offset = M48 - 100000; /* wraps during the run */
	d->poll_ns =
		300; /* a slow poll: CPU stamps would be off by up to 600 */
	q.wire = sdev_add_qp(d, -1, false);
	q.loop_tx = sdev_add_qp(d, 2, false);
	q.loop_rx = sdev_add_qp(d, -1, false);
	q.send_buf = q.loop_rx_buf = q.wire_rx_buf = &d->buf;
	q.rx_depth = 64;
	d->qps[2].recvs = 64;
	cfg = (struct rperf_lsg_cfg){ .clk = &d->clk,
				      .method = RPERF_METHOD_RPERF,
				      .size = 64,
				      .iters = 1000,
				      .keep_raw = true,
				      .stall_ns = 1000000,
				      .stop = &d->stop,
				      .peer_fd = -1,
				      .ops = &sdev_ops,
				      .ops_ctx = d,
				      .nic = &nic };
	for (int order = RPERF_PAIR_ALTERNATE; order <= RPERF_PAIR_SEQUENTIAL;
	     order++) {
		cfg.pair_order = order;
		assert_int_equal(rperf_lsg_res_init(&res, cfg.method, false),
				 0);
		assert_int_equal(rperf_lsg_run(&cfg, &q, &res), 0);
		assert_int_equal(res.samples, 1000);
		/* within one NIC tick (6.4 ns) per stamp */
		for (size_t i = 0; i < res.nraw; i++)
			assert_in_range(res.raw[i].rtt_ns, 800 - 13, 800 + 13);
		rperf_lsg_res_fini(&res);
	}
	/* without the extended CQs the run is refused */
	q.wire->send_cq_ex = NULL;
	assert_int_equal(rperf_lsg_res_init(&res, cfg.method, false), 0);
	assert_int_equal(rperf_lsg_run(&cfg, &q, &res), EINVAL);
	rperf_lsg_res_fini(&res);
	sdev_destroy(d);
}

/*
 * The real path's extended-CQ polling (rperf_verbs_poll_ts through
 * gen_poll_ts) against a stub provider: ibv_end_poll() follows every
 * successful ibv_start_poll() and never an empty (ENOENT) or failed one.
 */
struct stub_cq {
	struct ibv_cq_ex ex;
	int start_rc; /* what start_poll returns */
	int ends; /* end_poll calls */
};

static int stub_start(struct ibv_cq_ex *cq, struct ibv_poll_cq_attr *attr)
{
	struct stub_cq *s = (struct stub_cq *)cq;

	(void)attr;
	if (!s->start_rc) {
		cq->wr_id = 77;
		cq->status = IBV_WC_SUCCESS;
	}
	return s->start_rc;
}

static void stub_end(struct ibv_cq_ex *cq)
{
	((struct stub_cq *)cq)->ends++;
}

static uint64_t stub_ts(struct ibv_cq_ex *cq)
{
	(void)cq;
	return 123456789;
}

static void real_poll_ts(void **state)
{
	struct stub_cq s = { .start_rc = ENOENT };
	struct rperf_gen_dev d = rperf_gen_dev(NULL, NULL, NULL);
	struct ibv_wc wc = { .wr_id = 0 };
	uint64_t ts = 0;

	(void)state;
	s.ex.start_poll = stub_start;
	s.ex.end_poll = stub_end;
	s.ex.read_completion_ts = stub_ts;
	assert_int_equal(gen_poll_ts(&d, &s.ex, &wc, &ts), 0);
	assert_int_equal(s.ends, 0);
	s.start_rc = EIO;
	assert_int_equal(gen_poll_ts(&d, &s.ex, &wc, &ts), -EIO);
	assert_int_equal(s.ends, 0);
	s.start_rc = 0;
	assert_int_equal(gen_poll_ts(&d, &s.ex, &wc, &ts), 1);
	assert_int_equal(s.ends, 1);
	assert_int_equal(wc.wr_id, 77);
	assert_int_equal(wc.status, IBV_WC_SUCCESS);
	assert_int_equal(ts, 123456789);
	/* the same through the table's pointer */
	assert_int_equal(rperf_verbs_ops.poll_ts(NULL, &s.ex, &wc, &ts), 1);
	assert_int_equal(s.ends, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(delta),	cmocka_unit_test(frequencies),
		cmocka_unit_test(wrap),		cmocka_unit_test(lsg_nic),
		cmocka_unit_test(real_poll_ts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
