/* SPDX-License-Identifier: BSD-2-Clause */
#include "lat/lat_conn.h"
#include "gen/rx.h"
#include "session/session.h"
#include "engine/endpoint.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define SEND_DEPTH 16

static int make_qp(struct rperf_lat_conn *c, uint32_t send, uint32_t recv,
		   bool events, struct rperf_qp **qp, const char *what,
		   char *err, size_t errlen)
{
	struct rperf_qp_cfg q = { .send_depth = send,
				  .recv_depth = recv,
				  .inline_size = c->vcfg.inline_size,
				  .recv_events = events,
				  /* the SENDs' CQs: wire and loop_tx */
				  .send_ts = c->stamps.nic && qp != &c->loop_rx,
				  /* the server's: postpoll WRITEs, --verb */
				  .access = c->access };
	int rc = rperf_qp_create(c->dev, &q, qp);

	if (rc)
		snprintf(err, errlen, "%s: creating the %s QP: %s",
			 c->dev->name, what, strerror(rc));
	return rc;
}

static int make_bufs(struct rperf_lat_conn *c, bool send, char *err,
		     size_t errlen)
{
	int rc = 0;

	/* the client's send_buf is also where READs and atomics land */
	if (send)
		rc = rperf_buf_alloc(c->dev, c->max_size,
				     IBV_ACCESS_LOCAL_WRITE, &c->send_buf);
	if (!rc)
		rc = rperf_buf_alloc(c->dev, c->max_size,
				     IBV_ACCESS_LOCAL_WRITE | c->access,
				     &c->recv_buf);
	if (rc)
		snprintf(err, errlen, "%s: registering %llu B buffers: %s",
			 c->dev->name, (unsigned long long)c->max_size,
			 strerror(rc));
	return rc;
}

/* The wire QP; with auto, without NIC stamps if the CQ cannot have them. */
static int make_wire(struct rperf_lat_conn *c, int want, char *err,
		     size_t errlen)
{
	int rc = make_qp(c, SEND_DEPTH, c->rx_depth, false, &c->wire, "wire",
			 err, errlen);

	if (rperf_nic_stamps_drop(&c->stamps, want, c->dev->name, rc))
		rc = make_qp(c, SEND_DEPTH, c->rx_depth, false, &c->wire,
			     "wire", err, errlen);
	return rc;
}

int rperf_lat_conn_client(struct rperf_lat_conn *c,
			  const struct rperf_cli_config *cfg, uint64_t max_size,
			  char *err, size_t errlen)
{
	int rc;

	memset(c, 0, sizeof(*c));
	c->max_size = max_size;
	c->rx_depth = (unsigned int)cfg->rx_depth;
	c->access = cfg->verb == RPERF_VERB_WRITE ? IBV_ACCESS_REMOTE_WRITE : 0;
	rc = rperf_session_dev_open(cfg, NULL, &c->vcfg, &c->dev, err, errlen);
	if (!rc)
		rc = rperf_verb_dev_check(c->dev, cfg->verb, err, errlen);
	if (!rc)
		rc = rperf_gen_depth_check(c->dev, "-r/--rx-depth", c->rx_depth,
					   err, errlen);
	if (!rc)
		rc = rperf_nic_stamps_choose(c->dev, cfg->timestamps,
					     "--timestamps", &c->stamps, err,
					     errlen);
	if (!rc) /* receives for pingpong replies */
		rc = make_wire(c, cfg->timestamps, err, errlen);
	if (!rc)
		rc = make_qp(c, SEND_DEPTH, 1, false, &c->loop_tx,
			     "loopback sender", err, errlen);
	if (!rc)
		rc = make_qp(c, 1, c->rx_depth, false, &c->loop_rx,
			     "loopback receiver", err, errlen);
	if (!rc)
		rc = make_bufs(c, true, err, errlen);
	if (!rc)
		rc = rperf_post_recvs(c->loop_rx, &c->recv_buf, c->max_size,
				      c->rx_depth);
	if (!rc)
		rc = rperf_post_recvs(c->wire, &c->recv_buf, c->max_size,
				      c->rx_depth);
	if (!rc)
		rc = rperf_qp_connect_pair(c->loop_tx, c->loop_rx, c->dev,
					   &c->vcfg, err, errlen);
	if (rc)
		rperf_lat_conn_close(c);
	return rc;
}

int rperf_lat_conn_server(struct rperf_lat_conn *c,
			  const struct rperf_cli_config *cfg,
			  const struct rperf_gen_spec *p, char *err,
			  size_t errlen)
{
	int rc;

	memset(c, 0, sizeof(*c));
	c->max_size = p->size;
	c->rx_depth = p->test.rx_depth;
	c->access = IBV_ACCESS_REMOTE_WRITE | rperf_verb_access(p->verb);
	rc = rperf_session_dev_open(cfg, &p->path, &c->vcfg, &c->dev, err,
				    errlen);
	if (!rc)
		rc = rperf_verb_dev_check(c->dev, p->verb, err, errlen);
	if (!rc)
		rc = rperf_gen_depth_check(c->dev, "-r/--rx-depth", c->rx_depth,
					   err, errlen);
	if (!rc) /* sends: pingpong replies */
		rc = make_qp(c, SEND_DEPTH, c->rx_depth, true, &c->wire, "wire",
			     err, errlen);
	if (!rc)
		rc = make_bufs(c, false, err, errlen);
	if (!rc)
		rc = rperf_post_recvs(c->wire, &c->recv_buf, c->max_size,
				      c->rx_depth);
	if (rc)
		rperf_lat_conn_close(c);
	return rc;
}

void rperf_lat_conn_close(struct rperf_lat_conn *c)
{
	rperf_cm_close(&c->cm);
	rperf_qp_destroy(c->wire);
	rperf_qp_destroy(c->loop_tx);
	rperf_qp_destroy(c->loop_rx);
	rperf_buf_free(&c->send_buf);
	rperf_buf_free(&c->recv_buf);
	rperf_dev_close(c->dev);
	memset(c, 0, sizeof(*c));
}
