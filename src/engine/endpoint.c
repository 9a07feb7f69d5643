/* SPDX-License-Identifier: BSD-2-Clause */
#include "engine/endpoint.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "gen/gen.h"
#include "util/err.h"

uint32_t rperf_endpoint_access_bits(int ibv_access)
{
	return ((ibv_access & IBV_ACCESS_REMOTE_WRITE) ? RPERF_EP_REMOTE_WRITE :
							 0) |
	       ((ibv_access & IBV_ACCESS_REMOTE_READ) ? RPERF_EP_REMOTE_READ :
							0) |
	       ((ibv_access & IBV_ACCESS_REMOTE_ATOMIC) ?
			RPERF_EP_REMOTE_ATOMIC :
			0);
}

void rperf_endpoint_to_wire(const struct rperf_dev *d,
			    const struct rperf_qp *qp, int mtu,
			    const struct rperf_buf *buf,
			    struct rperf_ctrl_endpoint *out)
{
	struct rperf_endpoint ep;

	rperf_qp_endpoint(d, qp, mtu, &ep);
	memset(out, 0, sizeof(*out));
	out->qpn = ep.qpn;
	out->psn = ep.psn;
	out->lid = ep.lid;
	memcpy(out->gid, ep.gid, sizeof(out->gid));
	out->mtu = (uint32_t)ep.mtu;
	if (buf && buf->mr) {
		out->addr = (uintptr_t)buf->addr;
		out->rkey = buf->mr->rkey;
		out->size = buf->len;
		out->access = rperf_endpoint_access_bits(buf->access);
	}
}

void rperf_endpoint_from_wire(const struct rperf_ctrl_endpoint *in,
			      struct rperf_endpoint *out)
{
	memset(out, 0, sizeof(*out));
	out->qpn = in->qpn;
	out->psn = in->psn;
	out->lid = in->lid;
	memcpy(out->gid, in->gid, sizeof(out->gid));
	out->mtu = (int)in->mtu;
}

int rperf_verb_access(int verb)
{
	return rperf_verb_of(verb)->access;
}

int rperf_verb_dev_check(const struct rperf_dev *d, int verb, char *err,
			 size_t errlen)
{
	if (verb == RPERF_VERB_ATOMIC && d->attr.atomic_cap == IBV_ATOMIC_NONE)
		return rperf_fail(
			err, errlen, ENOTSUP,
			"--verb atomic: %s does not support atomic operations (atomic_cap NONE); accepted: send, write, write_imm, read",
			d->name);
	return 0;
}

int rperf_peer_buf_check(const struct rperf_ctrl_endpoint *peer, int verb,
			 uint64_t need, const char *who, char *err,
			 size_t errlen)
{
	uint32_t want = rperf_endpoint_access_bits(rperf_verb_access(verb));

	if (!want)
		return 0; /* SENDs land in receives, not in the buffer */
	/* a peer without "access" offers its buffer for WRITEs only */
	if (!peer->access && rperf_verb_access(verb) != IBV_ACCESS_REMOTE_WRITE)
		return rperf_fail(
			err, errlen, EPROTO,
			"%s does not say its buffer takes %s (an rperf older than --verb read/atomic); update it there",
			who, rperf_verb_of(verb)->label);
	if (peer->access && !(peer->access & want))
		return rperf_fail(
			err, errlen, EPROTO,
			"%s's buffer is not registered for %s (access %u)", who,
			rperf_verb_of(verb)->label, peer->access);
	if (peer->size < need || peer->addr + need < peer->addr)
		return rperf_fail(
			err, errlen, EPROTO,
			"%s advertises a buffer of %llu B at 0x%llx for %s of %llu B",
			who, (unsigned long long)peer->size,
			(unsigned long long)peer->addr,
			rperf_verb_of(verb)->label, (unsigned long long)need);
	if (rperf_verb_of(verb)->operand &&
	    (peer->addr % rperf_verb_of(verb)->operand))
		return rperf_fail(
			err, errlen, EPROTO,
			"%s advertises a buffer at 0x%llx, not 8-byte aligned for atomics",
			who, (unsigned long long)peer->addr);
	return 0;
}
