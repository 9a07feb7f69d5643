/* SPDX-License-Identifier: BSD-2-Clause */
/* rperf compare: matching series and differencing them (compare.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare_priv.h"

static void note(struct rperf_cmp_result *r, const char *msg)
{
	if (r->nnotes < RPERF_CMP_MAX_NOTES)
		snprintf(r->notes[r->nnotes++], sizeof(r->notes[0]), "%s", msg);
}

static const struct cmp_value *find(const struct cmp_stats *s, const char *k)
{
	for (size_t i = 0; i < s->nvalues; i++)
		if (strcmp(s->values[i].key, k) == 0)
			return &s->values[i];
	return NULL;
}

/* |v| times the relative error of a reported value of @s. */
static double err_of(const struct cmp_stats *s, const struct cmp_value *v)
{
	double rel = (v->exact ? 0 : s->rel_error) + s->clock_ppm * 1e-6;

	return fabs((double)v->v) * rel;
}

/* The points both series report, in the base's order. */
static void diff_series(const struct cmp_stats *b, const struct cmp_stats *r,
			struct rperf_cmp_series *out)
{
	memset(out, 0, sizeof(*out));
	snprintf(out->base_name, sizeof(out->base_name), "%s", b->name);
	snprintf(out->run_name, sizeof(out->run_name), "%s", r->name);
	out->base_count = b->count;
	out->run_count = r->count;
	for (size_t i = 0; i < b->nvalues; i++) {
		const struct cmp_value *bv = &b->values[i];
		const struct cmp_value *rv = find(r, bv->key);
		struct rperf_cmp_point *p;

		if (!rv)
			continue;
		p = &out->points[out->npoints++];
		snprintf(p->key, sizeof(p->key), "%s", bv->key);
		p->base = bv->v;
		p->run = rv->v;
		p->diff = rv->v - bv->v;
		p->uncertainty = err_of(b, bv) + err_of(r, rv);
		p->unreliable = bv->unreliable || rv->unreliable;
		p->nonpositive = bv->v <= 0 || rv->v <= 0;
	}
}

static const struct cmp_stats *by_name(const struct rperf_cmp_doc *d,
				       const char *name)
{
	for (size_t i = 0; i < d->nstats; i++)
		if (strcmp(d->stats[i].name, name) == 0)
			return &d->stats[i];
	return NULL;
}

/* The series to pair when names differ: the only one, or the only LSG. */
static const struct cmp_stats *single(const struct rperf_cmp_doc *d)
{
	const struct cmp_stats *one = NULL;

	if (d->nstats == 1)
		return &d->stats[0];
	for (size_t i = 0; i < d->nstats; i++) {
		if (strncmp(d->stats[i].name, "lsg ", 4) != 0)
			continue;
		if (one)
			return NULL;
		one = &d->stats[i];
	}
	return one;
}

static bool any_nonpositive(const struct rperf_cmp_result *r)
{
	for (size_t i = 0; i < r->nseries; i++)
		for (size_t k = 0; k < r->series[i].npoints; k++)
			if (r->series[i].points[k].nonpositive)
				return true;
	return false;
}

static void notes_for(struct rperf_cmp_result *r, const struct rperf_cmp_doc *b,
		      const struct rperf_cmp_doc *run)
{
	bool assumed = false;
	char msg[256];

	for (size_t i = 0; i < b->nstats; i++)
		assumed |= b->stats[i].rel_assumed;
	for (size_t i = 0; i < run->nstats; i++)
		assumed |= run->stats[i].rel_assumed;
	if (assumed) {
		snprintf(
			msg, sizeof(msg),
			"a report does not state its histogram error: %.2f %% assumed (rperf's default)",
			100.0 * ldexp(1.0, -8));
		note(r, msg);
	}
	if (b->clock_unknown || run->clock_unknown)
		note(r,
		     "a report does not state its clock error: 0 ppm assumed for it");
	note(r,
	     "+- = histogram bucket bounds + clock error of both reports; sampling error not included (points marked * have too few samples)");
	if (any_nonpositive(r))
		note(r,
		     "points marked ! have a percentile <= 0 in a report (Equation 1's RTT is a difference of two passes and may be): their difference is noise, not a latency added");
}

static int pair_all(struct rperf_cmp_result *r, const struct rperf_cmp_doc *b,
		    const struct rperf_cmp_doc *run)
{
	const struct cmp_stats *sb, *sr;

	r->series = calloc(b->nstats, sizeof(*r->series));
	if (!r->series)
		return ENOMEM;
	for (size_t i = 0; i < b->nstats; i++) {
		sr = by_name(run, b->stats[i].name);
		if (sr)
			diff_series(&b->stats[i], sr, &r->series[r->nseries++]);
	}
	if (r->nseries)
		return 0;
	sb = single(b);
	sr = single(run);
	if (!sb || !sr)
		return EINVAL;
	diff_series(sb, sr, &r->series[r->nseries++]);
	note(r,
	     "no series has the same name in both reports: the only latency series of each was paired");
	return 0;
}

int rperf_cmp_compute(const struct rperf_cmp_doc *base,
		      const struct rperf_cmp_doc *run,
		      struct rperf_cmp_result **out, char *err, size_t errlen)
{
	struct rperf_cmp_result *r;
	int rc;

	if (strcmp(base->figure, run->figure) != 0) {
		snprintf(
			err, errlen,
			"%s reports %s, %s reports %s: compare like with like (run both with the same --method)",
			base->path, base->figure, run->path, run->figure);
		return EINVAL;
	}
	r = calloc(1, sizeof(*r));
	if (!r)
		return ENOMEM;
	snprintf(r->base_path, sizeof(r->base_path), "%s", base->path);
	snprintf(r->run_path, sizeof(r->run_path), "%s", run->path);
	snprintf(r->base_command, sizeof(r->base_command), "%s", base->command);
	snprintf(r->run_command, sizeof(r->run_command), "%s", run->command);
	snprintf(r->figure, sizeof(r->figure), "%s", base->figure);
	rc = pair_all(r, base, run);
	if (rc == EINVAL)
		snprintf(
			err, errlen,
			"%s and %s have no latency series in common (names differ and neither has exactly one LSG)",
			base->path, run->path);
	if (rc) {
		rperf_cmp_result_free(r);
		return rc;
	}
	notes_for(r, base, run);
	*out = r;
	return 0;
}

void rperf_cmp_result_free(struct rperf_cmp_result *r)
{
	if (!r)
		return;
	free(r->series);
	free(r);
}
