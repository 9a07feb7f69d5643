/* SPDX-License-Identifier: BSD-2-Clause */
#include "bw/bw_conn.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/endpoint.h"
#include "session/session_ctrl.h"
#include "session/session.h"

int rperf_bw_conn_client(struct rperf_gen_conn *c,
			 const struct rperf_cli_config *cfg, uint64_t max_size,
			 char *err, size_t errlen)
{
	struct rperf_qp_cfg q = { .send_depth = (uint32_t)cfg->tx_depth,
				  .recv_depth = 1,
				  .inline_size = (uint32_t)cfg->inline_size,
				  .send_events = cfg->events && !cfg->bidir &&
						 !cfg->reversed };
	/* READ and atomics land in the buffer (LOCAL_WRITE) */
	int rc, access = rperf_verb_responder_only(cfg->verb) ?
				 IBV_ACCESS_LOCAL_WRITE :
				 0;

	memset(c, 0, sizeof(*c));
	c->max_size = max_size;
	c->rx_depth = 1;
	if (cfg->bidir || cfg->reversed) { /* the server sends to us too */
		c->recvs = rperf_verb_consumes_recv(cfg->verb);
		c->rx_depth = c->recvs ? (unsigned int)cfg->rx_depth : 1;
		q.recv_depth = c->rx_depth;
		q.access = IBV_ACCESS_REMOTE_WRITE |
			   rperf_verb_access(cfg->verb);
		access = IBV_ACCESS_LOCAL_WRITE | q.access;
	}
	rc = rperf_session_dev_open(cfg, NULL, &c->vcfg, &c->dev, err, errlen);
	if (!rc)
		rc = rperf_verb_dev_check(c->dev, cfg->verb, err, errlen);
	if (!rc)
		rc = rperf_gen_depth_check(c->dev, "-t/--tx-depth",
					   cfg->tx_depth, err, errlen);
	if (!rc)
		rc = rperf_gen_depth_check(c->dev, "-r/--rx-depth", c->rx_depth,
					   err, errlen);
	if (!rc)
		rc = rperf_gen_conn_open(c, &q, (size_t)cfg->qps, access, err,
					 errlen);
	if (!rc && cfg->rdma_cm) /* from -z, else our GID's address */
		rc = rperf_gen_conn_cm_dial(c, cfg->source_ip, cfg->host,
					    (uint16_t)cfg->tcp_port, err,
					    errlen);
	if (rc)
		rperf_bw_conn_close(c);
	return rc;
}

int rperf_bw_conn_server(struct rperf_gen_conn *c,
			 const struct rperf_cli_config *cfg,
			 const struct rperf_gen_spec *p, char *err,
			 size_t errlen)
{
	/* -b, --reversed: the server generates. Receive events (one shared
	 * channel) whenever something arrives to be counted: a sink with
	 * nothing arriving sleeps on them. */
	bool gen = p->test.bidir || p->test.reversed;
	struct rperf_qp_cfg q = {
		.send_depth = gen ? (uint32_t)p->tx_depth : 1,
		.recv_events = p->verb != RPERF_VERB_WRITE &&
			       !rperf_verb_responder_only(p->verb),
		.access = IBV_ACCESS_REMOTE_WRITE | rperf_verb_access(p->verb)
	};
	int rc;

	memset(c, 0, sizeof(*c));
	c->max_size = p->size;
	/* --reversed: the client sends nothing */
	c->recvs = rperf_verb_consumes_recv(p->verb) && !p->test.reversed;
	c->rx_depth = c->recvs ? p->test.rx_depth : 1;
	q.recv_depth = c->rx_depth;
	rc = rperf_session_dev_open(cfg, &p->path, &c->vcfg, &c->dev, err,
				    errlen);
	if (!rc)
		rc = rperf_verb_dev_check(c->dev, p->verb, err, errlen);
	if (!rc)
		rc = rperf_gen_depth_check(c->dev, "-r/--rx-depth", c->rx_depth,
					   err, errlen);
	if (!rc && gen)
		rc = rperf_gen_depth_check(c->dev, "-t/--tx-depth", p->tx_depth,
					   err, errlen);
	if (!rc)
		rc = rperf_gen_conn_open(c, &q, (size_t)p->qps,
					 IBV_ACCESS_LOCAL_WRITE | q.access, err,
					 errlen);
	if (!rc && p->test.rdma_cm)
		rc = rperf_gen_conn_cm_listen(c, (uint16_t)cfg->tcp_port, err,
					      errlen);
	if (rc)
		rperf_bw_conn_close(c);
	return rc;
}

void rperf_bw_conn_close(struct rperf_gen_conn *c)
{
	rperf_gen_conn_free(c);
	rperf_dev_close(c->dev);
	memset(c, 0, sizeof(*c));
}

static int endpoint_json(const struct rperf_gen_conn *c, json_t **out)
{
	struct rperf_ctrl_endpoint cep;
	uint64_t *v = calloc(2 * c->nqp, sizeof(*v));
	int rc;

	if (!v)
		return ENOMEM;
	rperf_endpoint_to_wire(c->dev, c->qp[0], c->vcfg.mtu, &c->buf, &cep);
	for (size_t i = 0; i < c->nqp; i++) {
		v[i] = c->qp[i]->qp->qp_num;
		v[c->nqp + i] = c->qp[i]->psn;
	}
	rc = rperf_ctrl_endpoint_encode(&cep, out);
	if (!rc)
		rc = rperf_ctrl_set_u64_array(*out, "qpns", v, c->nqp);
	if (!rc)
		rc = rperf_ctrl_set_u64_array(*out, "psns", v + c->nqp, c->nqp);
	free(v);
	return rc;
}

int rperf_bw_send_endpoints(struct rperf_ctrl_session *s,
			    const struct rperf_ctrl_io *io,
			    const struct rperf_gen_conn *c)
{
	json_t *obj = NULL;
	int rc = endpoint_json(c, &obj);

	if (!rc)
		rc = rperf_ctrl_session_send(s, io, RPERF_CTRL_ENDPOINT, obj);
	json_decref(obj);
	return rc;
}

static int peer_from(const struct rperf_ctrl_msg *m,
		     const struct rperf_gen_conn *c, struct rperf_bw_peer *peer,
		     uint64_t *v)
{
	struct rperf_ctrl_endpoint cep;
	size_t nq = 0, np = 0;

	if (rperf_ctrl_endpoint_decode(m, &cep) ||
	    rperf_ctrl_get_u64_array(m->payload, "qpns", 0, 0xffffff, v, c->nqp,
				     &nq) ||
	    rperf_ctrl_get_u64_array(m->payload, "psns", 0, 0xffffff,
				     v + c->nqp, c->nqp, &np) ||
	    nq != c->nqp || np != c->nqp)
		return EBADMSG;
	for (size_t i = 0; i < c->nqp; i++) {
		rperf_endpoint_from_wire(&cep, &peer->ep[i]);
		peer->ep[i].qpn = (uint32_t)v[i];
		peer->ep[i].psn = (uint32_t)v[c->nqp + i];
	}
	peer->nqp = c->nqp;
	peer->addr = cep.addr;
	peer->rkey = cep.rkey;
	peer->size = cep.size;
	peer->buf = cep;
	return 0;
}

int rperf_bw_recv_endpoints(struct rperf_ctrl_session *s,
			    const struct rperf_ctrl_io *io,
			    const struct rperf_gen_conn *c,
			    struct rperf_bw_peer *peer, char *why,
			    size_t whylen)
{
	struct rperf_ctrl_msg m;
	uint64_t *v;
	int rc;

	memset(peer, 0, sizeof(*peer));
	rc = rperf_session_expect(s, io, RPERF_CTRL_ENDPOINT, &m, why, whylen);
	if (rc)
		return rc;
	peer->ep = calloc(c->nqp, sizeof(*peer->ep));
	v = calloc(2 * c->nqp, sizeof(*v));
	rc = peer->ep && v ? peer_from(&m, c, peer, v) : ENOMEM;
	if (rc == EBADMSG)
		snprintf(why, whylen,
			 "malformed ENDPOINT (expected %zu QPs in qpns/psns)",
			 c->nqp);
	else if (rc)
		snprintf(why, whylen, "out of memory");
	free(v);
	rperf_ctrl_msg_release(&m);
	if (rc)
		rperf_bw_peer_free(peer);
	return rc;
}

void rperf_bw_peer_free(struct rperf_bw_peer *peer)
{
	free(peer->ep);
	memset(peer, 0, sizeof(*peer));
}

int rperf_bw_connect_all(struct rperf_gen_conn *c,
			 const struct rperf_bw_peer *peer, char *err,
			 size_t errlen)
{
	int rc = 0;

	if (c->cm)
		return rperf_gen_conn_cm_connect(
			c, RPERF_SESSION_TIMEOUT_MS / 2, err, errlen);
	for (size_t i = 0; !rc && i < c->nqp; i++)
		rc = rperf_qp_connect(c->qp[i], c->dev, &c->vcfg, &peer->ep[i],
				      err, errlen);
	return rc;
}

int rperf_bw_path_mtu(const struct rperf_gen_conn *c,
		      const struct rperf_bw_peer *peer)
{
	int local = c->vcfg.mtu ? c->vcfg.mtu : rperf_port_mtu(c->dev);
	int remote = peer->nqp ? peer->ep[0].mtu : local;

	return remote < local ? remote : local;
}
