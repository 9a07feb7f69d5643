/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * LSG source: the wire QP to the destination and the loopback pair on the
 * same device, rperf_lsg_run() with the RPerf method (Equation 1). Warm-up
 * by time: a first run of warmup_ns whose samples are counted and dropped,
 * then the measured run of duration_ns. Source completion "event" has no
 * meaning for a closed loop that times every completion: it makes the loop
 * yield the CPU between polls (lat's --poll yield). Completion stamps as
 * rperf lat's --timestamps (the spec's "timestamps", shared code in
 * gen/nic_ts.c): auto takes the NIC's where the device has them (the send
 * CQs of wire and loop_tx created with them), else the CPU's with a note
 * in the result ("timestamps_note", lat's words); nic fails the setup on
 * a device without them. With the spec's iters the measured run ends
 * after that many samples, or at the window's end when that comes first
 * (then the result's error says how many were taken). Its wire QP is
 * refused when the sink answered from this very device and port (lat's
 * check: a loopback inside the device measures no wire). The spec's
 * method and verb as rperf lat's --method and --verb: rperf with send or
 * write (a WRITE over the wire into the sink's buffer, one on the
 * loopback pair into rx_buf), postpoll with send (WRITEs), write, read or
 * atomic on the sink's buffer, polled to completion; messages up to the
 * spec's inline size are posted inline (lat's -I); with the spec's
 * rdma_cm its wire QP is connected through rdma_cm (lat's -R), as a
 * BSG's QPs are. With the spec's breakdown each ibv_post_send is timed
 * too (lat's --breakdown): the result's post_wire and post_loop.
 */
#include "engine/engine.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/endpoint.h"
#include "gen/gen.h"
#include "gen/lsg.h"
#include "gen/nic_ts.h"
#include "gen/rx.h"
#include "util/err.h"

struct lsg_src {
	struct rperf_qp *wire, *loop_tx, *loop_rx;
	struct rperf_buf send_buf, rx_buf;
	struct rperf_lsg_res res;
	bool res_ok;
	uint64_t warm_samples;
	unsigned int rx_depth;
	struct rperf_nic_stamps stamps; /* NIC stamps on wire and loop_tx? */
	struct rperf_ctrl_endpoint peer_buf; /* the sink's buffer (one-sided
						verbs, postpoll) */
	/* the wire QP as a one-QP end: connected as every end of the engine
	 * (rperf_engine_conn_connect: directly, or through rdma_cm) */
	struct rperf_gen_conn wire_conn;
	uint64_t series_at_ns; /* the measured run's start after GO */
	struct rperf_nic_clock nic;
	uint8_t wseq; /* pingpong write: the last sequence byte sent */
};

/* Pingpong with RDMA WRITE in some round: the sink WRITEs each reply into
 * rx_buf through the wire QP, whose last byte the run polls (gen/echo.h). */
static bool wpp(const struct rperf_gen_spec *s)
{
	return rperf_spec_any_method(s, RPERF_METHOD_PINGPONG) &&
	       s->verb == RPERF_VERB_WRITE;
}

static int qp(struct rperf_gen_inst *g, uint32_t send, uint32_t recv,
	      struct rperf_qp **out, const char *what, char *err, size_t errlen)
{
	struct lsg_src *l = g->priv;
	/* the SENDs' CQs (wire, loop_tx) carry the NIC's stamps; the
	 * loopback WRITEs (verb write) land in loop_rx's buffer */
	struct rperf_qp_cfg q = {
		.send_depth = send,
		.recv_depth = recv,
		.send_ts = l->stamps.nic && send > 1,
		.inline_size = send > 1 ? g->spec.inline_size : 0,
		.access = out == &l->loop_rx ||
					  (out == &l->wire && wpp(&g->spec)) ?
				  rperf_verb_access(g->spec.verb) :
				  0
	};
	int rc = rperf_qp_create(g->dev, &q, out);

	if (rc)
		snprintf(err, errlen, "%s: creating the %s QP: %s",
			 g->dev->name, what, strerror(rc));
	return rc;
}

/* The spec's timestamps, then the wire QP: with auto, without NIC stamps
 * (and a note) if a CQ with them cannot be made. */
static int make_wire(struct rperf_gen_inst *g, struct lsg_src *l, char *err,
		     size_t errlen)
{
	int want = g->spec.timestamps;
	int rc = rperf_nic_stamps_choose(g->dev, want, "timestamps", &l->stamps,
					 err, errlen);

	if (rc)
		return rc;
	rc = qp(g, RPERF_ENGINE_LSG_SEND_DEPTH, 1, &l->wire, "wire", err,
		errlen);
	if (rperf_nic_stamps_drop(&l->stamps, want, g->dev->name, rc)) {
		err[0] = '\0';
		rc = qp(g, RPERF_ENGINE_LSG_SEND_DEPTH, 1, &l->wire, "wire",
			err, errlen);
	}
	if (l->stamps.nic)
		l->nic = (struct rperf_nic_clock){ .hz = l->stamps.ts.hz,
						   .mask = l->stamps.ts.mask };
	return rc;
}

static int lsg_setup(struct rperf_gen_inst *g, char *err, size_t errlen)
{
	struct lsg_src *l = calloc(1, sizeof(*l));
	int rc;

	if (!l)
		return ENOMEM;
	g->priv = l;
	rc = rperf_lsg_res_init(&l->res, RPERF_METHOD_RPERF, g->spec.breakdown);
	l->res_ok = rc == 0;
	if (!rc)
		rc = rperf_engine_rx_depth_on(&g->spec, g->dev, &l->rx_depth,
					      err, errlen);
	if (!rc)
		rc = rperf_verb_dev_check(g->dev, g->spec.verb, err, errlen);
	if (!rc)
		rc = make_wire(g, l, err, errlen);
	if (!rc)
		rc = qp(g, RPERF_ENGINE_LSG_SEND_DEPTH, 1, &l->loop_tx,
			"loopback sender", err, errlen);
	if (!rc)
		rc = qp(g, 1, l->rx_depth, &l->loop_rx, "loopback receiver",
			err, errlen);
	/* READs and atomics land in send_buf */
	if (!rc)
		rc = rperf_buf_alloc(g->dev, g->spec.size,
				     IBV_ACCESS_LOCAL_WRITE, &l->send_buf);
	if (!rc)
		rc = rperf_buf_alloc(g->dev, g->spec.size,
				     IBV_ACCESS_LOCAL_WRITE |
					     rperf_verb_access(g->spec.verb),
				     &l->rx_buf);
	if (rc && !err[0])
		snprintf(err, errlen, "%s: %s", g->dev->name, strerror(rc));
	if (!rc && (rc = rperf_post_recvs(l->loop_rx, &l->rx_buf, g->spec.size,
					  l->rx_depth)))
		snprintf(err, errlen, "posting loopback receives: %s",
			 strerror(rc));
	/* pingpong (in some round): the reply's receive (gen/lsg.c reposts
	 * one a sample; a round of another method leaves it posted) */
	if (!rc && rperf_spec_any_method(&g->spec, RPERF_METHOD_PINGPONG) &&
	    !wpp(&g->spec) &&
	    (rc = rperf_post_recvs(l->wire, &l->rx_buf, g->spec.size, 1)))
		snprintf(err, errlen, "posting the reply's receive: %s",
			 strerror(rc));
	if (!rc)
		rc = rperf_qp_connect_pair(l->loop_tx, l->loop_rx, g->dev,
					   &g->vcfg, err, errlen);
	return rc;
}

static int lsg_endpoints(struct rperf_gen_inst *g,
			 struct rperf_proto_inst_eps *out)
{
	struct lsg_src *l = g->priv;

	out->qps = calloc(1, sizeof(*out->qps));
	if (!out->qps)
		return ENOMEM;
	/* pingpong write: the sink's replies land in rx_buf */
	rperf_engine_ep(g, l->wire, wpp(&g->spec) ? &l->rx_buf : NULL,
			&out->qps[0]);
	out->nqps = 1;
	return 0;
}

/* The operation on the sink's buffer, SEND if none: postpoll WRITEs (verb
 * send too, in any round), verb write, read, atomic (as rperf lat's
 * client). */
static int buf_verb(const struct rperf_gen_spec *s)
{
	if (s->verb == RPERF_VERB_SEND &&
	    rperf_spec_any_method(s, RPERF_METHOD_POSTPOLL))
		return RPERF_VERB_WRITE;
	return s->verb;
}

static int lsg_connect(struct rperf_gen_inst *g,
		       const struct rperf_proto_inst_eps *peer, char *err,
		       size_t errlen)
{
	struct lsg_src *l = g->priv;

	if (peer->nqps != 1)
		return rperf_fail(err, errlen, EINVAL,
				  "the LSG sink has %zu QPs, not 1",
				  peer->nqps);
	l->peer_buf = peer->qps[0];
	if (buf_verb(&g->spec) != RPERF_VERB_SEND &&
	    rperf_peer_buf_check(&l->peer_buf, buf_verb(&g->spec), g->spec.size,
				 "the LSG sink", err, errlen))
		return EPROTO;
	l->wire_conn = (struct rperf_gen_conn){
		.vcfg = g->vcfg, .dev = g->dev, .qp = &l->wire, .nqp = 1
	};
	return rperf_engine_conn_connect(g, &l->wire_conn, peer, err, errlen);
}

/* A measured interval's row, live (its start from GO, as the REPORT's). */
static void lsg_row(void *arg, const struct rperf_lsg_interval *iv)
{
	struct rperf_gen_inst *g = arg;
	const struct lsg_src *l = g->priv;

	rperf_engine_live_push(
		g, &(struct rperf_live_row){ .kind = g->spec.kind,
					     .start_ns = iv->start_ns +
							 l->series_at_ns,
					     .samples = iv->samples,
					     .p50_ns = iv->p50_ns,
					     .p99_ns = iv->p99_ns,
					     .max_ns = iv->max_ns });
}

static void lsg_cfg(struct rperf_gen_inst *g, volatile sig_atomic_t *stop,
		    struct rperf_lsg_cfg *c)
{
	struct lsg_src *l = g->priv;
	/* the sink's receives (the same spec): solicited every rx/4-th SEND */
	unsigned int rx = rperf_engine_rx_depth(&g->spec);

	memset(c, 0, sizeof(*c));
	c->clk = g->clk;
	c->method = g->spec.test.method; /* rperf or postpoll */
	c->verb = g->spec.verb;
	c->atomic_op = g->spec.test.atomic_op;
	c->remote_addr = l->peer_buf.addr;
	c->rkey = l->peer_buf.rkey;
	c->remote_size = l->peer_buf.size;
	c->size = g->spec.size;
	c->pair_order = g->spec.pair_order;
	c->wseq = &l->wseq; /* pingpong write, across warm-up and run */
	c->breakdown = g->spec.breakdown; /* each post timed too */
	c->yield = g->spec.completion == RPERF_COMPLETION_EVENT;
	c->solicit_every = rx / 4 ? rx / 4 : 1; /* as lat's client */
	c->stall_ns = g->stall_ns;
	/* paced: its SENDs offer <= rate_bps, in samples/s as lat's --rate */
	c->rate = g->spec.rate_sps > 0 ?
			  g->spec.rate_sps :
			  rperf_lsg_rate_of_bps(g->spec.rate_bps, g->spec.size);
	c->gap_ns = g->spec.latency_gap_ns; /* closed loop, rate 0 (spec) */
	c->stop = stop;
	c->peer_fd = -1;
	c->nic = l->stamps.nic ? &l->nic : NULL;
	/* open schedules: samples in flight within the send queues (one
	 * SEND each per sample) and far below the sink's posted receives
	 * (rperf_engine_rx_depth, refilled every solicit_every) */
	c->schedule = g->spec.schedule;
	c->seed = g->spec.id + 1;
	c->max_inflight = rperf_lsg_max_inflight(RPERF_ENGINE_LSG_SEND_DEPTH,
						 rx, c->solicit_every);
}

/* The warm-up: samples taken and dropped; 0 or the run's error. */
static int warm_up(struct rperf_gen_inst *g, struct rperf_lsg_cfg *c,
		   const struct rperf_lsg_qps *q)
{
	struct lsg_src *l = g->priv;
	struct rperf_lsg_res w;
	int rc;

	if (!g->spec.warmup_ns && !g->spec.warmup_samples)
		return 0;
	rc = rperf_lsg_res_init(&w, RPERF_METHOD_RPERF, c->breakdown);
	if (rc)
		return rperf_fail(g->res.error, sizeof(g->res.error), rc,
				  "warm-up: %s", strerror(rc));
	/* warmup_samples: that many, within the whole window at most (the
	 * report's "warmup" says how many were taken) */
	c->duration_ns = g->spec.warmup_samples ?
				 g->spec.warmup_ns + g->spec.duration_ns :
				 g->spec.warmup_ns;
	c->iters = g->spec.warmup_samples;
	rc = rperf_lsg_run(c, q, &w);
	l->warm_samples = w.samples;
	if (rc)
		snprintf(g->res.error, sizeof(g->res.error), "warm-up: %.200s",
			 w.error[0] ? w.error : strerror(rc));
	rperf_lsg_res_fini(&w);
	return rc;
}

static int lsg_run(struct rperf_gen_inst *g, volatile sig_atomic_t *stop)
{
	struct lsg_src *l = g->priv;
	struct rperf_lsg_qps q = { .wire = l->wire,
				   .loop_tx = l->loop_tx,
				   .loop_rx = l->loop_rx,
				   .send_buf = &l->send_buf,
				   .loop_rx_buf = &l->rx_buf,
				   .wire_rx_buf = &l->rx_buf,
				   .rx_depth = l->rx_depth };
	struct rperf_lsg_cfg c;
	int rc;

	if (!l->res_ok)
		return ENOMEM;
	lsg_cfg(g, stop, &c);
	rc = warm_up(g, &c, &q);
	if (rc)
		return rc;
	c.duration_ns = g->spec.duration_ns;
	c.iters = g->spec.test.iters; /* the window caps it */
	c.keep_raw = g->spec.raw; /* the measured run's, not the warm-up's */
	c.interval_ns = g->spec.interval_ns;
	c.on_row = lsg_row;
	c.row_arg = g;
	/* the series' origin: GO (start_at_ns is GO's t0 + start_ns) */
	l->series_at_ns = rperf_mono_ns() - (g->start_at_ns - g->spec.start_ns);
	rc = rperf_lsg_run(&c, &q, &l->res);
	if (rc)
		snprintf(g->res.error, sizeof(g->res.error), "%s",
			 rc == EINTR	 ? "stopped before the end" :
			 l->res.error[0] ? l->res.error :
					   strerror(rc));
	else if (c.iters && l->res.samples < c.iters)
		snprintf(
			g->res.error, sizeof(g->res.error),
			"the window (duration) ended after %llu of iters = %llu samples",
			(unsigned long long)l->res.samples,
			(unsigned long long)c.iters);
	return rc;
}

static void lsg_abort(struct rperf_gen_inst *g)
{
	struct lsg_src *l = g->priv;

	rperf_engine_qp_flush(l->wire);
	rperf_engine_qp_flush(l->loop_tx);
	rperf_engine_qp_flush(l->loop_rx);
}

static int lsg_result(struct rperf_gen_inst *g)
{
	struct lsg_src *l = g->priv;

	if (!l || !l->res_ok)
		return ENOMEM;
	g->res.samples = l->res.samples;
	g->res.warmup = l->warm_samples;
	g->res.nonpositive = l->res.nonpositive;
	g->res.precompleted = l->res.precompleted;
	g->res.loop_precompleted = l->res.loop_precompleted;
	g->res.seconds = l->res.seconds;
	g->res.nic_ts = l->stamps.nic;
	if (l->stamps.nic) /* the clock and its check, as rperf lat's */
		g->res.nic_clock = (struct rperf_proto_nic_clock){
			.hz = l->stamps.ts.hz,
			.measured_hz = l->stamps.ts.measured_hz,
			.ppm = l->stamps.ts.check_ppm,
		};
	snprintf(g->res.ts_note, sizeof(g->res.ts_note), "%s", l->stamps.note);
	rperf_lsg_sched_figs(
		&(struct rperf_lsg_cfg){ .schedule = g->spec.schedule },
		&l->res, &g->res.sched);
	if (!g->res.series.n && l->res.series.n) { /* move it (once) */
		g->res.series = l->res.series;
		memset(&l->res.series, 0, sizeof(l->res.series));
		for (size_t i = 0; i < g->res.series.n; i++)
			g->res.series.iv[i].start_ns += l->series_at_ns;
	}
	if (g->spec.raw && !g->res.has_raw) { /* move the samples (once) */
		g->res.raw = l->res.raw;
		g->res.nraw = l->res.nraw;
		g->res.has_raw = true;
		l->res.raw = NULL;
		l->res.nraw = l->res.raw_cap = 0;
	}
	if (!g->res.rtt) { /* move the histograms (once) */
		g->res.rtt = l->res.rtt;
		g->res.wire = l->res.wire;
		g->res.loop = l->res.loop;
		g->res.post_wire = l->res.post_wire; /* breakdown: */
		g->res.post_loop = l->res.post_loop; /* else NULL */
		l->res.rtt = l->res.wire = l->res.loop = NULL;
		l->res.post_wire = l->res.post_loop = NULL;
	}
	return 0;
}

static void lsg_round(struct rperf_gen_inst *g)
{
	struct lsg_src *l = g->priv;

	if (!l)
		return;
	if (l->res_ok)
		rperf_lsg_res_fini(&l->res);
	l->res_ok = !rperf_lsg_res_init(&l->res, RPERF_METHOD_RPERF,
					g->spec.breakdown);
	l->warm_samples = 0;
	l->series_at_ns = 0;
	/* wseq goes on: the sink's byte follows it across rounds */
}

static void lsg_teardown(struct rperf_gen_inst *g)
{
	struct lsg_src *l = g->priv;

	if (!l)
		return;
	rperf_gen_conn_cm_close(&l->wire_conn);
	rperf_qp_destroy(l->wire);
	rperf_qp_destroy(l->loop_tx);
	rperf_qp_destroy(l->loop_rx);
	rperf_buf_free(&l->send_buf);
	rperf_buf_free(&l->rx_buf);
	if (l->res_ok)
		rperf_lsg_res_fini(&l->res);
	free(l);
	g->priv = NULL;
}

const struct rperf_gen_ops rperf_gen_lsg_source = {
	.name = "lsg-source",
	.setup = lsg_setup,
	.endpoints = lsg_endpoints,
	.connect = lsg_connect,
	.run = lsg_run,
	.abort = lsg_abort,
	.round = lsg_round,
	.result = lsg_result,
	.teardown = lsg_teardown,
};
