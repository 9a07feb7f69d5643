// SPDX-License-Identifier: BSD-2-Clause
/*
 * Latency histogram queries: bucket geometry, nearest-rank percentiles and
 * CDF iteration in increasing value order (negative buckets first).
 */
#include <float.h>
#include <math.h>

#include "hist_internal.h"

/* Magnitude range of the bucket with index @i on one side. */
static void hist_mag_range(const struct rperf_hist *h, size_t i, uint64_t *lo,
			   uint64_t *hi)
{
	unsigned int s;
	uint64_t j;

	if (i <= h->mask) {
		*lo = *hi = i;
		return;
	}
	s = (unsigned int)(i >> h->shift) - 1;
	j = (uint64_t)i - ((uint64_t)s << h->shift);
	*lo = j << s;
	*hi = *lo + ((UINT64_C(1) << s) - 1);
}

void hist_bucket_of(const struct rperf_hist *h, size_t ord,
		    struct hist_bucket *b)
{
	const uint64_t top = UINT64_C(1) << 63;
	uint64_t lo, hi, rep;

	if (ord >= h->nb) {
		hist_mag_range(h, ord - h->nb, &lo, &hi);
		if (hi > top - 1)
			hi = top - 1;
		if (lo > hi)
			lo = hi; /* unreachable last bucket */
		rep = lo + (hi - lo) / 2;
		b->lo = (int64_t)lo;
		b->hi = (int64_t)hi;
		b->rep = (int64_t)rep;
		return;
	}
	hist_mag_range(h, h->nb - 1 - ord, &lo, &hi);
	if (hi > top)
		hi = top;
	if (lo == 0)
		lo = 1; /* unused "-0" bucket */
	rep = lo + (hi - lo) / 2;
	/* -(x) for x in [1, 2^63] without signed overflow */
	b->lo = -(int64_t)(hi - 1) - 1;
	b->hi = -(int64_t)(lo - 1) - 1;
	b->rep = -(int64_t)(rep - 1) - 1;
}

size_t hist_ordinal(const struct rperf_hist *h, int64_t v)
{
	uint64_t u = (uint64_t)v;

	if (v >= 0)
		return h->nb + hist_index(h, u);
	return h->nb - 1 - hist_index(h, (~u) + 1);
}

uint64_t rperf_hist_rank(uint64_t n, double p)
{
	double x;

	if (!n)
		return 0;
	if (!(p > 0.0))
		return 1;
	if (p >= 100.0)
		return n;
	x = p / 100.0 * (double)n;
	x -= x * 4 * DBL_EPSILON; /* 99.9 % of 10^6 is 999000, not 999001 */
	x = ceil(x);
	if (x < 1.0)
		return 1;
	if (x >= (double)n)
		return n;
	return (uint64_t)x;
}

/* Resumable scan: @cum counts the samples in ordinals below @ord. */
struct hist_scan {
	size_t ord;
	uint64_t cum;
};

static size_t hist_find_rank(const struct rperf_hist *h, struct hist_scan *sc,
			     uint64_t rank)
{
	size_t end = 2 * h->nb;

	while (sc->ord < end) {
		uint64_t c = h->counts[hist_slot(h, sc->ord)];

		if (sc->cum + c >= rank)
			return sc->ord;
		sc->cum += c;
		sc->ord++;
	}
	return end - 1; /* not reached when counts add up */
}

static int64_t hist_clamp(const struct rperf_hist *h, int64_t v)
{
	if (v < h->min)
		return h->min;
	if (v > h->max)
		return h->max;
	return v;
}

static int64_t hist_pct_scan(const struct rperf_hist *h, struct hist_scan *sc,
			     double p)
{
	struct hist_bucket b;
	size_t ord;

	if (!h->count)
		return 0;
	if (!(p > 0.0))
		return h->min;
	if (p >= 100.0)
		return h->max;
	ord = hist_find_rank(h, sc, rperf_hist_rank(h->count, p));
	hist_bucket_of(h, ord, &b);
	return hist_clamp(h, b.rep);
}

int64_t rperf_hist_percentile(const struct rperf_hist *h, double p)
{
	struct hist_scan sc = { 0, 0 };

	return hist_pct_scan(h, &sc, p);
}

void rperf_hist_percentiles(const struct rperf_hist *h, const double *ps,
			    size_t n, int64_t *out)
{
	struct hist_scan sc = { 0, 0 };
	double prev = -1.0;
	size_t i;

	for (i = 0; i < n; i++) {
		/* one pass while ps[] increases; restart otherwise */
		if (!(ps[i] >= prev)) {
			sc.ord = 0;
			sc.cum = 0;
		}
		out[i] = hist_pct_scan(h, &sc, ps[i]);
		prev = ps[i] > 0.0 ? ps[i] : 0.0;
	}
}

void rperf_hist_iter_init(struct rperf_hist_iter *it,
			  const struct rperf_hist *h)
{
	it->h = h;
	it->pos = 0;
	it->lo = it->hi = it->value = 0;
	it->count = 0;
	it->cumulative = 0;
	it->fraction = 0.0;
}

bool rperf_hist_next(struct rperf_hist_iter *it)
{
	const struct rperf_hist *h = it->h;
	size_t end = 2 * h->nb, ord;
	struct hist_bucket b;

	if (it->pos < 0)
		return false;
	for (ord = (size_t)it->pos; ord < end; ord++) {
		uint64_t c = h->counts[hist_slot(h, ord)];

		if (!c)
			continue;
		hist_bucket_of(h, ord, &b);
		it->lo = b.lo;
		it->hi = b.hi;
		it->value = hist_clamp(h, b.rep);
		it->count = c;
		it->cumulative += c;
		it->fraction = (double)it->cumulative / (double)h->count;
		it->pos = (int64_t)ord + 1;
		return true;
	}
	it->pos = (int64_t)end;
	return false;
}
