/* SPDX-License-Identifier: BSD-2-Clause */
/* Readings and per-interval series of counters (counters.h). */
#include "counters/counters.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int rperf_ctr_add(struct rperf_ctr_reading *r, const char *name, uint64_t v,
		  bool gauge)
{
	size_t len = strlen(name);

	if (!len || len >= RPERF_CTR_NAME)
		return EINVAL;
	if (r->n >= RPERF_CTR_MAX)
		return E2BIG;
	memcpy(r->e[r->n].name, name, len + 1);
	r->e[r->n].v = v;
	r->e[r->n].gauge = gauge;
	r->n++;
	return 0;
}

static int series_grow(struct rperf_ctr_series *s)
{
	size_t cap = s->cap ? s->cap * 2 : 64;
	uint64_t *st, *du, *v;

	st = realloc(s->start_ns, cap * sizeof(*st));
	if (!st)
		return ENOMEM;
	s->start_ns = st;
	du = realloc(s->dur_ns, cap * sizeof(*du));
	if (!du)
		return ENOMEM;
	s->dur_ns = du;
	v = realloc(s->v, cap * (s->ncols ? s->ncols : 1) * sizeof(*v));
	if (!v)
		return ENOMEM;
	s->v = v;
	s->cap = cap;
	return 0;
}

static int prime(struct rperf_ctr_series *s, const struct rperf_ctr_reading *r)
{
	size_t n = r ? r->n : 0;

	s->names = calloc(n ? n : 1, sizeof(*s->names));
	s->gauge = calloc(n ? n : 1, sizeof(*s->gauge));
	s->prev = calloc(n ? n : 1, sizeof(*s->prev));
	if (!s->names || !s->gauge || !s->prev)
		return ENOMEM;
	for (size_t i = 0; i < n; i++) {
		memcpy(s->names[i], r->e[i].name, RPERF_CTR_NAME);
		s->gauge[i] = r->e[i].gauge;
		s->prev[i] = r->e[i].v;
	}
	s->ncols = n;
	s->primed = true;
	return 0;
}

/* Column @c's value in @r (RPERF_CTR_MISSING when absent); @r's order
 * normally matches the columns', so the same index is tried first. */
static uint64_t value_of(const struct rperf_ctr_series *s, size_t c,
			 const struct rperf_ctr_reading *r)
{
	if (!r)
		return RPERF_CTR_MISSING;
	if (c < r->n && !strcmp(r->e[c].name, s->names[c]))
		return r->e[c].v;
	for (size_t i = 0; i < r->n; i++)
		if (!strcmp(r->e[i].name, s->names[c]))
			return r->e[i].v;
	return RPERF_CTR_MISSING;
}

int rperf_ctr_series_sample(struct rperf_ctr_series *s, uint64_t t_ns,
			    const struct rperf_ctr_reading *r)
{
	bool keep;
	uint64_t *row;

	if (!s->primed) { /* columns from the first reading that worked */
		s->prev_t = t_ns;
		return r ? prime(s, r) : 0;
	}
	keep = (s->nrows + 1) * (s->ncols ? s->ncols : 1) <=
	       RPERF_CTR_MAX_CELLS;
	if (keep && s->nrows == s->cap && series_grow(s))
		return ENOMEM;
	if (!keep)
		s->dropped++;
	row = keep ? &s->v[s->nrows * s->ncols] : NULL;
	for (size_t c = 0; c < s->ncols; c++) {
		uint64_t cur = value_of(s, c, r), p = s->prev[c], d;

		if (cur == RPERF_CTR_MISSING)
			d = RPERF_CTR_MISSING;
		else if (s->gauge[c]) /* the level at the row's end */
			d = cur;
		else if (p == RPERF_CTR_MISSING)
			d = RPERF_CTR_MISSING;
		else
			d = cur >= p ? cur - p : cur;
		if (row)
			row[c] = d;
		s->prev[c] = cur;
	}
	if (keep) {
		s->start_ns[s->nrows] = s->prev_t;
		s->dur_ns[s->nrows] = t_ns > s->prev_t ? t_ns - s->prev_t : 0;
		s->nrows++;
	}
	s->prev_t = t_ns;
	return 0;
}

void rperf_ctr_series_move(struct rperf_ctr_series *to,
			   struct rperf_ctr_series *s)
{
	rperf_ctr_series_fini(to);
	*to = *s;
	memset(s, 0, sizeof(*s));
}

void rperf_ctr_series_fini(struct rperf_ctr_series *s)
{
	free(s->names);
	free(s->gauge);
	free(s->start_ns);
	free(s->dur_ns);
	free(s->v);
	free(s->prev);
	memset(s, 0, sizeof(*s));
}

long rperf_ctr_series_gauge_at(const struct rperf_ctr_series *s,
			       uint64_t start_ns, uint64_t span_ns)
{
	uint64_t mid = start_ns + span_ns / 2, best = span_ns / 2 + 1;
	long at = -1;

	for (size_t i = 0; i < s->nrows; i++) {
		uint64_t end = s->start_ns[i] + s->dur_ns[i];
		uint64_t d = end > mid ? end - mid : mid - end;

		if (d <= best) { /* a tie: the later reading */
			best = d;
			at = (long)i;
		}
	}
	return at;
}

long rperf_ctr_series_row_at(const struct rperf_ctr_series *s,
			     uint64_t start_ns, uint64_t span_ns)
{
	uint64_t best = span_ns / 2 + 1;
	long at = -1;

	for (size_t i = 0; i < s->nrows; i++) {
		uint64_t d = s->start_ns[i] > start_ns ?
				     s->start_ns[i] - start_ns :
				     start_ns - s->start_ns[i];

		if (d < best) {
			best = d;
			at = (long)i;
		}
	}
	return at;
}
