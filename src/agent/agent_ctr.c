/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The host's counters as a time series (issue 23): from GO's start instant
 * to STOP, at the smallest interval of the host's generators, the agent
 * reads its RDMA devices' sysfs counters and their netdevs' pause/PFC
 * statistics (src/counters) and sends the per-interval deltas in its
 * REPORT ("counters", rows from the start instant on its own clock).
 * A dry run reads nothing. Reading failures leave missing rows, never an
 * error of the experiment.
 */
#include "agent/agent_priv.h"

#include <stdlib.h>
#include <string.h>

void agent_ctr_plan(struct rperf_agent *a, const struct rperf_proto_plan *p)
{
	struct agent_ctr *c = &a->exp.ctr;
	uint64_t iv = 0;

	agent_ctr_fini(a);
	for (size_t i = 0; i < p->nsources + p->nsinks; i++) {
		const struct rperf_gen_spec *s =
			i < p->nsources ? &p->sources[i] :
					  &p->sinks[i - p->nsources];

		if (s->interval_ns && (!iv || s->interval_ns < iv))
			iv = s->interval_ns;
	}
	if (a->engine == &rperf_agent_dry_engine || !iv)
		return;
	c->rd = malloc(sizeof(*c->rd));
	c->interval_ns = c->rd ? iv : 0;
}

/* One reading at @now (the agent's clock). */
static void sample(struct rperf_agent *a, uint64_t now)
{
	struct agent_ctr *c = &a->exp.ctr;
	char err[160];
	int rc;

	c->rd->n = 0;
	rc = rperf_ctr_read_host(c->sysroot, c->rd, err, sizeof(err));
	if (rc && !c->said) {
		agent_log(a, "controller %s: counters: %s", a->exp.peer, err);
		c->said = true;
	}
	(void)rperf_ctr_series_sample(&c->s, now > c->t0 ? now - c->t0 : 0,
				      rc ? NULL : c->rd);
}

void agent_ctr_go(struct rperf_agent *a, uint64_t t0)
{
	struct agent_ctr *c = &a->exp.ctr;

	c->t0 = t0;
	c->next = t0;
	c->running = c->interval_ns != 0;
}

uint64_t agent_ctr_wake_ns(const struct rperf_agent *a)
{
	return a->exp.ctr.running ? a->exp.ctr.next : UINT64_MAX;
}

void agent_ctr_tick(struct rperf_agent *a, uint64_t now)
{
	struct agent_ctr *c = &a->exp.ctr;

	if (!c->running || now < c->next)
		return;
	sample(a, now);
	while (c->next <= now) /* a late wake-up skips ticks, never bunches */
		c->next += c->interval_ns;
}

void agent_ctr_report(struct rperf_agent *a, struct rperf_proto_report *r)
{
	struct agent_ctr *c = &a->exp.ctr;
	uint64_t now = rperf_engine_now_ns();

	if (!c->running)
		return;
	if (now > c->t0) /* the last (partial) interval up to STOP */
		sample(a, now);
	c->running = false;
	rperf_ctr_series_move(&r->counters, &c->s);
}

void agent_ctr_fini(struct rperf_agent *a)
{
	struct agent_ctr *c = &a->exp.ctr;
	const char *root = c->sysroot;

	rperf_ctr_series_fini(&c->s);
	free(c->rd);
	memset(c, 0, sizeof(*c));
	c->sysroot = root;
}
