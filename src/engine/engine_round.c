/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Rounds on the same QPs (engine.h, rperf_engine_round): after a round's
 * REPORT, every instance forgets its figures and counters and keeps its
 * QPs, buffers, posted receives and connection, as rperf lat's -a keeps
 * its QPs from one message size to the next, and takes the round's size
 * and method (an LSG's round_methods: rperf lat's --method all).
 */
#include "engine/engine.h"
#include "engine/engine_priv.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "gen/series.h"
#include "util/err.h"

void rperf_engine_round_apply(struct rperf_engine *e)
{
	for (size_t i = 0; i < e->n; i++) {
		struct rperf_gen_spec *s = &e->inst[i].spec;

		s->size = rperf_spec_round_size(s, e->round);
		s->test.method = rperf_spec_round_method(s, e->round);
	}
}

/* Free what the previous round's result still owns; keep who it is and
 * where its source was placed (decided once, at setup). */
static void result_reset(struct rperf_gen_inst *g)
{
	struct rperf_proto_result keep = {
		.id = g->res.id,
		.role = g->res.role,
		.kind = g->res.kind,
		.placed = g->res.placed,
		.place = g->res.place,
	};

	rperf_proto_result_fini(&g->res);
	g->res = keep;
}

static int check_round(struct rperf_engine *e, uint32_t k, char *err,
		       size_t errlen)
{
	if (!e->went || k != e->round + 1 || k >= e->rounds)
		return rperf_fail(
			err, errlen, EINVAL,
			"round %u is not the next round of the plan (round %u of %u ran%s)",
			k, e->round, e->rounds, e->went ? "" : ", or not yet");
	for (size_t i = 0; i < e->n; i++) {
		if (e->inst[i].aborted)
			return rperf_fail(
				err, errlen, EIO,
				"'%s' had its QPs flushed in round %u: no next round on them",
				e->inst[i].spec.name, e->round);
	}
	return 0;
}

int rperf_engine_round(struct rperf_engine *e, uint32_t k, char *err,
		       size_t errlen)
{
	uint64_t v;
	int rc;

	rperf_engine_stop(e); /* joins sources and the sink thread */
	rc = check_round(e, k, err, errlen);
	if (rc)
		return rc;
	e->round = k;
	rperf_engine_round_apply(e); /* before the ops' round: its method */
	pthread_mutex_lock(&e->live_lock);
	for (size_t i = 0; i < e->n; i++) {
		struct rperf_gen_inst *g = &e->inst[i];

		result_reset(g);
		if (g->ops->round)
			g->ops->round(g);
		g->ended = false;
		g->woke_ns = 0;
		g->start_at_ns = 0;
		atomic_store(&g->go_ns, 0);
		g->live_pushed = g->live_taken = 0;
	}
	e->live_skipped = 0;
	pthread_mutex_unlock(&e->live_lock);
	while (read(e->efd, &v, sizeof(v)) > 0) {
		/* the previous round's wake-ups */
	}
	e->stop = 0;
	e->sink_stop = 0;
	e->went = false;
	e->go_rx_ns = 0;
	return rperf_engine_sink_start(e, err, errlen);
}
