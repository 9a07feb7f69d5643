/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The shared start timer of dry_starter.h. One thread keeps every armed
 * start instant: it waits on a condition variable (CLOCK_MONOTONIC, timer
 * slack 1 ns) until the earliest, spins through the last SPIN_NS, and
 * stamps every slot whose instant has passed with the time it saw it
 * pass. An agent arming an earlier instant wakes it. The thread runs
 * SCHED_FIFO (priority 1) where it may (CAP_SYS_NICE): the other simulated
 * hosts' work on the same cores (heartbeats, the controller) then does not
 * delay it, as it would not on a host of its own; elsewhere at normal
 * priority (dry_starter_realtime()).
 */
#define _GNU_SOURCE
#include "dry_starter.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>

#include "util/mono.h"

#define SPIN_NS 20000ull /* closer than this: spin, not sleep */

struct starter_slot {
	bool used, fired;
	uint64_t at_ns, fired_ns;
};

struct dry_starter {
	pthread_mutex_t lock;
	pthread_cond_t cond; /* on CLOCK_MONOTONIC */
	pthread_t thread;
	bool realtime; /* SCHED_FIFO */
	struct starter_slot *slot;
	size_t nslot;
	bool quit;
};

/* The earliest armed instant not yet passed; UINT64_MAX: none. */
static uint64_t earliest(const struct dry_starter *s)
{
	uint64_t at = UINT64_MAX;

	for (size_t i = 0; i < s->nslot; i++)
		if (s->slot[i].used && !s->slot[i].fired &&
		    s->slot[i].at_ns < at)
			at = s->slot[i].at_ns;
	return at;
}

static void stamp(struct dry_starter *s, uint64_t now)
{
	for (size_t i = 0; i < s->nslot; i++) {
		struct starter_slot *x = &s->slot[i];

		if (x->used && !x->fired && x->at_ns <= now) {
			x->fired = true;
			x->fired_ns = now;
		}
	}
}

static void *starter_main(void *arg)
{
	struct dry_starter *s = arg;

	(void)prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
	pthread_mutex_lock(&s->lock);
	while (!s->quit) {
		uint64_t at = earliest(s), now = rperf_mono_ns();
		struct timespec ts;

		if (at == UINT64_MAX) {
			pthread_cond_wait(&s->cond, &s->lock);
		} else if (now >= at) {
			stamp(s, now);
		} else if (at - now <= SPIN_NS) {
			pthread_mutex_unlock(&s->lock);
			while (rperf_mono_ns() < at)
				;
			pthread_mutex_lock(&s->lock);
		} else {
			ts.tv_sec = (time_t)(at / 1000000000ull);
			ts.tv_nsec = (long)(at % 1000000000ull);
			(void)pthread_cond_timedwait(&s->cond, &s->lock, &ts);
		}
	}
	pthread_mutex_unlock(&s->lock);
	return NULL;
}

/* SCHED_FIFO 1 if allowed, else the default policy. */
static int start_thread(struct dry_starter *s)
{
	struct sched_param sp = { .sched_priority = 1 };
	pthread_attr_t at;
	int rc;

	pthread_attr_init(&at);
	pthread_attr_setinheritsched(&at, PTHREAD_EXPLICIT_SCHED);
	pthread_attr_setschedpolicy(&at, SCHED_FIFO);
	pthread_attr_setschedparam(&at, &sp);
	rc = pthread_create(&s->thread, &at, starter_main, s);
	pthread_attr_destroy(&at);
	s->realtime = !rc;
	if (rc == EPERM || rc == EINVAL)
		rc = pthread_create(&s->thread, NULL, starter_main, s);
	return rc;
}

bool dry_starter_realtime(const struct dry_starter *s)
{
	return s->realtime;
}

int dry_starter_create(size_t nslots, struct dry_starter **out)
{
	struct dry_starter *s = calloc(1, sizeof(*s));
	pthread_condattr_t ca;
	int rc;

	if (!s)
		return ENOMEM;
	s->slot = calloc(nslots ? nslots : 1, sizeof(*s->slot));
	s->nslot = nslots;
	if (!s->slot) {
		free(s);
		return ENOMEM;
	}
	pthread_mutex_init(&s->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&s->cond, &ca);
	pthread_condattr_destroy(&ca);
	rc = start_thread(s);
	if (rc) {
		pthread_cond_destroy(&s->cond);
		pthread_mutex_destroy(&s->lock);
		free(s->slot);
		free(s);
		return rc;
	}
	*out = s;
	return 0;
}

void dry_starter_destroy(struct dry_starter *s)
{
	if (!s)
		return;
	pthread_mutex_lock(&s->lock);
	s->quit = true;
	pthread_cond_signal(&s->cond);
	pthread_mutex_unlock(&s->lock);
	pthread_join(s->thread, NULL);
	pthread_cond_destroy(&s->cond);
	pthread_mutex_destroy(&s->lock);
	free(s->slot);
	free(s);
}

static int starter_arm(void *arg, uint64_t at_ns, size_t *slot)
{
	struct dry_starter *s = arg;
	size_t i;

	pthread_mutex_lock(&s->lock);
	for (i = 0; i < s->nslot && s->slot[i].used; i++)
		;
	if (i < s->nslot) {
		s->slot[i] =
			(struct starter_slot){ .used = true, .at_ns = at_ns };
		*slot = i;
		pthread_cond_signal(&s->cond); /* maybe the earliest now */
	}
	pthread_mutex_unlock(&s->lock);
	return i < s->nslot ? 0 : ENOSPC;
}

static bool starter_fired(void *arg, size_t slot, uint64_t *fired_ns)
{
	struct dry_starter *s = arg;
	bool fired;

	pthread_mutex_lock(&s->lock);
	fired = s->slot[slot].fired;
	*fired_ns = s->slot[slot].fired_ns;
	pthread_mutex_unlock(&s->lock);
	return fired;
}

static void starter_release(void *arg, size_t slot)
{
	struct dry_starter *s = arg;

	pthread_mutex_lock(&s->lock);
	memset(&s->slot[slot], 0, sizeof(s->slot[slot]));
	pthread_mutex_unlock(&s->lock);
}

const struct rperf_dry_starter_ops dry_starter_ops = {
	.arm = starter_arm,
	.fired = starter_fired,
	.release = starter_release,
};
