/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rperf bw HOST: the BSG plugged into the shared client lifecycle
 * (session/session_life.h): setup = the QPs and buffer, endpoints = all QPs
 * in one ENDPOINT each way, rounds = one START/DONE/RESULT per size (with
 * -b also receiving what the server sends).
 */
#include "bw/bw.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bw/bw_conn.h"
#include "gen/bw_math.h"
#include "bw/bw_reversed.h"
#include "gen/rx.h"
#include "engine/gen_shape.h"
#include "engine/limits.h"
#include "session/session.h"
#include "session/session_ctrl.h"
#include "session/session_life.h"
#include "engine/endpoint.h"
#include "verbs/rate.h"

struct client {
	struct rperf_bw_run *run;
	struct rperf_gen_conn conn;
	struct rperf_bw_peer peer;
	struct rperf_gen_spec spec; /* the run's generator, as in PARAMS */
	struct rperf_session_chan *ch; /* during the rounds */
	struct rperf_err *e; /* the current op's */
	struct rperf_rx_count rx; /* -b: what the server sent us this round */
	char rx_err[128];
};

#define fail(c, ...) rperf_err_set((c)->e, RPERF_ERRC_RUNTIME, EIO, __VA_ARGS__)

/* The server's ENDPOINT in, ours out, every QP connected. */
static int bw_exchange(void *arg, struct rperf_session_chan *ch,
		       struct rperf_err *e)
{
	struct client *c = arg;
	const struct rperf_cli_config *cfg = c->run->cfg;
	char why[RPERF_CTRL_REASON_LEN], err[256] = "";
	int rc;

	rc = rperf_bw_recv_endpoints(&ch->s, &ch->io, &c->conn, &c->peer, why,
				     sizeof(why));
	if (rc)
		return rperf_err_set(
			e,
			rc == EPROTO && ch->s.state == RPERF_CTRL_CLOSED ?
				RPERF_ERRC_USAGE :
				RPERF_ERRC_RUNTIME,
			rc, "%s refused the run: %s", cfg->host, why);
	if (c->peer.ep &&
	    rperf_endpoint_check_remote(c->conn.dev, &c->peer.ep[0], err,
					sizeof(err)))
		return rperf_err_set(e, RPERF_ERRC_USAGE, EINVAL, "%s: %s",
				     cfg->host, err);
	rc = rperf_peer_buf_check(&c->peer.buf, cfg->verb, c->conn.max_size,
				  cfg->host, err, sizeof(err));
	if (rc)
		return rperf_err_set(e, RPERF_ERRC_RUNTIME, rc, "%s", err);
	rc = rperf_bw_send_endpoints(&ch->s, &ch->io, &c->conn);
	if (!rc)
		rc = rperf_bw_connect_all(&c->conn, &c->peer, err, sizeof(err));
	return rc ? rperf_err_set(e, RPERF_ERRC_RUNTIME, rc,
				  "connecting the QPs: %s",
				  err[0] ? err : strerror(rc)) :
		    0;
}

/* Path facts for the report; a rate limit above line rate is a warning. */
static void path_facts(struct client *c)
{
	const struct rperf_cli_config *cfg = c->run->cfg;
	struct rperf_bw_run *run = c->run;
	const struct rperf_dev *d = c->conn.dev;

	run->mtu = rperf_bw_path_mtu(&c->conn, &c->peer);
	run->roce = d->roce;
	run->grh = d->gid_index >= 0;
	run->line_gbps = rperf_ib_rate_gbps(d->port_attr.active_speed,
					    d->port_attr.active_width);
	for (size_t i = 0; i < cfg->nsizes && run->line_gbps > 0; i++) {
		double g = rperf_bw_limit_gbps(cfg->rate_limit, cfg->rate_units,
					       cfg->sizes[i]);

		if (g > run->line_gbps) {
			rperf_session_warn(
				&run->notes,
				"--rate_limit: %.6g Gb/s at %llu B is above the line rate of %s (%.2f Gb/s); the limit cannot bind",
				g, (unsigned long long)cfg->sizes[i], d->name,
				run->line_gbps);
			rperf_say(
				&run->say, "warning: %s",
				run->notes.warnings[run->notes.nwarnings - 1]);
			break;
		}
	}
}

/* The server's RESULT: its receiver counts, with -b its sender counts. */
static void decode_result(const struct rperf_ctrl_msg *m,
			  struct rperf_bw_rx *rx, bool *have)
{
	const json_t *res;

	memset(rx, 0, sizeof(*rx));
	if (rperf_ctrl_result_decode(m, &res) ||
	    rperf_ctrl_get_u64(res, "received", 0, UINT64_MAX, &rx->messages) ||
	    rperf_ctrl_get_u64(res, "bytes", 0, UINT64_MAX, &rx->bytes) ||
	    rperf_ctrl_get_double(res, "seconds", 0, 1e9, &rx->seconds) ||
	    rperf_ctrl_get_double(res, "cpu_seconds", 0, 1e9, &rx->cpu_seconds))
		return;
	*have = true;
	rx->has_tx = !rperf_ctrl_get_u64(res, "tx_messages", 0, UINT64_MAX,
					 &rx->tx_messages) &&
		     !rperf_ctrl_get_u64(res, "tx_bytes", 0, UINT64_MAX,
					 &rx->tx_bytes) &&
		     !rperf_ctrl_get_double(res, "tx_seconds", 0, 1e9,
					    &rx->tx_seconds) &&
		     !rperf_ctrl_get_double(res, "tx_cpu_seconds", 0, 1e9,
					    &rx->tx_cpu_seconds);
	if (rperf_ctrl_get_u64(res, "tx_post_calls", 0, UINT64_MAX,
			       &rx->tx_post_calls))
		rx->tx_post_calls = 0;
}

/* -b: keep receiving until the server answers, then catch up with what it
 * says it sent. */
static int bidir_wait(struct client *c)
{
	int rc = rperf_rx_until(&c->conn, &c->rx, c->ch->io.fd, NULL,
				RPERF_SESSION_TIMEOUT_MS, c->rx_err,
				sizeof(c->rx_err));

	if (rc && rc != EIO)
		snprintf(c->rx_err, sizeof(c->rx_err), "%s", strerror(rc));
	return rc;
}

static int round_result(struct client *c, const struct rperf_bsg_res *g,
			struct rperf_bw_rx *rx, bool *have)
{
	struct rperf_ctrl_msg m;
	int rc;

	*have = false;
	rc = rperf_session_done(c->ch, g->messages, c->e);
	if (!rc && (c->run->cfg->bidir || c->run->cfg->reversed) &&
	    bidir_wait(c))
		return fail(c, "%s: receiving while the round closes: %s",
			    c->run->cfg->host, c->rx_err);
	if (!rc)
		rc = rperf_session_result(c->ch, &m, c->e);
	if (rc)
		return rc;
	decode_result(&m, rx, have);
	rperf_ctrl_msg_release(&m);
	if (*have && rx->has_tx &&
	    rperf_rx_catch_up(&c->conn, &c->rx, rx->tx_messages, c->rx_err,
			      sizeof(c->rx_err)))
		return fail(c, "%s", c->rx_err);
	return 0;
}

static void check_one(struct client *c, const struct rperf_bw_result *b,
		      const char *dir)
{
	if (b->receiver_valid &&
	    (b->rx_messages != b->messages || b->rx_bytes != b->bytes))
		rperf_session_warn(
			&c->run->notes,
			"%llu B%s: the receiver counted %llu messages / %llu B, the sender %llu / %llu B",
			(unsigned long long)b->size, dir,
			(unsigned long long)b->rx_messages,
			(unsigned long long)b->rx_bytes,
			(unsigned long long)b->messages,
			(unsigned long long)b->bytes);
}

static void check_counts(struct client *c, size_t i)
{
	const struct rperf_bw_result *b = &c->run->res[i];

	check_one(c, b, "");
	if (b->reverse)
		check_one(c, b->reverse, " (server -> client)");
	else if (c->run->cfg->bidir)
		rperf_session_warn(
			&c->run->notes,
			"%llu B: the server sent no count of its sending",
			(unsigned long long)b->size);
}

/* -b, once per generator pass: take what the server sends. */
static int client_pass(void *arg, bool *progress)
{
	struct client *c = arg;
	int got = 0, rc = 0;

	if (c->conn.recvs)
		rc = rperf_rx_drain(&c->conn, &c->rx, &got, c->rx_err,
				    sizeof(c->rx_err));
	*progress = got > 0;
	return rc;
}

/* The generator of one size: the run's spec (what PARAMS told the
 * server) with this client's rate, interval, stall limit and -b pass. */
static void bsg_cfg(struct client *c, struct rperf_bsg_cfg *b, uint64_t size)
{
	const struct rperf_cli_config *cfg = c->run->cfg;

	rperf_bsg_spec_cfg(&c->spec, b);
	b->size = size;
	b->limit_per_s =
		rperf_bw_limit_msgs(cfg->rate_limit, cfg->rate_units, size);
	b->burst = (uint32_t)cfg->burst_size;
	b->interval_ns = rperf_bw_tick_ns(cfg);
	b->on_interval = rperf_bw_on_interval;
	b->arg = c->run;
	b->stop = c->run->stop;
	b->peer_fd = c->ch->io.fd;
	b->stall_ns = rperf_rc_stall_ns((unsigned int)cfg->qp_timeout,
					(unsigned int)cfg->retry_count);
	b->on_pass = cfg->bidir ? client_pass : NULL;
	b->pass_arg = c;
}

/* START; with -b it tells the server this round's size and rate. */
static int send_start(struct client *c, const struct rperf_bsg_cfg *b)
{
	json_t *o = NULL;
	int rc = 0;

	memset(&c->rx, 0, sizeof(c->rx));
	if (c->run->cfg->bidir || c->run->cfg->reversed) {
		o = json_object();
		rc = o ? rperf_ctrl_set_u64(o, "size", b->size) : ENOMEM;
		if (!rc)
			rc = rperf_ctrl_set_double(o, "limit_per_s",
						   b->limit_per_s);
	}
	if (!rc)
		rc = rperf_session_start(c->ch, o, c->e);
	else
		rc = rperf_err_set(c->e, RPERF_ERRC_INTERNAL, rc,
				   "out of memory");
	json_decref(o);
	return rc;
}

/* -b: the reverse direction of size @i from this side's receive counts. */
static void fill_reverse(struct client *c, size_t i,
			 const struct rperf_bsg_res *g,
			 const struct rperf_bw_rx *srv)
{
	struct rperf_bw_rx own = { .messages = c->rx.messages,
				   .bytes = c->rx.bytes,
				   .seconds = rperf_rx_seconds(&c->rx) };

	if (!c->run->cfg->bidir)
		return;
	/* one process sends and receives: its CPU share, as the sender's */
	own.cpu_seconds =
		g->seconds > 0 ? g->cpu_seconds * own.seconds / g->seconds : 0;
	rperf_bw_fill_reverse(c->run, i, srv, &own);
}

/* One size: START, the generator, DONE/RESULT; its figures filed. */
static int measure_size(struct client *c, struct rperf_bsg_qp *q, size_t i)
{
	const struct rperf_cli_config *cfg = c->run->cfg;
	struct rperf_bw_run *run = c->run;
	struct rperf_bsg_res g;
	struct rperf_bsg_cfg b;
	struct rperf_bw_rx rx;
	int rc, code = 0;
	bool have = false;

	bsg_cfg(c, &b, cfg->sizes[i]);
	rperf_round_start(&run->round, i, cfg->nsizes, cfg->sizes[i]);
	run->cur_size = cfg->sizes[i];
	run->tick_msgs = run->tick_bytes = 0;
	run->peak_gbps = run->peak_from = 0;
	run->peak_bytes = 0;
	run->peak_min_bytes = rperf_bw_peak_min_bytes(cfg->sizes[i],
						      c->conn.nqp, cfg->cq_mod);
	rc = send_start(c, &b);
	if (rc)
		return rc;
	rc = cfg->reversed ? rperf_bw_reversed_run(&c->conn, &b, &c->rx, &g) :
			     rperf_bsg_run(&b, q, c->conn.nqp, &g);
	if (rc) {
		run->notes.partial = true;
		code = fail(c, "run stopped at %llu B after %llu messages: %s",
			    (unsigned long long)b.size,
			    (unsigned long long)g.messages, g.error);
	}
	if (!rc && g.stopped && !cfg->run_infinitely) {
		run->notes.partial = true;
		code = fail(c, "interrupted at %llu B after %llu messages",
			    (unsigned long long)b.size,
			    (unsigned long long)g.messages);
	}
	if (!rc)
		rc = round_result(c, &g, &rx, &have);
	code = code ? code : rc;
	if (cfg->reversed)
		rperf_bw_fill_reversed(run, i, &g, &c->rx, have ? &rx : NULL);
	else
		rperf_bw_fill(run, i, &g, have ? &rx : NULL);
	fill_reverse(c, i, &g, have ? &rx : NULL);
	run->nres++;
	check_counts(c, i);
	rperf_bw_size_done(run, i);
	return code;
}

static int bw_measure(void *arg, struct rperf_session_chan *ch,
		      struct rperf_err *e)
{
	struct client *c = arg;
	const struct rperf_cli_config *cfg = c->run->cfg;
	struct rperf_bsg_qp *q = calloc(c->conn.nqp, sizeof(*q));
	int rc = 0;

	c->ch = ch;
	c->e = e;
	if (!q)
		return rperf_err_set(e, RPERF_ERRC_INTERNAL, ENOMEM,
				     "out of memory");
	rperf_session_spec(cfg, RPERF_GEN_BSG, &c->spec);
	path_facts(c);
	c->run->measured = true;
	rperf_session_say_preflight(&c->run->host, &c->run->say);
	for (size_t i = 0; i < c->conn.nqp; i++)
		rperf_bsg_qp_of(&q[i], &c->conn, i, c->peer.addr, c->peer.rkey);
	rperf_retrans_begin(&c->run->retrans, NULL, c->conn.dev->name,
			    c->conn.dev->port, (unsigned int)cfg->qp_timeout);
	for (size_t i = 0; i < cfg->nsizes && !rc && !*c->run->stop; i++)
		rc = measure_size(c, q, i);
	rperf_retrans_end(&c->run->retrans, NULL);
	free(q);
	if (rc)
		snprintf(c->run->notes.error, sizeof(c->run->notes.error), "%s",
			 e->msg);
	return rc;
}

static int bw_setup(void *arg, uint64_t max_size, char *err, size_t errlen)
{
	struct client *c = arg;
	int rc = rperf_bw_conn_client(&c->conn, c->run->cfg, max_size, err,
				      errlen);

	if (!rc)
		rperf_session_buffers_noted(&c->run->host, c->conn.dev,
					    &c->run->notes);
	return rc;
}

/* The control connection's source: our GID as an address (RoCE). */
static int client_source(void *arg, char *buf, size_t len)
{
	const struct client *c = arg;

	return rperf_limits_gid_source(c->conn.dev, buf, len);
}

static const struct rperf_session_client_ops bw_client_ops = {
	.command = "bw",
	.source = client_source,
	.setup = bw_setup,
	.kind = RPERF_GEN_BSG,
	.endpoints = bw_exchange,
	.rounds = bw_measure,
	.rounds_ignore_stop = true, /* after SIGINT the run closes cleanly */
};

int rperf_bw_client(struct rperf_bw_run *run, struct rperf_err *e)
{
	struct client c = { .run = run };
	int rc = rperf_session_place_client(run->cfg, &run->host,
					    &run->platform, &run->notes, e);

	if (rc)
		return rc;
	rc = rperf_session_client_run(run->cfg, run->stop, &bw_client_ops, &c,
				      e);
	rperf_bw_peer_free(&c.peer);
	rperf_bw_conn_close(&c.conn);
	return rc;
}

int rperf_bw_run_new(const struct rperf_cli_config *cfg,
		     volatile sig_atomic_t *stop, struct rperf_bw_run **out)
{
	/* one block: the run, then res[nsizes] and rev[nsizes] */
	size_t n = cfg->nsizes;
	struct rperf_bw_run *run =
		calloc(1, sizeof(*run) + 2 * n * sizeof(*run->res));

	if (!run)
		return ENOMEM;
	run->res = (struct rperf_bw_result *)(run + 1);
	run->rev = run->res + n;
	run->cfg = cfg;
	run->stop = stop;
	*out = run;
	return 0;
}

void rperf_bw_run_free(struct rperf_bw_run *run)
{
	free(run);
}
