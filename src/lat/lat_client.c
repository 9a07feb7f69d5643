/* SPDX-License-Identifier: BSD-2-Clause */
/* rperf lat HOST: set up QPs, ship the parameters, measure, report. */
#include "lat/lat.h"

#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "gen/nic_ts.h"
#include "lat/lat_conn.h"
#include "session/session_ctrl.h"

struct client {
	struct rperf_lat_run *run;
	struct rperf_lat_conn conn;
	struct rperf_ctrl_session s;
	struct rperf_ctrl_io io;
	uint64_t max_size;
	uint64_t sent; /* wire SENDs of the round, warm-up included */
	struct rperf_ctrl_endpoint peer_buf; /* the server's buffer (WRITE) */
	struct rperf_nic_clock nic; /* with conn.nic_ts */
};

static int say(struct client *c, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int say(struct client *c, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->run->error, sizeof(c->run->error), fmt, ap);
	va_end(ap);
	fprintf(stderr, "rperf: %s\n", c->run->error);
	return code;
}

static int hello(struct client *c)
{
	char why[RPERF_CTRL_REASON_LEN];
	int rc = rperf_session_hello(&c->s, &c->io, "lat", why, sizeof(why));

	if (rc == EPROTO && c->s.state == RPERF_CTRL_CLOSED)
		return say(c, RPERF_EXIT_USAGE, "%s refused the run: %s",
			   c->run->cfg->host, why);
	return rc ? say(c, RPERF_EXIT_RUNTIME, "%s: %s", c->run->cfg->host,
			why) :
		    0;
}

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

/* PARAMS out, the server's ENDPOINT in, ours out, READY in. */
static int exchange(struct client *c)
{
	const struct rperf_cli_config *cfg = c->run->cfg;
	char why[RPERF_CTRL_REASON_LEN], err[256];
	struct rperf_endpoint peer;
	struct rperf_ctrl_msg m;
	json_t *p = rperf_lat_params_encode(cfg);
	int rc;

	if (!p)
		return say(c, RPERF_EXIT_INTERNAL, "out of memory");
	rc = rperf_ctrl_session_send(&c->s, &c->io, RPERF_CTRL_PARAMS, p);
	json_decref(p);
	if (rc)
		return say(c, RPERF_EXIT_RUNTIME, "%s: sending PARAMS: %s",
			   cfg->host, strerror(rc));
	rc = rperf_session_expect(&c->s, &c->io, RPERF_CTRL_ENDPOINT, &m, why,
				  sizeof(why));
	if (rc)
		return say(c,
			   rc == EPROTO ? RPERF_EXIT_USAGE : RPERF_EXIT_RUNTIME,
			   "%s refused the run: %s", cfg->host, why);
	rc = rperf_session_endpoint_from(&m, &peer, &c->peer_buf);
	rperf_ctrl_msg_release(&m);
	if (rc)
		return say(c, RPERF_EXIT_RUNTIME, "%s: malformed ENDPOINT",
			   cfg->host);
	rc = rperf_session_send_endpoint(&c->s, &c->io, c->conn.dev,
					 c->conn.wire, c->conn.vcfg.mtu, NULL);
	if (!rc)
		rc = connect_wire(c, &peer, err, sizeof(err));
	if (rc)
		return say(c, RPERF_EXIT_RUNTIME, "connecting the wire QP: %s",
			   rc == EPROTO ? "protocol error" : strerror(rc));
	rc = rperf_session_expect(&c->s, &c->io, RPERF_CTRL_READY, &m, why,
				  sizeof(why));
	if (rc)
		return say(c, RPERF_EXIT_RUNTIME, "%s: %s", cfg->host, why);
	rperf_ctrl_msg_release(&m);
	return 0;
}

static void lsg_cfg(const struct client *c, int method, struct rperf_lsg_cfg *l)
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
		.peer_fd = c->io.fd,
		.nic = c->conn.nic_ts ? &c->nic : NULL
	};
	if (cfg->rate > 0)
		l->gap_ns = (uint64_t)(1e9 / cfg->rate);
}

/* START {"method"}, then every (repeat, size) of method @m. */
static int measure_method(struct client *c, size_t m)
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

	lsg_cfg(c, method, &l);
	start = json_pack("{s:s}", "method", rperf_lat_method_name(method));
	rc = start ? rperf_ctrl_session_send(&c->s, &c->io, RPERF_CTRL_START,
					     start) :
		     ENOMEM;
	json_decref(start);
	if (rc)
		return say(c, RPERF_EXIT_RUNTIME, "%s: sending START: %s",
			   cfg->host, strerror(rc));
	c->sent = 0;
	for (i = m * per; i < (m + 1) * per && !rc; i++) {
		l.size = cfg->sizes[i % cfg->nsizes];
		if (rperf_lsg_res_init(&run->res[i], method, cfg->breakdown))
			return say(c, RPERF_EXIT_INTERNAL, "out of memory");
		run->nres++;
		rc = rperf_lsg_run(&l, &q, &run->res[i]);
		c->sent += run->res[i].samples + run->res[i].warmup;
	}
	if (!rc)
		return 0;
	run->partial = true;
	return say(c, RPERF_EXIT_RUNTIME,
		   "%s run stopped at %llu B after %llu samples: %s",
		   rperf_lat_method_name(method), (unsigned long long)l.size,
		   (unsigned long long)run->res[i - 1].samples,
		   run->res[i - 1].error);
}

/* DONE out, RESULT in: the server's receive count must match our SENDs. */
static int end_round(struct client *c, int method)
{
	char why[RPERF_CTRL_REASON_LEN];
	const json_t *res;
	struct rperf_ctrl_msg m;
	json_t *done = json_object();
	uint64_t got = 0;
	int rc;

	rc = done ? rperf_ctrl_set_u64(done, "samples", c->sent) : ENOMEM;
	if (!rc)
		rc = rperf_ctrl_session_send(&c->s, &c->io, RPERF_CTRL_DONE,
					     done);
	json_decref(done);
	if (!rc)
		rc = rperf_session_expect(&c->s, &c->io, RPERF_CTRL_RESULT, &m,
					  why, sizeof(why));
	if (rc)
		return say(c, RPERF_EXIT_RUNTIME, "%s: closing the run: %s",
			   c->run->cfg->host,
			   rc == EPROTO ? why : strerror(rc));
	if (method != RPERF_METHOD_POSTPOLL &&
	    !rperf_ctrl_result_decode(&m, &res) &&
	    !rperf_ctrl_get_u64(res, "received", 0, UINT64_MAX, &got) &&
	    got != c->sent)
		rperf_lat_warn(
			c->run,
			"%s: the server received %llu SENDs, the client posted %llu",
			rperf_lat_method_name(method), (unsigned long long)got,
			(unsigned long long)c->sent);
	rperf_ctrl_msg_release(&m);
	return 0;
}

static int measure(struct client *c)
{
	const struct rperf_cli_config *cfg = c->run->cfg;
	int rc = 0;

	for (size_t k = 0; k < rperf_lat_nmethods(cfg) && !rc; k++) {
		rc = measure_method(c, k);
		if (!rc)
			rc = end_round(c, rperf_lat_method_at(cfg, k));
	}
	if (rc)
		return rc;
	rperf_session_bye(&c->s, &c->io);
	return 0;
}

/* Which completion stamps the run uses, for the reports. */
static void note_stamps(struct client *c)
{
	struct rperf_lat_run *run = c->run;
	const struct rperf_dev_ts *ts = &c->conn.ts;

	run->nic_ts = c->conn.nic_ts;
	run->nic_clock_hz = c->conn.nic_ts ? ts->hz : 0;
	snprintf(run->ts_note, sizeof(run->ts_note), "%s", c->conn.ts_note);
	if (run->ts_note[0]) {
		printf("rperf: note: %s: CPU completion stamps (--timestamps auto)\n",
		       run->ts_note);
		fflush(stdout);
	}
	if (!c->conn.nic_ts)
		return;
	c->nic = (struct rperf_nic_clock){ .hz = ts->hz, .mask = ts->mask };
	if (ts->measured_hz > 0 && fabs(ts->check_ppm) > 1000)
		rperf_lat_warn(
			run,
			"%s: the NIC clock runs at %.0f Hz, hca_core_clock says %.0f Hz (%+.0f ppm): NIC-stamped RTTs scale by that much",
			c->conn.dev->name, ts->measured_hz, ts->hz,
			ts->check_ppm);
}

static int setup(struct client *c)
{
	const struct rperf_cli_config *cfg = c->run->cfg;
	char err[256];
	int rc;

	for (size_t i = 0; i < cfg->nsizes; i++)
		c->max_size = cfg->sizes[i] > c->max_size ? cfg->sizes[i] :
							    c->max_size;
	rc = rperf_lat_conn_client(&c->conn, cfg, c->max_size, err,
				   sizeof(err));
	if (rc)
		return say(c,
			   rc == ENODEV || rc == ERANGE || rc == ENOTSUP ?
				   RPERF_EXIT_USAGE :
				   RPERF_EXIT_RUNTIME,
			   "%s", err);
	note_stamps(c);
	if (rperf_session_note_buffers(&c->run->host, c->conn.dev))
		rperf_lat_warn(c->run, "%s", c->conn.dev->buf_note);
	rc = rperf_session_connect(cfg, c->run->stop, "lat", &c->io.fd, err,
				   sizeof(err));
	if (rc)
		return say(c, RPERF_EXIT_RUNTIME, "%s", err);
	return 0;
}

static int client_run(struct client *c)
{
	int rc = setup(c);

	if (!rc)
		rc = hello(c);
	if (!rc)
		rc = exchange(c);
	if (rc)
		return rc;
	rperf_session_say_preflight(&c->run->host);
	rc = measure(c);
	if (rc)
		rperf_session_send_reason(&c->s, &c->io, RPERF_CTRL_ERROR,
					  c->run->error);
	rperf_lat_check_results(c->run);
	if (rperf_lat_report(c->run))
		return RPERF_EXIT_RUNTIME;
	return rc ? rc : rperf_lat_thresholds(c->run);
}

int rperf_lat_client(const struct rperf_cli_config *cfg,
		     volatile sig_atomic_t *stop)
{
	struct rperf_lat_run *run = calloc(1, sizeof(*run));
	struct client c = { .run = run };
	int rc;

	if (run)
		run->res = calloc(cfg->nsizes * cfg->repeat *
					  rperf_lat_nmethods(cfg),
				  sizeof(*run->res));
	if (!run || !run->res) {
		free(run);
		return RPERF_EXIT_INTERNAL;
	}
	run->cfg = cfg;
	run->stop = stop;
	c.io = (struct rperf_ctrl_io){ .fd = -1,
				       .timeout_ms = RPERF_SESSION_TIMEOUT_MS,
				       .stop = stop };
	rperf_ctrl_session_init(&c.s, RPERF_CTRL_CLIENT);
	rc = rperf_lat_prepare(run);
	if (!rc)
		rc = client_run(&c);
	if (c.io.fd >= 0)
		close(c.io.fd);
	rperf_lat_conn_close(&c.conn);
	for (size_t i = 0; i < run->nres; i++)
		rperf_lsg_res_fini(&run->res[i]);
	free(run->res);
	free(run);
	return rc;
}
