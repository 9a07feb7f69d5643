// SPDX-License-Identifier: BSD-2-Clause
/* ENDPOINT message: queue pair connection info (and, optional, the
 * buffer's access and the rdma_cm port its end listens on). */
#include <errno.h>
#include <string.h>

#include "ctrl/ctrl.h"

#define QPN_MAX 0xffffffu /* 24-bit QP and packet sequence numbers */
#define GID_HEX_LEN 32

static bool mtu_ok(uint64_t mtu)
{
	return mtu >= 256 && mtu <= 4096 && (mtu & (mtu - 1)) == 0;
}

static int gid_parse(const char *s, uint8_t gid[16])
{
	return rperf_ctrl_unhex(s, gid, 16);
}

static void gid_format(const uint8_t gid[16], char s[GID_HEX_LEN + 1])
{
	rperf_ctrl_hex(gid, 16, s);
}

int rperf_ctrl_endpoint_encode(const struct rperf_ctrl_endpoint *ep,
			       json_t **out)
{
	char gid[GID_HEX_LEN + 1];
	json_t *obj;
	int ret = 0;

	if (!ep || ep->qpn > QPN_MAX || ep->psn > QPN_MAX || !mtu_ok(ep->mtu))
		return EINVAL;
	obj = json_object();
	if (!obj)
		return ENOMEM;
	gid_format(ep->gid, gid);
	ret = ret ? ret : rperf_ctrl_set_u64(obj, "qpn", ep->qpn);
	ret = ret ? ret : rperf_ctrl_set_u64(obj, "psn", ep->psn);
	ret = ret ? ret : rperf_ctrl_set_u64(obj, "lid", ep->lid);
	ret = ret ? ret : rperf_ctrl_set_str(obj, "gid", gid);
	ret = ret ? ret : rperf_ctrl_set_u64(obj, "mtu", ep->mtu);
	ret = ret ? ret : rperf_ctrl_set_u64(obj, "rkey", ep->rkey);
	ret = ret ? ret : rperf_ctrl_set_u64(obj, "addr", ep->addr);
	ret = ret ? ret : rperf_ctrl_set_u64(obj, "size", ep->size);
	if (ep->access) /* optional: older peers neither send nor read it */
		ret = ret ? ret :
			    rperf_ctrl_set_u64(obj, "access",
					       ep->access &
						       RPERF_EP_ACCESS_ALL);
	if (ep->cm_port) /* optional: an end that listens on rdma_cm */
		ret = ret ? ret :
			    rperf_ctrl_set_u64(obj, "cm_port", ep->cm_port);
	return rperf_ctrl_json_out(obj, ret, out);
}

static int get_u32(const json_t *obj, const char *key, uint32_t max,
		   uint32_t *out)
{
	uint64_t v;

	if (rperf_ctrl_get_u64(obj, key, 0, max, &v))
		return EBADMSG; /* missing keys too */
	*out = (uint32_t)v;
	return 0;
}

int rperf_ctrl_endpoint_decode(const struct rperf_ctrl_msg *m,
			       struct rperf_ctrl_endpoint *out)
{
	struct rperf_ctrl_endpoint ep = { 0 };
	char gid[GID_HEX_LEN + 1];
	const json_t *p;
	uint32_t lid, port = 0;

	if (!m || !out)
		return EINVAL;
	if (m->type != RPERF_CTRL_ENDPOINT)
		return EPROTO;
	p = m->payload;
	if (!json_is_object(p))
		return EBADMSG;
	if (get_u32(p, "qpn", QPN_MAX, &ep.qpn) ||
	    get_u32(p, "psn", QPN_MAX, &ep.psn) ||
	    get_u32(p, "lid", UINT16_MAX, &lid) ||
	    get_u32(p, "mtu", 4096, &ep.mtu) || !mtu_ok(ep.mtu) ||
	    get_u32(p, "rkey", UINT32_MAX, &ep.rkey) ||
	    rperf_ctrl_get_u64(p, "addr", 0, UINT64_MAX, &ep.addr) ||
	    rperf_ctrl_get_u64(p, "size", 0, UINT64_MAX, &ep.size) ||
	    rperf_ctrl_get_str(p, "gid", gid, sizeof(gid)) ||
	    gid_parse(gid, ep.gid))
		return EBADMSG;
	if (json_object_get(p, "access") &&
	    get_u32(p, "access", RPERF_EP_ACCESS_ALL, &ep.access))
		return EBADMSG;
	if (json_object_get(p, "cm_port") &&
	    (get_u32(p, "cm_port", UINT16_MAX, &port) || !port))
		return EBADMSG;
	ep.cm_port = (uint16_t)port;
	ep.lid = (uint16_t)lid;
	*out = ep;
	return 0;
}
