/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The start barrier's clock offsets (run_ctl.h): between ARMED and GO the
 * controller runs RUN_CLOCK_EXCHANGES CLOCK exchanges with each agent that
 * announced "clock-sync", one after another per agent and with up to
 * RUN_SYNC_WINDOW agents at once (the poll loop of run_ctl.c: more at once
 * would queue answers behind each other in the controller, which reads
 * them one by one, and widen every round trip and so the uncertainty),
 * keeps each agent's least-RTT estimate
 * (run_clock.c) and puts the start instant into each GO on that agent's
 * own clock. An agent without the feature gets the relative GO of before.
 */
#include <errno.h>
#include <string.h>

#include "run/run_ctl.h"

static int send_clock(struct run_ctl *c, struct run_agent *a)
{
	json_t *p = NULL;
	int rc = rperf_proto_clock_req_encode((uint32_t)a->nx, &p);

	if (rc) {
		run_fail(c, a, "cannot build CLOCK: %s", strerror(rc));
		return rc;
	}
	a->x[a->nx].t1 = rperf_mono_ns();
	rc = run_send(c, a, RPERF_CTRL_CLOCK, p);
	json_decref(p);
	return rc;
}

#define RUN_SYNC_WINDOW 16

static bool syncing(const struct run_agent *a)
{
	return a->ph == AG_ARMED && a->clock_sync &&
	       a->nx < RUN_CLOCK_EXCHANGES;
}

/* Start the next agents not yet begun until RUN_SYNC_WINDOW are under
 * way (an agent is under way from its first CLOCK to its last answer). */
static void fill_window(struct run_ctl *c)
{
	size_t busy = 0;

	for (size_t i = 0; i < c->sync_next; i++)
		busy += syncing(&c->ag[i]);
	while (busy < RUN_SYNC_WINDOW && c->sync_next < c->nag) {
		struct run_agent *a = &c->ag[c->sync_next++];

		if (syncing(a) && !send_clock(c, a))
			busy++;
	}
}

void run_sync_start(struct run_ctl *c)
{
	c->sync_next = 0;
	fill_window(c);
}

void run_on_clock(struct run_ctl *c, struct run_agent *a,
		  const struct rperf_ctrl_msg *m)
{
	uint64_t t4 = rperf_mono_ns(), rx, tx;
	uint32_t seq;

	if (rperf_proto_clock_reply_decode(m, &seq, &rx, &tx)) {
		run_fail(c, a, "bad CLOCK answer");
		return;
	}
	if (!syncing(a) || seq != a->nx) {
		run_fail(c, a, "CLOCK answer %u, exchange %zu expected", seq,
			 a->nx);
		return;
	}
	a->x[a->nx].t2 = rx;
	a->x[a->nx].t3 = tx;
	a->x[a->nx].t4 = t4;
	if (++a->nx < RUN_CLOCK_EXCHANGES)
		(void)send_clock(c, a);
	else
		fill_window(c);
}

bool run_synced(struct run_ctl *c)
{
	fill_window(c); /* an agent failed: its place goes to the next */
	for (size_t i = 0; i < c->nag; i++)
		if (syncing(&c->ag[i]))
			return false;
	return true;
}

void run_sync_finish(struct run_ctl *c)
{
	for (size_t i = 0; i < c->nag; i++) {
		struct run_agent *a = &c->ag[i];
		struct rperf_run_host *h =
			&c->res->hosts[a->host - c->job->hosts];

		if (a->ph != AG_ARMED || !a->clock_sync ||
		    run_clock_estimate(a->x, a->nx, &a->off))
			continue;
		h->has_offset = true;
		h->offset_ns = a->off.offset_ns;
		h->offset_rtt_ns = a->off.rtt_ns;
		h->offset_uncertainty_ns = a->off.uncertainty_ns;
	}
}

json_t *run_sync_go(struct run_ctl *c, struct run_agent *a, json_t *base,
		    uint64_t t_ctrl)
{
	struct rperf_run_host *h = &c->res->hosts[a->host - c->job->hosts];
	json_t *p;

	if (!a->off.valid)
		return json_incref(base);
	p = json_deep_copy(base);
	if (p && rperf_proto_go_set_start_at(p, run_clock_to_agent(&a->off,
								   t_ctrl))) {
		json_decref(p);
		return NULL;
	}
	h->start_at_ctrl_ns = t_ctrl;
	return p;
}
