/* SPDX-License-Identifier: BSD-2-Clause */
/* The switches' counters commands, one thread each (run_hook.h). */
#include "run/run_hook.h"

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "counters/counters_hook.h"
#include "run/run_conn.h"

struct hook {
	struct run_hooks *all;
	struct rperf_run_switch *sw;
	pthread_t th;
	bool started;
	struct rperf_ctr_reading rd;
};

struct run_hooks {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	bool stop;
	uint64_t t0, iv;
	struct hook *h;
	size_t n;
};

uint64_t run_hook_interval_ns(const struct rperf_job *job)
{
	uint64_t iv = 0;

	for (size_t i = 0; i < job->ninst; i++) {
		uint64_t v = job->inst[i].interval_ns;

		if (v && (!iv || v < iv))
			iv = v;
	}
	return iv;
}

/* Sleep until @t (CLOCK_MONOTONIC) or the stop: true when stopping. */
static bool wait_until(struct run_hooks *a, uint64_t t)
{
	struct timespec ts = { .tv_sec = (time_t)(t / 1000000000ull),
			       .tv_nsec = (long)(t % 1000000000ull) };
	bool stop;

	pthread_mutex_lock(&a->mu);
	while (!a->stop && rperf_mono_ns() < t)
		if (pthread_cond_timedwait(&a->cv, &a->mu, &ts) == ETIMEDOUT)
			break;
	stop = a->stop;
	pthread_mutex_unlock(&a->mu);
	return stop;
}

/* One run; its reading is stamped when the command ends (its output is
 * what it read last: a slow command's figures are that late). */
static void run_once(struct hook *h)
{
	struct rperf_run_switch *w = h->sw;
	char prefix[RPERF_NAME_LEN + 2], why[RPERF_RUN_WHY_LEN] = "";
	uint64_t t, t_start = rperf_mono_ns();
	int rc;

	snprintf(prefix, sizeof(prefix), "%s:", w->sw->name);
	h->rd.n = 0;
	rc = rperf_ctr_hook_run(w->sw->counters, prefix, h->all->iv, &h->rd,
				why, sizeof(why));
	w->runs++;
	if (rc) {
		w->failed++;
		w->cut += rc == ETIMEDOUT;
		if (!w->why[0])
			snprintf(w->why, sizeof(w->why), "%.*s", 200, why);
	}
	t = rperf_mono_ns();
	w->took_sum_ns += t - t_start;
	if (t - t_start > w->took_max_ns)
		w->took_max_ns = t - t_start;
	(void)rperf_ctr_series_sample(
		&w->s, t > h->all->t0 ? t - h->all->t0 : 0, rc ? NULL : &h->rd);
}

static void *hook_main(void *arg)
{
	struct hook *h = arg;
	struct run_hooks *a = h->all;
	uint64_t next = a->t0;

	while (!wait_until(a, next)) {
		run_once(h);
		while (next <= rperf_mono_ns()) /* a slow command skips ticks */
			next += a->iv;
	}
	run_once(h); /* the last (partial) interval */
	return NULL;
}

int run_hooks_start(struct rperf_run_results *r, uint64_t t0_ns,
		    struct run_hooks **out)
{
	const struct rperf_job *job = r->job;
	pthread_condattr_t ca;
	struct run_hooks *a;
	int rc = 0;

	*out = NULL;
	if (!job->nswitches || !r->sw)
		return 0;
	a = calloc(1, sizeof(*a));
	if (!a)
		return ENOMEM;
	a->h = calloc(job->nswitches, sizeof(*a->h));
	if (!a->h) {
		free(a);
		return ENOMEM;
	}
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC); /* rperf_mono_ns()'s */
	pthread_mutex_init(&a->mu, NULL);
	pthread_cond_init(&a->cv, &ca);
	pthread_condattr_destroy(&ca);
	a->t0 = t0_ns;
	a->iv = run_hook_interval_ns(job);
	a->n = job->nswitches;
	for (size_t i = 0; i < a->n && a->iv; i++) {
		struct hook *h = &a->h[i];

		h->all = a;
		h->sw = &r->sw[i];
		rc = pthread_create(&h->th, NULL, hook_main, h);
		h->started = !rc;
		if (rc)
			snprintf(h->sw->why, sizeof(h->sw->why),
				 "cannot start its thread: %s", strerror(rc));
	}
	*out = a;
	return rc;
}

void run_hooks_stop(struct run_hooks *a)
{
	if (!a)
		return;
	pthread_mutex_lock(&a->mu);
	a->stop = true;
	pthread_cond_broadcast(&a->cv);
	pthread_mutex_unlock(&a->mu);
	for (size_t i = 0; i < a->n; i++)
		if (a->h[i].started)
			pthread_join(a->h[i].th, NULL);
	pthread_cond_destroy(&a->cv);
	pthread_mutex_destroy(&a->mu);
	free(a->h);
	free(a);
}
