/* SPDX-License-Identifier: BSD-2-Clause */
/* The pingpong responder (echo.h). */
#include "gen/echo.h"

#include <errno.h>
#include <stdio.h>

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

	if (wc->status != IBV_WC_SUCCESS) {
		snprintf(err, errlen, "receive completion: %s",
			 ibv_wc_status_str(wc->status));
		return EIO;
	}
	if (ibv_post_send(qp->qp, &wr, &bad) ||
	    rperf_post_recvs(qp, buf, max_size, 1)) {
		snprintf(err, errlen, "posting the reply failed");
		return EIO;
	}
	return 0;
}

int rperf_echo_reap(struct rperf_qp *qp, char *err, size_t errlen)
{
	struct ibv_wc wc[16];
	int n = ibv_poll_cq(qp->send_cq, 16, wc);

	for (int i = 0; i < n; i++)
		if (wc[i].status != IBV_WC_SUCCESS) {
			snprintf(err, errlen, "reply SEND: %s",
				 ibv_wc_status_str(wc[i].status));
			return EIO;
		}
	if (n < 0) {
		snprintf(err, errlen, "ibv_poll_cq failed");
		return EIO;
	}
	return 0;
}
