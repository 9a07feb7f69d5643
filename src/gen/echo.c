/* SPDX-License-Identifier: BSD-2-Clause */
/* The pingpong responder (echo.h). */
#include "gen/echo.h"

#include <errno.h>
#include <stdio.h>

#include "util/err.h"

int rperf_echo_one(struct rperf_qp *qp, const struct rperf_buf *buf,
		   uint64_t max_size, const struct ibv_wc *wc, char *err,
		   size_t errlen)
{
	struct ibv_sge sge = { .addr = (uintptr_t)buf->addr,
			       .length = wc->byte_len,
			       .lkey = buf->mr->lkey };
	struct ibv_send_wr wr = { .sg_list = &sge,
				  .num_sge = 1,
				  .opcode = IBV_WR_SEND,
				  .send_flags = IBV_SEND_SIGNALED },
			   *bad;

	if (wc->status != IBV_WC_SUCCESS)
		return rperf_fail(err, errlen, EIO, "receive completion: %s",
				  ibv_wc_status_str(wc->status));
	if (ibv_post_send(qp->qp, &wr, &bad) ||
	    rperf_post_recvs(qp, buf, max_size, 1))
		return rperf_fail(err, errlen, EIO, "posting the reply failed");
	return 0;
}

int rperf_echo_reap(struct rperf_qp *qp, const char *op, char *err,
		    size_t errlen)
{
	struct ibv_wc wc[16];
	int n = ibv_poll_cq(qp->send_cq, 16, wc);

	for (int i = 0; i < n; i++)
		if (wc[i].status != IBV_WC_SUCCESS)
			return rperf_fail(err, errlen, EIO, "reply %s: %s", op,
					  ibv_wc_status_str(wc[i].status));
	if (n < 0)
		return rperf_fail(err, errlen, EIO, "ibv_poll_cq failed");
	return 0;
}

int rperf_echo_write(struct rperf_qp *qp, const struct rperf_buf *buf,
		     uint64_t size, uint64_t peer_end, uint32_t rkey,
		     uint8_t *seq, bool *answered, char *err, size_t errlen)
{
	const volatile uint8_t *last =
		(const volatile uint8_t *)buf->addr + buf->len - 1;
	uint8_t want = (uint8_t)(*seq % 255 + 1);
	struct ibv_sge sge = { .addr = (uintptr_t)buf->addr + buf->len - size,
			       .length = (uint32_t)size,
			       .lkey = buf->mr->lkey };
	struct ibv_send_wr wr = { .sg_list = &sge,
				  .num_sge = 1,
				  .opcode = IBV_WR_RDMA_WRITE,
				  .send_flags = IBV_SEND_SIGNALED },
			   *bad;

	*answered = false;
	if (*last != want)
		return 0;
	if (size <= qp->max_inline)
		wr.send_flags |= IBV_SEND_INLINE;
	wr.wr.rdma.remote_addr = peer_end - size;
	wr.wr.rdma.rkey = rkey;
	if (ibv_post_send(qp->qp, &wr, &bad))
		return rperf_fail(err, errlen, EIO,
				  "posting the reply WRITE failed");
	*seq = want;
	*answered = true;
	return 0;
}
