/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Live rows: each source's interval rows as they complete, kept in a ring
 * per instance until the agent's next HEARTBEAT takes them (proto.h). The
 * source's thread takes the lock once per interval, the agent's loop once
 * per HEARTBEAT: nothing on the per-message path.
 */
#include "engine/engine.h"
#include "engine/engine_priv.h"

#include <pthread.h>

void rperf_engine_live_on(struct rperf_engine *e)
{
	pthread_mutex_lock(&e->live_lock);
	e->live = true;
	pthread_mutex_unlock(&e->live_lock);
}

void rperf_engine_live_push(struct rperf_gen_inst *g,
			    const struct rperf_live_row *r)
{
	struct rperf_engine *e = g->engine;

	if (!e)
		return;
	pthread_mutex_lock(&e->live_lock);
	if (e->live) {
		if (g->live_pushed - g->live_taken == RPERF_ENGINE_LIVE_RING) {
			g->live_taken++; /* the oldest is overwritten */
			e->live_skipped++;
		}
		g->live[g->live_pushed % RPERF_ENGINE_LIVE_RING] = *r;
		g->live[g->live_pushed++ % RPERF_ENGINE_LIVE_RING].id =
			g->spec.id;
	}
	pthread_mutex_unlock(&e->live_lock);
}

void rperf_engine_live_take(struct rperf_engine *e, struct rperf_live_row *out,
			    size_t cap, size_t *n, uint64_t *skipped)
{
	*n = 0;
	pthread_mutex_lock(&e->live_lock);
	for (size_t i = 0; i < e->n; i++) {
		struct rperf_gen_inst *g = &e->inst[i];

		while (*n < cap && g->live_taken < g->live_pushed)
			out[(*n)++] = g->live[g->live_taken++ %
					      RPERF_ENGINE_LIVE_RING];
	}
	*skipped = e->live_skipped;
	e->live_skipped = 0;
	pthread_mutex_unlock(&e->live_lock);
}
