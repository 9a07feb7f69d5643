/* SPDX-License-Identifier: BSD-2-Clause */
#include "gen/schedule.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/err.h"

static const char *const kind_names[] = { "closed", "fixed", "poisson" };

int rperf_sched_valid(const struct rperf_sched *s)
{
	if (s->kind == RPERF_SCHED_CLOSED)
		return s->rate == 0;
	return (s->kind == RPERF_SCHED_FIXED ||
		s->kind == RPERF_SCHED_POISSON) &&
	       s->rate > 0 && s->rate <= RPERF_SCHED_MAX_RATE;
}

static int bad(const char *s, char *why, size_t whylen)
{
	return rperf_fail(
		why, whylen, EINVAL,
		"'%.64s' is not a probe schedule; accepted: closed, fixed:RATE or poisson:RATE (RATE in samples/s, 0 < RATE <= %g, k/M suffixes: poisson:500)",
		s, RPERF_SCHED_MAX_RATE);
}

static int parse_rate(const char *v, double *out)
{
	char *end;
	double r;

	if (!*v || strchr(" \t+-", *v))
		return EINVAL;
	r = strtod(v, &end);
	if (end == v)
		return EINVAL;
	if (*end == 'k')
		r *= 1e3, end++;
	else if (*end == 'M')
		r *= 1e6, end++;
	if (*end || !isfinite(r) || r <= 0 || r > RPERF_SCHED_MAX_RATE)
		return EINVAL;
	*out = r;
	return 0;
}

int rperf_sched_parse(const char *s, struct rperf_sched *out, char *why,
		      size_t whylen)
{
	struct rperf_sched t = { .kind = RPERF_SCHED_CLOSED, .rate = 0 };
	const char *colon;
	size_t n;

	if (!s)
		return bad("", why, whylen);
	if (!strcmp(s, "closed")) {
		*out = t;
		return 0;
	}
	colon = strchr(s, ':');
	if (!colon)
		return bad(s, why, whylen);
	n = (size_t)(colon - s);
	if (n == 5 && !strncmp(s, "fixed", 5))
		t.kind = RPERF_SCHED_FIXED;
	else if (n == 7 && !strncmp(s, "poisson", 7))
		t.kind = RPERF_SCHED_POISSON;
	else
		return bad(s, why, whylen);
	if (parse_rate(colon + 1, &t.rate))
		return bad(s, why, whylen);
	*out = t;
	return 0;
}

void rperf_sched_format(const struct rperf_sched *s, char *buf, size_t n)
{
	if (!rperf_sched_valid(s))
		snprintf(buf, n, "?");
	else if (s->kind == RPERF_SCHED_CLOSED)
		snprintf(buf, n, "%s", kind_names[s->kind]);
	else
		snprintf(buf, n, "%s:%.10g", kind_names[s->kind], s->rate);
}

static uint64_t splitmix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

void rperf_sched_gen_init(struct rperf_sched_gen *g,
			  const struct rperf_sched *s, uint64_t seed)
{
	g->s = *s;
	g->rng = splitmix(seed);
	if (!g->rng)
		g->rng = 1; /* xorshift's one fixed point */
}

/* xorshift64*: a uniform in (0, 1] */
static double uniform(struct rperf_sched_gen *g)
{
	uint64_t x = g->rng;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	g->rng = x;
	return ((double)((x * 0x2545f4914f6cdd1dull) >> 11) + 1.0) /
	       9007199254740992.0;
}

double rperf_sched_next_ns(struct rperf_sched_gen *g)
{
	double mean = g->s.rate > 0 ? 1e9 / g->s.rate : 0;

	if (g->s.kind == RPERF_SCHED_POISSON)
		return -log(uniform(g)) * mean;
	return mean;
}

bool rperf_sched_fell_behind(const struct rperf_sched_figs *f, uint64_t samples)
{
	return f->open && f->late * 1000 > samples * RPERF_SCHED_LATE_PERMILLE;
}
