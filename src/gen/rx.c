/* SPDX-License-Identifier: BSD-2-Clause */
#include "gen/rx.h"

#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <rperf/clock.h>

#include "gen/echo.h"
#include "util/err.h"

#define RX_BATCH 32
#define RX_SPIN 256 /* empty drains between control-socket checks */

static void count(struct rperf_rx_count *x, const struct ibv_wc *wc)
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

static int drain_qp(struct rperf_gen_conn *c, struct rperf_qp *qp,
		    struct rperf_rx_count *x, int *got, char *err,
		    size_t errlen)
{
	struct ibv_wc wc[RX_BATCH];
	int n;

	while ((n = ibv_poll_cq(qp->recv_cq, RX_BATCH, wc)) > 0) {
		for (int i = 0; i < n; i++) {
			if (c->echo && rperf_echo_one(qp, &c->buf, c->max_size,
						      &wc[i], err, errlen))
				return EIO;
			if (wc[i].status != IBV_WC_SUCCESS)
				return rperf_fail(
					err, errlen, EIO,
					"receive completion: %s",
					ibv_wc_status_str(wc[i].status));
			count(x, &wc[i]);
		}
		*got += n;
		if (!c->echo &&
		    rperf_post_recvs(qp, &c->buf, c->max_size, (unsigned int)n))
			return rperf_fail(err, errlen, EIO,
					  "reposting receives failed");
	}
	if (n < 0)
		return rperf_fail(err, errlen, EIO, "ibv_poll_cq failed");
	return c->echo ? rperf_echo_reap(qp, "SEND", err, errlen) : 0;
}

int rperf_rx_drain(struct rperf_gen_conn *c, struct rperf_rx_count *x, int *got,
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

double rperf_rx_seconds(const struct rperf_rx_count *x)
{
	return x->last_ns > x->first_ns ?
		       (double)(x->last_ns - x->first_ns) / 1e9 :
		       0;
}

/* Going to sleep: take stale events, arm every receive CQ. */
static int arm(struct rperf_gen_conn *c, char *err, size_t errlen)
{
	unsigned int n;

	if (rperf_channel_take(c->channel, -1, &n))
		return rperf_fail(err, errlen, EIO, "ibv_get_cq_event failed");
	for (size_t q = 0; q < c->nqp; q++)
		if (ibv_req_notify_cq(c->qp[q]->recv_cq, 0))
			return rperf_fail(err, errlen, EIO,
					  "ibv_req_notify_cq failed");
	return 0;
}

/* poll() the control socket (and the channel when asleep): 1 when the
 * control socket spoke, 0, or an errno. */
static int wait_fds(struct rperf_gen_conn *c, const struct rperf_rx_wait *w,
		    bool *asleep, int timeout_ms, char *err, size_t errlen)
{
	struct pollfd pf[2] = { { .fd = w->fd, .events = POLLIN },
				{ .fd = *asleep ? c->channel->fd : -1,
				  .events = POLLIN } };
	unsigned int n;

	if (poll(pf, 2, timeout_ms) < 0 && errno != EINTR) {
		snprintf(err, errlen, "poll: %s", strerror(errno));
		return errno;
	}
	if (pf[0].revents)
		return 1;
	if (pf[1].revents & POLLIN) {
		*asleep = false;
		if (rperf_channel_take(c->channel, -1, &n))
			return rperf_fail(err, errlen, EIO,
					  "ibv_get_cq_event failed");
	}
	return 0;
}

int rperf_rx_wait(struct rperf_gen_conn *c, struct rperf_rx_count *x,
		  const struct rperf_rx_wait *w, char *err, size_t errlen)
{
	bool can_sleep = c->recvs && c->channel, asleep = false;
	uint64_t last = rperf_clock_posix_now(), t;
	unsigned int idle = 0;
	int rc, got;

	for (;;) {
		got = 0;
		rc = c->recvs ? rperf_rx_drain(c, x, &got, err, errlen) : 0;
		if (rc)
			return rc;
		if (got) {
			last = x->last_ns;
			asleep = false;
			continue;
		}
		if (c->recvs && !asleep && w->spin_ns && ++idle < RX_SPIN)
			continue;
		idle = 0;
		if (w->stop && *w->stop)
			return EINTR;
		t = rperf_clock_posix_now();
		if (w->idle_ns && t - last > w->idle_ns)
			return ETIMEDOUT;
		if (can_sleep && !asleep && t - last >= w->spin_ns) {
			if ((rc = arm(c, err, errlen)))
				return rc;
			asleep = true;
			x->sleeps++;
			continue; /* drain once more: a completion may predate it */
		}
		/* no channel to sleep on: a 1 ms nap per pass after spin_ns */
		rc = wait_fds(c, w, &asleep,
			      asleep || !c->recvs    ? 200 :
			      t - last >= w->spin_ns ? 1 :
						       0,
			      err, errlen);
		if (rc)
			return rc == 1 ? 0 : rc;
	}
}
