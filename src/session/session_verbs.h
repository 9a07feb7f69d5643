/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What lat and bw share about the verb they run (--verb): the remote
 * access a target buffer must grant, whether the device can run it, and
 * the check of the buffer a peer advertises (every byte from the peer is
 * hostile: the operations must stay inside what it registered).
 */
#ifndef RPERF_SESSION_VERBS_H
#define RPERF_SESSION_VERBS_H

#include <stddef.h>
#include <stdint.h>

#include "ctrl/ctrl.h"
#include "engine/endpoint.h"
#include "verbs/verbs.h"

/* IBV_ACCESS_REMOTE_* the target of @verb needs (0: SEND). */
int rperf_session_verb_access(int verb);

/* Can @d run @verb (initiator or responder)? 0, or ENOTSUP with @err
 * naming the device (atomics on a device whose atomic_cap is NONE). */
int rperf_session_verb_dev_check(const struct rperf_dev *d, int verb, char *err,
				 size_t errlen);

/*
 * The buffer @peer advertised (@who names it) must take operations of
 * @verb of up to @need bytes at its address: registered for them (its
 * "access" says so; absent: an older rperf, refused for READ/atomic), at
 * least @need bytes, no address wrap-around, 8-byte aligned for atomics.
 * 0, or EPROTO with a one-line @err.
 */
int rperf_session_peer_buf_check(const struct rperf_ctrl_endpoint *peer,
				 int verb, uint64_t need, const char *who,
				 char *err, size_t errlen);

#endif
