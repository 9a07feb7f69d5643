/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The destination end of an LSG or a BSG: QPs with deep receive queues
 * refilled off the critical path, counting what arrives. The receive side
 * is rperf bw's too (gen/rx.c: SENDs and WRITE_WITH_IMM counted, receives
 * reposted); the engine's one sink thread calls sink_drain() for every
 * sink of the device. An LSG sink re-arms for solicited events only (the
 * source solicits every rperf_engine_rx_depth()/4-th SEND, as rperf lat's
 * server does), so it wakes a few times per queue, never per message;
 * a pingpong LSG's sink sends every SEND back at once (gen/echo.h, as
 * rperf lat's server) and wakes on every one; with verb write it polls
 * the last byte of its buffer and WRITEs each sample back (it never
 * sleeps: a WRITE makes no completion; it counts the samples answered). A
 * BSG sink of RDMA WRITEs has nothing to count (no receive completion):
 * its messages and bytes stay 0 and the controller says so. A BSG sink
 * with an interval keeps what arrived per interval (gen/series.h) on the
 * source's grid: GO + start + k x interval, counted when drained.
 */
#include "engine/engine.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/endpoint.h"
#include "gen/echo.h"
#include "gen/gen.h"
#include "gen/rx.h"
#include "gen/series.h"
#include "util/err.h"

struct sink {
	/* conn.dev is the engine's: not owned; conn.channel: every QP's
	 * completion events (event mode, and poll mode gone to sleep) */
	struct rperf_gen_conn conn;
	struct rperf_rx_count rx;
	bool events;
	int solicited; /* ibv_req_notify_cq's solicited_only */
	struct rperf_rx_series series; /* BSG with an interval */
	/* pingpong write (gen/echo.h): the source's reply buffer, the last
	 * sequence byte answered */
	bool wecho;
	struct rperf_ctrl_endpoint peer;
	uint8_t seq;
	/* a round changed the method: arm the CQs for its events (a CQ
	 * armed for solicited SENDs only would not wake a pingpong) */
	bool rearm;
};

/* What the sink does in this round (its spec's method: rounds may change
 * it): pingpong sends every SEND back at once, so every one wakes it;
 * with verb write the byte it polls is answered. */
static void sink_mode(struct rperf_gen_inst *g, struct sink *s)
{
	bool pp = rperf_gen_latency(g->spec.kind) &&
		  g->spec.test.method == RPERF_METHOD_PINGPONG;

	s->conn.echo = pp && g->spec.verb == RPERF_VERB_SEND;
	s->wecho = pp && g->spec.verb == RPERF_VERB_WRITE;
	s->solicited = rperf_gen_latency(g->spec.kind) && !s->conn.echo;
}

static int sink_setup(struct rperf_gen_inst *g, char *err, size_t errlen)
{
	bool lsg = rperf_gen_latency(g->spec.kind);
	/* a round that answers: the replies' send queue */
	bool answers = lsg &&
		       rperf_spec_any_method(&g->spec, RPERF_METHOD_PINGPONG);
	struct sink *s = calloc(1, sizeof(*s));
	int access, rc;

	if (!s)
		return ENOMEM;
	g->priv = s;
	s->events = g->spec.sink_completion == RPERF_COMPLETION_EVENT;
	sink_mode(g, s);
	s->series.interval_ns = lsg ? 0 : g->spec.interval_ns;
	s->series.at_ns = g->spec.start_ns;
	s->conn.dev = g->dev;
	s->conn.vcfg = g->vcfg;
	s->conn.max_size = g->spec.size;
	s->conn.recvs = lsg || rperf_verb_consumes_recv(g->spec.verb);
	access = IBV_ACCESS_REMOTE_WRITE | rperf_verb_access(g->spec.verb);
	rc = rperf_engine_rx_depth_on(&g->spec, g->dev, &s->conn.rx_depth, err,
				      errlen);
	if (!rc)
		rc = rperf_gen_conn_open(
			&s->conn,
			&(struct rperf_qp_cfg){
				.send_depth =
					answers ? RPERF_ENGINE_ECHO_DEPTH : 1,
				.recv_depth = s->conn.rx_depth,
				.recv_events = s->conn.recvs,
				.access = access },
			lsg ? 1 : g->spec.qps, IBV_ACCESS_LOCAL_WRITE | access,
			err, errlen);
	/* rdma_cm: listening before ENDPOINTS, which say the port */
	if (!rc && g->spec.test.rdma_cm)
		rc = rperf_gen_conn_cm_listen(&s->conn, 0, err, errlen);
	return rc;
}

static int sink_endpoints(struct rperf_gen_inst *g,
			  struct rperf_proto_inst_eps *out)
{
	struct sink *s = g->priv;

	return rperf_engine_conn_eps(g, &s->conn, true, out);
}

static int sink_connect(struct rperf_gen_inst *g,
			const struct rperf_proto_inst_eps *peer, char *err,
			size_t errlen)
{
	struct sink *s = g->priv;
	int rc = rperf_engine_conn_connect(g, &s->conn, peer, err, errlen);

	/* pingpong write in some round: the source's reply buffer */
	if (rc || !rperf_gen_latency(g->spec.kind) ||
	    g->spec.verb != RPERF_VERB_WRITE ||
	    !rperf_spec_any_method(&g->spec, RPERF_METHOD_PINGPONG))
		return rc;
	s->peer = peer->qps[0]; /* one QP: the connect checked the count */
	return rperf_peer_buf_check(&s->peer, RPERF_VERB_WRITE, g->spec.size,
				    "the LSG source", err, errlen);
}

static size_t sink_fds(struct rperf_gen_inst *g, struct pollfd *pf, size_t cap)
{
	struct sink *s = g->priv;

	if (!s->conn.channel || !cap)
		return 0;
	pf[0] = (struct pollfd){ .fd = s->conn.channel->fd, .events = POLLIN };
	return 1;
}

/* Poll mode going to sleep: every receive CQ armed. Not a pingpong
 * write's: an incoming WRITE makes no completion to wake on, so the
 * thread keeps polling its byte. */
static int sink_arm(struct rperf_gen_inst *g)
{
	struct sink *s = g->priv;

	if (s->wecho)
		return EAGAIN;

	for (size_t i = 0; i < s->conn.nqp; i++)
		if (ibv_req_notify_cq(s->conn.qp[i]->recv_cq, s->solicited))
			return EIO;
	return 0;
}

/* ns from the grid's start (GO + the spec's start) to now; 0 before it */
static uint64_t since_start(const struct rperf_gen_inst *g)
{
	uint64_t go = atomic_load(&g->go_ns), now = rperf_mono_ns();

	go += go ? g->spec.start_ns : 0;
	return go && now > go ? now - go : 0;
}

/* Pingpong write: answer the byte if it turned, reap the replies; *got
 * counts an answer (the sink's messages: the samples it answered). */
static int wecho(struct sink *s, uint64_t size, int *got, char *err,
		 size_t errlen)
{
	struct rperf_qp *qp = s->conn.qp[0];
	bool ans;
	int rc = rperf_echo_write(qp, &s->conn.buf, size,
				  s->peer.addr + s->peer.size, s->peer.rkey,
				  &s->seq, &ans, err, errlen);

	if (!rc && ans) {
		s->rx.messages++;
		s->rx.bytes += size;
		(*got)++;
	}
	return rc ? rc : rperf_echo_reap(qp, "WRITE", err, errlen);
}

static int sink_drain(struct rperf_gen_inst *g, const struct pollfd *pf,
		      bool *progress)
{
	struct sink *s = g->priv;
	uint64_t m0 = s->rx.messages, b0 = s->rx.bytes;
	char err[160] = "";
	unsigned int k;
	int got = 0;

	if (s->rearm && s->events && sink_arm(g))
		return rperf_fail(g->res.error, sizeof(g->res.error), EIO,
				  "arming the completion events failed");
	s->rearm = false;

	/* event mode re-arms (solicited only for an LSG); a poll-mode
	 * sink woken from its sleep goes back to polling unarmed */
	if (pf && s->conn.channel && (pf[0].revents & POLLIN) &&
	    rperf_channel_take(s->conn.channel, s->events ? s->solicited : -1,
			       &k))
		return rperf_fail(g->res.error, sizeof(g->res.error), EIO,
				  "taking completion events failed");
	if (rperf_rx_drain(&s->conn, &s->rx, &got, err, sizeof(err)) ||
	    (s->wecho && wecho(s, g->spec.size, &got, err, sizeof(err))))
		return rperf_fail(g->res.error, sizeof(g->res.error), EIO, "%s",
				  err);
	*progress = got > 0;
	/* out of memory: the rows stop, the totals still count */
	if (got > 0 && s->series.interval_ns)
		(void)rperf_rx_series_add(&s->series, since_start(g),
					  s->rx.messages - m0,
					  s->rx.bytes - b0);
	return 0;
}

static int sink_result(struct rperf_gen_inst *g)
{
	struct sink *s = g->priv;

	if (!s)
		return 0;
	g->res.messages = s->rx.messages;
	g->res.bytes = s->rx.bytes;
	g->res.seconds = rperf_rx_seconds(&s->rx);
	if (!g->res.bsg_series.n) { /* counting ended: move it (once) */
		(void)rperf_rx_series_end(&s->series, since_start(g));
		g->res.bsg_series = s->series.s;
		memset(&s->series.s, 0, sizeof(s->series.s));
	}
	return 0;
}

static void sink_round(struct rperf_gen_inst *g)
{
	struct sink *s = g->priv;

	if (!s)
		return;
	memset(&s->rx, 0, sizeof(s->rx));
	s->rearm = s->conn.echo; /* solicited-only before? */
	sink_mode(g, s); /* the round's method (rperf_engine_round_apply) */
	s->rearm = s->rearm != s->conn.echo;
	rperf_bsg_series_fini(&s->series.s);
	s->series = (struct rperf_rx_series){
		.interval_ns = s->series.interval_ns,
		.at_ns = s->series.at_ns,
	};
	/* seq goes on: the source's byte follows it across rounds */
}

static void sink_teardown(struct rperf_gen_inst *g)
{
	struct sink *s = g->priv;

	if (!s)
		return;
	rperf_gen_conn_free(&s->conn); /* conn.dev is the engine's */
	rperf_bsg_series_fini(&s->series.s);
	free(s);
	g->priv = NULL;
}

/* One sink for both kinds: the spec's kind picks the depth and events. */
const struct rperf_gen_ops rperf_gen_sink = {
	.name = "sink",
	.setup = sink_setup,
	.endpoints = sink_endpoints,
	.connect = sink_connect,
	.sink_fds = sink_fds,
	.sink_drain = sink_drain,
	.sink_arm = sink_arm,
	.round = sink_round,
	.result = sink_result,
	.teardown = sink_teardown,
};
