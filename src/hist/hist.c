// SPDX-License-Identifier: BSD-2-Clause
/*
 * Latency histogram core: allocation, recording, merging, exact aggregates.
 *
 * Error bound. A bucket of width w = 2^s (s >= 1) starts at lo = j * 2^s with
 * j in [2^(k-1), 2^k), so every value in it is >= 2^(k-1) * w. Its
 * representative is the midpoint rounded down, rep = lo + (w - 1) / 2
 * = lo + w/2 - 1, so |rep - v| <= w/2 for every v in the bucket, and
 * |rep - v| / |v| <= (w/2) / (2^(k-1) * w) = 2^-k (in fact strictly below).
 * Buckets of width 1 (|v| < 2^k) are exact. Percentiles are clamped to
 * [min, max], which only moves them closer to the true value. Hence the bound
 * returned by rperf_hist_rel_error() is exactly 2^-k (0.390625 % for k = 8).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hist_internal.h"

struct rperf_hist *hist_alloc(unsigned int bits)
{
	size_t nb = hist_buckets_per_side(bits);
	struct rperf_hist *h;

	h = calloc(1, sizeof(*h) + 2 * nb * sizeof(h->counts[0]));
	if (!h)
		return NULL;
	h->bits = bits;
	h->shift = bits - 1;
	h->mask = (UINT64_C(1) << bits) - 1;
	h->nb = nb;
	h->min = INT64_MAX;
	h->max = INT64_MIN;
	return h;
}

int rperf_hist_create(unsigned int sub_bucket_bits, struct rperf_hist **out)
{
	struct rperf_hist *h;

	if (!out || sub_bucket_bits < RPERF_HIST_MIN_BITS ||
	    sub_bucket_bits > RPERF_HIST_MAX_BITS)
		return EINVAL;
	h = hist_alloc(sub_bucket_bits);
	if (!h)
		return ENOMEM;
	*out = h;
	return 0;
}

void rperf_hist_destroy(struct rperf_hist *h)
{
	free(h);
}

void rperf_hist_reset(struct rperf_hist *h)
{
	memset(h->counts, 0, 2 * h->nb * sizeof(h->counts[0]));
	h->count = 0;
	h->min = INT64_MAX;
	h->max = INT64_MIN;
	h->sum = 0;
	h->sumsq = 0;
}

void rperf_hist_record(struct rperf_hist *h, int64_t v)
{
	uint64_t u = (uint64_t)v;
	uint64_t neg = 0 - (u >> 63); /* all ones when v < 0 */
	uint64_t m = (u ^ neg) - neg; /* |v|, 2^63 for INT64_MIN */
	size_t i = hist_index(h, m) + (h->nb & (size_t)neg);

	h->counts[i]++;
	h->count++;
	h->sum += (rperf_u128)(rperf_i128)v;
	h->sumsq += (rperf_u128)m * m;
	h->min = v < h->min ? v : h->min;
	h->max = v > h->max ? v : h->max;
}

void rperf_hist_record_n(struct rperf_hist *h, int64_t v, uint64_t n)
{
	uint64_t u = (uint64_t)v;
	uint64_t neg = 0 - (u >> 63);
	uint64_t m = (u ^ neg) - neg;
	size_t i = hist_index(h, m) + (h->nb & (size_t)neg);

	if (!n)
		return;
	h->counts[i] += n;
	h->count += n;
	h->sum += (rperf_u128)(rperf_i128)v * n;
	h->sumsq += (rperf_u128)m * m * n;
	h->min = v < h->min ? v : h->min;
	h->max = v > h->max ? v : h->max;
}

/* Would dst += src wrap a count, the signed sum or the sum of squares? */
static bool merge_wraps(const struct rperf_hist *dst,
			const struct rperf_hist *src)
{
	rperf_i128 s;
	uint64_t c;

	if (__builtin_add_overflow(dst->count, src->count, &c) ||
	    __builtin_add_overflow((rperf_i128)dst->sum, (rperf_i128)src->sum,
				   &s) ||
	    dst->sumsq + src->sumsq < dst->sumsq)
		return true;
	for (size_t i = 0; i < 2 * dst->nb; i++)
		if (__builtin_add_overflow(dst->counts[i], src->counts[i], &c))
			return true;
	return false;
}

int rperf_hist_merge(struct rperf_hist *dst, const struct rperf_hist *src)
{
	size_t i;

	if (dst->bits != src->bits)
		return EINVAL;
	if (!src->count)
		return 0;
	if (merge_wraps(dst, src))
		return EOVERFLOW;
	for (i = 0; i < 2 * dst->nb; i++)
		dst->counts[i] += src->counts[i];
	dst->count += src->count;
	dst->sum += src->sum;
	dst->sumsq += src->sumsq;
	dst->min = src->min < dst->min ? src->min : dst->min;
	dst->max = src->max > dst->max ? src->max : dst->max;
	return 0;
}

unsigned int rperf_hist_bits(const struct rperf_hist *h)
{
	return h->bits;
}

uint64_t rperf_hist_count(const struct rperf_hist *h)
{
	return h->count;
}

uint64_t rperf_hist_count_negative(const struct rperf_hist *h)
{
	uint64_t n = 0;
	size_t i;

	for (i = h->nb; i < 2 * h->nb; i++)
		n += h->counts[i];
	return n;
}

uint64_t rperf_hist_count_nonpositive(const struct rperf_hist *h)
{
	return rperf_hist_count_negative(h) + h->counts[0];
}

int64_t rperf_hist_min(const struct rperf_hist *h)
{
	return h->count ? h->min : 0;
}

int64_t rperf_hist_max(const struct rperf_hist *h)
{
	return h->count ? h->max : 0;
}

long double rperf_hist_sum(const struct rperf_hist *h)
{
	return (long double)(rperf_i128)h->sum;
}

double rperf_hist_mean(const struct rperf_hist *h)
{
	if (!h->count)
		return 0.0;
	return (double)((long double)(rperf_i128)h->sum / h->count);
}

/*
 * Population variance from the exact sums without cancellation: with
 * q = floor(S / N) and r = S - qN (0 <= r < N),
 *   sum (x - q)^2 = Q - N q^2 - 2 q r        (exact modulo 2^128)
 *   sum (x - mean)^2 = sum (x - q)^2 - r^2 / N.
 */
double rperf_hist_stdev(const struct rperf_hist *h)
{
	rperf_i128 s = (rperf_i128)h->sum, n = (rperf_i128)h->count, q, r;
	rperf_u128 uq, sq;
	long double m2;

	if (h->count < 2)
		return 0.0;
	q = s / n;
	r = s - q * n;
	if (r < 0) {
		q -= 1;
		r += n;
	}
	uq = (rperf_u128)q;
	sq = h->sumsq - (rperf_u128)h->count * uq * uq - 2 * uq * (rperf_u128)r;
	m2 = (long double)sq - (long double)r * (long double)r / h->count;
	if (m2 < 0)
		m2 = 0;
	return (double)sqrtl(m2 / h->count);
}

double rperf_hist_rel_error(const struct rperf_hist *h)
{
	return ldexp(1.0, -(int)h->bits);
}

size_t rperf_hist_memory(const struct rperf_hist *h)
{
	return sizeof(*h) + 2 * h->nb * sizeof(h->counts[0]);
}
