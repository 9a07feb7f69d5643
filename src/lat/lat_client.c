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
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gen/nic_ts.h"
#include "lat/lat_conn.h"
#include "session/session_ctrl.h"
#include "session/session_life.h"

struct client {
	struct rperf_lat_run *run;
	struct rperf_lat_conn conn;
	uint64_t sent; /* wire SENDs of the round, warm-up included */
	struct rperf_ctrl_endpoint peer_buf; /* the server's buffer (WRITE) */
	struct rperf_nic_clock nic; /* with conn.nic_ts */
};

/* The wire QP to the server's: directly, or through rdma_cm (-R). */
static int connect_wire(struct client *c, const struct rperf_endpoint *peer,
			char *err, size_t errlen)
{
	const struct rperf_cli_config *cfg = c->run->cfg;
	char src[INET_ADDRSTRLEN];

	if (!cfg->rdma_cm)
		return rperf_qp_connect(c->conn.wire, c->conn.dev,
					&c->conn.vcfg, peer, err, errlen);
	if (rperf_cm_gid_ipv4(c->conn.dev, src, sizeof(src))) {
		snprintf(
			err, errlen,
			"-R: %s has no IPv4 GID to bind rdma_cm to; accepted: a RoCE port with an IPv4 address (-x)",
			c->conn.dev->name);
		return EAFNOSUPPORT;
	}
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
	rc = rperf_session_send_endpoint(&ch->s, &ch->io, c->conn.dev,
					 c->conn.wire, c->conn.vcfg.mtu, NULL);
	if (!rc)
		rc = connect_wire(c, &peer, err, sizeof(err));
	return rc ? rperf_err_set(e, RPERF_ERRC_RUNTIME, rc,
				  "connecting the wire QP: %s",
				  rc == EPROTO ? "protocol error" :
						 strerror(rc)) :
		    0;
}

static void lsg_cfg(const struct client *c, int fd, int method,
		    struct rperf_lsg_cfg *l)
{
	const struct rperf_cli_config *cfg = c->run->cfg;

	*l = (struct rperf_lsg_cfg){
		.clk = &c->run->clk,
		.method = method,
		.remote_addr = c->peer_buf.addr,
		.rkey = c->peer_buf.rkey,
		.iters = cfg->iters,
		.duration_ns = cfg->duration_ns,
		.warmup = cfg->warmup,
		.pair_order = cfg->pair_order,
		.yield = cfg->poll_mode == 1,
		.breakdown = cfg->breakdown,
		.keep_raw = cfg->raw_file != NULL,
		.solicit_every =
			(uint32_t)(cfg->rx_depth / 4 ? cfg->rx_depth / 4 : 1),
		.gap_ns = cfg->latency_gap_ns,
		.stall_ns = rperf_rc_stall_ns((unsigned int)cfg->qp_timeout,
					      (unsigned int)cfg->retry_count),
		.stop = c->run->stop,
		.peer_fd = fd,
		.nic = c->conn.nic_ts ? &c->nic : NULL
	};
	if (cfg->rate > 0)
		l->gap_ns = (uint64_t)(1e9 / cfg->rate);
}

/* START {"method"}, then every (repeat, size) of method @m. */
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
	size_t per = cfg->nsizes * cfg->repeat, i;
	struct rperf_lsg_cfg l;
	json_t *start;
	int rc;

	lsg_cfg(c, ch->io.fd, method, &l);
	start = json_pack("{s:s}", "method", rperf_lat_method_name(method));
	rc = start ? rperf_session_start(ch, start, e) :
		     rperf_err_set(e, RPERF_ERRC_INTERNAL, ENOMEM,
				   "out of memory");
	json_decref(start);
	if (rc)
		return rc;
	c->sent = 0;
	for (i = m * per; i < (m + 1) * per && !rc; i++) {
		l.size = cfg->sizes[i % cfg->nsizes];
		if (rperf_lsg_res_init(&run->res[i], method, cfg->breakdown))
			return rperf_err_set(e, RPERF_ERRC_INTERNAL, ENOMEM,
					     "out of memory");
		run->nres++;
		rc = rperf_lsg_run(&l, &q, &run->res[i]);
		c->sent += run->res[i].samples + run->res[i].warmup;
	}
	if (!rc)
		return 0;
	run->notes.partial = true;
	return rperf_err_set(e, RPERF_ERRC_RUNTIME, rc,
			     "%s run stopped at %llu B after %llu samples: %s",
			     rperf_lat_method_name(method),
			     (unsigned long long)l.size,
			     (unsigned long long)run->res[i - 1].samples,
			     run->res[i - 1].error);
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
	if (method != RPERF_METHOD_POSTPOLL &&
	    !rperf_ctrl_result_decode(&m, &res) &&
	    !rperf_ctrl_get_u64(res, "received", 0, UINT64_MAX, &got) &&
	    got != c->sent)
		rperf_session_warn(
			&c->run->notes,
			"%s: the server received %llu SENDs, the client posted %llu",
			rperf_lat_method_name(method), (unsigned long long)got,
			(unsigned long long)c->sent);
	rperf_ctrl_msg_release(&m);
	return 0;
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
	for (size_t k = 0; k < rperf_lat_nmethods(cfg) && !rc; k++) {
		rc = measure_method(c, ch, k, e);
		if (!rc)
			rc = end_round(c, ch, rperf_lat_method_at(cfg, k), e);
	}
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
	const struct rperf_dev_ts *ts = &c->conn.ts;

	run->nic_ts = c->conn.nic_ts;
	run->nic_clock_hz = c->conn.nic_ts ? ts->hz : 0;
	snprintf(run->ts_note, sizeof(run->ts_note), "%s", c->conn.ts_note);
	if (!c->conn.nic_ts)
		return;
	c->nic = (struct rperf_nic_clock){ .hz = ts->hz, .mask = ts->mask };
	if (ts->measured_hz > 0 && fabs(ts->check_ppm) > 1000)
		rperf_session_warn(
			&run->notes,
			"%s: the NIC clock runs at %.0f Hz, hca_core_clock says %.0f Hz (%+.0f ppm): NIC-stamped RTTs scale by that much",
			c->conn.dev->name, ts->measured_hz, ts->hz,
			ts->check_ppm);
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

static const struct rperf_session_client_ops lat_client_ops = {
	.command = "lat",
	.setup = lat_setup,
	.params = rperf_lat_params_encode,
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

	if (run)
		run->res = calloc(cfg->nsizes * cfg->repeat *
					  rperf_lat_nmethods(cfg),
				  sizeof(*run->res));
	if (!run || !run->res) {
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
	free(run);
}
