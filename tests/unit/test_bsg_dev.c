/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The BSG's loop on the scripted device (scripted_dev.h): message and
 * signaling accounting with post lists over several QPs completing out of
 * order, a failed completion mid-run, a stall.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "config/config.h"
#include "gen/bsg.h"
#include "scripted_dev.h"

#define NONE UINT64_MAX

struct script {
	uint64_t lat[3]; /* per QP */
	uint64_t fail_at, never_at; /* WR seq on QP 0 */
};

static void script(void *arg, int qp, uint64_t seq, struct sdev_wr *w)
{
	const struct script *s = arg;

	w->lat_ns = s->lat[qp];
	if (qp == 0 && seq == s->fail_at)
		w->status = IBV_WC_REM_ACCESS_ERR;
	if (qp == 0 && seq == s->never_at)
		w->never = true;
}

struct fx {
	struct script s;
	struct sdev *d;
	struct rperf_bsg_qp q[3];
	struct rperf_bsg_cfg cfg;
	struct rperf_bsg_res res;
	volatile sig_atomic_t stop;
};

static void fx_init(struct fx *f, size_t nqps)
{
	f->s.fail_at = f->s.never_at = NONE;
	f->d = sdev_create(script, &f->s);
	assert_non_null(f->d);
	for (size_t i = 0; i < nqps; i++)
		f->q[i] = (struct rperf_bsg_qp){
			.qp = sdev_add_qp(f->d, -1, false), .buf = &f->d->buf
		};
	f->cfg = (struct rperf_bsg_cfg){ .verb = RPERF_VERB_SEND,
					 .size = 4096,
					 .iters = 10000,
					 .tx_depth = 64,
					 .cq_mod = 16,
					 .post_list = 4,
					 .stop = &f->stop,
					 .peer_fd = -1,
					 .stall_ns = 5000000000ull,
					 .ops = &sdev_ops,
					 .ops_ctx = f->d };
}

/* Three QPs whose completions come at different speeds. */
static void counts(void **state)
{
	struct fx f = { .s.lat = { 5000, 100, 1200 } };

	(void)state;
	fx_init(&f, 3);
	assert_int_equal(rperf_bsg_run(&f.cfg, f.q, 3, &f.res), 0);
	assert_int_equal(f.res.messages, 30000);
	assert_int_equal(f.res.posted, 30000);
	assert_int_equal(f.res.bytes, 30000ull * 4096);
	assert_int_equal(f.res.post_calls, 30000 / 4);
	/* every 16th and the last, plus those ending a full queue */
	assert_in_range(f.res.signaled, 30000 / 16, 30000 / 4);
	assert_int_equal(f.d->cq_full, 0);
	assert_string_equal(f.res.error, "");
	sdev_destroy(f.d);
}

/* A WR fails mid-run (unsignaled or not, the error completes): EIO. */
static void failed_completion(void **state)
{
	struct fx f = { .s.lat = { 300, 300, 300 } };

	(void)state;
	fx_init(&f, 1);
	f.s.fail_at = 5001;
	assert_int_equal(rperf_bsg_run(&f.cfg, f.q, 1, &f.res), EIO);
	assert_non_null(strstr(f.res.error, "failed with status"));
	assert_in_range(f.res.messages, 4900, 5001);
	sdev_destroy(f.d);
}

/* A WR never completes: ETIMEDOUT after stall_ns of no progress. */
static void stall(void **state)
{
	struct fx f = { .s.lat = { 300, 300, 300 } };

	(void)state;
	fx_init(&f, 1);
	f.s.never_at = 100; /* and every WR after it (RC completes in order) */
	f.cfg.stall_ns = 50000000; /* real time: the BSG's own clock */
	assert_int_equal(rperf_bsg_run(&f.cfg, f.q, 1, &f.res), ETIMEDOUT);
	assert_non_null(strstr(f.res.error, "no completion"));
	assert_true(f.res.messages <= 100);
	sdev_destroy(f.d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(counts),
		cmocka_unit_test(failed_completion),
		cmocka_unit_test(stall),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
