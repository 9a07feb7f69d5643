/* SPDX-License-Identifier: BSD-2-Clause */
#include "bw/bw_rx.h"

#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <unistd.h>

#include <rperf/clock.h>

#define RX_BATCH 32
#define RX_SPIN 256 /* empty drains between control-socket checks */

static void count(struct rperf_bw_rxc *x, const struct ibv_wc *wc)
{
	if (wc->opcode == IBV_WC_RECV_RDMA_WITH_IMM) {
		uint64_t k = ntohl(wc->imm_data);

		x->messages += k;
		x->bytes += k * wc->byte_len;
	} else {
		x->messages++;
		x->bytes += wc->byte_len;
	}
}

static int drain_qp(struct rperf_bw_conn *c, struct rperf_qp *qp,
		    struct rperf_bw_rxc *x, int *got, char *err, size_t errlen)
{
	struct ibv_wc wc[RX_BATCH];
	int n;

	while ((n = ibv_poll_cq(qp->recv_cq, RX_BATCH, wc)) > 0) {
		for (int i = 0; i < n; i++) {
			if (wc[i].status != IBV_WC_SUCCESS) {
				snprintf(err, errlen, "receive completion: %s",
					 ibv_wc_status_str(wc[i].status));
				return EIO;
			}
			count(x, &wc[i]);
		}
		*got += n;
		if (rperf_post_recvs(qp, &c->buf, c->max_size,
				     (unsigned int)n)) {
			snprintf(err, errlen, "reposting receives failed");
			return EIO;
		}
	}
	if (n < 0) {
		snprintf(err, errlen, "ibv_poll_cq failed");
		return EIO;
	}
	return 0;
}

int rperf_bw_rx_drain(struct rperf_bw_conn *c, struct rperf_bw_rxc *x, int *got,
		      char *err, size_t errlen)
{
	int rc = 0;

	*got = 0;
	for (size_t q = 0; !rc && q < c->nqp; q++)
		rc = drain_qp(c, c->qp[q], x, got, err, errlen);
	if (*got) {
		x->last_ns = rperf_clock_posix_now();
		if (!x->first_ns)
			x->first_ns = x->last_ns;
	}
	return rc;
}

double rperf_bw_rx_seconds(const struct rperf_bw_rxc *x)
{
	return x->last_ns > x->first_ns ?
		       (double)(x->last_ns - x->first_ns) / 1e9 :
		       0;
}

int rperf_bw_rx_until(struct rperf_bw_conn *c, struct rperf_bw_rxc *x, int fd,
		      const volatile sig_atomic_t *stop, int timeout_ms,
		      char *err, size_t errlen)
{
	uint64_t last = rperf_clock_posix_now();
	struct pollfd pf = { .fd = fd, .events = POLLIN };
	unsigned int idle = 0;
	int rc, got;

	for (;;) {
		got = 0;
		rc = c->recvs ? rperf_bw_rx_drain(c, x, &got, err, errlen) : 0;
		if (rc)
			return rc;
		if (got) {
			last = rperf_clock_posix_now();
			continue;
		}
		if (c->recvs && ++idle < RX_SPIN)
			continue;
		idle = 0;
		if (stop && *stop)
			return EINTR;
		if (poll(&pf, 1, c->recvs ? 0 : 10) > 0)
			return 0;
		if (rperf_clock_posix_now() - last >
		    (uint64_t)timeout_ms * 1000000ull)
			return ETIMEDOUT;
	}
}

int rperf_bw_rx_catch_up(struct rperf_bw_conn *c, struct rperf_bw_rxc *x,
			 uint64_t want, char *err, size_t errlen)
{
	int rc, got;

	for (int i = 0; i < 200 && c->recvs && x->messages < want; i++) {
		if ((rc = rperf_bw_rx_drain(c, x, &got, err, errlen)))
			return rc;
		if (!got)
			usleep(5000); /* the last completions may trail */
	}
	return 0;
}
