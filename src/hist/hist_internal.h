/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Private layout of the latency histogram (see include/rperf/hist.h).
 *
 * Bucket index of a magnitude m (k = bits):
 *   s   = max(0, floor(log2 m) - k + 1)       (0 for m < 2^k: exact buckets)
 *   idx = s * 2^(k-1) + (m >> s)
 * so magnitudes below 2^k have their own bucket and every power of two above
 * is split into 2^(k-1) linear sub-buckets of width 2^s. Each side (positive
 * magnitudes, negative magnitudes) has nb = (65 - k) * 2^(k-1) + 1 buckets,
 * enough for |v| <= 2^63 (INT64_MIN).
 *
 * counts[0 .. nb)    : v >= 0, by magnitude index
 * counts[nb .. 2nb)  : v < 0, by magnitude index (index 0 is never used)
 *
 * An "ordinal" numbers the buckets in increasing value order: ordinals
 * [0, nb) are the negative buckets from the most negative one, ordinals
 * [nb, 2nb) the non-negative ones.
 */
#ifndef RPERF_HIST_INTERNAL_H
#define RPERF_HIST_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "rperf/hist.h"

typedef unsigned __int128 rperf_u128;
typedef __int128 rperf_i128;

struct rperf_hist {
	unsigned int bits; /* k */
	unsigned int shift; /* k - 1 */
	uint64_t mask; /* 2^k - 1 */
	size_t nb; /* buckets per side */
	uint64_t count;
	int64_t min; /* INT64_MAX when empty */
	int64_t max; /* INT64_MIN when empty */
	rperf_u128 sum; /* two's complement of the signed sum */
	rperf_u128 sumsq; /* sum of squares, modulo 2^128 */
	uint64_t counts[];
};

/* Bucket index of magnitude @m: branch-free (clz of a non-zero value). */
static inline size_t hist_index(const struct rperf_hist *h, uint64_t m)
{
	unsigned int s =
		64u - h->bits - (unsigned int)__builtin_clzll(m | h->mask);

	return ((size_t)s << h->shift) + (size_t)(m >> s);
}

/* Slot in counts[] of ordinal @ord (< 2 nb). */
static inline size_t hist_slot(const struct rperf_hist *h, size_t ord)
{
	return ord < h->nb ? 2 * h->nb - 1 - ord : ord - h->nb;
}

static inline size_t hist_buckets_per_side(unsigned int bits)
{
	return ((size_t)(65u - bits) << (bits - 1)) + 1;
}

/* Value range [lo, hi] and representative of the bucket at ordinal @ord. */
struct hist_bucket {
	int64_t lo, hi, rep;
};
void hist_bucket_of(const struct rperf_hist *h, size_t ord,
		    struct hist_bucket *b);

/* Ordinal of the bucket holding @v. */
size_t hist_ordinal(const struct rperf_hist *h, int64_t v);

/* Allocate an empty histogram without validating @bits (caller did). */
struct rperf_hist *hist_alloc(unsigned int bits);

/* CRC-32C (Castagnoli) of @len bytes, as used by the serial format. */
uint32_t hist_crc32c(const uint8_t *p, size_t len);

#endif /* RPERF_HIST_INTERNAL_H */
