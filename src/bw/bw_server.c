/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rperf bw (no HOST): the server's ops for the shared lifecycle
 * (session/session_life.h serves one client, or with --persistent one
 * after another). Every run parameter comes from the client. The server is the
 * sink: it counts what arrives (SENDs; WRITE_WITH_IMM, whose immediate
 * carries how many WRITEs its list held) and keeps its receive queues full,
 * busy polling or (-e) from completion events. Plain WRITEs it cannot see.
 * With -b (PARAMS "bidir") it also runs the generator towards the client
 * each round (START carries the size and rate), draining its receive
 * queues between passes, and adds its sender counts (tx_*) to RESULT.
 * With --reversed (PARAMS "reversed") it runs the generator the same way,
 * the client sending nothing. READs and atomics (--verb read|atomic) its
 * NIC answers: the server's CPU sees none of them.
 */
#include "bw/bw.h"

#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rperf/clock.h>

#include "bw/bw_conn.h"
#include "gen/rx.h"
#include "host/cputime.h"
#include "engine/gen_shape.h"
#include "engine/limits.h"
#include "session/session_ctrl.h"
#include "session/session_life.h"
#include "engine/endpoint.h"

#define SPIN_CHECK 256 /* empty polls between control-socket checks */
#define DONE_WAIT_MS 30000 /* -b: the generator done, DONE within this */

struct server {
	const struct rperf_cli_config *cfg;
	volatile sig_atomic_t *stop;
	struct rperf_gen_conn conn;
	struct rperf_gen_spec p; /* the client's generator (PARAMS) */
	struct rperf_err *e; /* the current op's */
	int fd; /* the control socket (DONE ends a round) */
	double cpu0; /* process CPU seconds at the round's start */
	struct rperf_bw_peer ep; /* the client's QPs and buffer */
	struct rperf_rx_count rx;
	uint64_t stall_ns; /* this server's stall limit for this client */
	/* -b: this round's generator (START carries size and rate) */
	uint64_t size;
	double limit_per_s;
	volatile sig_atomic_t gen_stop;
	unsigned int idle;
	struct rperf_bsg_res g;
};

#define fail(sv, ...) \
	rperf_err_set((sv)->e, RPERF_ERRC_RUNTIME, EIO, __VA_ARGS__)

/* -b or --reversed: this side runs the generator each round. */
static bool generates(const struct server *sv)
{
	return sv->p.test.bidir || sv->p.test.reversed;
}

/* PARAMS (within the server's limits): the device and the QPs. */
static int bw_params(void *arg, struct rperf_session_chan *ch,
		     const struct rperf_gen_spec *s, uint64_t stall_ns,
		     struct rperf_err *e)
{
	struct server *sv = arg;
	char err[256] = "";
	int rc;

	sv->cfg = ch->cfg;
	sv->stop = ch->stop;
	sv->p = *s;
	sv->stall_ns = stall_ns;
	rc = rperf_bw_conn_server(&sv->conn, sv->cfg, &sv->p, err, sizeof(err));
	if (rc)
		return rperf_err_set(e, RPERF_ERRC_USAGE, rc, "%s", err);
	return 0;
}

/* Our ENDPOINT out, the client's in, every QP connected. */
static int bw_endpoints(void *arg, struct rperf_session_chan *ch,
			struct rperf_err *e)
{
	struct server *sv = arg;
	char why[RPERF_CTRL_REASON_LEN], err[256] = "";
	int rc;

	sv->fd = ch->io.fd;
	rc = rperf_bw_send_endpoints(&ch->s, &ch->io, &sv->conn);
	if (!rc)
		rc = rperf_bw_recv_endpoints(&ch->s, &ch->io, &sv->conn,
					     &sv->ep, why, sizeof(why));
	if (rc)
		return rperf_err_set(
			e, RPERF_ERRC_RUNTIME, rc, "endpoint exchange: %s",
			rc == EPROTO || rc == EBADMSG ? why : strerror(rc));
	if (rperf_limits_gid_check(sv->conn.dev, sv->fd, sv->ep.ep, sv->ep.nqp,
				   why, sizeof(why)))
		return rperf_session_refuse_late(&ch->s, &ch->io, why, e);
	/* we generate towards the client's buffer: it must hold the sizes */
	if (generates(sv))
		rc = rperf_peer_buf_check(&sv->ep.buf, sv->p.verb, sv->p.size,
					  "the client", err, sizeof(err));
	if (rc)
		return rperf_err_set(e, RPERF_ERRC_RUNTIME, rc, "%s", err);
	rc = rperf_bw_connect_all(&sv->conn, &sv->ep, err, sizeof(err));
	return rc ? rperf_err_set(e, RPERF_ERRC_RUNTIME, rc,
				  "connecting the QPs: %s",
				  err[0] ? err : strerror(rc)) :
		    0;
}

/* Until the control socket speaks (DONE): count, refill; busy polling
 * while messages arrive, asleep on completion events after the stall
 * limit without one (-e: whenever none is there). */
static int sink(struct server *sv)
{
	struct rperf_rx_wait w = {
		.fd = sv->fd,
		.stop = sv->stop,
		.spin_ns = sv->p.sink_completion == RPERF_COMPLETION_EVENT ?
				   0 :
				   sv->stall_ns
	};
	char err[128] = "";
	int rc = rperf_rx_wait(&sv->conn, &sv->rx, &w, err, sizeof(err));

	if (rc == EINTR)
		return fail(sv, "interrupted");
	return rc ? fail(sv, "%s", err[0] ? err : strerror(rc)) : 0;
}

/* RESULT: what arrived; with -b what this side sent (tx_*). */
static json_t *result_payload(struct server *sv)
{
	double secs = rperf_rx_seconds(&sv->rx);
	double cpu = rperf_cpu_seconds_process() - sv->cpu0;
	json_t *res;

	res = json_pack("{s:I, s:I, s:f, s:f}", "received",
			(json_int_t)sv->rx.messages, "bytes",
			(json_int_t)sv->rx.bytes, "seconds", secs,
			"cpu_seconds", cpu > 0 ? cpu : 0.0);
	if (res && generates(sv) &&
	    (rperf_ctrl_set_u64(res, "tx_messages", sv->g.messages) ||
	     rperf_ctrl_set_u64(res, "tx_bytes", sv->g.bytes) ||
	     rperf_ctrl_set_u64(res, "tx_post_calls", sv->g.post_calls) ||
	     rperf_ctrl_set_double(res, "tx_seconds", sv->g.seconds) ||
	     rperf_ctrl_set_double(res, "tx_cpu_seconds", sv->g.cpu_seconds))) {
		json_decref(res);
		res = NULL;
	}
	return res;
}

/* -b, once per generator pass: the receive side; the control socket
 * every SPIN_CHECK idle passes (DONE or EOF: stop, unless iterations). */
static int bidir_pass(void *arg, bool *progress)
{
	struct server *sv = arg;
	struct pollfd pf = { .fd = sv->fd, .events = POLLIN };
	char err[128];
	int got = 0;

	if (sv->conn.recvs &&
	    rperf_rx_drain(&sv->conn, &sv->rx, &got, err, sizeof(err))) {
		return fail(sv, "%s", err);
	}
	*progress = got > 0;
	if (got || ++sv->idle < SPIN_CHECK)
		return 0;
	sv->idle = 0;
	if (*sv->stop)
		sv->gen_stop = 1;
	if (poll(&pf, 1, 0) <= 0)
		return 0;
	if (rperf_session_peer_gone(sv->fd))
		return ECONNRESET; /* killed: free the server at once */
	if (sv->p.test.infinite || sv->p.duration_ns)
		sv->gen_stop = 1;
	return 0;
}

/* The generator towards the client: the client's spec with this round's
 * size and rate, no completion events (it receives too), this server's
 * stall limit and receive pass. */
static void bidir_cfg(struct server *sv, struct rperf_bsg_cfg *b)
{
	rperf_bsg_spec_cfg(&sv->p, b);
	b->size = sv->size;
	b->events = false;
	b->limit_per_s = sv->limit_per_s;
	b->interval_ns = 0;
	b->stop = &sv->gen_stop;
	b->peer_fd = -1; /* DONE may arrive mid-run: bidir_pass */
	b->stall_ns = sv->stall_ns; /* the server's, not the client's */
	b->on_pass = bidir_pass;
	b->pass_arg = sv;
}

/* -b: generate towards the client while receiving, then receive until
 * the control socket speaks (DONE). */
static int bidir(struct server *sv)
{
	struct rperf_bsg_qp *q = calloc(sv->conn.nqp, sizeof(*q));
	struct rperf_rx_wait w;
	struct rperf_bsg_cfg b;
	char err[128] = "";
	int rc;

	if (!q)
		return rperf_err_set(sv->e, RPERF_ERRC_INTERNAL, ENOMEM,
				     "out of memory");
	for (size_t i = 0; i < sv->conn.nqp; i++)
		rperf_bsg_qp_of(&q[i], &sv->conn, i, sv->ep.addr, sv->ep.rkey);
	sv->gen_stop = 0;
	sv->idle = 0;
	bidir_cfg(sv, &b);
	rc = rperf_bsg_run(&b, q, sv->conn.nqp, &sv->g);
	free(q);
	if (rc)
		return fail(
			sv,
			"sending to the client stopped after %llu messages: %s",
			(unsigned long long)sv->g.messages, sv->g.error);
	w = (struct rperf_rx_wait){ .fd = sv->fd,
				    .stop = sv->stop,
				    .spin_ns = sv->stall_ns,
				    .idle_ns = DONE_WAIT_MS * 1000000ull };
	rc = rperf_rx_wait(&sv->conn, &sv->rx, &w, err, sizeof(err));
	return rc ? fail(sv, "waiting for DONE: %s",
			 err[0] ? err : strerror(rc)) :
		    0;
}

/* START: with -b it carries the round's size and rate limit. */
static int bw_start(void *arg, struct rperf_session_chan *ch,
		    const struct rperf_ctrl_msg *m, struct rperf_err *e)
{
	struct server *sv = arg;

	(void)ch;
	if (!generates(sv))
		return 0;
	if (!m->payload ||
	    rperf_ctrl_get_u64(m->payload, "size", 1, sv->p.size, &sv->size) ||
	    rperf_ctrl_get_double(m->payload, "limit_per_s", 0, 1e12,
				  &sv->limit_per_s))
		return rperf_err_set(
			e, RPERF_ERRC_RUNTIME, EBADMSG,
			"malformed START (-b needs 'size' and 'limit_per_s')");
	return 0;
}

/* Sink (-b: generate too) until the control socket speaks (DONE). */
static int bw_round_loop(void *arg, struct rperf_session_chan *ch,
			 struct rperf_err *e)
{
	struct server *sv = arg;

	(void)ch;
	sv->e = e;
	sv->cpu0 = rperf_cpu_seconds_process();
	memset(&sv->rx, 0, sizeof(sv->rx));
	memset(&sv->g, 0, sizeof(sv->g));
	return generates(sv) ? bidir(sv) : sink(sv);
}

static uint64_t bw_received(void *arg)
{
	const struct server *sv = arg;

	return sv->rx.messages;
}

/* After DONE: catch up with the sender, RESULT. */
static int bw_result(void *arg, uint64_t samples, json_t **out, char *line,
		     size_t linelen, struct rperf_err *e)
{
	struct server *sv = arg;
	char err[128] = "";
	int n;

	sv->e = e;
	if (rperf_rx_catch_up(&sv->conn, &sv->rx, samples, err, sizeof(err)))
		return fail(sv, "%s", err);
	*out = result_payload(sv);
	if (!*out)
		return rperf_err_set(e, RPERF_ERRC_RUNTIME, ENOMEM,
				     "sending RESULT: %s", strerror(ENOMEM));
	if (rperf_verb_responder_only(sv->p.verb))
		n = snprintf(
			line, linelen,
			"%s: answered by this host's NIC, unseen by its CPU",
			rperf_verb_name(sv->p.verb));
	else
		n = snprintf(line, linelen, "%llu messages received (%llu B)",
			     (unsigned long long)sv->rx.messages,
			     (unsigned long long)sv->rx.bytes);
	if (generates(sv) && n > 0 && (size_t)n < linelen)
		snprintf(line + n, linelen - (size_t)n, ", %llu sent (%llu B)",
			 (unsigned long long)sv->g.messages,
			 (unsigned long long)sv->g.bytes);
	return 0;
}

static void bw_close_run(void *arg)
{
	struct server *sv = arg;

	rperf_bw_peer_free(&sv->ep);
	rperf_bw_conn_close(&sv->conn);
}

const struct rperf_session_server_ops rperf_bw_server_ops = {
	.command = "bw",
	.state_size = sizeof(struct server),
	.params = bw_params,
	.endpoints = bw_endpoints,
	.start = bw_start,
	.round = bw_round_loop,
	.received = bw_received,
	.result = bw_result,
	.close = bw_close_run,
};
