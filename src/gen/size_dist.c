/* SPDX-License-Identifier: BSD-2-Clause */
#include "gen/size_dist.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/units.h"
#include "util/err.h"

#define ITEM_LEN 64

void rperf_size_dist_finish(struct rperf_size_dist *d)
{
	double sum = 0, acc = 0;

	for (uint32_t i = 0; i < d->n; i++)
		sum += d->weight[i];
	for (uint32_t i = 0; i < d->n; i++) {
		acc += d->weight[i];
		d->cdf[i] = acc / sum;
	}
	if (d->n)
		d->cdf[d->n - 1] = 1.0;
}

/* "SIZE:WEIGHT" or "SIZE WEIGHT" (@item is cut in place). */
static int parse_item(char *item, uint64_t max_size, struct rperf_size_dist *d,
		      char *why, size_t whylen)
{
	char *sep = strpbrk(item, ": \t"), *end;
	char swhy[160];
	uint64_t size;
	double w;

	if (d->n == RPERF_SIZE_DIST_MAX)
		return rperf_fail(
			why, whylen, EINVAL,
			"more than %d sizes in the distribution; merge some",
			RPERF_SIZE_DIST_MAX);
	if (!sep)
		return rperf_fail(
			why, whylen, EINVAL,
			"'%s' has no weight; write SIZE:WEIGHT, e.g. 4K:0.4",
			item);
	*sep++ = '\0';
	while (*sep == ' ' || *sep == '\t' || *sep == ':')
		sep++;
	if (rperf_parse_size(item, 1, max_size, &size, swhy, sizeof(swhy)))
		return rperf_fail(why, whylen, EINVAL, "size '%s': %s", item,
				  swhy);
	errno = 0;
	w = strtod(sep, &end);
	while (*end == ' ' || *end == '\t')
		end++;
	if (!*sep || *end || errno || !isfinite(w) || !(w > 0) || w > 1e12)
		return rperf_fail(
			why, whylen, EINVAL,
			"weight '%s' of size %s is not a number above 0; write e.g. 4K:0.4",
			sep, item);
	for (uint32_t i = 0; i < d->n; i++)
		if (d->size[i] == size)
			return rperf_fail(
				why, whylen, EINVAL,
				"size %s appears twice; give each size once",
				item);
	d->size[d->n] = size;
	d->weight[d->n++] = w;
	return 0;
}

static char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t' || *s == '\r')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		*--e = '\0';
	return s;
}

int rperf_size_dist_parse(const char *text, bool file_text, uint64_t max_size,
			  struct rperf_size_dist *out, char *why, size_t whylen)
{
	struct rperf_size_dist d;
	const char *p = text, *stop;
	char item[ITEM_LEN];
	char sepc = file_text ? '\n' : ',';
	int rc;

	memset(&d, 0, sizeof(d));
	if (!file_text && *p && p[strlen(p) - 1] == ',')
		return rperf_fail(
			why, whylen, EINVAL,
			"an empty item; write SIZE:WEIGHT[,SIZE:WEIGHT...]");
	for (; *p; p = *stop ? stop + 1 : stop) {
		char *it, *hash;
		size_t len;

		stop = strchr(p, sepc);
		if (!stop)
			stop = p + strlen(p);
		len = (size_t)(stop - p);
		if (len >= sizeof(item))
			return rperf_fail(
				why, whylen, EINVAL,
				"an item of %zu characters; write SIZE:WEIGHT",
				len);
		memcpy(item, p, len);
		item[len] = '\0';
		hash = file_text ? strchr(item, '#') : NULL;
		if (hash)
			*hash = '\0';
		it = trim(item);
		if (!*it && file_text)
			continue;
		if (!*it)
			return rperf_fail(
				why, whylen, EINVAL,
				"an empty item; write SIZE:WEIGHT[,SIZE:WEIGHT...]");
		rc = parse_item(it, max_size, &d, why, whylen);
		if (rc)
			return rc;
	}
	if (!d.n)
		return rperf_fail(
			why, whylen, EINVAL,
			"no size in the distribution; write SIZE:WEIGHT[,SIZE:WEIGHT...]");
	rperf_size_dist_finish(&d);
	*out = d;
	return 0;
}

uint64_t rperf_size_dist_pick(const struct rperf_size_dist *d, double u)
{
	uint32_t lo = 0, hi = d->n - 1;

	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;

		if (u < d->cdf[mid])
			hi = mid;
		else
			lo = mid + 1;
	}
	return d->size[lo];
}

uint64_t rperf_size_dist_max(const struct rperf_size_dist *d)
{
	uint64_t m = 0;

	for (uint32_t i = 0; i < d->n; i++)
		if (d->size[i] > m)
			m = d->size[i];
	return m;
}

double rperf_size_dist_mean(const struct rperf_size_dist *d)
{
	double prev = 0, mean = 0;

	for (uint32_t i = 0; i < d->n; i++) {
		mean += (double)d->size[i] * (d->cdf[i] - prev);
		prev = d->cdf[i];
	}
	return mean;
}

uint64_t rperf_xorshift(uint64_t *state)
{
	uint64_t x = *state ? *state : 0x9e3779b97f4a7c15ull;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 0x2545f4914f6cdd1dull;
}

double rperf_uniform(uint64_t *state)
{
	return (double)(rperf_xorshift(state) >> 11) * 0x1.0p-53;
}
