/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rperf lat (no HOST): serve one client (or, with --persistent, one after
 * another). The server takes every run parameter from the client; during the
 * run nothing of it is on the critical path: the NIC ACKs the SENDs and the
 * server refills its receive queue from completion events.
 */
#include "lat/lat.h"

#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "lat/lat_conn.h"
#include "session/session_ctrl.h"
#include "session/session.h"

struct server {
	const struct rperf_cli_config *cfg;
	volatile sig_atomic_t *stop;
	struct rperf_lat_conn conn;
	struct rperf_ctrl_session s;
	struct rperf_ctrl_io io;
	char peer[96];
	bool rdma_cm; /* this client connects the wire QP with rdma_cm */
	uint64_t received, bytes;
};

static int note(struct server *sv, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int note(struct server *sv, int code, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "rperf: client %s: ", sv->peer);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return code;
}

static int refuse(struct server *sv, const char *why)
{
	rperf_session_send_reason(&sv->s, &sv->io, RPERF_CTRL_REFUSE, why);
	return note(sv, RPERF_EXIT_USAGE, "refused: %s", why);
}

static int greet(struct server *sv)
{
	char why[RPERF_CTRL_REASON_LEN];
	int rc = rperf_session_greet(&sv->s, &sv->io, "lat",
				     RPERF_SERVER_MAX_SIZE, why, sizeof(why));

	if (rc == EPROTO)
		return note(sv, RPERF_EXIT_USAGE, "refused: %s", why);
	return rc ? note(sv, RPERF_EXIT_RUNTIME, "%s", why) : 0;
}

/* -R: listen for the client's rdma_cm connection on our device's address. */
static int cm_listen(struct server *sv, char *err, size_t errlen)
{
	char addr[INET_ADDRSTRLEN];

	if (rperf_cm_gid_ipv4(sv->conn.dev, addr, sizeof(addr))) {
		snprintf(err, errlen,
			 "-R: %s has no IPv4 GID to listen on with rdma_cm",
			 sv->conn.dev->name);
		return EAFNOSUPPORT;
	}
	return rperf_cm_listen(&sv->conn.cm, addr, (uint16_t)sv->cfg->tcp_port,
			       err, errlen);
}

static int take_params(struct server *sv)
{
	char why[RPERF_CTRL_REASON_LEN], err[256];
	struct rperf_lat_params p;
	struct rperf_endpoint peer;
	struct rperf_ctrl_msg m;
	const json_t *obj;
	int rc;

	rc = rperf_session_expect(&sv->s, &sv->io, RPERF_CTRL_PARAMS, &m, why,
				  sizeof(why));
	if (rc)
		return note(sv, RPERF_EXIT_RUNTIME, "%s", why);
	rc = rperf_ctrl_params_decode(&m, &obj);
	if (!rc)
		rc = rperf_lat_params_decode(obj, RPERF_SERVER_MAX_SIZE, &p,
					     why, sizeof(why));
	rperf_ctrl_msg_release(&m);
	if (rc)
		return refuse(sv, why);
	rc = rperf_lat_conn_server(&sv->conn, sv->cfg, &p, err, sizeof(err));
	if (!rc && p.rdma_cm)
		rc = cm_listen(sv, err, sizeof(err));
	if (rc)
		return refuse(sv, err);
	sv->rdma_cm = p.rdma_cm;
	rc = rperf_session_send_endpoint(&sv->s, &sv->io, sv->conn.dev,
					 sv->conn.wire, sv->conn.vcfg.mtu,
					 &sv->conn.recv_buf);
	if (!rc)
		rc = rperf_session_expect(&sv->s, &sv->io, RPERF_CTRL_ENDPOINT,
					  &m, why, sizeof(why));
	if (rc)
		return note(sv, RPERF_EXIT_RUNTIME, "endpoint exchange: %s",
			    rc == EPROTO ? why : strerror(rc));
	rc = rperf_session_endpoint_from(&m, &peer, NULL);
	rperf_ctrl_msg_release(&m);
	if (!rc)
		rc = sv->rdma_cm ? rperf_cm_accept(&sv->conn.cm, sv->conn.wire,
						   &sv->conn.vcfg,
						   RPERF_SESSION_TIMEOUT_MS / 2,
						   err, sizeof(err)) :
				   rperf_qp_connect(sv->conn.wire, sv->conn.dev,
						    &sv->conn.vcfg, &peer, err,
						    sizeof(err));
	if (!rc)
		rc = rperf_ctrl_session_send(&sv->s, &sv->io, RPERF_CTRL_READY,
					     NULL);
	return rc ? note(sv, RPERF_EXIT_RUNTIME, "connecting the QP: %s",
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
				return note(sv, RPERF_EXIT_RUNTIME,
					    "receive completion: %s",
					    ibv_wc_status_str(wc[i].status));
			sv->bytes += wc[i].byte_len;
		}
		sv->received += (uint64_t)n;
		if (rperf_post_recvs(sv->conn.wire, &sv->conn.recv_buf,
				     sv->conn.max_size, (unsigned int)n))
			return note(sv, RPERF_EXIT_RUNTIME,
				    "reposting receives failed");
	}
	return n < 0 ? note(sv, RPERF_EXIT_RUNTIME, "ibv_poll_cq failed") : 0;
}

static int on_event(struct server *sv)
{
	struct ibv_cq *cq;
	void *ctx;

	if (ibv_get_cq_event(sv->conn.wire->channel, &cq, &ctx))
		return note(sv, RPERF_EXIT_RUNTIME, "ibv_get_cq_event failed");
	ibv_ack_cq_events(cq, 1);
	/* solicited only: the client solicits every rx_depth/4-th SEND, so the
	 * server wakes a few times per queue, never per message */
	if (ibv_req_notify_cq(cq, 1))
		return note(sv, RPERF_EXIT_RUNTIME, "ibv_req_notify_cq failed");
	return drain(sv);
}

/* rperf and postpoll: nothing on the critical path; refill from events. */
static int event_loop(struct server *sv)
{
	struct pollfd pf[2] = { { .fd = sv->conn.wire->channel->fd,
				  .events = POLLIN },
				{ .fd = sv->io.fd, .events = POLLIN } };
	int rc;

	for (;;) {
		if (*sv->stop)
			return note(sv, RPERF_EXIT_RUNTIME, "interrupted");
		if (poll(pf, 2, 200) < 0 && errno != EINTR)
			return note(sv, RPERF_EXIT_RUNTIME, "poll: %s",
				    strerror(errno));
		if ((pf[0].revents & POLLIN) && (rc = on_event(sv)))
			return rc;
		if (pf[1].revents)
			return 0; /* DONE (or the client went away) */
	}
}

/* Reap reply completions; a failed one ends the round. */
static int reap_sends(struct server *sv)
{
	struct ibv_wc wc[16];
	int n = ibv_poll_cq(sv->conn.wire->send_cq, 16, wc);

	for (int i = 0; i < n; i++)
		if (wc[i].status != IBV_WC_SUCCESS)
			return note(sv, RPERF_EXIT_RUNTIME, "reply SEND: %s",
				    ibv_wc_status_str(wc[i].status));
	return n < 0 ? note(sv, RPERF_EXIT_RUNTIME, "ibv_poll_cq failed") : 0;
}

static int echo(struct server *sv, const struct ibv_wc *wc)
{
	struct ibv_sge sge = { .addr = (uintptr_t)sv->conn.recv_buf.addr,
			       .length = wc->byte_len,
			       .lkey = sv->conn.recv_buf.mr->lkey };
	struct ibv_send_wr wr = { .sg_list = &sge,
				  .num_sge = 1,
				  .opcode = IBV_WR_SEND,
				  .send_flags = IBV_SEND_SIGNALED },
			   *bad;

	if (wc->status != IBV_WC_SUCCESS)
		return note(sv, RPERF_EXIT_RUNTIME, "receive completion: %s",
			    ibv_wc_status_str(wc->status));
	sv->received++;
	sv->bytes += wc->byte_len;
	if (ibv_post_send(sv->conn.wire->qp, &wr, &bad) ||
	    rperf_post_recvs(sv->conn.wire, &sv->conn.recv_buf,
			     sv->conn.max_size, 1))
		return note(sv, RPERF_EXIT_RUNTIME, "posting the reply failed");
	return 0;
}

/* pingpong: the server's software echoes every SEND (perftest's way). */
static int echo_loop(struct server *sv)
{
	struct pollfd pf = { .fd = sv->io.fd, .events = POLLIN };
	struct ibv_wc wc[16];
	uint64_t spins = 0;
	int n, rc = 0;

	while (!rc) {
		n = ibv_poll_cq(sv->conn.wire->recv_cq, 16, wc);
		if (n < 0)
			return note(sv, RPERF_EXIT_RUNTIME,
				    "ibv_poll_cq failed");
		for (int i = 0; i < n && !rc; i++)
			rc = echo(sv, &wc[i]);
		if (!rc)
			rc = reap_sends(sv);
		if (++spins % 1024 || rc)
			continue;
		if (*sv->stop)
			return note(sv, RPERF_EXIT_RUNTIME, "interrupted");
		if (poll(&pf, 1, 0) > 0)
			return 0; /* DONE (or the client went away) */
	}
	return rc;
}

/* One round: the method's loop until DONE, then RESULT with our counts. */
static int serve_round(struct server *sv, int method)
{
	char why[RPERF_CTRL_REASON_LEN];
	struct rperf_ctrl_msg m;
	uint64_t samples = 0;
	json_t *res;
	int rc;

	sv->received = sv->bytes = 0;
	rc = method == RPERF_METHOD_PINGPONG ? echo_loop(sv) : event_loop(sv);
	if (rc)
		return rc;
	rc = rperf_session_expect(&sv->s, &sv->io, RPERF_CTRL_DONE, &m, why,
				  sizeof(why));
	if (rc)
		return note(sv, RPERF_EXIT_RUNTIME,
			    "went away mid-run after %llu messages (%s)",
			    (unsigned long long)sv->received, why);
	rperf_ctrl_done_decode(&m, &samples, NULL);
	rperf_ctrl_msg_release(&m);
	for (int i = 0; i < 100 && method != RPERF_METHOD_POSTPOLL &&
			sv->received < samples;
	     i++) {
		if ((rc = drain(sv)))
			return rc;
		usleep(10000); /* the last completions may trail the ACKs */
	}
	fprintf(stderr, "rperf: client %s: %s: %llu SENDs received (%llu B)\n",
		sv->peer, rperf_lat_method_name(method),
		(unsigned long long)sv->received,
		(unsigned long long)sv->bytes);
	res = json_pack("{s:I, s:I}", "received", (json_int_t)sv->received,
			"bytes", (json_int_t)sv->bytes);
	rc = res ? rperf_ctrl_session_send(&sv->s, &sv->io, RPERF_CTRL_RESULT,
					   res) :
		   ENOMEM;
	json_decref(res);
	return rc ? note(sv, RPERF_EXIT_RUNTIME, "sending RESULT: %s",
			 strerror(rc)) :
		    0;
}

static int round_method(struct server *sv, const struct rperf_ctrl_msg *m,
			int *method)
{
	char name[RPERF_CTRL_NAME_LEN] = "rperf", why[96];

	rperf_ctrl_get_str(m->payload, "method", name, sizeof(name));
	for (*method = 0; *method < RPERF_METHOD_ALL; (*method)++)
		if (!strcmp(name, rperf_lat_method_name(*method)))
			return 0;
	snprintf(why, sizeof(why), "method '%s' is a feature this server lacks",
		 name);
	rperf_session_send_reason(&sv->s, &sv->io, RPERF_CTRL_ERROR, why);
	return note(sv, RPERF_EXIT_USAGE, "%s", why);
}

/* START {"method"} ... RESULT, as many rounds as the client asks; BYE. */
static int serve_run(struct server *sv)
{
	struct rperf_ctrl_msg m;
	int rc, method;

	for (;;) {
		rc = rperf_ctrl_session_recv(&sv->s, &sv->io, &m);
		if (rc)
			return note(sv, RPERF_EXIT_RUNTIME,
				    "waiting for START or BYE: %s",
				    strerror(rc));
		if (m.type == RPERF_CTRL_BYE) {
			rperf_ctrl_msg_release(&m);
			rperf_ctrl_session_send(&sv->s, &sv->io, RPERF_CTRL_BYE,
						NULL);
			return RPERF_EXIT_OK;
		}
		if (m.type != RPERF_CTRL_START) {
			rperf_ctrl_msg_release(&m);
			return note(sv, RPERF_EXIT_RUNTIME,
				    "the client ended the run (%s)",
				    rperf_ctrl_type_name(m.type));
		}
		rc = round_method(sv, &m, &method);
		rperf_ctrl_msg_release(&m);
		if (!rc)
			rc = serve_round(sv, method);
		if (rc)
			return rc;
	}
}

static int serve_one(struct server *sv, int fd)
{
	int rc;

	sv->io = (struct rperf_ctrl_io){ .fd = fd,
					 .timeout_ms = RPERF_SESSION_TIMEOUT_MS,
					 .stop = sv->stop };
	sv->received = sv->bytes = 0;
	rperf_ctrl_session_init(&sv->s, RPERF_CTRL_SERVER);
	rc = greet(sv);
	if (!rc)
		rc = take_params(sv);
	if (!rc)
		rc = serve_run(sv);
	rperf_lat_conn_close(&sv->conn);
	close(fd);
	return rc;
}

static int serve_client(void *arg, int fd, const char *peer)
{
	struct server *sv = arg;

	snprintf(sv->peer, sizeof(sv->peer), "%s", peer);
	return serve_one(sv, fd);
}

int rperf_lat_server(const struct rperf_cli_config *cfg,
		     volatile sig_atomic_t *stop)
{
	struct server sv = { .cfg = cfg, .stop = stop };

	return rperf_session_serve(cfg, stop, "lat", serve_client, &sv);
}
