/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * One end of a generator connection opened and closed in one place: the
 * engine's BSG source and sink (src/engine/gen_bsg.c, gen_sink.c) make
 * their QPs, their buffer and their receives here, and connect their QPs
 * through rdma_cm when asked.
 */
#include "gen/rx.h"
#include "gen/bsg.h"
#include "util/err.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int rperf_gen_depth_check(const struct rperf_dev *d, const char *opt,
			  uint64_t depth, char *err, size_t errlen)
{
	int wr = d->attr.max_qp_wr, cqe = d->attr.max_cqe;
	int max = cqe > 0 && cqe < wr ? cqe : wr;

	if (depth <= (uint64_t)max)
		return 0;
	return rperf_fail(
		err, errlen, ERANGE,
		"%s: %llu is above what %s allows; accepted: at most %d (max_qp_wr %d, max_cqe %d)",
		opt, (unsigned long long)depth, d->name, max, wr, cqe);
}

static int open_qps(struct rperf_gen_conn *c, struct rperf_qp_cfg *q, size_t n,
		    char *err, size_t errlen)
{
	int rc = 0;

	c->qp = calloc(n, sizeof(*c->qp));
	if (!c->qp)
		return ENOMEM;
	if (q->recv_events || q->send_events) {
		rc = rperf_channel_open(c->dev, &c->channel);
		if (rc)
			return rperf_fail(err, errlen, rc,
					  "%s: a completion channel: %s",
					  c->dev->name, strerror(rc));
		q->channel = c->channel;
	}
	while (!rc && c->nqp < n) {
		rc = rperf_qp_create(c->dev, q, &c->qp[c->nqp]);
		if (!rc)
			c->nqp++;
	}
	if (rc)
		snprintf(err, errlen, "%s: creating QP %zu of %zu: %s",
			 c->dev->name, c->nqp + 1, n, strerror(rc));
	return rc;
}

int rperf_gen_conn_open(struct rperf_gen_conn *c, struct rperf_qp_cfg *q,
			size_t n, int access, char *err, size_t errlen)
{
	int rc = open_qps(c, q, n, err, errlen);

	if (rc)
		return rc;
	rc = rperf_buf_alloc(c->dev, c->max_size, access, &c->buf);
	if (rc)
		return rperf_fail(err, errlen, rc,
				  "%s: registering a %llu B buffer: %s",
				  c->dev->name, (unsigned long long)c->max_size,
				  strerror(rc));
	for (size_t i = 0; !rc && c->recvs && i < c->nqp; i++)
		rc = rperf_post_recvs(c->qp[i], &c->buf, c->max_size,
				      c->rx_depth);
	if (rc)
		snprintf(err, errlen, "%s: posting receives: %s", c->dev->name,
			 strerror(rc));
	return rc;
}

void rperf_gen_conn_free(struct rperf_gen_conn *c)
{
	rperf_gen_conn_cm_close(c);
	for (size_t i = 0; i < c->nqp; i++)
		rperf_qp_destroy(c->qp[i]);
	free(c->qp);
	c->qp = NULL;
	c->nqp = 0;
	rperf_channel_close(c->channel);
	c->channel = NULL;
	rperf_buf_free(&c->buf);
}

int rperf_gen_conn_cm_listen(struct rperf_gen_conn *c, uint16_t port, char *err,
			     size_t errlen)
{
	int rc;

	c->cm = calloc(c->nqp, sizeof(*c->cm));
	if (!c->cm)
		return ENOMEM;
	c->cm_server = true;
	rc = rperf_cm_listen_dev(&c->cm[0], c->dev, port, err, errlen);
	if (!rc)
		c->cm_port = ntohs(rdma_get_src_port(c->cm[0].listen_id));
	return rc;
}

int rperf_gen_conn_cm_dial(struct rperf_gen_conn *c, const char *src,
			   const char *dst, uint16_t port, char *err,
			   size_t errlen)
{
	c->cm = calloc(c->nqp, sizeof(*c->cm));
	if (!c->cm)
		return ENOMEM;
	if ((size_t)snprintf(c->cm_dst, sizeof(c->cm_dst), "%s", dst) >=
	    sizeof(c->cm_dst))
		return rperf_fail(err, errlen, ENAMETOOLONG,
				  "rdma_cm: the address '%.64s...' is too long",
				  dst);
	c->cm_port = port;
	return rperf_cm_source(c->dev, src, c->cm_src, sizeof(c->cm_src), err,
			       errlen);
}

int rperf_gen_conn_cm_connect(struct rperf_gen_conn *c, int ms, char *err,
			      size_t errlen)
{
	int rc = 0;

	for (size_t i = 0; !rc && i < c->nqp; i++)
		rc = c->cm_server ?
			     rperf_cm_accept_on(&c->cm[0], &c->cm[i], c->qp[i],
						&c->vcfg, ms, err, errlen) :
			     rperf_cm_connect(&c->cm[i], c->qp[i], &c->vcfg,
					      c->cm_src, c->cm_dst, c->cm_port,
					      ms, err, errlen);
	return rc;
}

void rperf_gen_conn_cm_close(struct rperf_gen_conn *c)
{
	/* the listening end's cm[0] owns the channel the others' events use */
	for (size_t i = c->cm ? c->nqp : 0; i-- > 0;)
		rperf_cm_close(&c->cm[i]);
	free(c->cm);
	c->cm = NULL;
}

void rperf_bsg_qp_of(struct rperf_bsg_qp *q, const struct rperf_gen_conn *c,
		     size_t i, uint64_t raddr, uint32_t rkey)
{
	*q = (struct rperf_bsg_qp){
		.qp = c->qp[i], .buf = &c->buf, .raddr = raddr, .rkey = rkey
	};
}
