/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The generators with --verb on the scripted device (scripted_dev.h): what
 * the BSG posts for read and atomic; the LSG's rperf method with WRITE
 * pairs (both targets, RTT = wire - loopback), its postpoll READ (never
 * inline), and its pingpong WRITE (ib_write_lat): the sequence byte at the
 * end of every WRITE, the peer's buffer's last byte as the target, the
 * reply seen by polling the last byte of the reply buffer, stamped within
 * one pass of the polling loop. A wrapper around the scripted device's
 * table records every WR and plays the peer's software for the pingpong.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "job/cmdline.h"
#include "gen/bsg.h"
#include "gen/lsg.h"
#include "scripted_dev.h"

#define N 500
#define RADDR 0x7000000ull
#define RSIZE 4096
#define RKEY 0x1234
#define MAXREC 4096

struct rec {
	int qp;
	enum ibv_wr_opcode op;
	unsigned int flags;
	uint64_t raddr, compare_add;
	uint32_t rkey, len;
	uint8_t last; /* the last byte of the source at the post */
};

/* The wrapped device: records WRs; plays the peer for pingpong WRITEs. */
struct wrap {
	struct sdev *d;
	struct rec rec[MAXREC];
	size_t nrec;
	uint64_t lat[3], reply_ns; /* per QP; the peer's answer */
	bool echo; /* the peer answers WRITEs on QP 0 */
	uint64_t ready; /* the answer lands at this virtual time */
	uint8_t pending, mem; /* its byte; the byte polled now */
	const volatile uint8_t *polled; /* where the LSG polled */
};

static void script(void *arg, int qp, uint64_t seq, struct sdev_wr *w)
{
	const struct wrap *x = arg;

	(void)seq;
	w->lat_ns = x->lat[qp];
}

static int qp_index(const struct wrap *x, const struct ibv_qp *qp)
{
	for (int i = 0; i < x->d->nqps; i++)
		if (&x->d->qps[i].qp == qp)
			return i;
	return -1;
}

static int w_post_send(void *ctx, struct ibv_qp *qp, struct ibv_send_wr *wr,
		       struct ibv_send_wr **bad)
{
	struct wrap *x = ctx;

	for (struct ibv_send_wr *w = wr; w && x->nrec < MAXREC; w = w->next) {
		bool atomic = w->opcode == IBV_WR_ATOMIC_FETCH_AND_ADD ||
			      w->opcode == IBV_WR_ATOMIC_CMP_AND_SWP;
		struct rec r = {
			.qp = qp_index(x, qp),
			.op = w->opcode,
			.flags = w->send_flags,
			.raddr = atomic ? w->wr.atomic.remote_addr :
					  w->wr.rdma.remote_addr,
			.rkey = atomic ? w->wr.atomic.rkey : w->wr.rdma.rkey,
			.compare_add = atomic ? w->wr.atomic.compare_add : 0,
			.len = w->sg_list->length,
			.last = ((const uint8_t *)(uintptr_t)w->sg_list
					 ->addr)[w->sg_list->length - 1],
		};

		x->rec[x->nrec++] = r;
		if (x->echo && r.qp == 0 && r.op == IBV_WR_RDMA_WRITE) {
			x->ready = x->d->now + x->reply_ns;
			x->pending = r.last;
		}
	}
	return sdev_ops.post_send(x->d, qp, wr, bad);
}

static int w_post_recv(void *ctx, struct ibv_qp *qp, struct ibv_recv_wr *wr,
		       struct ibv_recv_wr **bad)
{
	return sdev_ops.post_recv(((struct wrap *)ctx)->d, qp, wr, bad);
}

static int w_poll_cq(void *ctx, struct ibv_cq *cq, int n, struct ibv_wc *wc)
{
	return sdev_ops.poll_cq(((struct wrap *)ctx)->d, cq, n, wc);
}

static int w_poll_ts(void *ctx, struct ibv_cq_ex *cq, struct ibv_wc *wc,
		     uint64_t *ts)
{
	return sdev_ops.poll_ts(((struct wrap *)ctx)->d, cq, wc, ts);
}

static uint64_t w_clock(void *ctx, const struct rperf_clock *clk)
{
	return sdev_ops.clock_start(((struct wrap *)ctx)->d, clk);
}

/* A poll of host memory costs what a CQ poll costs. */
static uint8_t w_read_u8(void *ctx, const volatile uint8_t *p)
{
	struct wrap *x = ctx;
	uint64_t t = x->d->now;

	x->polled = p;
	x->d->now += x->d->poll_ns;
	if (x->ready && t >= x->ready) {
		x->mem = x->pending;
		x->ready = 0;
	}
	return x->mem;
}

static const struct rperf_dev_ops wrap_ops = {
	.post_send = w_post_send,
	.post_recv = w_post_recv,
	.poll_cq = w_poll_cq,
	.poll_ts = w_poll_ts,
	.clock_start = w_clock,
	.clock_end = w_clock,
	.read_u8 = w_read_u8,
};

static struct wrap *wrap_new(uint64_t wire, uint64_t loop)
{
	struct wrap *x = calloc(1, sizeof(*x));

	assert_non_null(x);
	x->d = sdev_create(script, x);
	assert_non_null(x->d);
	x->lat[0] = wire;
	x->lat[1] = loop;
	x->d->mr.rkey = 0x99;
	return x;
}

static void wrap_free(struct wrap *x)
{
	sdev_destroy(x->d);
	free(x);
}

/* --- BSG: READ and atomics ---------------------------------------- */

static void bsg_run(struct wrap *x, int verb, int op, uint64_t size,
		    struct rperf_bsg_res *res, int want)
{
	volatile sig_atomic_t stop = 0;
	struct rperf_bsg_qp q = { .qp = sdev_add_qp(x->d, -1, false),
				  .buf = &x->d->buf,
				  .raddr = RADDR,
				  .rkey = RKEY };
	struct rperf_bsg_cfg c = { .verb = verb,
				   .atomic_op = op,
				   .size = size,
				   .iters = N,
				   .tx_depth = 16,
				   .cq_mod = 4,
				   .post_list = 2,
				   .stop = &stop,
				   .peer_fd = -1,
				   .stall_ns = 5000000000ull,
				   .ops = &wrap_ops,
				   .ops_ctx = x };

	q.qp->max_inline = 256; /* READs must not go inline anyway */
	assert_int_equal(rperf_bsg_run(&c, &q, 1, res), want);
}

static void bsg_read_atomic(void **state)
{
	struct rperf_bsg_res res;
	struct wrap *x = wrap_new(3000, 0);

	(void)state;
	bsg_run(x, RPERF_VERB_READ, 0, 64, &res, 0);
	assert_int_equal(res.messages, N);
	assert_int_equal(res.bytes, N * 64);
	assert_int_equal(x->nrec, N);
	for (size_t i = 0; i < x->nrec; i++) {
		assert_int_equal(x->rec[i].op, IBV_WR_RDMA_READ);
		assert_int_equal(x->rec[i].raddr, RADDR);
		assert_int_equal(x->rec[i].rkey, RKEY);
		assert_int_equal(x->rec[i].flags & IBV_SEND_INLINE, 0);
	}
	wrap_free(x);

	x = wrap_new(3000, 0);
	bsg_run(x, RPERF_VERB_ATOMIC, RPERF_ATOMIC_FETCH_ADD, 8, &res, 0);
	assert_int_equal(res.messages, N);
	for (size_t i = 0; i < x->nrec; i++) {
		assert_int_equal(x->rec[i].op, IBV_WR_ATOMIC_FETCH_AND_ADD);
		assert_int_equal(x->rec[i].compare_add, 1);
		assert_int_equal(x->rec[i].raddr, RADDR);
		assert_int_equal(x->rec[i].rkey, RKEY);
		assert_int_equal(x->rec[i].len, 8);
	}
	wrap_free(x);

	x = wrap_new(3000, 0);
	bsg_run(x, RPERF_VERB_ATOMIC, RPERF_ATOMIC_CMP_SWAP, 8, &res, 0);
	assert_int_equal(x->rec[0].op, IBV_WR_ATOMIC_CMP_AND_SWP);
	assert_int_equal(x->rec[N - 1].op, IBV_WR_ATOMIC_CMP_AND_SWP);
	wrap_free(x);

	x = wrap_new(3000, 0); /* an atomic is 8 B */
	bsg_run(x, RPERF_VERB_ATOMIC, 0, 64, &res, EINVAL);
	assert_int_equal(x->nrec, 0);
	wrap_free(x);
}

/* --- LSG ----------------------------------------------------------- */

struct lfx {
	struct wrap *x;
	struct rperf_lsg_qps q;
	struct rperf_lsg_cfg cfg;
	struct rperf_lsg_res res;
	uint8_t seq;
};

static void lfx_init(struct lfx *f, int method, int verb, uint64_t wire,
		     uint64_t loop)
{
	memset(f, 0, sizeof(*f));
	f->x = wrap_new(wire, loop);
	f->q.wire = sdev_add_qp(f->x->d, -1, false);
	f->q.loop_tx = sdev_add_qp(f->x->d, 2, false);
	f->q.loop_rx = sdev_add_qp(f->x->d, -1, false);
	f->q.send_buf = f->q.loop_rx_buf = f->q.wire_rx_buf = &f->x->d->buf;
	f->q.rx_depth = 16;
	f->q.wire->max_inline = f->q.loop_tx->max_inline = 256;
	f->cfg = (struct rperf_lsg_cfg){ .clk = &f->x->d->clk,
					 .method = method,
					 .verb = verb,
					 .remote_addr = RADDR,
					 .rkey = RKEY,
					 .remote_size = RSIZE,
					 .size = 64,
					 .iters = N,
					 .keep_raw = true,
					 .pair_order = RPERF_PAIR_SEQUENTIAL,
					 .stall_ns = 1000000,
					 .stop = &f->x->d->stop,
					 .peer_fd = -1,
					 .ops = &wrap_ops,
					 .ops_ctx = f->x,
					 .wseq = &f->seq };
	assert_int_equal(rperf_lsg_res_init(&f->res, method, false), 0);
}

static void lfx_fini(struct lfx *f)
{
	rperf_lsg_res_fini(&f->res);
	wrap_free(f->x);
}

/* WRITE pairs: both WRITEs, their targets; RTT = wire - loop (+- a poll) */
static void lsg_write_rperf(void **state)
{
	struct lfx f;

	(void)state;
	lfx_init(&f, RPERF_METHOD_RPERF, RPERF_VERB_WRITE, 9000, 4000);
	assert_int_equal(rperf_lsg_run(&f.cfg, &f.q, &f.res), 0);
	assert_int_equal(f.res.samples, N);
	for (size_t i = 0; i < f.x->nrec; i++) {
		const struct rec *r = &f.x->rec[i];

		assert_int_equal(r->op, IBV_WR_RDMA_WRITE);
		assert_int_equal(r->flags & IBV_SEND_SOLICITED, 0);
		assert_int_equal(r->raddr, r->qp == 0 ?
						   RADDR :
						   (uintptr_t)f.x->d->buf.addr);
		assert_int_equal(r->rkey, r->qp == 0 ? RKEY : 0x99);
	}
	for (size_t i = 0; i < f.res.nraw; i++)
		assert_in_range(f.res.raw[i].rtt_ns, 5000 - 60, 5000 + 60);
	/* WRITEs consume no receive at the loopback receiver */
	assert_int_equal(f.x->d->rnr, 0);
	lfx_fini(&f);
}

static void lsg_read_postpoll(void **state)
{
	struct lfx f;

	(void)state;
	lfx_init(&f, RPERF_METHOD_POSTPOLL, RPERF_VERB_READ, 7000, 0);
	assert_int_equal(rperf_lsg_run(&f.cfg, &f.q, &f.res), 0);
	assert_int_equal(f.res.samples, N);
	for (size_t i = 0; i < f.x->nrec; i++) {
		assert_int_equal(f.x->rec[i].op, IBV_WR_RDMA_READ);
		assert_int_equal(f.x->rec[i].flags & IBV_SEND_INLINE, 0);
		assert_int_equal(f.x->rec[i].raddr, RADDR);
	}
	for (size_t i = 0; i < f.res.nraw; i++)
		assert_in_range(f.res.raw[i].rtt_ns, 7000, 7000 + 60);
	lfx_fini(&f);

	/* a peer buffer smaller than the size: refused before any post */
	lfx_init(&f, RPERF_METHOD_POSTPOLL, RPERF_VERB_ATOMIC, 7000, 0);
	f.cfg.size = 8;
	f.cfg.remote_size = 4;
	assert_int_equal(rperf_lsg_run(&f.cfg, &f.q, &f.res), EINVAL);
	assert_int_equal(f.x->nrec, 0);
	lfx_fini(&f);
}

/* ib_write_lat: sequence bytes 1..255 then 1 again, the WRITE ends at the
 * peer buffer's last byte, the reply is the polled last byte. */
static void lsg_write_pingpong(void **state)
{
	struct lfx f;

	(void)state;
	lfx_init(&f, RPERF_METHOD_PINGPONG, RPERF_VERB_WRITE, 800, 0);
	f.x->echo = true;
	f.x->reply_ns = 6000;
	f.cfg.warmup = 10;
	assert_int_equal(rperf_lsg_run(&f.cfg, &f.q, &f.res), 0);
	assert_int_equal(f.res.samples, N);
	assert_int_equal(f.x->nrec, N + 10);
	for (size_t i = 0; i < f.x->nrec; i++) {
		assert_int_equal(f.x->rec[i].op, IBV_WR_RDMA_WRITE);
		assert_int_equal(f.x->rec[i].raddr, RADDR + RSIZE - 64);
		assert_int_equal(f.x->rec[i].last, i % 255 + 1);
	}
	assert_ptr_equal(f.x->polled, f.x->d->mem + sizeof(f.x->d->mem) - 1);
	for (size_t i = 0; i < f.res.nraw; i++)
		assert_in_range(f.res.raw[i].rtt_ns, 6000, 6000 + 100);
	assert_int_equal(f.seq, (N + 10 - 1) % 255 + 1);
	/* the sequence goes on in the next run (the peer counts the same) */
	rperf_lsg_res_fini(&f.res);
	assert_int_equal(
		rperf_lsg_res_init(&f.res, RPERF_METHOD_PINGPONG, false), 0);
	f.x->nrec = 0;
	f.cfg.warmup = 0;
	f.cfg.iters = 5;
	assert_int_equal(rperf_lsg_run(&f.cfg, &f.q, &f.res), 0);
	assert_int_equal(f.x->rec[0].last, (N + 10) % 255 + 1);
	lfx_fini(&f);
}

/* No reply: the stall limit ends the run with the reply named. */
static void lsg_write_pingpong_stall(void **state)
{
	struct lfx f;

	(void)state;
	lfx_init(&f, RPERF_METHOD_PINGPONG, RPERF_VERB_WRITE, 800, 0);
	assert_int_equal(rperf_lsg_run(&f.cfg, &f.q, &f.res), ETIMEDOUT);
	assert_non_null(strstr(f.res.error, "reply"));
	lfx_fini(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(bsg_read_atomic),
		cmocka_unit_test(lsg_write_rperf),
		cmocka_unit_test(lsg_read_postpoll),
		cmocka_unit_test(lsg_write_pingpong),
		cmocka_unit_test(lsg_write_pingpong_stall),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
