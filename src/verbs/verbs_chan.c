/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Completion channels shared by many CQs: one fd per QP set, not one per
 * QP, so the QP count is not bounded by the open-file limit. The fd is
 * non-blocking: a reader takes every pending event and never blocks.
 */
#include "verbs/verbs.h"

#include <errno.h>
#include <fcntl.h>

int rperf_channel_open(struct rperf_dev *d, struct ibv_comp_channel **out)
{
	struct ibv_comp_channel *ch = ibv_create_comp_channel(d->ctx);
	int fl;

	*out = NULL;
	if (!ch)
		return errno ? errno : ENOMEM;
	fl = fcntl(ch->fd, F_GETFL);
	if (fl < 0 || fcntl(ch->fd, F_SETFL, fl | O_NONBLOCK) < 0) {
		int rc = errno;

		ibv_destroy_comp_channel(ch);
		return rc;
	}
	*out = ch;
	return 0;
}

void rperf_channel_close(struct ibv_comp_channel *ch)
{
	if (ch)
		ibv_destroy_comp_channel(ch);
}

int rperf_channel_take(struct ibv_comp_channel *ch, int rearm, unsigned int *n)
{
	struct ibv_cq *cq;
	void *ctx;

	*n = 0;
	while (ibv_get_cq_event(ch, &cq, &ctx) == 0) {
		ibv_ack_cq_events(cq, 1);
		(*n)++;
		if (rearm >= 0 && ibv_req_notify_cq(cq, rearm))
			return EIO;
	}
	return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? 0 :
									   EIO;
}
