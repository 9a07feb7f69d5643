/* SPDX-License-Identifier: BSD-2-Clause */
#include "lat/lat_ctrl.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

int rperf_lat_send_endpoint(struct rperf_ctrl_session *s,
			    const struct rperf_ctrl_io *io,
			    const struct rperf_dev *d,
			    const struct rperf_qp *qp, int mtu,
			    const struct rperf_buf *buf)
{
	struct rperf_ctrl_endpoint cep = { 0 };
	struct rperf_endpoint ep;
	json_t *obj = NULL;
	int rc;

	rperf_qp_endpoint(d, qp, mtu, &ep);
	cep.qpn = ep.qpn;
	cep.psn = ep.psn;
	cep.lid = ep.lid;
	memcpy(cep.gid, ep.gid, sizeof(cep.gid));
	cep.mtu = (uint32_t)ep.mtu;
	if (buf) {
		cep.addr = (uintptr_t)buf->addr;
		cep.rkey = buf->mr->rkey;
		cep.size = buf->len;
	}
	rc = rperf_ctrl_endpoint_encode(&cep, &obj);
	if (!rc)
		rc = rperf_ctrl_session_send(s, io, RPERF_CTRL_ENDPOINT, obj);
	json_decref(obj);
	return rc;
}

int rperf_lat_endpoint_from(const struct rperf_ctrl_msg *m,
			    struct rperf_endpoint *ep,
			    struct rperf_ctrl_endpoint *raw)
{
	struct rperf_ctrl_endpoint cep;
	int rc = rperf_ctrl_endpoint_decode(m, &cep);

	if (rc)
		return rc;
	if (raw)
		*raw = cep;
	memset(ep, 0, sizeof(*ep));
	ep->qpn = cep.qpn;
	ep->psn = cep.psn;
	ep->lid = cep.lid;
	memcpy(ep->gid, cep.gid, sizeof(ep->gid));
	ep->mtu = (int)cep.mtu;
	return 0;
}

int rperf_lat_expect(struct rperf_ctrl_session *s,
		     const struct rperf_ctrl_io *io, enum rperf_ctrl_type want,
		     struct rperf_ctrl_msg *out, char *why, size_t whylen)
{
	int rc = rperf_ctrl_session_recv(s, io, out);

	if (rc) {
		snprintf(why, whylen, "waiting for %s: %s",
			 rperf_ctrl_type_name(want), strerror(rc));
		return rc;
	}
	if (out->type == want)
		return 0;
	if (out->type == RPERF_CTRL_REFUSE || out->type == RPERF_CTRL_ERROR) {
		if (rperf_ctrl_reason_decode(out, why, whylen))
			snprintf(why, whylen, "(no reason given)");
	} else {
		snprintf(why, whylen, "expected %s, got %s",
			 rperf_ctrl_type_name(want),
			 rperf_ctrl_type_name(out->type));
	}
	rperf_ctrl_msg_release(out);
	return EPROTO;
}

void rperf_lat_send_reason(struct rperf_ctrl_session *s,
			   const struct rperf_ctrl_io *io,
			   enum rperf_ctrl_type t, const char *reason)
{
	json_t *obj = NULL;

	if (!rperf_ctrl_reason_encode(reason, &obj))
		(void)rperf_ctrl_session_send(s, io, t, obj);
	json_decref(obj);
}
