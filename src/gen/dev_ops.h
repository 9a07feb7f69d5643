/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The device calls of the generators' hot loops (post, poll, clock reads)
 * go through one small table, so that unit tests can drive the LSG and the
 * BSG with a scripted device on a virtual clock (tests/unit/scripted_dev.c,
 * a test instrument, not a product backend).
 *
 * The real path is rperf_verbs_ops. The inline helpers below compare the
 * table with it and then call libibverbs and the rperf clock directly,
 * inlined, with no indirect call of their own; any other table is called
 * through its pointers. bench.gen measures what this costs.
 */
#ifndef RPERF_DEV_OPS_H
#define RPERF_DEV_OPS_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>

#include <infiniband/verbs.h>
#include <rperf/clock.h>

#include "verbs/verbs.h"

struct rperf_dev_ops {
	int (*post_send)(void *ctx, struct ibv_qp *qp, struct ibv_send_wr *wr,
			 struct ibv_send_wr **bad);
	int (*post_recv)(void *ctx, struct ibv_qp *qp, struct ibv_recv_wr *wr,
			 struct ibv_recv_wr **bad);
	/* ibv_poll_cq(): completions returned, or < 0 */
	int (*poll_cq)(void *ctx, struct ibv_cq *cq, int n, struct ibv_wc *wc);
	/* One completion of an extended CQ with the NIC's completion
	 * timestamp (raw counter): 1, 0 when none, or -errno. Only wr_id and
	 * status of @wc are filled. */
	int (*poll_ts)(void *ctx, struct ibv_cq_ex *cq, struct ibv_wc *wc,
		       uint64_t *nic_ts);
	/* rperf_clock_start() / rperf_clock_end() */
	uint64_t (*clock_start)(void *ctx, const struct rperf_clock *clk);
	uint64_t (*clock_end)(void *ctx, const struct rperf_clock *clk);
	/* A byte of host memory that the NIC writes (the LSG's pingpong with
	 * RDMA WRITE polls the reply's last byte); NULL: read it directly. */
	uint8_t (*read_u8)(void *ctx, const volatile uint8_t *p);
};

/* libibverbs and the rperf clock. */
extern const struct rperf_dev_ops rperf_verbs_ops;

/* What a generator run calls its device through. */
struct rperf_gen_dev {
	const struct rperf_dev_ops *ops;
	void *ctx;
	const struct rperf_clock *clk;
};

/* @ops NULL: the real device. */
static inline struct rperf_gen_dev
rperf_gen_dev(const struct rperf_dev_ops *ops, void *ctx,
	      const struct rperf_clock *clk)
{
	return (struct rperf_gen_dev){ .ops = ops ? ops : &rperf_verbs_ops,
				       .ctx = ctx,
				       .clk = clk };
}

static inline int rperf_verbs_poll_ts(struct ibv_cq_ex *cq, struct ibv_wc *wc,
				      uint64_t *nic_ts)
{
	struct ibv_poll_cq_attr attr = { .comp_mask = 0 };
	int rc = ibv_start_poll(cq, &attr);

	if (rc == ENOENT)
		return 0; /* ibv_end_poll() must not follow */
	if (rc)
		return -rc;
	wc->wr_id = cq->wr_id;
	wc->status = cq->status;
	*nic_ts = ibv_wc_read_completion_ts(cq);
	ibv_end_poll(cq);
	return 1;
}

#define RPERF_GEN_REAL(d) __builtin_expect((d)->ops == &rperf_verbs_ops, 1)

static inline int gen_post_send(const struct rperf_gen_dev *d,
				struct ibv_qp *qp, struct ibv_send_wr *wr,
				struct ibv_send_wr **bad)
{
	if (RPERF_GEN_REAL(d))
		return ibv_post_send(qp, wr, bad);
	return d->ops->post_send(d->ctx, qp, wr, bad);
}

static inline int gen_post_recv(const struct rperf_gen_dev *d,
				struct ibv_qp *qp, struct ibv_recv_wr *wr,
				struct ibv_recv_wr **bad)
{
	if (RPERF_GEN_REAL(d))
		return ibv_post_recv(qp, wr, bad);
	return d->ops->post_recv(d->ctx, qp, wr, bad);
}

static inline int gen_poll_cq(const struct rperf_gen_dev *d, struct ibv_cq *cq,
			      int n, struct ibv_wc *wc)
{
	if (RPERF_GEN_REAL(d))
		return ibv_poll_cq(cq, n, wc);
	return d->ops->poll_cq(d->ctx, cq, n, wc);
}

static inline int gen_poll_ts(const struct rperf_gen_dev *d,
			      struct ibv_cq_ex *cq, struct ibv_wc *wc,
			      uint64_t *nic_ts)
{
	if (RPERF_GEN_REAL(d))
		return rperf_verbs_poll_ts(cq, wc, nic_ts);
	return d->ops->poll_ts(d->ctx, cq, wc, nic_ts);
}

static inline uint64_t gen_clock_start(const struct rperf_gen_dev *d)
{
	if (RPERF_GEN_REAL(d))
		return rperf_clock_start(d->clk);
	return d->ops->clock_start(d->ctx, d->clk);
}

static inline uint64_t gen_clock_end(const struct rperf_gen_dev *d)
{
	if (RPERF_GEN_REAL(d))
		return rperf_clock_end(d->clk);
	return d->ops->clock_end(d->ctx, d->clk);
}

static inline uint8_t gen_read_u8(const struct rperf_gen_dev *d,
				  const volatile uint8_t *p)
{
	if (RPERF_GEN_REAL(d) || !d->ops->read_u8)
		return *p;
	return d->ops->read_u8(d->ctx, p);
}

/* rperf_post_recvs() through @d. */
int rperf_gen_post_recvs(const struct rperf_gen_dev *d, struct rperf_qp *qp,
			 const struct rperf_buf *buf, size_t len,
			 unsigned int n);

#endif
