/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * BSG source: spec.qps QPs, rperf_bsg_run() open loop with tx_depth,
 * cq_mod, post_list, inline (messages up to spec.inline_size), the rate limit (rate_bps / (8 * size) messages per
 * second), the on/off phases (on_ns, off_ns: counted from its first post)
 * and completion events when completion = event. It runs warm-up
 * and measurement in one call (warmup_ns + duration_ns, plus the tail of
 * engine.h): the load stays steady while the LSGs count.
 */
#include "engine/engine.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/gen.h"
#include "gen/bsg.h"
#include "gen/rx.h"
#include "engine/endpoint.h"
#include "engine/gen_shape.h"

struct bsg_src {
	/* conn.dev is the engine's: not owned; conn.channel: every QP's
	 * completion events (event mode) */
	struct rperf_gen_conn conn;
	struct rperf_bsg_qp *bq; /* [conn.nqp], filled at connect */
	struct rperf_bsg_res res;
	struct rperf_incast_log bursts; /* incast senders */
	bool ran;
	/* time series: the interval callback's last cumulative figures */
	struct rperf_bsg_series series;
	uint64_t origin_ns; /* the run's start after GO */
	struct rperf_bsg_tick last;
	struct rperf_gen_inst *g; /* its instance: live rows */
};

/* One interval's completions (the callback's figures are cumulative). */
static void bsg_tick(void *arg, const struct rperf_bsg_tick *t)
{
	struct bsg_src *b = arg;
	struct rperf_bsg_interval v = {
		.start_ns = b->origin_ns + (uint64_t)(t->t_start * 1e9),
		.dur_ns = t->t_end > t->t_start ?
				  (uint64_t)((t->t_end - t->t_start) * 1e9) :
				  0,
		.messages = t->messages - b->last.messages,
		.bytes = t->bytes - b->last.bytes,
	};

	/* past RPERF_SERIES_MAX or out of memory: the totals still count */
	(void)rperf_bsg_series_push(&b->series, &v);
	b->last = *t;
	rperf_engine_live_push(
		b->g, &(struct rperf_live_row){ .kind = b->g->spec.kind,
						.start_ns = v.start_ns,
						.dur_ns = v.dur_ns,
						.messages = v.messages,
						.bytes = v.bytes });
}

static int bsg_setup(struct rperf_gen_inst *g, char *err, size_t errlen)
{
	struct rperf_qp_cfg q = {
		.send_depth = g->spec.tx_depth,
		.recv_depth = 1,
		.inline_size = g->spec.inline_size,
		.send_events = g->spec.completion == RPERF_COMPLETION_EVENT,
	};
	struct bsg_src *b = calloc(1, sizeof(*b));
	int rc;

	if (!b)
		return ENOMEM;
	g->priv = b;
	rc = rperf_gen_depth_check(g->dev, "tx_depth", g->spec.tx_depth, err,
				   errlen);
	if (!rc)
		rc = rperf_verb_dev_check(g->dev, g->spec.verb, err, errlen);
	if (rc)
		return rc;
	b->bq = calloc(g->spec.qps, sizeof(*b->bq));
	if (!b->bq)
		return ENOMEM;
	b->conn.dev = g->dev;
	b->conn.vcfg = g->vcfg;
	b->conn.max_size = g->spec.size;
	/* READ and atomics land in the buffer (LOCAL_WRITE) */
	return rperf_gen_conn_open(&b->conn, &q, g->spec.qps,
				   rperf_verb_responder_only(g->spec.verb) ?
					   IBV_ACCESS_LOCAL_WRITE :
					   0,
				   err, errlen);
}

static int bsg_endpoints(struct rperf_gen_inst *g,
			 struct rperf_proto_inst_eps *out)
{
	struct bsg_src *b = g->priv;

	return rperf_engine_conn_eps(g, &b->conn, false, out);
}

/* Every QP towards the sink's buffer (checked for the verb and size). */
static int bsg_connect(struct rperf_gen_inst *g,
		       const struct rperf_proto_inst_eps *peer, char *err,
		       size_t errlen)
{
	struct bsg_src *b = g->priv;
	int rc = 0;

	for (size_t i = 0; !rc && i < peer->nqps; i++)
		rc = rperf_peer_buf_check(&peer->qps[i], g->spec.verb,
					  g->spec.size, "the sink", err,
					  errlen);
	if (!rc)
		rc = rperf_engine_conn_connect(g, &b->conn, peer, err, errlen);
	for (size_t i = 0; !rc && i < b->conn.nqp; i++)
		rperf_bsg_qp_of(&b->bq[i], &b->conn, i, peer->qps[i].addr,
				peer->qps[i].rkey);
	return rc;
}

static int bsg_run(struct rperf_gen_inst *g, volatile sig_atomic_t *stop)
{
	struct bsg_src *b = g->priv;
	struct rperf_bsg_cfg c;
	int rc;

	rperf_bsg_spec_cfg(&g->spec, &c);
	c.stall_ns = g->stall_ns; /* the agent's --stall-limit too */
	c.duration_ns = g->spec.warmup_ns + g->spec.duration_ns +
			RPERF_ENGINE_BSG_TAIL_NS;
	c.on_interval = bsg_tick;
	c.arg = b;
	b->g = g;
	c.stop = stop;
	rperf_bsg_spec_shape(g, &c);

	b->origin_ns = rperf_mono_ns() - (g->start_at_ns - g->spec.start_ns);
	rc = g->spec.burst_bytes ?
		     rperf_incast_run(g, &c, b->bq, b->conn.nqp, &b->res,
				      &b->bursts) :
		     rperf_bsg_run(&c, b->bq, b->conn.nqp, &b->res);
	b->ran = true;
	/* the last completions after the last tick; the run's seconds end at
	 * its last completion, which may be before that tick */
	if (g->spec.interval_ns && b->res.messages > b->last.messages)
		bsg_tick(b, &(struct rperf_bsg_tick){
				    .messages = b->res.messages,
				    .bytes = b->res.bytes,
				    .t_start = b->last.t_end,
				    .t_end = b->res.seconds > b->last.t_end ?
						     b->res.seconds :
						     b->last.t_end });
	if (rc)
		snprintf(g->res.error, sizeof(g->res.error), "%s",
			 b->res.error[0] ? b->res.error : strerror(rc));
	else if (b->res.stopped)
		snprintf(g->res.error, sizeof(g->res.error),
			 "stopped before the end");
	return rc;
}

static void bsg_abort(struct rperf_gen_inst *g)
{
	struct bsg_src *b = g->priv;
	size_t i;

	for (i = 0; i < b->conn.nqp; i++)
		rperf_engine_qp_flush(b->conn.qp[i]);
}

static int bsg_result(struct rperf_gen_inst *g)
{
	struct bsg_src *b = g->priv;

	if (!b || !b->ran)
		return 0;
	g->res.messages = b->res.messages;
	g->res.bytes = b->res.bytes;
	g->res.posted = b->res.posted;
	g->res.post_calls = b->res.post_calls;
	g->res.seconds = b->res.seconds;
	if (!g->res.bsg_series.n) { /* move it (once) */
		g->res.bsg_series = b->series;
		memset(&b->series, 0, sizeof(b->series));
	}
	return rperf_bsg_result_shape(g, &b->res, &b->bursts);
}

static void bsg_round(struct rperf_gen_inst *g)
{
	struct bsg_src *b = g->priv;

	if (!b)
		return;
	memset(&b->res, 0, sizeof(b->res));
	free(b->bursts.t); /* an incast run allocates its log */
	memset(&b->bursts, 0, sizeof(b->bursts));
	rperf_bsg_series_fini(&b->series);
	memset(&b->last, 0, sizeof(b->last));
	b->ran = false;
	b->origin_ns = 0;
}

static void bsg_teardown(struct rperf_gen_inst *g)
{
	struct bsg_src *b = g->priv;

	if (!b)
		return;
	rperf_gen_conn_free(&b->conn); /* conn.dev is the engine's */
	free(b->bq);
	free(b->bursts.t);
	rperf_bsg_series_fini(&b->series);
	free(b);
	g->priv = NULL;
}

const struct rperf_gen_ops rperf_gen_bsg_source = {
	.name = "bsg-source",
	.setup = bsg_setup,
	.endpoints = bsg_endpoints,
	.connect = bsg_connect,
	.run = bsg_run,
	.abort = bsg_abort,
	.round = bsg_round,
	.result = bsg_result,
	.teardown = bsg_teardown,
};
