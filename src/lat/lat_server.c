/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rperf lat (no HOST): the server's ops for the shared lifecycle
 * (session/session_life.h serves one client, or with --persistent one
 * after another). The server takes every run parameter from the client; during the
 * run nothing of it is on the critical path: the NIC ACKs the SENDs and the
 * server refills its receive queue from completion events. With --verb
 * write the rperf method's WRITEs consume nothing here, and the pingpong
 * (ib_write_lat) is answered by this side's software polling the last byte
 * of its buffer (lat_wecho.c); READs and atomics (postpoll) its NIC answers.
 */
#include "lat/lat.h"

#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rperf/clock.h>

#include "lat/lat_conn.h"
#include "lat/lat_wecho.h"
#include "engine/limits.h"
#include "session/session_ctrl.h"
#include "session/session_life.h"
#include "engine/endpoint.h"
#include "gen/echo.h"

struct server {
	const struct rperf_cli_config *cfg;
	volatile sig_atomic_t *stop;
	struct rperf_lat_conn conn;
	struct rperf_err *e; /* the current op's */
	int fd; /* the control socket (DONE ends a round) */
	int method; /* this round's */
	bool rdma_cm; /* this client connects the wire QP with rdma_cm */
	uint64_t stall_ns; /* this server's stall limit for this client */
	uint64_t received, bytes;
	int verb; /* --verb of this client */
	struct rperf_lat_wecho
		we; /* pingpong write: state, the client's buffer */
};

#define fail(sv, ...) \
	rperf_err_set((sv)->e, RPERF_ERRC_RUNTIME, EIO, __VA_ARGS__)

/* -R: listen for the client's rdma_cm connection on our device's address. */
static int cm_listen(struct server *sv, char *err, size_t errlen)
{
	return rperf_cm_listen_dev(&sv->conn.cm, sv->conn.dev,
				   (uint16_t)sv->cfg->tcp_port, err, errlen);
}

/* PARAMS (within the server's limits): the device and the wire QP. */
static int lat_params(void *arg, struct rperf_session_chan *ch,
		      const struct rperf_gen_spec *p, uint64_t stall_ns,
		      struct rperf_err *e)
{
	struct server *sv = arg;
	char err[256];
	int rc;

	sv->cfg = ch->cfg;
	sv->stop = ch->stop;
	sv->stall_ns = stall_ns;
	rc = rperf_lat_conn_server(&sv->conn, sv->cfg, p, err, sizeof(err));
	if (!rc && p->test.rdma_cm)
		rc = cm_listen(sv, err, sizeof(err));
	if (rc)
		return rperf_err_set(e, RPERF_ERRC_USAGE, rc, "%s", err);
	sv->rdma_cm = p->test.rdma_cm;
	sv->verb = p->verb;
	memset(&sv->we, 0, sizeof(sv->we));
	return 0;
}

/* Our ENDPOINT (and buffer) out, the client's in, the wire QP connected. */
static int lat_endpoints(void *arg, struct rperf_session_chan *ch,
			 struct rperf_err *e)
{
	struct server *sv = arg;
	char why[RPERF_CTRL_REASON_LEN], err[256] = "";
	struct rperf_endpoint peer;
	struct rperf_ctrl_msg m;
	int rc;

	rc = rperf_session_send_endpoint(&ch->s, &ch->io, sv->conn.dev,
					 sv->conn.wire, sv->conn.vcfg.mtu,
					 &sv->conn.recv_buf);
	if (!rc)
		rc = rperf_session_expect(&ch->s, &ch->io, RPERF_CTRL_ENDPOINT,
					  &m, why, sizeof(why));
	if (rc)
		return rperf_err_set(e, RPERF_ERRC_RUNTIME, rc,
				     "endpoint exchange: %s",
				     rc == EPROTO ? why : strerror(rc));
	rc = rperf_session_endpoint_from(&m, &peer, &sv->we.peer);
	rperf_ctrl_msg_release(&m);
	if (!rc && rperf_limits_gid_check(sv->conn.dev, ch->io.fd, &peer, 1,
					  why, sizeof(why)))
		return rperf_session_refuse_late(&ch->s, &ch->io, why, e);
	/* --verb write: our pingpong replies go to the client's buffer */
	if (!rc && sv->verb == RPERF_VERB_WRITE)
		rc = rperf_peer_buf_check(&sv->we.peer, sv->verb,
					  sv->conn.max_size, "the client", err,
					  sizeof(err));
	if (!rc)
		rc = sv->rdma_cm ? rperf_cm_accept(&sv->conn.cm, sv->conn.wire,
						   &sv->conn.vcfg,
						   RPERF_SESSION_TIMEOUT_MS / 2,
						   err, sizeof(err)) :
				   rperf_qp_connect(sv->conn.wire, sv->conn.dev,
						    &sv->conn.vcfg, &peer, err,
						    sizeof(err));
	return rc ? rperf_err_set(e, RPERF_ERRC_RUNTIME, rc,
				  "connecting the QP: %s",
				  err[0] ? err : strerror(rc)) :
		    0;
}

/* Take receive completions and post as many receives again. */
static int drain(struct server *sv)
{
	struct ibv_wc wc[32];
	int n;

	while ((n = ibv_poll_cq(sv->conn.wire->recv_cq, 32, wc)) > 0) {
		for (int i = 0; i < n; i++) {
			if (wc[i].status != IBV_WC_SUCCESS)
				return fail(sv, "receive completion: %s",
					    ibv_wc_status_str(wc[i].status));
			sv->bytes += wc[i].byte_len;
		}
		sv->received += (uint64_t)n;
		if (rperf_post_recvs(sv->conn.wire, &sv->conn.recv_buf,
				     sv->conn.max_size, (unsigned int)n))
			return fail(sv, "reposting receives failed");
	}
	return n < 0 ? fail(sv, "ibv_poll_cq failed") : 0;
}

static int on_event(struct server *sv)
{
	struct ibv_cq *cq;
	void *ctx;

	if (ibv_get_cq_event(sv->conn.wire->channel, &cq, &ctx))
		return fail(sv, "ibv_get_cq_event failed");
	ibv_ack_cq_events(cq, 1);
	/* solicited only: the client solicits every rx_depth/4-th SEND, so the
	 * server wakes a few times per queue, never per message */
	if (ibv_req_notify_cq(cq, 1))
		return fail(sv, "ibv_req_notify_cq failed");
	return drain(sv);
}

/* rperf and postpoll: nothing on the critical path; refill from events. */
static int event_loop(struct server *sv)
{
	struct pollfd pf[2] = { { .fd = sv->conn.wire->channel->fd,
				  .events = POLLIN },
				{ .fd = sv->fd, .events = POLLIN } };
	int rc;

	for (;;) {
		if (*sv->stop)
			return fail(sv, "interrupted");
		if (poll(pf, 2, 200) < 0 && errno != EINTR)
			return fail(sv, "poll: %s", strerror(errno));
		if ((pf[0].revents & POLLIN) && (rc = on_event(sv)))
			return rc;
		if (pf[1].revents)
			return 0; /* DONE (or the client went away) */
	}
}

/* Reap reply completions; a failed one ends the round. */
static int reap_sends(struct server *sv)
{
	char err[96];

	return rperf_echo_reap(sv->conn.wire, "SEND", err, sizeof(err)) ?
		       fail(sv, "%s", err) :
		       0;
}

static int echo(struct server *sv, const struct ibv_wc *wc)
{
	char err[96];

	if (rperf_echo_one(sv->conn.wire, &sv->conn.recv_buf, sv->conn.max_size,
			   wc, err, sizeof(err)))
		return fail(sv, "%s", err);
	sv->received++;
	sv->bytes += wc->byte_len;
	return 0;
}

/* pingpong, no SEND for the stall limit: sleep on the receive CQ's
 * events (or the control socket); 1 when the control socket spoke. */
static int echo_sleep(struct server *sv)
{
	struct pollfd pf[2] = { { .fd = sv->conn.wire->channel->fd,
				  .events = POLLIN },
				{ .fd = sv->fd, .events = POLLIN } };
	struct ibv_wc wc[16];
	unsigned int k;
	int n, rc = 0;

	if (rperf_channel_take(sv->conn.wire->channel, -1, &k) ||
	    ibv_req_notify_cq(sv->conn.wire->recv_cq, 0))
		return fail(sv, "arming completion events failed");
	while (!(n = ibv_poll_cq(sv->conn.wire->recv_cq, 16, wc))) {
		if (*sv->stop)
			return fail(sv, "interrupted");
		if (poll(pf, 2, 200) < 0 && errno != EINTR)
			return fail(sv, "poll: %s", strerror(errno));
		if (pf[1].revents)
			return 1;
		if ((pf[0].revents & POLLIN) &&
		    rperf_channel_take(sv->conn.wire->channel, -1, &k))
			return fail(sv, "ibv_get_cq_event failed");
	}
	if (n < 0)
		return fail(sv, "ibv_poll_cq failed");
	for (int i = 0; i < n && !rc; i++)
		rc = echo(sv, &wc[i]);
	return rc;
}

/* pingpong: the server's software echoes every SEND (perftest's way),
 * busy polling while SENDs come, asleep after the stall limit without. */
static int echo_loop(struct server *sv)
{
	struct pollfd pf = { .fd = sv->fd, .events = POLLIN };
	uint64_t spins = 0, seen = 0, last = rperf_clock_posix_now();
	struct ibv_wc wc[16];
	int n, rc = 0;

	while (!rc) {
		n = ibv_poll_cq(sv->conn.wire->recv_cq, 16, wc);
		if (n < 0)
			return fail(sv, "ibv_poll_cq failed");
		for (int i = 0; i < n && !rc; i++)
			rc = echo(sv, &wc[i]);
		if (!rc)
			rc = reap_sends(sv);
		if (++spins % 1024 || rc)
			continue;
		if (*sv->stop)
			return fail(sv, "interrupted");
		if (poll(&pf, 1, 0) > 0)
			return 0; /* DONE (or the client went away) */
		if (sv->received != seen) {
			seen = sv->received;
			last = rperf_clock_posix_now();
			continue;
		}
		if (rperf_clock_posix_now() - last < sv->stall_ns)
			continue;
		if ((rc = echo_sleep(sv)) == 1)
			return 0; /* EPERM is never a fail() code here */
		last = rperf_clock_posix_now();
	}
	return rc;
}

/* START {"method"}: which loop this round runs. */
static int lat_start(void *arg, struct rperf_session_chan *ch,
		     const struct rperf_ctrl_msg *m, struct rperf_err *e)
{
	struct server *sv = arg;
	char name[RPERF_CTRL_NAME_LEN] = "rperf";

	(void)ch;
	rperf_ctrl_get_str(m->payload, "method", name, sizeof(name));
	for (sv->method = 0; sv->method < RPERF_METHOD_ALL; sv->method++)
		if (!strcmp(name, rperf_method_name(sv->method)))
			break;
	if (sv->method < RPERF_METHOD_ALL &&
	    (sv->verb != RPERF_VERB_WRITE ||
	     sv->method != RPERF_METHOD_PINGPONG))
		return 0;
	/* pingpong write: START says the round's size */
	if (sv->method < RPERF_METHOD_ALL &&
	    rperf_ctrl_get_u64(m->payload, "size", 1, sv->conn.max_size,
			       &sv->we.size))
		return rperf_err_set(
			e, RPERF_ERRC_USAGE, EBADMSG,
			"malformed START (pingpong write needs 'size' in [1, %llu])",
			(unsigned long long)sv->conn.max_size);
	if (sv->method < RPERF_METHOD_ALL)
		return 0;
	return rperf_err_set(e, RPERF_ERRC_USAGE, ENOTSUP,
			     "method '%s' is a feature this server lacks",
			     name);
}

/* The method's loop until the control socket speaks (DONE). */
static int lat_round_loop(void *arg, struct rperf_session_chan *ch,
			  struct rperf_err *e)
{
	struct server *sv = arg;

	sv->e = e;
	sv->fd = ch->io.fd;
	sv->received = sv->bytes = 0;
	if (sv->method == RPERF_METHOD_PINGPONG && sv->verb == RPERF_VERB_WRITE)
		return rperf_lat_wecho_loop(&sv->conn, &sv->we, sv->fd,
					    sv->stop, &sv->received, e);
	return sv->method == RPERF_METHOD_PINGPONG ? echo_loop(sv) :
						     event_loop(sv);
}

static uint64_t lat_received(void *arg)
{
	const struct server *sv = arg;

	return sv->received;
}

/* After DONE: the last completions may trail the ACKs; RESULT. */
static int lat_result(void *arg, uint64_t samples, json_t **out, char *line,
		      size_t linelen, struct rperf_err *e)
{
	struct server *sv = arg;
	int rc;

	sv->e = e;
	for (int i = 0; i < 100 && sv->method != RPERF_METHOD_POSTPOLL &&
			sv->verb == RPERF_VERB_SEND && sv->received < samples;
	     i++) {
		if ((rc = drain(sv)))
			return rc;
		usleep(10000);
	}
	if (sv->verb == RPERF_VERB_WRITE && sv->method == RPERF_METHOD_PINGPONG)
		sv->bytes = sv->received * sv->we.size;
	if (sv->verb == RPERF_VERB_SEND || sv->method == RPERF_METHOD_PINGPONG)
		snprintf(line, linelen, "%s: %llu %s received (%llu B)",
			 rperf_method_name(sv->method),
			 (unsigned long long)sv->received,
			 sv->verb == RPERF_VERB_SEND ? "SENDs" : "WRITEs",
			 (unsigned long long)sv->bytes);
	else
		snprintf(line, linelen,
			 "%s: answered by this host's NIC, unseen by its CPU",
			 rperf_method_name(sv->method));
	*out = json_pack("{s:I, s:I}", "received", (json_int_t)sv->received,
			 "bytes", (json_int_t)sv->bytes);
	return *out ? 0 :
		      rperf_err_set(e, RPERF_ERRC_INTERNAL, ENOMEM,
				    "out of memory");
}

static void lat_close_run(void *arg)
{
	struct server *sv = arg;

	rperf_lat_conn_close(&sv->conn);
	sv->received = sv->bytes = 0;
}

const struct rperf_session_server_ops rperf_lat_server_ops = {
	.command = "lat",
	.state_size = sizeof(struct server),
	.params = lat_params,
	.endpoints = lat_endpoints,
	.start = lat_start,
	.round = lat_round_loop,
	.received = lat_received,
	.result = lat_result,
	.close = lat_close_run,
};
