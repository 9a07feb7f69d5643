/* SPDX-License-Identifier: BSD-2-Clause */
/* The scripted device (scripted_dev.h): a test instrument. */
#include "scripted_dev.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static void advance(struct sdev *d, uint64_t ns)
{
	d->now += ns;
	if (d->stop_at && d->now >= d->stop_at)
		d->stop = 1;
}

static struct sdev_qp *find_qp(struct sdev *d, const struct ibv_qp *qp)
{
	for (int i = 0; i < d->nqps; i++)
		if (&d->qps[i].qp == qp)
			return &d->qps[i];
	abort(); /* the generator passed a QP it was not given */
}

static struct sdev_cq *find_cq(struct sdev *d, const void *cq)
{
	for (int i = 0; i < d->nqps; i++) {
		if ((const void *)&d->qps[i].scq.ex == cq)
			return &d->qps[i].scq;
		if ((const void *)&d->qps[i].rcq.ex == cq)
			return &d->qps[i].rcq;
	}
	abort();
}

/* Queue a completion; in order on its CQ. */
static int push(struct sdev *d, struct sdev_cq *c, uint64_t wr_id,
		uint64_t ready, enum ibv_wc_status status)
{
	if (c->tail - c->head == SDEV_RING) {
		d->cq_full++;
		return ENOMEM;
	}
	if (ready < c->last_ready)
		ready = c->last_ready;
	c->last_ready = ready;
	c->ring[c->tail++ % SDEV_RING] = (struct sdev_cqe){ .wr_id = wr_id,
							    .ready = ready,
							    .status = status };
	return 0;
}

/* A SEND arriving: consumes a receive of @q (counted when none is there). */
static void receive(struct sdev *d, struct sdev_qp *q, uint64_t ready)
{
	if (q->recvs)
		q->recvs--;
	else
		d->rnr++;
	push(d, &q->rcq, 0, ready, IBV_WC_SUCCESS);
}

static int post_one(struct sdev *d, struct sdev_qp *q,
		    const struct ibv_send_wr *wr, uint64_t t)
{
	struct sdev_wr w = { .status = IBV_WC_SUCCESS };
	bool sends = wr->opcode == IBV_WR_SEND ||
		     wr->opcode == IBV_WR_RDMA_WRITE_WITH_IMM;
	int rc = 0;

	d->script(d->arg, (int)(q - d->qps), q->seq++, &w);
	q->stuck |= w.never; /* RC: nothing after it completes either */
	if (q->stuck)
		return 0;
	if ((wr->send_flags & IBV_SEND_SIGNALED) || w.status != IBV_WC_SUCCESS)
		rc = push(d, &q->scq, wr->wr_id, t + w.lat_ns, w.status);
	if (!rc && sends && q->rx_peer >= 0)
		receive(d, &d->qps[q->rx_peer], t + w.lat_ns);
	if (!rc && sends && q->replies)
		receive(d, q, t + w.reply_ns);
	return rc;
}

static int sdev_post_send(void *ctx, struct ibv_qp *qp, struct ibv_send_wr *wr,
			  struct ibv_send_wr **bad)
{
	struct sdev *d = ctx;
	struct sdev_qp *q = find_qp(d, qp);
	uint64_t t = d->now;
	int rc = 0;

	d->posts++;
	for (; wr && !rc; wr = wr->next) {
		uint32_t len = wr->num_sge ? wr->sg_list[0].length : 0;
		int b = 0;

		while (b < 32 && (len >> (b + 1)))
			b++;
		d->wire_bytes += len;
		d->len_log2[b]++;
		rc = post_one(d, q, wr, t);
		if (rc)
			*bad = wr;
	}
	advance(d, d->post_ns);
	return rc;
}

static int sdev_post_recv(void *ctx, struct ibv_qp *qp, struct ibv_recv_wr *wr,
			  struct ibv_recv_wr **bad)
{
	struct sdev_qp *q = find_qp(ctx, qp);

	(void)bad;
	for (; wr; wr = wr->next)
		q->recvs++;
	return 0;
}

/* Take the oldest completion of @c ready at the poll's entry, if any. */
static bool take(struct sdev *d, struct sdev_cq *c, struct sdev_cqe *out)
{
	const struct sdev_cqe *e = &c->ring[c->head % SDEV_RING];

	if (c->head == c->tail || e->ready > d->now)
		return false;
	*out = *e;
	c->head++;
	return true;
}

static int sdev_poll_cq(void *ctx, struct ibv_cq *cq, int n, struct ibv_wc *wc)
{
	struct sdev *d = ctx;
	struct sdev_cq *c = find_cq(d, cq);
	struct sdev_cqe e;
	int got = 0;

	d->polls++;
	while (got < n && take(d, c, &e)) {
		memset(&wc[got], 0, sizeof(wc[got]));
		wc[got].wr_id = e.wr_id;
		wc[got].status = e.status;
		got++;
	}
	advance(d, d->poll_ns);
	return got;
}

uint64_t sdev_nic_ts(const struct sdev *d, uint64_t ready_ns)
{
	double ticks = (double)ready_ns * d->nic_hz / 1e9;

	return ((uint64_t)ticks + d->nic_offset) & d->nic_mask;
}

static int sdev_poll_ts(void *ctx, struct ibv_cq_ex *cq, struct ibv_wc *wc,
			uint64_t *nic_ts)
{
	struct sdev *d = ctx;
	struct sdev_cq *c = find_cq(d, cq);
	struct sdev_cqe e;
	int got = 0;

	d->polls++;
	if (take(d, c, &e)) {
		wc->wr_id = e.wr_id;
		wc->status = e.status;
		*nic_ts = sdev_nic_ts(d, e.ready);
		got = 1;
	}
	advance(d, d->poll_ns);
	return got;
}

static uint64_t sdev_clock(void *ctx, const struct rperf_clock *clk)
{
	struct sdev *d = ctx;
	uint64_t t = d->now;

	(void)clk;
	d->clock_reads++;
	advance(d, d->clock_ns);
	return t;
}

const struct rperf_dev_ops sdev_ops = {
	.post_send = sdev_post_send,
	.post_recv = sdev_post_recv,
	.poll_cq = sdev_poll_cq,
	.poll_ts = sdev_poll_ts,
	.clock_start = sdev_clock,
	.clock_end = sdev_clock,
};

struct sdev *sdev_create(sdev_script_fn script, void *arg)
{
	struct sdev *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	d->post_ns = 100;
	d->poll_ns = 20;
	d->clock_ns = 5;
	d->now = 1000000;
	d->nic_hz = 1e9;
	d->nic_mask = UINT64_MAX;
	d->script = script;
	d->arg = arg;
	d->buf = (struct rperf_buf){ .addr = d->mem,
				     .len = sizeof(d->mem),
				     .mr = &d->mr };
	d->clk = (struct rperf_clock){ .source = RPERF_CLOCK_POSIX,
				       .trusted = true,
				       .hz = 1e9,
				       .ns_per_tick = 1.0 };
	return d;
}

void sdev_destroy(struct sdev *d)
{
	free(d);
}

struct rperf_qp *sdev_add_qp(struct sdev *d, int rx_peer, bool replies)
{
	struct sdev_qp *q;

	if (d->nqps == SDEV_MAX_QP)
		return NULL;
	q = &d->qps[d->nqps++];
	q->rx_peer = rx_peer;
	q->replies = replies;
	q->rq.qp = &q->qp;
	q->rq.send_cq_ex = &q->scq.ex;
	q->rq.send_cq = ibv_cq_ex_to_cq(&q->scq.ex);
	q->rq.recv_cq = ibv_cq_ex_to_cq(&q->rcq.ex);
	return &q->rq;
}
