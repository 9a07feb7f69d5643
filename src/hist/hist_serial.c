// SPDX-License-Identifier: BSD-2-Clause
/*
 * Histogram serialization, version 1. All integers little-endian.
 *
 *   offset  size  field
 *   0       4     magic "RPHG"
 *   4       1     version (1)
 *   5       1     bits (RPERF_HIST_MIN_BITS .. RPERF_HIST_MAX_BITS)
 *   6       2     reserved, 0
 *   8       4     body length B
 *   12      B     body:
 *                   varint count
 *                   i64 min, i64 max        (0, 0 when empty)
 *                   u128 sum                (two's complement of sum x)
 *                   u128 sumsq              (sum x^2 modulo 2^128)
 *                   varint nbuckets         (non-empty buckets only)
 *                   nbuckets x { varint delta, varint count }
 *   12+B    4     CRC-32C of bytes [0, 12 + B)
 *
 * Varints are LEB128, canonical (no redundant trailing zero byte), at most
 * 10 bytes. A bucket is named by its ordinal (increasing value order, see
 * hist_internal.h); delta is the first ordinal, then ordinal - previous - 1.
 * The deserializer rejects anything that is not exactly what the serializer
 * would have produced for some histogram, so a deserialize/serialize round
 * trip is byte-identical.
 */
#include <errno.h>
#include <string.h>

#include "hist_internal.h"

#define HIST_MAGIC "RPHG"
#define HIST_VERSION 1
#define HIST_HDR 12u
#define HIST_CRC 4u
#define HIST_FIXED (8u + 8u + 16u + 16u)

uint32_t hist_crc32c(const uint8_t *p, size_t len)
{
	uint32_t crc = 0xffffffffu;
	size_t i;
	int b;

	for (i = 0; i < len; i++) {
		crc ^= p[i];
		for (b = 0; b < 8; b++)
			crc = (crc >> 1) ^ (0x82f63b78u & (0u - (crc & 1u)));
	}
	return ~crc;
}

static size_t varint_len(uint64_t v)
{
	size_t n = 1;

	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

static uint8_t *put_varint(uint8_t *p, uint64_t v)
{
	while (v >= 0x80) {
		*p++ = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	*p++ = (uint8_t)v;
	return p;
}

static uint8_t *put_le(uint8_t *p, rperf_u128 v, unsigned int bytes)
{
	unsigned int i;

	for (i = 0; i < bytes; i++) {
		*p++ = (uint8_t)v;
		v >>= 8;
	}
	return p;
}

size_t rperf_hist_serialized_size(const struct rperf_hist *h)
{
	size_t n = HIST_HDR + HIST_FIXED + HIST_CRC + varint_len(h->count);
	size_t ord, prev = 0, nbuckets = 0;

	for (ord = 0; ord < 2 * h->nb; ord++) {
		uint64_t c = h->counts[hist_slot(h, ord)];

		if (!c)
			continue;
		n += varint_len(nbuckets ? ord - prev - 1 : ord) +
		     varint_len(c);
		prev = ord;
		nbuckets++;
	}
	return n + varint_len(nbuckets);
}

static uint8_t *put_buckets(const struct rperf_hist *h, uint8_t *p)
{
	size_t ord, prev = 0, nbuckets = 0;

	for (ord = 0; ord < 2 * h->nb; ord++)
		nbuckets += h->counts[hist_slot(h, ord)] != 0;
	p = put_varint(p, nbuckets);
	nbuckets = 0;
	for (ord = 0; ord < 2 * h->nb; ord++) {
		uint64_t c = h->counts[hist_slot(h, ord)];

		if (!c)
			continue;
		p = put_varint(p, nbuckets ? ord - prev - 1 : ord);
		p = put_varint(p, c);
		prev = ord;
		nbuckets++;
	}
	return p;
}

int rperf_hist_serialize(const struct rperf_hist *h, uint8_t *buf, size_t cap,
			 size_t *len)
{
	size_t need = rperf_hist_serialized_size(h);
	uint8_t *p = buf;

	*len = need;
	if (need > cap || need - HIST_HDR - HIST_CRC > UINT32_MAX)
		return ENOSPC;
	memcpy(p, HIST_MAGIC, 4);
	p += 4;
	*p++ = HIST_VERSION;
	*p++ = (uint8_t)h->bits;
	p = put_le(p, 0, 2);
	p = put_le(p, need - HIST_HDR - HIST_CRC, 4);
	p = put_varint(p, h->count);
	p = put_le(p, (uint64_t)rperf_hist_min(h), 8);
	p = put_le(p, (uint64_t)rperf_hist_max(h), 8);
	p = put_le(p, h->sum, 16);
	p = put_le(p, h->sumsq, 16);
	p = put_buckets(h, p);
	put_le(p, hist_crc32c(buf, (size_t)(p - buf)), 4);
	return 0;
}

/* Bounds-checked reader over [p, end). */
struct hist_reader {
	const uint8_t *p, *end;
};

static int get_le(struct hist_reader *r, unsigned int bytes, rperf_u128 *v)
{
	unsigned int i;

	if ((size_t)(r->end - r->p) < bytes)
		return EBADMSG;
	*v = 0;
	for (i = 0; i < bytes; i++)
		*v |= (rperf_u128)r->p[i] << (8 * i);
	r->p += bytes;
	return 0;
}

static int get_varint(struct hist_reader *r, uint64_t *v)
{
	uint64_t x = 0;
	unsigned int i;

	for (i = 0; i < 10; i++) {
		uint8_t b;

		if (r->p >= r->end)
			return EBADMSG;
		b = *r->p++;
		if (i == 9 && b > 1)
			return EBADMSG; /* more than 64 bits */
		x |= (uint64_t)(b & 0x7f) << (7 * i);
		if (!(b & 0x80)) {
			if (i > 0 && b == 0)
				return EBADMSG; /* not canonical */
			*v = x;
			return 0;
		}
	}
	return EBADMSG;
}

static int get_i64(struct hist_reader *r, int64_t *v)
{
	rperf_u128 x;

	if (get_le(r, 8, &x))
		return EBADMSG;
	*v = (int64_t)(uint64_t)x;
	return 0;
}

/* Header and CRC; sets @body to the body bytes and *bits. */
static int check_frame(const uint8_t *buf, size_t len, unsigned int *bits,
		       struct hist_reader *body)
{
	struct hist_reader r;
	rperf_u128 blen, crc;

	if (!buf || len < HIST_HDR + HIST_CRC || memcmp(buf, HIST_MAGIC, 4))
		return EBADMSG;
	if (buf[4] != HIST_VERSION || buf[5] < RPERF_HIST_MIN_BITS ||
	    buf[5] > RPERF_HIST_MAX_BITS || buf[6] || buf[7])
		return EBADMSG;
	r.p = buf + 8;
	r.end = buf + len;
	if (get_le(&r, 4, &blen) || blen != len - HIST_HDR - HIST_CRC)
		return EBADMSG;
	r.p = buf + len - HIST_CRC;
	if (get_le(&r, 4, &crc) || crc != hist_crc32c(buf, len - HIST_CRC))
		return EBADMSG;
	*bits = buf[5];
	body->p = buf + HIST_HDR;
	body->end = buf + len - HIST_CRC;
	return 0;
}

static int check_ordinal(const struct rperf_hist *h, size_t ord)
{
	/* "-0" bucket and the positive bucket of 2^63 never hold values */
	if (ord >= 2 * h->nb || ord == h->nb - 1 || ord == 2 * h->nb - 1)
		return EBADMSG;
	return 0;
}

static int get_buckets(struct hist_reader *r, struct rperf_hist *h,
		       size_t *first, size_t *last)
{
	uint64_t nbuckets, delta, c, total = 0, i;
	size_t ord = 0;

	if (get_varint(r, &nbuckets) || nbuckets > 2 * h->nb)
		return EBADMSG;
	for (i = 0; i < nbuckets; i++) {
		if (get_varint(r, &delta) || get_varint(r, &c) || !c)
			return EBADMSG;
		if (delta >= 2 * h->nb || (i && delta >= 2 * h->nb - ord - 1))
			return EBADMSG;
		ord = i ? ord + 1 + (size_t)delta : (size_t)delta;
		if (check_ordinal(h, ord) || total + c < total)
			return EBADMSG;
		total += c;
		h->counts[hist_slot(h, ord)] = c;
		if (!i)
			*first = ord;
		*last = ord;
	}
	if (total != h->count || r->p != r->end)
		return EBADMSG;
	return 0;
}

static int in_bucket(const struct rperf_hist *h, size_t ord, int64_t v)
{
	struct hist_bucket b;

	hist_bucket_of(h, ord, &b);
	return v >= b.lo && v <= b.hi;
}

static int get_body(struct hist_reader *r, struct rperf_hist *h)
{
	size_t first = 0, last = 0;
	int64_t min, max;

	if (get_varint(r, &h->count) || get_i64(r, &min) || get_i64(r, &max) ||
	    get_le(r, 16, &h->sum) || get_le(r, 16, &h->sumsq))
		return EBADMSG;
	if (get_buckets(r, h, &first, &last))
		return EBADMSG;
	if (!h->count)
		return min || max || h->sum || h->sumsq ? EBADMSG : 0;
	if (min > max || !in_bucket(h, first, min) || !in_bucket(h, last, max))
		return EBADMSG;
	h->min = min;
	h->max = max;
	return 0;
}

int rperf_hist_deserialize(const uint8_t *buf, size_t len,
			   struct rperf_hist **out)
{
	struct hist_reader body;
	struct rperf_hist *h;
	unsigned int bits;
	int ret;

	ret = check_frame(buf, len, &bits, &body);
	if (ret)
		return ret;
	h = hist_alloc(bits);
	if (!h)
		return ENOMEM;
	ret = get_body(&body, h);
	if (ret) {
		rperf_hist_destroy(h);
		return ret;
	}
	*out = h;
	return 0;
}
