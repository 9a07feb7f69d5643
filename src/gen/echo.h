/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The pingpong responder (perftest's way): every SEND received on a QP is
 * sent back from the buffer it landed in, and the receive reposted; with
 * RDMA WRITE, a polled byte answered by a WRITE. One echo for rperf lat's
 * server and an agent's LSG sink.
 */
#ifndef RPERF_GEN_ECHO_H
#define RPERF_GEN_ECHO_H

#include <stdbool.h>
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
 * naming a failed reply (@op: "SEND" or "WRITE") and its status. */
int rperf_echo_reap(struct rperf_qp *qp, const char *op, char *err,
		    size_t errlen);

/*
 * Pingpong with RDMA WRITE (perftest's ib_write_lat): the peer WRITEs each
 * sample so that it ends at the last byte of @buf, that byte carrying a
 * sequence number (1..255, then 1 again; *@seq the last one answered,
 * kept across runs as the peer keeps its own). When the byte turned to
 * the next number, WRITE the last @size bytes of @buf back so that they
 * end at the end of the peer's buffer (@peer_end: the address one past
 * its last byte, @rkey), signaled, inline when it fits; *@answered then.
 * No receive is consumed either way. 0 or EIO with @err.
 */
int rperf_echo_write(struct rperf_qp *qp, const struct rperf_buf *buf,
		     uint64_t size, uint64_t peer_end, uint32_t rkey,
		     uint8_t *seq, bool *answered, char *err, size_t errlen);

#endif
