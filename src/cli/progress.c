/* SPDX-License-Identifier: BSD-2-Clause */
/* The progress line of long runs: see progress.h. */
#include "cli/progress.h"

#include <errno.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

bool rperf_progress_wanted(const struct rperf_cmdline *cfg)
{
	return !cfg->quiet && isatty(STDERR_FILENO);
}

/* "5 s", "2 min 5 s", "1 h 2 min" */
static void dur(char *buf, size_t len, double s)
{
	long v = s > 0 ? (long)(s + 0.5) : 0;

	if (v < 60)
		snprintf(buf, len, "%ld s", v);
	else if (v < 3600)
		snprintf(buf, len, "%ld min %ld s", v / 60, v % 60);
	else
		snprintf(buf, len, "%ld h %ld min", v / 3600, v % 3600 / 60);
}

void rperf_progress_text(const struct rperf_progress *p, double now, char *buf,
			 size_t len)
{
	char el[32], left[32] = "";
	double in_item = now - p->tk, rest = -1;

	dur(el, sizeof(el), now - p->t0);
	if (p->per_item_s > 0) /* known lengths: what the plan leaves */
		rest = (double)(p->n - p->k) * p->per_item_s +
		       (p->per_item_s > in_item ? p->per_item_s - in_item : 0);
	else if (p->k > 1) /* the completed items' mean length */
		rest = (p->tk - p->t0) / (double)(p->k - 1) *
			       (double)(p->n - p->k + 1) -
		       in_item;
	if (rest >= 0)
		dur(left, sizeof(left), rest);
	snprintf(buf, len, "%s: %s, %zu of %zu, elapsed %s, %s%s%s", p->what,
		 p->item, p->k, p->n, el, rest >= 0 ? "about " : "",
		 rest >= 0 ? left : "time left not known yet",
		 rest >= 0 ? " left" : "");
}

static void draw(struct rperf_progress *p)
{
	char line[160];
	double t = now_s();

	if (!p->k || p->paused || t - p->t0 < 1.0)
		return; /* a run shorter than a second shows nothing */
	rperf_progress_text(p, t, line, sizeof(line));
	fprintf(p->f, "\r\033[K%s", line);
	fflush(p->f);
	p->drawn = true;
}

static void *ticker(void *arg)
{
	struct rperf_progress *p = arg;
	struct timespec dl;

	pthread_mutex_lock(&p->mu);
	while (!p->stop) {
		clock_gettime(CLOCK_REALTIME, &dl);
		dl.tv_sec += 1;
		pthread_cond_timedwait(&p->cv, &p->mu, &dl);
		if (!p->stop)
			draw(p);
	}
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

int rperf_progress_start(struct rperf_progress *p, FILE *f, const char *what,
			 size_t n, double per_item_s)
{
	int rc;

	memset(p, 0, sizeof(*p));
	if (!f)
		return 0;
	snprintf(p->what, sizeof(p->what), "%s", what);
	p->n = n;
	p->per_item_s = per_item_s;
	p->t0 = p->tk = now_s();
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->cv, NULL);
	rc = pthread_create(&p->th, NULL, ticker, p);
	if (rc) {
		pthread_cond_destroy(&p->cv);
		pthread_mutex_destroy(&p->mu);
		return rc;
	}
	p->f = f;
	return 0;
}

void rperf_progress_item(struct rperf_progress *p, size_t k, const char *item)
{
	if (!p->f)
		return;
	pthread_mutex_lock(&p->mu);
	p->k = k + 1;
	p->tk = now_s();
	p->paused = false;
	snprintf(p->item, sizeof(p->item), "%s", item);
	pthread_cond_signal(&p->cv);
	pthread_mutex_unlock(&p->mu);
}

static void erase(struct rperf_progress *p)
{
	if (p->drawn) {
		fprintf(p->f, "\r\033[K");
		fflush(p->f);
		p->drawn = false;
	}
}

void rperf_progress_pause(struct rperf_progress *p)
{
	if (!p->f)
		return;
	pthread_mutex_lock(&p->mu);
	p->paused = true;
	erase(p);
	pthread_mutex_unlock(&p->mu);
}

void rperf_progress_end(struct rperf_progress *p)
{
	if (!p->f)
		return;
	pthread_mutex_lock(&p->mu);
	p->stop = true;
	pthread_cond_signal(&p->cv);
	pthread_mutex_unlock(&p->mu);
	pthread_join(p->th, NULL);
	erase(p);
	pthread_cond_destroy(&p->cv);
	pthread_mutex_destroy(&p->mu);
	p->f = NULL;
}
