/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * One conversion between the verbs endpoint of a QP and its wire form
 * (ctrl's ENDPOINT), for every way a generator is connected: the engine's
 * instances and the two-host commands alike.
 */
#ifndef RPERF_ENGINE_ENDPOINT_H
#define RPERF_ENGINE_ENDPOINT_H

#include <stddef.h>
#include <stdint.h>

#include "ctrl/ctrl.h"
#include "verbs/verbs.h"

/* @qp's endpoint on @d at @mtu, plus @buf's address, key and access (may
 * be NULL). */
void rperf_endpoint_to_wire(const struct rperf_dev *d,
			    const struct rperf_qp *qp, int mtu,
			    const struct rperf_buf *buf,
			    struct rperf_ctrl_endpoint *out);
void rperf_endpoint_from_wire(const struct rperf_ctrl_endpoint *in,
			      struct rperf_endpoint *out);
/* IBV_ACCESS_REMOTE_* -> the wire's RPERF_EP_REMOTE_* bits. */
uint32_t rperf_endpoint_access_bits(int ibv_access);

/* The verb a generator runs (enum rperf_verb): the remote access a
 * target buffer must grant, whether the device can run it, and the check
 * of the buffer a peer advertises (every byte from the peer is hostile:
 * the operations must stay inside what it registered). */
/* IBV_ACCESS_REMOTE_* the target of @verb needs (0: SEND). */
int rperf_verb_access(int verb);

/* Can @d run @verb (initiator or responder)? 0, or ENOTSUP with @err
 * naming the device (atomics on a device whose atomic_cap is NONE). */
int rperf_verb_dev_check(const struct rperf_dev *d, int verb, char *err,
			 size_t errlen);

/*
 * The buffer @peer advertised (@who names it) must take operations of
 * @verb of up to @need bytes at its address: registered for them (its
 * "access" says so; absent: an older rperf, refused for READ/atomic), at
 * least @need bytes, no address wrap-around, 8-byte aligned for atomics.
 * 0, or EPROTO with a one-line @err.
 */
int rperf_peer_buf_check(const struct rperf_ctrl_endpoint *peer, int verb,
			 uint64_t need, const char *who, char *err,
			 size_t errlen);

#endif
