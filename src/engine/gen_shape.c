/* SPDX-License-Identifier: BSD-2-Clause */
/* The traffic shape of a BSG source (gen_shape.h). */
#include "engine/gen_shape.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gen/size_dist.h"

#define SEED_MIX 0x9e3779b97f4a7c15ull

double rperf_bsg_spec_limit(const struct rperf_gen_spec *s)
{
	double size = s->sizes.n ? rperf_size_dist_mean(&s->sizes) :
				   (double)s->size;

	return s->rate_bps > 0 ? s->rate_bps / (8.0 * size) : 0;
}

void rperf_bsg_spec_cfg(const struct rperf_gen_spec *s, struct rperf_bsg_cfg *c)
{
	*c = (struct rperf_bsg_cfg){
		.verb = s->verb,
		.atomic_op = s->test.atomic_op,
		.size = s->size,
		.iters = s->test.iters,
		.duration_ns = s->duration_ns,
		.tx_depth = s->tx_depth,
		.cq_mod = s->cq_mod,
		.post_list = s->post_list,
		.events = s->completion == RPERF_COMPLETION_EVENT,
		.limit_per_s = rperf_bsg_spec_limit(s),
		.burst = (uint32_t)s->burst_size, /* <= 2^24 (spec) */
		.interval_ns = s->interval_ns,
		.on_ns = s->on_ns,
		.off_ns = s->off_ns,
		.peer_fd = -1,
		.stall_ns = rperf_engine_stall_ns(&s->path),
	};
}

/* The barrier's instant (CLOCK_MONOTONIC) of a started source. */
static uint64_t barrier_ns(const struct rperf_gen_inst *g)
{
	return g->start_at_ns - g->spec.start_ns;
}

void rperf_bsg_spec_shape(const struct rperf_gen_inst *g,
			  struct rperf_bsg_cfg *c)
{
	const struct rperf_gen_spec *s = &g->spec;

	c->max_messages = s->max_messages;
	c->max_bytes = s->max_bytes;
	c->sizes = s->sizes.n ? &s->sizes : NULL;
	c->seed = ((uint64_t)s->id + 1) * SEED_MIX;
	c->stop_at_ns = s->stop_ns ? barrier_ns(g) + s->stop_ns : 0;
}

/* Sleep until @at (CLOCK_MONOTONIC) unless the stop flag comes: false
 * when stopped. */
static bool sleep_until(uint64_t at, const volatile sig_atomic_t *stop)
{
	for (;;) {
		struct timespec ts;
		uint64_t now, next;

		clock_gettime(CLOCK_MONOTONIC, &ts);
		now = (uint64_t)ts.tv_sec * 1000000000ull +
		      (uint64_t)ts.tv_nsec;
		if (stop && *stop)
			return false;
		if (now >= at)
			return true;
		next = at - now > 50000000ull ? now + 50000000ull : at;
		ts.tv_sec = (time_t)(next / 1000000000ull);
		ts.tv_nsec = (long)(next % 1000000000ull);
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
	}
}

static void add_res(struct rperf_bsg_res *sum, const struct rperf_bsg_res *b)
{
	sum->messages += b->messages;
	sum->bytes += b->bytes;
	sum->posted += b->posted;
	sum->post_calls += b->post_calls;
	sum->signaled += b->signaled;
	sum->seconds += b->seconds;
	sum->cpu_seconds += b->cpu_seconds;
	if (!sum->first_ns)
		sum->first_ns = b->first_ns;
	sum->last_ns = b->last_ns;
	sum->stopped |= b->stopped;
	if (!sum->error[0])
		memcpy(sum->error, b->error, sizeof(sum->error));
}

int rperf_incast_run(const struct rperf_gen_inst *g,
		     const struct rperf_bsg_cfg *c,
		     const struct rperf_bsg_qp *qps, size_t nqps,
		     struct rperf_bsg_res *res, struct rperf_incast_log *log)
{
	const struct rperf_gen_spec *s = &g->spec;
	uint64_t t0 = g->start_at_ns, end = t0 + c->duration_ns;
	uint64_t rng = c->seed ^ SEED_MIX;
	struct rperf_bsg_cfg one = *c;
	struct rperf_bsg_res b;
	int rc = 0;

	memset(res, 0, sizeof(*res));
	log->n = 0;
	log->t = calloc(2 * RPERF_PROTO_MAX_BURSTS, sizeof(*log->t));
	if (!log->t)
		return ENOMEM;
	one.duration_ns = 0;
	one.iters = 0;
	one.infinite = false;
	one.max_messages = 0;
	one.max_bytes = s->burst_bytes;
	one.stop_at_ns = 0;
	for (uint64_t k = 0; !rc && log->n < RPERF_PROTO_MAX_BURSTS; k++) {
		uint64_t at = t0 + k * s->period_ns;

		if (s->jitter_ns)
			at += (uint64_t)(rperf_uniform(&rng) *
					 (double)s->jitter_ns);
		if (at >= end || (c->stop_at_ns && at >= c->stop_at_ns) ||
		    !sleep_until(at, c->stop))
			break;
		one.seed = c->seed + k;
		rc = rperf_bsg_run(&one, qps, nqps, &b);
		add_res(res, &b);
		if (rc || b.stopped)
			break;
		log->t[2 * log->n] = b.first_ns;
		log->t[2 * log->n + 1] = b.last_ns;
		log->n++;
	}
	return rc;
}

int rperf_bsg_result_shape(struct rperf_gen_inst *g,
			   const struct rperf_bsg_res *res,
			   const struct rperf_incast_log *log)
{
	uint64_t t0 = barrier_ns(g);

	g->res.has_end = res->last_ns >= t0 && res->last_ns;
	g->res.end_ns = g->res.has_end ? res->last_ns - t0 : 0;
	free(g->res.bursts);
	g->res.bursts = NULL;
	g->res.nbursts = 0;
	if (!log->n)
		return 0;
	g->res.bursts = calloc(2 * log->n, sizeof(*g->res.bursts));
	if (!g->res.bursts)
		return ENOMEM;
	for (size_t i = 0; i < 2 * log->n; i++)
		g->res.bursts[i] = log->t[i] >= t0 ? log->t[i] - t0 : 0;
	g->res.nbursts = log->n;
	return 0;
}
