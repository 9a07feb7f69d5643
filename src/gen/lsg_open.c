/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The LSG's open schedules, fixed and poisson (lsg.h): each sample posted
 * when it is due, several in flight.
 */
#include "gen/lsg_priv.h"

#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "gen/gen.h"

/* The samples in flight: a ring; pend[k] is the oldest sample whose
 * completion on CQ k has not been seen (RC: they come in post order). */
struct open_run {
	struct sample s[RPERF_LSG_MAX_INFLIGHT];
	uint64_t head, tail, pend[2];
	struct rperf_sched_gen gen;
	double next; /* the next sample's due time, ticks */
	uint64_t cap, t0, end, bound;
	bool closing;
};

#define RING(o, i) (&(o)->s[(i) % RPERF_LSG_MAX_INFLIGHT])

static int open_check_cfg(struct lsg_run *r, struct open_run *o)
{
	const struct rperf_lsg_cfg *c = r->cfg;
	double mean_ns = 1e9 / c->schedule.rate;

	if (!rperf_sched_valid(&c->schedule))
		return lsg_fail(r, EINVAL, "%s", "invalid probe schedule");
	if (c->method != RPERF_METHOD_RPERF)
		return lsg_fail(
			r, EINVAL, "%s",
			"fixed and poisson schedules take the rperf method");
	if (c->pair_order == RPERF_PAIR_SEQUENTIAL)
		return lsg_fail(
			r, EINVAL, "%s",
			"pair_order sequential times each SEND alone: it needs schedule closed");
	o->cap = c->max_inflight ? c->max_inflight : 1;
	if (o->cap > RPERF_LSG_MAX_INFLIGHT)
		o->cap = RPERF_LSG_MAX_INFLIGHT;
	o->bound = lsg_ns_to_ticks(c->clk, c->lag_bound_ns ? c->lag_bound_ns :
							     (uint64_t)mean_ns);
	r->res->lag_bound_ns = c->lag_bound_ns ? c->lag_bound_ns :
						 (uint64_t)mean_ns;
	rperf_sched_gen_init(&o->gen, &c->schedule, c->seed);
	if (!r->res->lag &&
	    rperf_hist_create(RPERF_HIST_DEFAULT_BITS, &r->res->lag))
		return lsg_fail(r, ENOMEM, "%s", "out of memory");
	return 0;
}

/* Poll CQ @k once for the oldest sample still waiting on it. */
static int open_poll(struct lsg_run *r, struct open_run *o, int k)
{
	int rc;

	if (o->pend[k] >= o->tail)
		return 0;
	rc = lsg_poll_once(r, RING(o, o->pend[k]), k);
	if (rc < 0)
		return -rc;
	o->pend[k] += (uint64_t)rc;
	return 0;
}

/* Post QP @k's SEND of the newest sample, peek at its CQ once. */
static int open_post(struct lsg_run *r, struct open_run *o, int k)
{
	struct sample *s = RING(o, o->tail);
	uint64_t seen = o->pend[k];
	int rc;

	rc = lsg_post_stamped(r, s, k);
	if (rc)
		return rc;
	o->tail++; /* the sample is in flight for open_poll */
	rc = open_poll(r, o, k);
	o->tail--;
	s->pre[k] = !rc && seen == o->tail && o->pend[k] > seen;
	return rc;
}

static int open_post_sample(struct lsg_run *r, struct open_run *o)
{
	int order = r->cfg->pair_order;
	int first = order == RPERF_PAIR_LOOP_FIRST ? LOOP :
		    order == RPERF_PAIR_WIRE_FIRST ? WIRE :
						     (int)(o->tail & 1);
	struct sample *s = RING(o, o->tail);
	int rc;

	memset(s, 0, sizeof(*s));
	s->due = (uint64_t)o->next;
	rc = open_post(r, o, first);
	if (!rc)
		rc = open_post(r, o, !first);
	if (rc)
		return rc;
	o->tail++;
	if (o->tail - o->head > r->res->inflight_max)
		r->res->inflight_max = (unsigned int)(o->tail - o->head);
	o->next += rperf_sched_next_ns(&o->gen) / r->cfg->clk->ns_per_tick;
	return 0;
}

/* Record every sample whose two completions are in, oldest first. */
static int open_retire(struct lsg_run *r, struct open_run *o)
{
	uint64_t n = 0;
	int rc = 0;

	while (!rc && o->head < o->pend[WIRE] && o->head < o->pend[LOOP]) {
		const struct sample *s = RING(o, o->head);

		if (o->head >= r->cfg->warmup) {
			int64_t lag = lsg_delta_ns(r->cfg->clk, s->due,
						   s->tp[WIRE] < s->tp[LOOP] ?
							   s->tp[WIRE] :
							   s->tp[LOOP]);

			rc = lsg_record(r, s);
			rperf_hist_record(r->res->lag, lag);
			r->res->late += (uint64_t)lag > r->res->lag_bound_ns &&
					lag > 0;
		}
		o->head++;
		n++;
	}
	return !rc && n ? lsg_refill_loop_rx(r) : rc;
}

/* The stop flag, the peer, the oldest sample's stall. */
static int open_checks(struct lsg_run *r, const struct open_run *o,
		       uint64_t now)
{
	const struct sample *s = RING(o, o->head);

	if (*r->cfg->stop)
		return lsg_fail(r, EINTR, "%s", "interrupted");
	if (lsg_peer_gone(r))
		return lsg_fail(
			r, ECONNRESET, "%s",
			"the peer closed the control connection mid-run");
	if (o->head < o->tail && now > s->tp[WIRE] &&
	    now - s->tp[WIRE] > r->stall_ticks)
		return lsg_fail(r, ETIMEDOUT,
				"a %s did not complete within the stall limit",
				lsg_cq_name(r, o->head < o->pend[WIRE] ? LOOP :
									 WIRE));
	return 0;
}

/* No new sample once the run's samples or time are posted. */
static void open_closing(struct lsg_run *r, struct open_run *o)
{
	const struct rperf_lsg_cfg *c = r->cfg;

	if (o->tail == c->warmup && !o->t0)
		o->t0 = (uint64_t)o->next;
	/* iters, the window, or (both set) whichever comes first */
	o->closing = (!c->duration_ns || c->iters) &&
		     o->tail >= c->warmup + c->iters;
	if (c->duration_ns)
		o->closing |= o->tail >= c->warmup &&
			      (uint64_t)o->next - o->t0 >=
				      lsg_ns_to_ticks(c->clk, c->duration_ns);
}

int lsg_open_run(struct lsg_run *r)
{
	struct open_run *o = calloc(1, sizeof(*o));
	uint64_t spins = 0, now;
	int rc;

	if (!o)
		return lsg_fail(r, ENOMEM, "%s", "out of memory");
	rc = open_check_cfg(r, o);
	o->next = (double)gen_clock_start(&r->dev);
	while (!rc && !(o->closing && o->head == o->tail)) {
		now = gen_clock_end(&r->dev);
		open_closing(r, o);
		if (!o->closing && o->tail - o->head < o->cap &&
		    (double)now >= o->next)
			rc = open_post_sample(r, o);
		if (!rc)
			rc = open_poll(r, o, WIRE);
		if (!rc)
			rc = open_poll(r, o, LOOP);
		if (!rc)
			rc = open_retire(r, o);
		if (!rc && r->cfg->yield && o->head == o->tail)
			sched_yield();
		if (!rc && ++spins % 4096 == 0)
			rc = open_checks(r, o, now);
	}
	r->res->warmup = o->head < r->cfg->warmup ? o->head : r->cfg->warmup;
	o->end = gen_clock_end(&r->dev);
	r->res->seconds =
		o->t0 && o->end > o->t0 ?
			rperf_clock_ticks_to_ns(r->cfg->clk,
						(int64_t)(o->end - o->t0)) /
				1e9 :
			0;
	free(o);
	return rc;
}

unsigned int rperf_lsg_max_inflight(unsigned int send_depth,
				    unsigned int peer_rx,
				    unsigned int solicit_every)
{
	unsigned int n = send_depth > 1 ? send_depth - 1 : 1;
	unsigned int rx =
		peer_rx > solicit_every + 1 ? peer_rx - solicit_every - 1 : 1;

	n = n < rx ? n : rx;
	return n < RPERF_LSG_MAX_INFLIGHT ? n : RPERF_LSG_MAX_INFLIGHT;
}

void rperf_lsg_sched_figs(const struct rperf_lsg_cfg *cfg,
			  const struct rperf_lsg_res *res,
			  struct rperf_sched_figs *out)
{
	*out = (struct rperf_sched_figs){ .open = cfg->schedule.kind !=
						  RPERF_SCHED_CLOSED };
	if (!out->open)
		return;
	out->late = res->late;
	out->lag_bound_ns = res->lag_bound_ns;
	out->inflight_max = res->inflight_max;
	if (res->lag && rperf_hist_count(res->lag)) {
		int64_t p = rperf_hist_percentile(res->lag, 99);
		int64_t m = rperf_hist_max(res->lag);

		out->lag_p99_ns = p > 0 ? (uint64_t)p : 0;
		out->lag_max_ns = m > 0 ? (uint64_t)m : 0;
	}
}

bool rperf_lsg_fell_behind(const struct rperf_lsg_res *res)
{
	struct rperf_sched_figs f = { .open = true, .late = res->late };

	return rperf_sched_fell_behind(&f, res->samples);
}
