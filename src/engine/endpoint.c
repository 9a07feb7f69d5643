/* SPDX-License-Identifier: BSD-2-Clause */
#include "engine/endpoint.h"

#include <string.h>

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
