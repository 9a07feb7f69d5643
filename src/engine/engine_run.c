/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The engine's threads: one per source, started at the barrier, pinned,
 * with the engine's stop flag and no socket; and the one sink thread that
 * serves every sink instance of the device (see engine.h).
 */
#define _GNU_SOURCE
#include "engine/engine.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include "engine/engine_priv.h"
#include "host/cputime.h"
#include "host/place.h"
#include "util/err.h"

#define SLICE_NS 50000000ull /* stop-flag checks while waiting */
#define SINK_FINAL_PASSES 1024 /* after STOP: drains until one is empty */
#define SPIN_NS 50000ull /* the start's last stretch: spin, not sleep */
#define SINK_WAIT_MS 100

/* Sleep until SPIN_NS before @at_ns (CLOCK_MONOTONIC; no timer slack:
 * the default 50 us would be start skew), then spin to it; or the stop
 * flag: 0 or EINTR. */
static int wait_until(uint64_t at_ns, volatile sig_atomic_t *stop)
{
	(void)prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL); /* this thread */
	for (;;) {
		uint64_t now = rperf_mono_ns(), next;
		struct timespec ts;

		if (*stop)
			return EINTR;
		if (now >= at_ns)
			return 0;
		if (at_ns - now <= SPIN_NS)
			continue;
		next = at_ns - now - SPIN_NS > SLICE_NS ? now + SLICE_NS :
							  at_ns - SPIN_NS;
		ts.tv_sec = (time_t)(next / 1000000000ull);
		ts.tv_nsec = (long)(next % 1000000000ull);
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
	}
}

static void *source_main(void *arg)
{
	struct rperf_gen_inst *g = arg;
	struct rperf_engine *e = g->engine;
	uint64_t one = 1;
	double cpu0;
	char why[200] = "";
	int rc = g->res.placed ?
			 rperf_place_apply(&g->place, why, sizeof(why)) :
			 rperf_place_pin(g->cpu); /* this thread */

	if (rc && why[0])
		snprintf(g->res.error, sizeof(g->res.error), "%s", why);
	else if (rc)
		snprintf(g->res.error, sizeof(g->res.error),
			 "cannot pin to CPU %d: %s", g->cpu, strerror(rc));
	else if (wait_until(g->start_at_ns, &e->stop))
		snprintf(g->res.error, sizeof(g->res.error),
			 "stopped before its start");
	else {
		g->woke_ns = rperf_mono_ns(); /* the barrier's skew */
		cpu0 = rperf_cpu_seconds_thread();
		(void)g->ops->run(g, &e->stop);
		g->res.cpu_seconds = rperf_cpu_seconds_thread() - cpu0;
		if (g->aborted)
			snprintf(g->res.error, sizeof(g->res.error),
				 "stopped: its work did not complete "
				 "(destination gone?); QPs flushed");
	}
	pthread_mutex_lock(&e->lock);
	g->ended = true;
	pthread_mutex_unlock(&e->lock);
	if (write(e->efd, &one, sizeof(one)) < 0) {
		/* the counter cannot overflow here; nothing to do */
	}
	return NULL;
}

int rperf_engine_go(struct rperf_engine *e, uint64_t t0_ns, char *err,
		    size_t errlen)
{
	size_t i;
	int rc;

	e->go_rx_ns = rperf_mono_ns(); /* the barrier's skew, reported */
	e->went = true;
	for (i = 0; i < e->n; i++) {
		struct rperf_gen_inst *g = &e->inst[i];

		atomic_store(&g->go_ns, t0_ns);
		if (g->role != RPERF_ROLE_SOURCE)
			continue;
		g->start_at_ns = t0_ns + g->spec.start_ns;
		pthread_mutex_lock(&e->lock);
		rc = pthread_create(&g->thread, NULL, source_main, g);
		g->started = rc == 0;
		pthread_mutex_unlock(&e->lock);
		if (rc)
			return rperf_fail(err, errlen, rc,
					  "starting the thread of '%s': %s",
					  g->spec.name, strerror(rc));
	}
	return 0;
}

/* ---- the sink thread ---- */

struct sink_slot {
	struct rperf_gen_inst *g;
	size_t off, n; /* its pollfds */
	bool active;
};

struct sink_run {
	struct rperf_engine *e;
	struct sink_slot *slot;
	size_t nslot;
	struct pollfd *pf;
	size_t npf;
	bool events; /* every sink waits on events: sleep in poll() */
	uint64_t spin_ns; /* poll mode: nothing arrived this long: sleep */
};

static int sink_prepare(struct rperf_engine *e, struct sink_run *s)
{
	size_t i, cap = 0;

	memset(s, 0, sizeof(*s));
	s->e = e;
	s->events = true;
	for (i = 0; i < e->n; i++)
		if (e->inst[i].role == RPERF_ROLE_SINK)
			cap += e->inst[i].spec.qps + 1;
	s->slot = calloc(e->n ? e->n : 1, sizeof(*s->slot));
	s->pf = calloc(cap ? cap : 1, sizeof(*s->pf));
	if (!s->slot || !s->pf)
		return ENOMEM;
	for (i = 0; i < e->n; i++) {
		struct rperf_gen_inst *g = &e->inst[i];
		struct sink_slot *sl = &s->slot[s->nslot];

		if (g->role != RPERF_ROLE_SINK)
			continue;
		sl->g = g;
		sl->off = s->npf;
		sl->n = g->ops->sink_fds(g, s->pf + s->npf, cap - s->npf);
		sl->active = true;
		s->npf += sl->n;
		s->nslot++;
		if (g->spec.sink_completion == RPERF_COMPLETION_POLL)
			s->events = false;
		if (!s->spin_ns || g->stall_ns < s->spin_ns)
			s->spin_ns = g->stall_ns;
	}
	return 0;
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Poll mode, nothing arrived for the stall limit: arm every sink's
 * events; false if one cannot (then the thread keeps polling). */
static bool sink_sleep(struct sink_run *s)
{
	for (size_t i = 0; i < s->nslot; i++) {
		struct sink_slot *sl = &s->slot[i];

		/* no fd: nothing to receive (RDMA WRITEs), nothing to arm */
		if (sl->active && sl->n &&
		    (!sl->g->ops->sink_arm || sl->g->ops->sink_arm(sl->g)))
			return false;
	}
	return true;
}

static void sink_drop(struct sink_run *s, struct sink_slot *sl)
{
	size_t j;

	sl->active = false;
	for (j = 0; j < sl->n; j++)
		s->pf[sl->off + j].fd = -1; /* poll() ignores it */
}

/* Every active sink drained once (@waited: after poll(), its revents
 * are read); true when one received something. */
static bool sink_pass(struct sink_run *s, bool waited)
{
	bool any = false;

	for (size_t i = 0; i < s->nslot; i++) {
		struct sink_slot *sl = &s->slot[i];
		bool progress = false;

		if (sl->active &&
		    sl->g->ops->sink_drain(
			    sl->g, waited ? s->pf + sl->off : NULL, &progress))
			sink_drop(s, sl);
		any |= progress;
	}
	return any;
}

static void *sink_main(void *arg)
{
	struct sink_run *s = arg;
	struct rperf_engine *e = s->e;
	double cpu0 = rperf_cpu_seconds_thread();
	size_t i;

	uint64_t last = mono_ns();
	bool asleep = false, any;
	unsigned int idle = 0;

	while (!e->sink_stop) {
		bool wait = s->events || asleep;

		if (wait && poll(s->pf, (nfds_t)s->npf, SINK_WAIT_MS) < 0 &&
		    errno != EINTR)
			break;
		any = sink_pass(s, wait);
		if (any || s->events) {
			last = mono_ns();
			asleep = false;
		} else if (!asleep && ++idle % 1024 == 0 &&
			   mono_ns() - last >= s->spin_ns) {
			asleep = sink_sleep(s);
			last = mono_ns();
		}
	}
	/* STOP may come as soon as a source on another host saw its last
	 * message acknowledged: its completion is in this CQ then, maybe not
	 * yet counted (a sleeping sink, a poll slice): polled until empty */
	for (i = 0; i < SINK_FINAL_PASSES && sink_pass(s, false); i++)
		;
	e->sink_cpu = rperf_cpu_seconds_thread() - cpu0;
	for (i = 0; i < s->nslot; i++)
		s->slot[i].g->res.cpu_seconds = e->sink_cpu;
	free(s->slot);
	free(s->pf);
	free(s);
	return NULL;
}

int rperf_engine_sink_start(struct rperf_engine *e, char *err, size_t errlen)
{
	struct sink_run *s;
	size_t sinks = 0;
	int rc;

	rperf_engine_count(e, NULL, &sinks);
	if (!sinks || e->sink_started)
		return 0;
	s = calloc(1, sizeof(*s));
	if (!s)
		return ENOMEM;
	rc = sink_prepare(e, s);
	if (!rc)
		rc = pthread_create(&e->sink_thread, NULL, sink_main, s);
	if (rc) {
		snprintf(err, errlen, "starting the sink thread: %s",
			 strerror(rc));
		free(s->slot);
		free(s->pf);
		free(s);
		return rc;
	}
	e->sink_started = true;
	return 0;
}

void rperf_engine_sink_stop(struct rperf_engine *e)
{
	if (!e->sink_started)
		return;
	e->sink_stop = 1;
	pthread_join(e->sink_thread, NULL);
	e->sink_started = false;
}

bool rperf_engine_failed(struct rperf_engine *e)
{
	bool failed = false;

	pthread_mutex_lock(&e->lock);
	for (size_t i = 0; i < e->n && !failed; i++)
		failed = e->inst[i].role == RPERF_ROLE_SOURCE &&
			 e->inst[i].ended && e->inst[i].res.error[0];
	pthread_mutex_unlock(&e->lock);
	return failed;
}
