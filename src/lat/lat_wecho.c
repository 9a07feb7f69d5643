/* SPDX-License-Identifier: BSD-2-Clause */
#include "lat/lat_wecho.h"

#include <errno.h>
#include <poll.h>

#define CHECK_SPINS 1024 /* polls of the byte between control checks */

static int reply(struct rperf_lat_conn *c, const struct rperf_lat_wecho *w,
		 struct rperf_err *e)
{
	const struct rperf_buf *b = &c->recv_buf;
	struct ibv_sge sge = { .addr = (uintptr_t)b->addr + b->len - w->size,
			       .length = (uint32_t)w->size,
			       .lkey = b->mr->lkey };
	struct ibv_send_wr wr = { .sg_list = &sge,
				  .num_sge = 1,
				  .opcode = IBV_WR_RDMA_WRITE,
				  .send_flags = IBV_SEND_SIGNALED },
			   *bad;

	if (w->size <= c->wire->max_inline)
		wr.send_flags |= IBV_SEND_INLINE;
	wr.wr.rdma.remote_addr = w->peer.addr + w->peer.size - w->size;
	wr.wr.rdma.rkey = w->peer.rkey;
	if (ibv_post_send(c->wire->qp, &wr, &bad))
		return rperf_err_set(e, RPERF_ERRC_RUNTIME, EIO,
				     "posting the reply WRITE failed");
	return 0;
}

/* Reap reply completions; a failed one ends the round. */
static int reap(struct rperf_lat_conn *c, struct rperf_err *e)
{
	struct ibv_wc wc[16];
	int n = ibv_poll_cq(c->wire->send_cq, 16, wc);

	for (int i = 0; i < n; i++)
		if (wc[i].status != IBV_WC_SUCCESS)
			return rperf_err_set(e, RPERF_ERRC_RUNTIME, EIO,
					     "reply WRITE: %s",
					     ibv_wc_status_str(wc[i].status));
	return n < 0 ? rperf_err_set(e, RPERF_ERRC_RUNTIME, EIO,
				     "ibv_poll_cq failed") :
		       0;
}

int rperf_lat_wecho_loop(struct rperf_lat_conn *c, struct rperf_lat_wecho *w,
			 int fd, volatile sig_atomic_t *stop,
			 uint64_t *answered, struct rperf_err *e)
{
	const volatile uint8_t *last =
		(const volatile uint8_t *)c->recv_buf.addr + c->recv_buf.len -
		1;
	struct pollfd pf = { .fd = fd, .events = POLLIN };
	uint64_t spins = 0;
	int rc = 0;

	if (!w->size || w->size > c->recv_buf.len || w->size > w->peer.size)
		return rperf_err_set(e, RPERF_ERRC_RUNTIME, EINVAL,
				     "pingpong write: no valid size");
	while (!rc) {
		uint8_t want = (uint8_t)(w->seq % 255 + 1);

		if (*last == want) {
			w->seq = want;
			(*answered)++;
			rc = reply(c, w, e);
		}
		if (!rc)
			rc = reap(c, e);
		if (rc || ++spins % CHECK_SPINS)
			continue;
		if (*stop)
			return rperf_err_set(e, RPERF_ERRC_RUNTIME, EIO,
					     "interrupted");
		if (poll(&pf, 1, 0) > 0)
			return 0; /* DONE (or the client went away) */
	}
	return rc;
}
