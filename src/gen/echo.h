/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The pingpong responder (perftest's way): every SEND received on a QP is
 * sent back from the buffer it landed in, and the receive reposted. One
 * echo for rperf lat's server and an agent's LSG sink.
 */
#ifndef RPERF_GEN_ECHO_H
#define RPERF_GEN_ECHO_H

#include <stddef.h>
#include <stdint.h>

#include "verbs/verbs.h"

/* Send the SEND @wc received on @qp back: @wc->byte_len bytes of @buf
 * (where it landed), signaled; repost one receive of @max_size. 0 or EIO
 * with @err naming the step (a failed receive completion included). */
int rperf_echo_one(struct rperf_qp *qp, const struct rperf_buf *buf,
		   uint64_t max_size, const struct ibv_wc *wc, char *err,
		   size_t errlen);
/* Reap the replies' completions on @qp's send CQ: 0 or EIO with @err
 * naming a failed reply's status. */
int rperf_echo_reap(struct rperf_qp *qp, char *err, size_t errlen);

#endif
