/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rperf latency histogram: log-linear buckets with a bounded relative error.
 *
 * Values are signed 64-bit integers (rperf records nanoseconds). Magnitudes
 * below 2^k (k = sub_bucket_bits) are stored exactly (one bucket per value);
 * above, every power of two [2^e, 2^(e+1)) is split into 2^(k-1) linear
 * sub-buckets of width 2^(e-k+1). A bucket is reported by its midpoint
 * (rounded down), so a reported value differs from every value of its bucket
 * by less than 2^-k of that value: the exact relative-error bound is 2^-k,
 * returned by rperf_hist_rel_error() (0.390625 % for the default k = 8;
 * values with |v| < 2^k are exact). See hist.c for the derivation.
 *
 * Negative values (RPerf's RTT = T_W - T_L can be <= 0) are kept in a mirror
 * set of buckets with the same bound; count, min, max, sum and sum of squares
 * are exact. Recording is O(1) and never allocates. Histograms with the same
 * k merge by adding counts; percentiles are never averaged.
 *
 * Percentile rule (nearest rank): for p in [0, 100], the value reported is the
 * representative of the bucket holding the sample of rank ceil(p/100 * N)
 * (rank 1 for p = 0; see rperf_hist_rank()), clamped to [min, max]; p = 100
 * returns the exact max and p = 0 the exact min. p < 0 or NaN is taken as 0,
 * p > 100 as 100.
 */
#ifndef RPERF_HIST_H
#define RPERF_HIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define RPERF_HIST_DEFAULT_BITS 8 /* relative error <= 2^-8 = 0.39 % */
#define RPERF_HIST_MIN_BITS 2
#define RPERF_HIST_MAX_BITS 14

struct rperf_hist;

/* Create an empty histogram. Returns 0, EINVAL (bits out of range), ENOMEM. */
int rperf_hist_create(unsigned int sub_bucket_bits, struct rperf_hist **out);
void rperf_hist_destroy(struct rperf_hist *h);
void rperf_hist_reset(struct rperf_hist *h);

/* Record one value. O(1), no allocation, cannot fail. */
void rperf_hist_record(struct rperf_hist *h, int64_t v);
/* Record @n copies of @v. */
void rperf_hist_record_n(struct rperf_hist *h, int64_t v, uint64_t n);

/* dst += src. Returns 0, EINVAL when their sub_bucket_bits differ, or
 * EOVERFLOW (dst unchanged) when a count, the sum or the sum of squares
 * would wrap: never a silent wrap. */
int rperf_hist_merge(struct rperf_hist *dst, const struct rperf_hist *src);

unsigned int rperf_hist_bits(const struct rperf_hist *h);
uint64_t rperf_hist_count(const struct rperf_hist *h);
uint64_t rperf_hist_count_nonpositive(const struct rperf_hist *h); /* v <= 0 */
uint64_t rperf_hist_count_negative(const struct rperf_hist *h); /* v < 0 */
int64_t rperf_hist_min(const struct rperf_hist *h); /* 0 when empty */
int64_t rperf_hist_max(const struct rperf_hist *h); /* 0 when empty */
double rperf_hist_mean(const struct rperf_hist *h); /* exact sums; 0 if empty */
double rperf_hist_stdev(const struct rperf_hist *h); /* population; 0 if < 2 */
/* Exact sum of the recorded values (as long double: 64-bit mantissa). */
long double rperf_hist_sum(const struct rperf_hist *h);
/* Worst-case relative error of a reported percentile, e.g. 0.0078. */
double rperf_hist_rel_error(const struct rperf_hist *h);
/* Bytes this histogram occupies (constant for a given bits). */
size_t rperf_hist_memory(const struct rperf_hist *h);

/* Percentile p in [0, 100] by the rule above. 0 when empty. */
int64_t rperf_hist_percentile(const struct rperf_hist *h, double p);
/*
 * Nearest rank of percentile @p among @n samples: ceil(p/100 * n) computed in
 * double with a 4-ulp tolerance (so 99.9 % of 10^6 is rank 999000, not
 * 999001 because 99.9 is not exact in binary), clamped to [1, n]; 0 if n = 0.
 */
uint64_t rperf_hist_rank(uint64_t n, double p);
/* Fill out[i] = percentile(ps[i]) for n values (one pass if ps increases). */
void rperf_hist_percentiles(const struct rperf_hist *h, const double *ps,
			    size_t n, int64_t *out);

/* CDF iteration over non-empty buckets, in increasing value order. */
struct rperf_hist_iter {
	/* private */
	const struct rperf_hist *h;
	int64_t pos;
	/* public, valid after rperf_hist_next() returned true */
	int64_t lo, hi; /* bucket covers [lo, hi] */
	int64_t value; /* representative value (as used for percentiles) */
	uint64_t count; /* samples in the bucket */
	uint64_t cumulative; /* samples <= hi */
	double fraction; /* cumulative / total */
};
void rperf_hist_iter_init(struct rperf_hist_iter *it,
			  const struct rperf_hist *h);
bool rperf_hist_next(struct rperf_hist_iter *it);

/*
 * Compact serialization of the non-empty buckets plus exact aggregates, so
 * histograms can travel between hosts and be merged centrally. The format is
 * versioned and self-delimiting; see hist_serial.c.
 *
 * rperf_hist_serialize: writes at most @cap bytes to @buf and the length used
 * to *@len. Returns 0, or ENOSPC (then *@len holds the size needed).
 * rperf_hist_deserialize: validates everything (magic, version, lengths,
 * ranges, totals) before building the histogram; returns 0, EBADMSG on any
 * malformed input (never crashes on hostile bytes), ENOMEM.
 */
size_t rperf_hist_serialized_size(const struct rperf_hist *h);
int rperf_hist_serialize(const struct rperf_hist *h, uint8_t *buf, size_t cap,
			 size_t *len);
int rperf_hist_deserialize(const uint8_t *buf, size_t len,
			   struct rperf_hist **out);

#ifdef __cplusplus
}
#endif
#endif /* RPERF_HIST_H */
