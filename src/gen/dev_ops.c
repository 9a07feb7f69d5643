/* SPDX-License-Identifier: BSD-2-Clause */
/* The real device table: thin wrappers of libibverbs and the rperf clock. */
#include "gen/dev_ops.h"

static int verbs_post_send(void *ctx, struct ibv_qp *qp, struct ibv_send_wr *wr,
			   struct ibv_send_wr **bad)
{
	(void)ctx;
	return ibv_post_send(qp, wr, bad);
}

static int verbs_post_recv(void *ctx, struct ibv_qp *qp, struct ibv_recv_wr *wr,
			   struct ibv_recv_wr **bad)
{
	(void)ctx;
	return ibv_post_recv(qp, wr, bad);
}

static int verbs_poll_cq(void *ctx, struct ibv_cq *cq, int n, struct ibv_wc *wc)
{
	(void)ctx;
	return ibv_poll_cq(cq, n, wc);
}

static int verbs_poll_ts(void *ctx, struct ibv_cq_ex *cq, struct ibv_wc *wc,
			 uint64_t *nic_ts)
{
	(void)ctx;
	return rperf_verbs_poll_ts(cq, wc, nic_ts);
}

static uint64_t verbs_clock_start(void *ctx, const struct rperf_clock *clk)
{
	(void)ctx;
	return rperf_clock_start(clk);
}

static uint64_t verbs_clock_end(void *ctx, const struct rperf_clock *clk)
{
	(void)ctx;
	return rperf_clock_end(clk);
}

const struct rperf_dev_ops rperf_verbs_ops = {
	.post_send = verbs_post_send,
	.post_recv = verbs_post_recv,
	.poll_cq = verbs_poll_cq,
	.poll_ts = verbs_poll_ts,
	.clock_start = verbs_clock_start,
	.clock_end = verbs_clock_end,
};

int rperf_gen_post_recvs(const struct rperf_gen_dev *d, struct rperf_qp *qp,
			 const struct rperf_buf *buf, size_t len,
			 unsigned int n)
{
	struct ibv_sge sge = { .addr = (uintptr_t)buf->addr,
			       .length = (uint32_t)len,
			       .lkey = buf->mr->lkey };
	struct ibv_recv_wr wr = { .sg_list = &sge, .num_sge = 1 }, *bad;

	int rc;

	for (unsigned int i = 0; i < n; i++) {
		wr.wr_id = i;
		rc = gen_post_recv(d, qp->qp, &wr, &bad);
		if (rc)
			return rc > 0 ? rc : EIO;
	}
	return 0;
}
