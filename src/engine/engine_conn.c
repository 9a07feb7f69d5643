/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * An instance's QPs and their peer's: endpoints out, endpoints in, the
 * connection (verbs or rdma_cm) and the stall limit of its path.
 */
#include "engine/engine.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/endpoint.h"
#include "engine/engine_priv.h"
#include "gen/rx.h"
#include "verbs/verbs_cm.h"
#include "util/err.h"

uint64_t rperf_engine_stall_ns(const struct rperf_path_spec *p)
{
	uint64_t t = rperf_rc_stall_ns(p->qp_timeout, p->retry_count);

	return t < RPERF_ENGINE_MAX_STALL_NS ? t : RPERF_ENGINE_MAX_STALL_NS;
}

void rperf_engine_ep(const struct rperf_gen_inst *g, const struct rperf_qp *qp,
		     const struct rperf_buf *buf,
		     struct rperf_ctrl_endpoint *out)
{
	rperf_endpoint_to_wire(g->dev, qp, g->vcfg.mtu, buf, out);
}

void rperf_engine_ep_from(const struct rperf_ctrl_endpoint *in,
			  struct rperf_endpoint *out)
{
	rperf_endpoint_from_wire(in, out);
}

int rperf_engine_conn_eps(const struct rperf_gen_inst *g,
			  const struct rperf_gen_conn *c, bool offer_buf,
			  struct rperf_proto_inst_eps *out)
{
	out->qps = calloc(c->nqp, sizeof(*out->qps));
	if (!out->qps)
		return ENOMEM;
	for (size_t i = 0; i < c->nqp; i++) {
		rperf_engine_ep(g, c->qp[i], offer_buf ? &c->buf : NULL,
				&out->qps[i]);
		out->qps[i].cm_port = c->cm_server ? c->cm_port : 0;
	}
	out->nqps = c->nqp;
	return 0;
}

/* rdma_cm = true: the sink accepts (it listens since setup), the source
 * dials the address of the sink's GID at the port its endpoints say. */
static int conn_cm(struct rperf_gen_conn *c,
		   const struct rperf_proto_inst_eps *peer, char *err,
		   size_t errlen)
{
	char dst[64];
	int rc = 0;

	if (!c->cm_server) {
		if (rperf_cm_gid_text(peer->qps[0].gid, dst, sizeof(dst)) ||
		    !peer->qps[0].cm_port)
			return rperf_fail(
				err, errlen, EPROTO,
				"rdma_cm: the sink has no IPv4 GID or listens on no rdma_cm port (an agent without rdma_cm = true)");
		rc = rperf_gen_conn_cm_dial(c, NULL, dst, peer->qps[0].cm_port,
					    err, errlen);
	}
	return rc ? rc :
		    rperf_gen_conn_cm_connect(c, RPERF_ENGINE_CM_TIMEOUT_MS,
					      err, errlen);
}

int rperf_engine_conn_connect(const struct rperf_gen_inst *g,
			      struct rperf_gen_conn *c,
			      const struct rperf_proto_inst_eps *peer,
			      char *err, size_t errlen)
{
	const char *us = g->role == RPERF_ROLE_SINK ? "sink" : "source";
	const char *them = g->role == RPERF_ROLE_SINK ? "source" : "sink";
	int rc = 0;

	if (peer->nqps != c->nqp)
		return rperf_fail(err, errlen, EINVAL,
				  "the %s has %zu QPs, the %s %zu", them,
				  peer->nqps, us, c->nqp);
	if (g->role != RPERF_ROLE_SINK && peer->nqps) {
		struct rperf_endpoint ep;

		rperf_engine_ep_from(&peer->qps[0], &ep);
		if (rperf_endpoint_is_local(g->dev, &ep))
			return rperf_fail(
				err, errlen, EINVAL,
				"the sink of %s answered from this host's own device %s port %d: that measures a loopback inside the device, not a wire; give its hosts different devices ([host] device; rperf lat/bw: -d)",
				g->spec.name, g->dev->name, g->dev->port);
	}
	if (g->spec.test.rdma_cm)
		return conn_cm(c, peer, err, errlen);
	for (size_t i = 0; !rc && i < c->nqp; i++) {
		struct rperf_endpoint ep;

		rperf_engine_ep_from(&peer->qps[i], &ep);
		rc = rperf_qp_connect(c->qp[i], g->dev, &g->vcfg, &ep, err,
				      errlen);
	}
	return rc;
}
