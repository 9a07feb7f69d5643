/* SPDX-License-Identifier: BSD-2-Clause */
/* Small helpers shared by the lat client and server over the ctrl channel. */
#ifndef RPERF_LAT_CTRL_H
#define RPERF_LAT_CTRL_H

#include "ctrl/ctrl.h"
#include "verbs/verbs.h"

#define RPERF_LAT_CTRL_TIMEOUT_MS 30000

/* Send ENDPOINT for @qp; @buf (may be NULL) is offered for RDMA WRITEs. */
int rperf_lat_send_endpoint(struct rperf_ctrl_session *s,
			    const struct rperf_ctrl_io *io,
			    const struct rperf_dev *d,
			    const struct rperf_qp *qp, int mtu,
			    const struct rperf_buf *buf);
/* Receive a message that must be @want; a REFUSE/ERROR gives EPROTO with its
 * reason in @why; anything else EPROTO too. */
int rperf_lat_expect(struct rperf_ctrl_session *s,
		     const struct rperf_ctrl_io *io, enum rperf_ctrl_type want,
		     struct rperf_ctrl_msg *out, char *why, size_t whylen);
/* Decoded ENDPOINT -> verbs endpoint (+ the peer's buffer, may be NULL). */
int rperf_lat_endpoint_from(const struct rperf_ctrl_msg *m,
			    struct rperf_endpoint *ep,
			    struct rperf_ctrl_endpoint *raw);
/* Send REFUSE or ERROR with @reason (best effort: errors ignored). */
void rperf_lat_send_reason(struct rperf_ctrl_session *s,
			   const struct rperf_ctrl_io *io,
			   enum rperf_ctrl_type t, const char *reason);

#endif
