/* SPDX-License-Identifier: BSD-2-Clause */
#include "util/units.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/err.h"

struct suffix {
	const char *name;
	double mult;
};

/* Sizes: binary multiples; the trailing "B" is optional. */
static const struct suffix size_suffixes[] = {
	{ "", 1 },
	{ "B", 1 },
	{ "k", 1024.0 },
	{ "K", 1024.0 },
	{ "Ki", 1024.0 },
	{ "KiB", 1024.0 },
	{ "KB", 1024.0 },
	{ "M", 1048576.0 },
	{ "Mi", 1048576.0 },
	{ "MiB", 1048576.0 },
	{ "MB", 1048576.0 },
	{ "G", 1073741824.0 },
	{ "Gi", 1073741824.0 },
	{ "GiB", 1073741824.0 },
	{ "GB", 1073741824.0 },
	{ "T", 1099511627776.0 },
	{ "Ti", 1099511627776.0 },
	{ "TiB", 1099511627776.0 },
	{ "TB", 1099511627776.0 },
	{ NULL, 0 },
};

static const struct suffix count_suffixes[] = {
	{ "", 1 },    { "k", 1e3 }, { "K", 1e3 },
	{ "M", 1e6 }, { "G", 1e9 }, { NULL, 0 },
};

static const struct suffix time_suffixes[] = {
	{ "ns", 1 },	 { "us", 1e3 }, { "usec", 1e3 }, { "ms", 1e6 },
	{ "msec", 1e6 }, { "s", 1e9 },	{ "sec", 1e9 },	 { "m", 60e9 },
	{ "min", 60e9 }, { NULL, 0 },
};

static const struct suffix rate_prefixes[] = {
	{ "", 1 },    { "k", 1e3 }, { "K", 1e3 },  { "M", 1e6 },  { "m", 1e6 },
	{ "G", 1e9 }, { "g", 1e9 }, { "T", 1e12 }, { "t", 1e12 }, { NULL, 0 },
};

static const struct suffix *find_suffix(const struct suffix *tab, const char *s)
{
	for (; tab->name; tab++)
		if (strcmp(tab->name, s) == 0)
			return tab;
	return NULL;
}

/*
 * Split "<number><suffix>": the number must start with a digit (no sign, no
 * space, no hex, no inf/nan); @frac allows a decimal point. Returns 0 and the
 * value and suffix, or EINVAL.
 */
static int split_number(const char *s, int frac, double *val, uint64_t *ival,
			const char **suffix)
{
	const char *p = s;
	char *end;

	if (!s || *s < '0' || *s > '9')
		return EINVAL;
	while (*p >= '0' && *p <= '9')
		p++;
	if (*p == '.') {
		if (!frac || p[1] < '0' || p[1] > '9')
			return EINVAL;
		p++;
		while (*p >= '0' && *p <= '9')
			p++;
	}
	if (*p == 'e' || *p == 'E' || *p == 'x' || *p == 'X')
		return EINVAL;
	errno = 0;
	*val = strtod(s, &end);
	if (end != p || errno == ERANGE)
		return EINVAL;
	*ival = 0;
	if (!memchr(s, '.', (size_t)(p - s))) {
		errno = 0;
		*ival = strtoull(s, &end, 10);
		if (errno == ERANGE)
			return ERANGE;
	}
	*suffix = p;
	return 0;
}

static int scale_u64(uint64_t v, double mult, uint64_t *out)
{
	uint64_t m = (uint64_t)mult;

	if (m && v > UINT64_MAX / m)
		return ERANGE;
	*out = v * m;
	return 0;
}

static int parse_u64_with(const char *s, const struct suffix *tab,
			  uint64_t *out)
{
	const struct suffix *sx;
	const char *suffix;
	uint64_t iv;
	double dv;
	int rc;

	rc = split_number(s, 0, &dv, &iv, &suffix);
	if (rc)
		return rc;
	sx = find_suffix(tab, suffix);
	if (!sx)
		return EINVAL;
	return scale_u64(iv, sx->mult, out);
}

/* @v into *@out if it is in [@min, @max], else ERANGE saying so. */
static int store_in_range(const char *s, uint64_t v, uint64_t min, uint64_t max,
			  uint64_t *out, char *err, size_t errlen,
			  const char *what)
{
	if (v < min || v > max)
		return rperf_fail(
			err, errlen, ERANGE,
			"'%s' is out of range; accepted: %s from %llu to %llu",
			s, what, (unsigned long long)min,
			(unsigned long long)max);
	*out = v;
	return 0;
}

int rperf_parse_size(const char *s, uint64_t min, uint64_t max, uint64_t *out,
		     char *err, size_t errlen)
{
	uint64_t v;
	int rc = parse_u64_with(s, size_suffixes, &v);

	if (rc == EINVAL)
		return rperf_fail(
			err, errlen, rc,
			"'%s' is not a size; accepted: a whole number of bytes with an optional binary suffix K, M, G, T (K = Ki = KiB = 1024), e.g. 64, 4K, 1MiB",
			s ? s : "");
	if (rc)
		return rperf_fail(
			err, errlen, rc,
			"'%s' is too large; accepted: sizes up to %llu bytes",
			s, (unsigned long long)max);
	return store_in_range(s, v, min, max, out, err, errlen,
			      "sizes in bytes");
}

int rperf_parse_count(const char *s, uint64_t min, uint64_t max, uint64_t *out,
		      char *err, size_t errlen)
{
	uint64_t v;
	int rc = parse_u64_with(s, count_suffixes, &v);

	if (rc == EINVAL)
		return rperf_fail(
			err, errlen, rc,
			"'%s' is not a count; accepted: a whole number >= 0 with an optional decimal suffix k, M, G, e.g. 10000, 10k, 1M",
			s ? s : "");
	if (rc)
		return rperf_fail(
			err, errlen, rc,
			"'%s' is too large; accepted: counts up to %llu", s,
			(unsigned long long)max);
	return store_in_range(s, v, min, max, out, err, errlen, "counts");
}

int rperf_parse_int(const char *s, int64_t min, int64_t max, int64_t *out,
		    char *err, size_t errlen)
{
	const char *p = s;
	long long v;
	char *end;

	if (p && *p == '-')
		p++;
	if (!p || *p < '0' || *p > '9')
		goto bad;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (*end)
		goto bad;
	if (errno == ERANGE || v < min || v > max)
		return rperf_fail(
			err, errlen, ERANGE,
			"'%s' is out of range; accepted: an integer from %lld to %lld",
			s, (long long)min, (long long)max);
	*out = v;
	return 0;
bad:
	return rperf_fail(
		err, errlen, EINVAL,
		"'%s' is not an integer; accepted: an integer from %lld to %lld",
		s ? s : "", (long long)min, (long long)max);
}

void rperf_fmt_time(char *buf, size_t len, uint64_t ns)
{
	static const struct {
		uint64_t div;
		const char *unit;
	} u[] = { { 60000000000ull, "m" },
		  { 1000000000ull, "s" },
		  { 1000000ull, "ms" },
		  { 1000ull, "us" } };

	for (size_t i = 0; i < sizeof(u) / sizeof(u[0]); i++) {
		if (ns && ns % u[i].div == 0) {
			snprintf(buf, len, "%llu%s",
				 (unsigned long long)(ns / u[i].div),
				 u[i].unit);
			return;
		}
	}
	snprintf(buf, len, "%lluns", (unsigned long long)ns);
}

int rperf_parse_time(const char *s, uint64_t bare_unit_ns, uint64_t min_ns,
		     uint64_t max_ns, uint64_t *out_ns, char *err,
		     size_t errlen)
{
	const struct suffix *sx = NULL;
	char lo[32], hi[32], bare[32];
	const char *suffix;
	uint64_t iv;
	double dv, ns, mult;

	rperf_fmt_time(lo, sizeof(lo), min_ns);
	rperf_fmt_time(hi, sizeof(hi), max_ns);
	rperf_fmt_time(bare, sizeof(bare), bare_unit_ns);
	if (split_number(s, 1, &dv, &iv, &suffix))
		goto bad;
	mult = (double)bare_unit_ns;
	if (*suffix) {
		sx = find_suffix(time_suffixes, suffix);
		if (!sx)
			goto bad;
		mult = sx->mult;
	}
	ns = dv * mult;
	if (!isfinite(ns) || ns < (double)min_ns || ns > (double)max_ns)
		return rperf_fail(
			err, errlen, ERANGE,
			"'%s' is out of range; accepted: times from %s to %s",
			s, lo, hi);
	*out_ns = (uint64_t)llround(ns);
	return 0;
bad:
	return rperf_fail(
		err, errlen, EINVAL,
		"'%s' is not a time; accepted: a number with a unit ns, us, ms, s or m (minutes), e.g. 500us, 1.5ms, 10s; a bare number counts in units of %s",
		s ? s : "", bare);
}

int rperf_parse_rate(const char *s, double min, double max, double *out_bps,
		     char *err, size_t errlen)
{
	const struct suffix *px = NULL;
	char prefix[4] = "";
	const char *suffix, *unit;
	uint64_t iv;
	double dv, bps;

	if (split_number(s, 1, &dv, &iv, &suffix))
		goto bad;
	unit = suffix;
	if (*unit && strchr("kKMmGgTt", *unit))
		prefix[0] = *unit++;
	px = find_suffix(rate_prefixes, prefix);
	if (!px ||
	    (*unit && strcasecmp(unit, "bit") && strcasecmp(unit, "bps") &&
	     strcasecmp(unit, "bit/s") && strcasecmp(unit, "b")))
		goto bad;
	bps = dv * px->mult;
	if (!isfinite(bps) || bps < min || bps > max)
		return rperf_fail(
			err, errlen, ERANGE,
			"'%s' is out of range; accepted: rates from %.6g to %.6g bit/s",
			s, min, max);
	*out_bps = bps;
	return 0;
bad:
	return rperf_fail(
		err, errlen, EINVAL,
		"'%s' is not a rate; accepted: bits per second with an optional decimal prefix k, M, G, T and unit bit or bps, e.g. 10M = 10Mbit = 10^7 bit/s",
		s ? s : "");
}

int rperf_parse_double(const char *s, double min, double max, double *out,
		       char *err, size_t errlen)
{
	const char *suffix;
	uint64_t iv;
	double dv;

	if (split_number(s, 1, &dv, &iv, &suffix) || *suffix)
		return rperf_fail(
			err, errlen, EINVAL,
			"'%s' is not a number; accepted: a decimal number from %g to %g",
			s ? s : "", min, max);
	if (dv < min || dv > max)
		return rperf_fail(
			err, errlen, ERANGE,
			"'%s' is out of range; accepted: a number from %g to %g",
			s, min, max);
	*out = dv;
	return 0;
}
