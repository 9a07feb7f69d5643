/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rperf lat HOST: the LSG plugged into the shared client lifecycle
 * (session/session_life.h): setup = the wire QP and the loopback pair,
 * endpoints = the wire QP's exchange (or rdma_cm with -R), rounds = one
 * START/DONE/RESULT per method over every (repeat, size).
 */
#include "lat/lat.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "gen/nic_ts.h"
#include "host/cputime.h"
#include "lat/lat_conn.h"
#include "engine/limits.h"
#include "session/session_ctrl.h"
#include "session/session_life.h"
#include "engine/endpoint.h"

struct client {
	struct rperf_lat_run *run;
	struct rperf_lat_conn conn;
	uint64_t sent; /* wire SENDs of the round, warm-up included */
	struct rperf_ctrl_endpoint peer_buf; /* the server's buffer (WRITE) */
	struct rperf_nic_clock nic; /* with conn.stamps.nic */
	uint8_t wseq; /* pingpong write: the last sequence byte */
};

/* The one-sided operation on the server's buffer, SEND if none: postpoll
 * WRITEs (--verb send too), --verb write, read, atomic. */
static int buffer_verb(const struct rperf_cli_config *cfg)
{
	if (cfg->verb != RPERF_VERB_SEND)
		return cfg->verb;
	return cfg->method == RPERF_METHOD_POSTPOLL ||
			       cfg->method == RPERF_METHOD_ALL ?
		       RPERF_VERB_WRITE :
		       RPERF_VERB_SEND;
}

/* pingpong write (ib_write_lat): the server must know each size, so every
 * size is a round of its own (START carries it). */
static bool round_per_size(const struct rperf_cli_config *cfg, int method)
{
	return cfg->verb == RPERF_VERB_WRITE && method == RPERF_METHOD_PINGPONG;
}

/* The wire QP to the server's: directly, or through rdma_cm (-R). */
static int connect_wire(struct client *c, const struct rperf_endpoint *peer,
			char *err, size_t errlen)
{
	const struct rperf_cli_config *cfg = c->run->cfg;
	char src[64];

	if (!cfg->rdma_cm)
		return rperf_qp_connect(c->conn.wire, c->conn.dev,
					&c->conn.vcfg, peer, err, errlen);
	if (rperf_cm_source(c->conn.dev, cfg->source_ip, src, sizeof(src), err,
			    errlen))
		return EAFNOSUPPORT;
	return rperf_cm_connect(&c->conn.cm, c->conn.wire, &c->conn.vcfg, src,
				cfg->host, (uint16_t)cfg->tcp_port,
				RPERF_SESSION_TIMEOUT_MS / 2, err, errlen);
}

/* The server's ENDPOINT in, ours out, the wire QP connected. */
static int lat_exchange(void *arg, struct rperf_session_chan *ch,
			struct rperf_err *e)
{
	struct client *c = arg;
	const struct rperf_cli_config *cfg = c->run->cfg;
	char why[RPERF_CTRL_REASON_LEN], err[256];
	struct rperf_endpoint peer;
	struct rperf_ctrl_msg m;
	int rc;

	rc = rperf_session_expect(&ch->s, &ch->io, RPERF_CTRL_ENDPOINT, &m, why,
				  sizeof(why));
	if (rc)
		return rperf_err_set(
			e, rc == EPROTO ? RPERF_ERRC_USAGE : RPERF_ERRC_RUNTIME,
			rc, "%s refused the run: %s", cfg->host, why);
	rc = rperf_session_endpoint_from(&m, &peer, &c->peer_buf);
	rperf_ctrl_msg_release(&m);
	if (rc)
		return rperf_err_set(e, RPERF_ERRC_RUNTIME, rc,
				     "%s: malformed ENDPOINT", cfg->host);
	if (rperf_endpoint_check_remote(c->conn.dev, &peer, err, sizeof(err)))
		return rperf_err_set(e, RPERF_ERRC_USAGE, EINVAL, "%s: %s",
				     cfg->host, err);
	rc = rperf_peer_buf_check(&c->peer_buf, buffer_verb(cfg),
				  c->conn.max_size, cfg->host, err,
				  sizeof(err));
	if (rc)
		return rperf_err_set(e, RPERF_ERRC_RUNTIME, rc, "%s", err);
	/* --verb write: the server's pingpong replies land in recv_buf */
	rc = rperf_session_send_endpoint(
		&ch->s, &ch->io, c->conn.dev, c->conn.wire, c->conn.vcfg.mtu,
		cfg->verb == RPERF_VERB_WRITE ? &c->conn.recv_buf : NULL);
	if (!rc)
		rc = connect_wire(c, &peer, err, sizeof(err));
	return rc ? rperf_err_set(e, RPERF_ERRC_RUNTIME, rc,
				  "connecting the wire QP: %s",
				  rc == EPROTO ? "protocol error" :
						 strerror(rc)) :
		    0;
}

static void lsg_cfg(struct client *c, int fd, int method,
		    struct rperf_lsg_cfg *l)
{
	const struct rperf_cli_config *cfg = c->run->cfg;

	*l = (struct rperf_lsg_cfg){
		.clk = &c->run->clk,
		.method = method,
		.remote_addr = c->peer_buf.addr,
		.rkey = c->peer_buf.rkey,
		.remote_size = c->peer_buf.size,
		.verb = cfg->verb,
		.atomic_op = cfg->atomic_op,
		.iters = cfg->iters,
		.duration_ns = cfg->duration_ns,
		.warmup = cfg->warmup,
		.pair_order = cfg->pair_order,
		.yield = cfg->poll_mode == 1,
		.breakdown = cfg->breakdown,
		.keep_raw = cfg->raw_file || cfg->report_unsorted,
		.solicit_every =
			(uint32_t)(cfg->rx_depth / 4 ? cfg->rx_depth / 4 : 1),
		.gap_ns = cfg->latency_gap_ns,
		.interval_ns = cfg->interval_ns, /* --interval: a series */
		.stall_ns = rperf_rc_stall_ns((unsigned int)cfg->qp_timeout,
					      (unsigned int)cfg->retry_count),
		.stop = c->run->stop,
		.peer_fd = fd,
		.nic = c->conn.stamps.nic ? &c->nic : NULL,
		.schedule = cfg->schedule,
		.seed = 1,
	};
	l->wseq = &c->wseq;
	/* open schedules: the wire and loopback send queues are 16 deep
	 * (lat_conn.c), the server keeps rx_depth receives posted */
	l->max_inflight = rperf_lsg_max_inflight(
		16, (unsigned int)cfg->rx_depth, l->solicit_every);
	l->rate = cfg->rate; /* samples/s; 0: latency_gap_ns */
}

/* --cpu_util: the process's CPU and wall seconds so far. */
static void cpu_mark(double m[2])
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	m[0] = rperf_cpu_seconds_process();
	m[1] = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* CPU over wall time since @m, percent of one CPU. */
static double cpu_pct_since(const double m[2])
{
	double now[2];

	cpu_mark(now);
	return now[1] > m[1] && now[0] > m[0] ?
		       100.0 * (now[0] - m[0]) / (now[1] - m[1]) :
		       0;
}

/* START {"method"} (pingpong write: and "size"): a round begins. */
static int start_round(struct client *c, struct rperf_session_chan *ch,
		       int method, uint64_t size, struct rperf_err *e)
{
	json_t *start = json_pack("{s:s}", "method", rperf_method_name(method));
	int rc;

	if (start && round_per_size(c->run->cfg, method) &&
	    rperf_ctrl_set_u64(start, "size", size)) {
		json_decref(start);
		start = NULL;
	}
	rc = start ? rperf_session_start(ch, start, e) :
		     rperf_err_set(e, RPERF_ERRC_INTERNAL, ENOMEM,
				   "out of memory");
	json_decref(start);
	c->sent = 0;
	return rc;
}

/* DONE out, RESULT in: the server's receive count must match our SENDs. */
static int end_round(struct client *c, struct rperf_session_chan *ch,
		     int method, struct rperf_err *e)
{
	const json_t *res;
	struct rperf_ctrl_msg m;
	uint64_t got = 0;
	int rc = rperf_session_done(ch, c->sent, e);

	if (!rc)
		rc = rperf_session_result(ch, &m, e);
	if (rc)
		return rc;
	/* the server sees SENDs and (pingpong) the WRITEs it polls for; the
	 * rperf method's WRITEs and postpoll only its NIC sees */
	if (method != RPERF_METHOD_POSTPOLL &&
	    (c->run->cfg->verb == RPERF_VERB_SEND ||
	     method == RPERF_METHOD_PINGPONG) &&
	    !rperf_ctrl_result_decode(&m, &res) &&
	    !rperf_ctrl_get_u64(res, "received", 0, UINT64_MAX, &got) &&
	    got != c->sent)
		rperf_session_warn(
			&c->run->notes,
			"%s: the server received %llu operations, the client posted %llu",
			rperf_method_name(method), (unsigned long long)got,
			(unsigned long long)c->sent);
	rperf_ctrl_msg_release(&m);
	return 0;
}

/* Every (repeat, size) of method @m: one round, or one per size. */
static int measure_method(struct client *c, struct rperf_session_chan *ch,
			  size_t m, struct rperf_err *e)
{
	const struct rperf_cli_config *cfg = c->run->cfg;
	struct rperf_lat_run *run = c->run;
	struct rperf_lsg_qps q = { .wire = c->conn.wire,
				   .loop_tx = c->conn.loop_tx,
				   .loop_rx = c->conn.loop_rx,
				   .send_buf = &c->conn.send_buf,
				   .loop_rx_buf = &c->conn.recv_buf,
				   .wire_rx_buf = &c->conn.recv_buf,
				   .rx_depth = c->conn.rx_depth };
	int method = rperf_lat_method_at(cfg, m);
	bool each = round_per_size(cfg, method);
	size_t per = cfg->nsizes * cfg->repeat, i;
	struct rperf_lsg_cfg l;
	double cpu0[2];
	int rc = 0;

	lsg_cfg(c, ch->io.fd, method, &l);
	for (i = m * per; i < (m + 1) * per; i++) {
		l.size = cfg->sizes[i % cfg->nsizes];
		if ((i == m * per || each) &&
		    (rc = start_round(c, ch, method, l.size, e)))
			return rc;
		if (rperf_lsg_res_init(&run->res[i], method, cfg->breakdown))
			return rperf_err_set(e, RPERF_ERRC_INTERNAL, ENOMEM,
					     "out of memory");
		run->nres++;
		rperf_round_start(&run->round, i, per * rperf_lat_nmethods(cfg),
				  l.size);
		cpu_mark(cpu0);
		rc = rperf_lsg_run(&l, &q, &run->res[i]);
		run->cpu_pct[i] = cpu_pct_since(cpu0);
		c->sent += run->res[i].samples + run->res[i].warmup;
		if (rc)
			break;
		if ((each || i + 1 == (m + 1) * per) &&
		    (rc = end_round(c, ch, method, e)))
			return rc;
	}
	if (!rc)
		return 0;
	run->notes.partial = true;
	return rperf_err_set(e, RPERF_ERRC_RUNTIME, rc,
			     "%s run stopped at %llu B after %llu samples: %s",
			     rperf_method_name(method),
			     (unsigned long long)l.size,
			     (unsigned long long)run->res[i].samples,
			     run->res[i].error);
}

static int lat_measure(void *arg, struct rperf_session_chan *ch,
		       struct rperf_err *e)
{
	struct client *c = arg;
	const struct rperf_cli_config *cfg = c->run->cfg;
	int rc = 0;

	c->run->measured = true;
	rperf_session_say_preflight(&c->run->host, &c->run->say);
	rperf_retrans_begin(&c->run->retrans, NULL, c->conn.dev->name,
			    c->conn.dev->port, (unsigned int)cfg->qp_timeout);
	for (size_t k = 0; k < rperf_lat_nmethods(cfg) && !rc; k++)
		rc = measure_method(c, ch, k, e);
	rperf_retrans_end(&c->run->retrans, NULL);
	if (rc && !c->run->notes.error[0])
		snprintf(c->run->notes.error, sizeof(c->run->notes.error), "%s",
			 e->msg);
	return rc;
}

/* Which completion stamps the run uses, for the reports. */
static void note_stamps(struct client *c)
{
	struct rperf_lat_run *run = c->run;
	const struct rperf_dev_ts *ts = &c->conn.stamps.ts;
	char w[256];

	run->nic_ts = c->conn.stamps.nic;
	run->nic_clock_hz = run->nic_ts ? ts->hz : 0;
	snprintf(run->ts_note, sizeof(run->ts_note), "%s", c->conn.stamps.note);
	if (!run->nic_ts)
		return;
	c->nic = (struct rperf_nic_clock){ .hz = ts->hz, .mask = ts->mask };
	if (rperf_nic_clock_warning(ts->hz, ts->measured_hz, ts->check_ppm, w,
				    sizeof(w)))
		rperf_session_warn(&run->notes, "%s: %s", c->conn.dev->name, w);
}

static int lat_setup(void *arg, uint64_t max_size, char *err, size_t errlen)
{
	struct client *c = arg;
	int rc = rperf_lat_conn_client(&c->conn, c->run->cfg, max_size, err,
				       errlen);

	if (!rc) {
		note_stamps(c);
		rperf_session_buffers_noted(&c->run->host, c->conn.dev,
					    &c->run->notes);
	}
	return rc;
}

/* -D per (method, repeat, size): PARAMS' planned_ns. */
static size_t lat_runs_per_size(const struct rperf_cli_config *cfg)
{
	return rperf_lat_nmethods(cfg) * (cfg->repeat ? cfg->repeat : 1);
}

/* The control connection's source: our GID as an address (RoCE). */
static int client_source(void *arg, char *buf, size_t len)
{
	const struct client *c = arg;

	return rperf_limits_gid_source(c->conn.dev, buf, len);
}

static const struct rperf_session_client_ops lat_client_ops = {
	.command = "lat",
	.source = client_source,
	.setup = lat_setup,
	.kind = RPERF_GEN_LSG,
	.endpoints = lat_exchange,
	.rounds = lat_measure,
	.runs_per_size = lat_runs_per_size,
};

int rperf_lat_client(struct rperf_lat_run *run, struct rperf_err *e)
{
	struct client c = { .run = run };
	int rc;

	rc = rperf_session_client_run(run->cfg, run->stop, &lat_client_ops, &c,
				      e);
	rperf_lat_conn_close(&c.conn);
	return rc;
}

int rperf_lat_run_new(const struct rperf_cli_config *cfg,
		      volatile sig_atomic_t *stop, struct rperf_lat_run **out)
{
	struct rperf_lat_run *run = calloc(1, sizeof(*run));

	size_t n = cfg->nsizes * cfg->repeat * rperf_lat_nmethods(cfg);

	if (run) {
		run->res = calloc(n, sizeof(*run->res));
		run->cpu_pct = calloc(n, sizeof(*run->cpu_pct));
	}
	if (!run || !run->res || !run->cpu_pct) {
		if (run)
			free(run->res);
		free(run);
		return ENOMEM;
	}
	run->cfg = cfg;
	run->stop = stop;
	*out = run;
	return 0;
}

void rperf_lat_run_free(struct rperf_lat_run *run)
{
	if (!run)
		return;
	for (size_t i = 0; i < run->nres; i++)
		rperf_lsg_res_fini(&run->res[i]);
	free(run->res);
	free(run->cpu_pct);
	free(run);
}
