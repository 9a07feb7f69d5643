/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rperf bw (no HOST): serve one client (or, with --persistent, one after
 * another). Every run parameter comes from the client. The server is the
 * sink: it counts what arrives (SENDs; WRITE_WITH_IMM, whose immediate
 * carries how many WRITEs its list held) and keeps its receive queues full,
 * busy polling or (-e) from completion events. Plain WRITEs it cannot see.
 * With -b (PARAMS "bidir") it also runs the generator towards the client
 * each round (START carries the size and rate), draining its receive
 * queues between passes, and adds its sender counts (tx_*) to RESULT.
 */
#include "bw/bw.h"

#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rperf/clock.h>

#include "bw/bw_conn.h"
#include "bw/bw_rx.h"
#include "cli/cli.h"
#include "host/cputime.h"
#include "lat/lat.h"
#include "session/session_ctrl.h"
#include "session/session.h"

#define SPIN_CHECK 256 /* empty polls between control-socket checks */

struct server {
	const struct rperf_cli_config *cfg;
	volatile sig_atomic_t *stop;
	struct rperf_bw_conn conn;
	struct rperf_bw_params p;
	struct rperf_ctrl_session s;
	struct rperf_ctrl_io io;
	char peer[96];
	struct rperf_bw_peer ep; /* the client's QPs and buffer */
	struct rperf_bw_rxc rx;
	struct pollfd *pf; /* [nqp + 1]: channels, then the control socket */
	/* -b: this round's generator (START carries size and rate) */
	uint64_t size;
	double limit_per_s;
	volatile sig_atomic_t gen_stop;
	unsigned int idle;
	struct rperf_bsg_res g;
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
	int rc = rperf_session_greet(&sv->s, &sv->io, "bw",
				     RPERF_SERVER_MAX_SIZE, why, sizeof(why));

	if (rc == EPROTO)
		return note(sv, RPERF_EXIT_USAGE, "refused: %s", why);
	return rc ? note(sv, RPERF_EXIT_RUNTIME, "%s", why) : 0;
}

static int take_params(struct server *sv)
{
	char why[RPERF_CTRL_REASON_LEN], err[256] = "";
	struct rperf_ctrl_msg m;
	const json_t *obj;
	int rc;

	rc = rperf_session_expect(&sv->s, &sv->io, RPERF_CTRL_PARAMS, &m, why,
				  sizeof(why));
	if (rc)
		return note(sv, RPERF_EXIT_RUNTIME, "%s", why);
	rc = rperf_ctrl_params_decode(&m, &obj);
	if (!rc)
		rc = rperf_bw_params_decode(obj, RPERF_SERVER_MAX_SIZE, &sv->p,
					    why, sizeof(why));
	rperf_ctrl_msg_release(&m);
	if (rc)
		return refuse(sv, rc == EPROTO ? "malformed PARAMS" : why);
	rc = rperf_bw_conn_server(&sv->conn, sv->cfg, &sv->p, err, sizeof(err));
	if (rc)
		return refuse(sv, err);
	rc = rperf_bw_send_endpoints(&sv->s, &sv->io, &sv->conn);
	if (!rc)
		rc = rperf_bw_recv_endpoints(&sv->s, &sv->io, &sv->conn,
					     &sv->ep, why, sizeof(why));
	if (rc)
		return note(sv, RPERF_EXIT_RUNTIME, "endpoint exchange: %s",
			    rc == EPROTO || rc == EBADMSG ? why : strerror(rc));
	rc = rperf_bw_connect_all(&sv->conn, &sv->ep, err, sizeof(err));
	if (!rc)
		rc = rperf_ctrl_session_send(&sv->s, &sv->io, RPERF_CTRL_READY,
					     NULL);
	return rc ? note(sv, RPERF_EXIT_RUNTIME, "connecting the QPs: %s",
			 err[0] ? err : strerror(rc)) :
		    0;
}

/* Take receive completions of every QP, post as many receives again. */
static int drain(struct server *sv, int *got)
{
	char err[128];

	if (rperf_bw_rx_drain(&sv->conn, &sv->rx, got, err, sizeof(err)))
		return note(sv, RPERF_EXIT_RUNTIME, "%s", err);
	return 0;
}

static int on_events(struct server *sv)
{
	for (size_t q = 0; q < sv->conn.nqp; q++) {
		struct ibv_cq *cq;
		void *ctx;

		if (!(sv->pf[q].revents & POLLIN))
			continue;
		if (ibv_get_cq_event(sv->conn.qp[q]->channel, &cq, &ctx))
			return note(sv, RPERF_EXIT_RUNTIME,
				    "ibv_get_cq_event failed");
		ibv_ack_cq_events(cq, 1);
		if (ibv_req_notify_cq(cq, 0))
			return note(sv, RPERF_EXIT_RUNTIME,
				    "ibv_req_notify_cq failed");
	}
	return 0;
}

/* Until the control socket speaks (DONE): count, refill. */
static int sink(struct server *sv)
{
	size_t n = sv->conn.nqp;
	unsigned int idle = 0;
	int rc, got;

	for (;;) {
		if ((rc = drain(sv, &got)))
			return rc;
		if (got || (!sv->p.events && ++idle < SPIN_CHECK))
			continue;
		idle = 0;
		if (*sv->stop)
			return note(sv, RPERF_EXIT_RUNTIME, "interrupted");
		for (size_t i = 0; i <= n; i++)
			sv->pf[i].revents = 0;
		if (sv->p.events) {
			if (poll(sv->pf, (nfds_t)n + 1, 200) < 0 &&
			    errno != EINTR)
				return note(sv, RPERF_EXIT_RUNTIME, "poll: %s",
					    strerror(errno));
			if ((rc = on_events(sv)))
				return rc;
		} else if (poll(&sv->pf[n], 1, 0) < 0 && errno != EINTR) {
			return note(sv, RPERF_EXIT_RUNTIME, "poll: %s",
				    strerror(errno));
		}
		if (sv->pf[n].revents)
			return 0;
	}
}

static int send_result(struct server *sv, double cpu0)
{
	double secs = rperf_bw_rx_seconds(&sv->rx);
	double cpu = rperf_cpu_seconds_process();
	json_t *res;
	int rc;

	res = json_pack("{s:I, s:I, s:f, s:f}", "received",
			(json_int_t)sv->rx.messages, "bytes",
			(json_int_t)sv->rx.bytes, "seconds", secs,
			"cpu_seconds", cpu - cpu0 > 0 ? cpu - cpu0 : 0.0);
	/* -b: what this side sent (the server -> client direction) */
	if (res && sv->p.bidir &&
	    (rperf_ctrl_set_u64(res, "tx_messages", sv->g.messages) ||
	     rperf_ctrl_set_u64(res, "tx_bytes", sv->g.bytes) ||
	     rperf_ctrl_set_u64(res, "tx_post_calls", sv->g.post_calls) ||
	     rperf_ctrl_set_double(res, "tx_seconds", sv->g.seconds) ||
	     rperf_ctrl_set_double(res, "tx_cpu_seconds", sv->g.cpu_seconds))) {
		json_decref(res);
		res = NULL;
	}
	rc = res ? rperf_ctrl_session_send(&sv->s, &sv->io, RPERF_CTRL_RESULT,
					   res) :
		   ENOMEM;
	json_decref(res);
	return rc;
}

/* -b, once per generator pass: the receive side; the control socket
 * every SPIN_CHECK idle passes (DONE or EOF: stop, unless iterations). */
static int bidir_pass(void *arg, bool *progress)
{
	struct server *sv = arg;
	struct pollfd pf = { .fd = sv->io.fd, .events = POLLIN };
	char err[128];
	int got = 0;

	if (sv->conn.recvs &&
	    rperf_bw_rx_drain(&sv->conn, &sv->rx, &got, err, sizeof(err))) {
		note(sv, 0, "%s", err);
		return EIO;
	}
	*progress = got > 0;
	if (got || ++sv->idle < SPIN_CHECK)
		return 0;
	sv->idle = 0;
	if (*sv->stop)
		sv->gen_stop = 1;
	if ((sv->p.infinite || sv->p.duration_ns) && poll(&pf, 1, 0) > 0)
		sv->gen_stop = 1;
	return 0;
}

static void bidir_cfg(struct server *sv, struct rperf_bsg_cfg *b)
{
	const struct rperf_bw_params *p = &sv->p;

	*b = (struct rperf_bsg_cfg){
		.verb = p->verb,
		.size = sv->size,
		.iters = p->iters,
		.duration_ns = p->duration_ns,
		.infinite = p->infinite,
		.tx_depth = (uint32_t)p->tx_depth,
		.cq_mod = (uint32_t)p->cq_mod,
		.post_list = (uint32_t)p->post_list,
		.limit_per_s = sv->limit_per_s,
		.stop = &sv->gen_stop,
		.peer_fd = -1, /* DONE may arrive mid-run: bidir_pass */
		.stall_ns =
			rperf_rc_stall_ns((unsigned int)p->path.qp_timeout,
					  (unsigned int)p->path.retry_count),
		.on_pass = bidir_pass,
		.pass_arg = sv,
	};
}

/* -b: generate towards the client while receiving, then receive until
 * the control socket speaks (DONE). */
static int bidir(struct server *sv)
{
	struct rperf_bsg_qp *q = calloc(sv->conn.nqp, sizeof(*q));
	struct rperf_bsg_cfg b;
	char err[128] = "";
	int rc;

	if (!q)
		return note(sv, RPERF_EXIT_INTERNAL, "out of memory");
	for (size_t i = 0; i < sv->conn.nqp; i++)
		q[i] = (struct rperf_bsg_qp){ .qp = sv->conn.qp[i],
					      .buf = &sv->conn.buf,
					      .raddr = sv->ep.addr,
					      .rkey = sv->ep.rkey };
	sv->gen_stop = 0;
	sv->idle = 0;
	bidir_cfg(sv, &b);
	rc = rperf_bsg_run(&b, q, sv->conn.nqp, &sv->g);
	free(q);
	if (rc)
		return note(
			sv, RPERF_EXIT_RUNTIME,
			"sending to the client stopped after %llu messages: %s",
			(unsigned long long)sv->g.messages, sv->g.error);
	rc = rperf_bw_rx_until(&sv->conn, &sv->rx, sv->io.fd, sv->stop,
			       RPERF_SESSION_TIMEOUT_MS, err, sizeof(err));
	return rc ? note(sv, RPERF_EXIT_RUNTIME, "waiting for DONE: %s",
			 err[0] ? err : strerror(rc)) :
		    0;
}

/* One round: sink (-b: generate too) until DONE, catch up with the
 * sender, RESULT out. */
static int round_once(struct server *sv)
{
	char why[RPERF_CTRL_REASON_LEN], err[128] = "";
	struct rperf_ctrl_msg m;
	uint64_t samples = 0;
	double cpu0 = rperf_cpu_seconds_process();
	int rc;

	memset(&sv->rx, 0, sizeof(sv->rx));
	memset(&sv->g, 0, sizeof(sv->g));
	if ((rc = sv->p.bidir ? bidir(sv) : sink(sv)))
		return rc;
	rc = rperf_session_expect(&sv->s, &sv->io, RPERF_CTRL_DONE, &m, why,
				  sizeof(why));
	if (rc)
		return note(sv, RPERF_EXIT_RUNTIME,
			    "went away mid-run after %llu messages (%s)",
			    (unsigned long long)sv->rx.messages, why);
	rperf_ctrl_done_decode(&m, &samples, NULL);
	rperf_ctrl_msg_release(&m);
	if (rperf_bw_rx_catch_up(&sv->conn, &sv->rx, samples, err, sizeof(err)))
		return note(sv, RPERF_EXIT_RUNTIME, "%s", err);
	rc = send_result(sv, cpu0);
	fprintf(stderr, "rperf: client %s: %llu messages received (%llu B)",
		sv->peer, (unsigned long long)sv->rx.messages,
		(unsigned long long)sv->rx.bytes);
	if (sv->p.bidir)
		fprintf(stderr, ", %llu sent (%llu B)",
			(unsigned long long)sv->g.messages,
			(unsigned long long)sv->g.bytes);
	fputc('\n', stderr);
	return rc ? note(sv, RPERF_EXIT_RUNTIME, "sending RESULT: %s",
			 strerror(rc)) :
		    0;
}

/* -b: START carries the round's size and rate limit. */
static int start_args(struct server *sv, const struct rperf_ctrl_msg *m)
{
	if (!sv->p.bidir)
		return 0;
	if (!m->payload ||
	    rperf_ctrl_get_u64(m->payload, "size", 1, sv->p.max_size,
			       &sv->size) ||
	    rperf_ctrl_get_double(m->payload, "limit_per_s", 0, 1e12,
				  &sv->limit_per_s))
		return note(
			sv, RPERF_EXIT_RUNTIME,
			"malformed START (-b needs 'size' and 'limit_per_s')");
	return 0;
}

/* START in; rounds until BYE; BYE out. */
static int serve_run(struct server *sv)
{
	char why[RPERF_CTRL_REASON_LEN];
	struct rperf_ctrl_msg m;
	enum rperf_ctrl_type t;
	int rc;

	rc = rperf_session_expect(&sv->s, &sv->io, RPERF_CTRL_START, &m, why,
				  sizeof(why));
	if (rc)
		return note(sv, RPERF_EXIT_RUNTIME, "%s", why);
	rc = start_args(sv, &m);
	rperf_ctrl_msg_release(&m);
	for (; !rc;) {
		if ((rc = round_once(sv)))
			return rc;
		rc = rperf_ctrl_session_recv(&sv->s, &sv->io, &m);
		if (rc)
			return note(sv, RPERF_EXIT_RUNTIME,
				    "waiting for START or BYE: %s",
				    rc == EPROTO ? "out of order" :
						   strerror(rc));
		t = m.type;
		rc = t == RPERF_CTRL_START ? start_args(sv, &m) : 0;
		rperf_ctrl_msg_release(&m);
		if (t == RPERF_CTRL_BYE)
			break;
		if (t != RPERF_CTRL_START)
			return note(sv, RPERF_EXIT_RUNTIME,
				    "the client ended the run: %s",
				    rperf_ctrl_type_name((int)t));
	}
	if (rc)
		return rc;
	rperf_ctrl_session_send(&sv->s, &sv->io, RPERF_CTRL_BYE, NULL);
	return RPERF_EXIT_OK;
}

static int serve_one(struct server *sv, int fd)
{
	int rc;

	sv->io = (struct rperf_ctrl_io){ .fd = fd,
					 .timeout_ms = RPERF_SESSION_TIMEOUT_MS,
					 .stop = sv->stop };
	rperf_ctrl_session_init(&sv->s, RPERF_CTRL_SERVER);
	rc = greet(sv);
	if (!rc)
		rc = take_params(sv);
	if (!rc) {
		sv->pf = calloc(sv->conn.nqp + 1, sizeof(*sv->pf));
		for (size_t i = 0; sv->pf && i < sv->conn.nqp; i++)
			sv->pf[i] = (struct pollfd){
				.fd = sv->conn.qp[i]->channel ?
					      sv->conn.qp[i]->channel->fd :
					      -1,
				.events = POLLIN
			};
		if (sv->pf)
			sv->pf[sv->conn.nqp] =
				(struct pollfd){ .fd = fd, .events = POLLIN };
		rc = sv->pf ? serve_run(sv) : RPERF_EXIT_INTERNAL;
	}
	free(sv->pf);
	sv->pf = NULL;
	rperf_bw_peer_free(&sv->ep);
	rperf_bw_conn_close(&sv->conn);
	close(fd);
	return rc;
}

static int serve_client(void *arg, int fd, const char *peer)
{
	struct server *sv = arg;

	snprintf(sv->peer, sizeof(sv->peer), "%s", peer);
	return serve_one(sv, fd);
}

int rperf_bw_server(const struct rperf_cli_config *cfg,
		    volatile sig_atomic_t *stop)
{
	struct server sv = { .cfg = cfg, .stop = stop };

	return rperf_session_serve(cfg, stop, "bw", serve_client, &sv);
}
