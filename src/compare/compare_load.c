/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rperf compare: reading one report. The file is hostile input: every key
 * is type-checked, names and counts are bounded; anything else is EBADMSG
 * with the file and the key named.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <rperf/hist.h>
#include <rperf/report.h>

#include "compare/compare_priv.h"
#include "util/regular.h"

#define CMP_MAX_FILE (64u << 20) /* a report is never this large */

static int bad(char *err, size_t errlen, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int bad(char *err, size_t errlen, const char *path, const char *fmt, ...)
{
	char what[192];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	snprintf(
		err, errlen,
		"%s: %s; accepted: a JSON report of 'rperf lat' or 'rperf run' (--out_json_file)",
		path, what);
	return EBADMSG;
}

/* The fixed keys of an *_ns object, then the "percentiles" map. */
static const struct {
	const char *json, *key;
	bool exact;
} fixed[] = {
	{ "min", "min", true },	      { "p50", "p50", false },
	{ "p99", "p99", false },      { "p999", "p99.9", false },
	{ "p9999", "p99.99", false }, { "max", "max", true },
};

static bool have_key(const struct cmp_stats *s, const char *key)
{
	for (size_t i = 0; i < s->nvalues; i++)
		if (strcmp(s->values[i].key, key) == 0)
			return true;
	return false;
}

static bool listed_unreliable(const json_t *unrel, const char *key)
{
	size_t i;
	json_t *v;

	if (key[0] != 'p' || !json_is_array(unrel))
		return false;
	json_array_foreach(unrel, i, v)
	{
		char k[16];

		if (!json_is_number(v))
			continue;
		snprintf(k, sizeof(k), "p%g", json_number_value(v));
		if (strcmp(k, key) == 0)
			return true;
	}
	return false;
}

static int add_value(struct cmp_stats *s, const char *key, const json_t *v,
		     bool exact, const json_t *unrel)
{
	struct cmp_value *cv;

	if (!json_is_integer(v))
		return EBADMSG;
	if (have_key(s, key) || s->nvalues == RPERF_CMP_MAX_POINTS)
		return 0;
	cv = &s->values[s->nvalues++];
	snprintf(cv->key, sizeof(cv->key), "%s", key);
	cv->v = (int64_t)json_integer_value(v);
	cv->exact = exact;
	cv->unreliable = listed_unreliable(unrel, key);
	return 0;
}

/* "percentiles": {"50": v, "99.9": v, ...}: keys that are numbers only. */
static int add_map(struct cmp_stats *s, const json_t *map, const json_t *unrel)
{
	const char *k;
	json_t *v;

	if (!map)
		return 0;
	if (!json_is_object(map))
		return EBADMSG;
	json_object_foreach((json_t *)map, k, v)
	{
		char key[16], *end;
		double p = strtod(k, &end);

		if (*end || end == k || !(p >= 0 && p <= 100))
			return EBADMSG;
		snprintf(key, sizeof(key), "p%g", p);
		if (add_value(s, key, v, false, unrel))
			return EBADMSG;
	}
	return 0;
}

/* Where a key sorts: min first, then the percentiles, max last. */
static double key_rank(const char *key)
{
	if (strcmp(key, "min") == 0)
		return -1;
	if (strcmp(key, "max") == 0)
		return 101;
	return strtod(key + 1, NULL);
}

static int by_rank(const void *a, const void *b)
{
	double x = key_rank(((const struct cmp_value *)a)->key);
	double y = key_rank(((const struct cmp_value *)b)->key);

	return (x > y) - (x < y);
}

/* Sorted; a percentile the sample count cannot support is unreliable
 * whether or not the report listed it (it lists the requested ones). */
static void finish_stats(struct cmp_stats *s)
{
	qsort(s->values, s->nvalues, sizeof(s->values[0]), by_rank);
	for (size_t i = 0; i < s->nvalues && s->count; i++) {
		struct cmp_value *v = &s->values[i];

		if (!v->exact &&
		    !rperf_percentile_reliable(key_rank(v->key), s->count))
			v->unreliable = true;
	}
}

/* An *_ns object into @s (named by the caller); EBADMSG if malformed. */
static int take_stats(struct cmp_stats *s, const json_t *o)
{
	const json_t *unrel = json_object_get(o, "unreliable");
	const json_t *rel = json_object_get(o, "rel_error");
	const json_t *cnt = json_object_get(o, "count");

	if (!json_is_object(o))
		return EBADMSG;
	for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		if (add_value(s, fixed[i].key,
			      json_object_get(o, fixed[i].json), fixed[i].exact,
			      unrel))
			return EBADMSG;
	if (rel && (!json_is_number(rel) || !(json_number_value(rel) >= 0) ||
		    json_number_value(rel) > 0.5))
		return EBADMSG;
	s->rel_error = rel ? json_number_value(rel) :
			     ldexp(1.0, -RPERF_HIST_DEFAULT_BITS);
	s->rel_assumed = !rel;
	if (cnt && json_is_integer(cnt) && json_integer_value(cnt) >= 0)
		s->count = (uint64_t)json_integer_value(cnt);
	return add_map(s, json_object_get(o, "percentiles"), unrel);
}

/* clock.error_ppm of @clock (an object or null): -1 when not reported. */
static double clock_ppm(const json_t *clock)
{
	const json_t *e = json_object_get(clock, "error_ppm");

	if (!json_is_number(e) || !(json_number_value(e) >= 0) ||
	    json_number_value(e) > 1e6)
		return -1;
	return json_number_value(e);
}

static struct cmp_stats *next_stats(struct rperf_cmp_doc *d)
{
	if (d->nstats == CMP_MAX_SERIES)
		return NULL;
	memset(&d->stats[d->nstats], 0, sizeof(d->stats[0]));
	return &d->stats[d->nstats++];
}

static void set_ppm(struct rperf_cmp_doc *d, struct cmp_stats *s, double ppm)
{
	if (ppm < 0) {
		d->clock_unknown = true;
		ppm = 0;
	}
	s->clock_ppm = ppm;
}

/* rperf lat: results[] {method, size, [repeat], samples, figure, rtt_ns} */
static int load_lat(struct rperf_cmp_doc *d, const json_t *root, char *err,
		    size_t errlen)
{
	const json_t *res = json_object_get(root, "results");
	double ppm = clock_ppm(json_object_get(root, "clock"));
	size_t i;
	json_t *r;

	if (!json_is_array(res))
		return bad(err, errlen, d->path, "no results[] array");
	json_array_foreach(res, i, r)
	{
		const char *m = json_string_value(json_object_get(r, "method"));
		const char *fig =
			json_string_value(json_object_get(r, "figure"));
		const json_t *sz = json_object_get(r, "size");
		const json_t *rep = json_object_get(r, "repeat");
		const json_t *n = json_object_get(r, "samples");
		struct cmp_stats *s = next_stats(d);

		if (!s)
			return bad(err, errlen, d->path, "more than %d results",
				   CMP_MAX_SERIES);
		if (!m || !json_is_integer(sz) || !fig)
			return bad(
				err, errlen, d->path,
				"results[%zu]: method, size or figure missing",
				i);
		snprintf(s->name, sizeof(s->name), "%.32s %lld B", m,
			 (long long)json_integer_value(sz));
		if (json_is_integer(rep))
			snprintf(s->name + strlen(s->name),
				 sizeof(s->name) - strlen(s->name), " #%lld",
				 (long long)json_integer_value(rep));
		if (take_stats(s, json_object_get(r, "rtt_ns")))
			return bad(err, errlen, d->path,
				   "results[%zu].rtt_ns: malformed", i);
		if (json_is_integer(n) && json_integer_value(n) >= 0)
			s->count = (uint64_t)json_integer_value(n);
		finish_stats(s);
		set_ppm(d, s, ppm);
		snprintf(d->figure, sizeof(d->figure), "%s", fig);
	}
	return 0;
}

/* The clock error of run host @name (hosts[] {name, clock}). */
static double host_ppm(const json_t *root, const char *name)
{
	const json_t *hosts = json_object_get(root, "hosts");
	size_t i;
	json_t *h;

	if (!name)
		return -1;
	json_array_foreach(hosts, i, h)
	{
		const char *n = json_string_value(json_object_get(h, "name"));

		if (n && strcmp(n, name) == 0)
			return clock_ppm(json_object_get(h, "clock"));
	}
	return -1;
}

/* The worst clock error among all hosts (aggregates mix hosts). */
static double worst_ppm(const json_t *root)
{
	const json_t *hosts = json_object_get(root, "hosts");
	double worst = -1;
	size_t i;
	json_t *h;

	json_array_foreach(hosts, i, h)
	{
		double p = clock_ppm(json_object_get(h, "clock"));

		if (p < 0)
			return -1;
		worst = fmax(worst, p);
	}
	return worst;
}

static int take_named(struct rperf_cmp_doc *d, const char *prefix,
		      const char *name, const json_t *o, double ppm, char *err,
		      size_t errlen)
{
	const json_t *rtt = json_object_get(o, "rtt_ns");
	const json_t *n = json_object_get(o, "samples");
	struct cmp_stats *s;

	if (!rtt || json_is_null(rtt))
		return 0; /* a BSG, or an LSG that never reported */
	s = next_stats(d);
	if (!s)
		return bad(err, errlen, d->path, "more than %d series",
			   CMP_MAX_SERIES);
	snprintf(s->name, sizeof(s->name), "%s%.80s", prefix, name);
	if (take_stats(s, rtt))
		return bad(err, errlen, d->path, "%s%s: rtt_ns malformed",
			   prefix, name);
	if (json_is_integer(n) && json_integer_value(n) >= 0)
		s->count = (uint64_t)json_integer_value(n);
	finish_stats(s);
	set_ppm(d, s, ppm);
	return 0;
}

/* rperf run: generators[] (LSGs), classes[], total. */
static int load_run(struct rperf_cmp_doc *d, const json_t *root, char *err,
		    size_t errlen)
{
	const json_t *gens = json_object_get(root, "generators");
	const json_t *cls = json_object_get(root, "classes");
	double worst = worst_ppm(root);
	char name[RPERF_CMP_NAME_LEN];
	int rc = 0;
	size_t i;
	json_t *g;

	if (!json_is_array(gens))
		return bad(err, errlen, d->path, "no generators[] array");
	json_array_foreach(gens, i, g)
	{
		const char *n = json_string_value(json_object_get(g, "name"));
		const json_t *id = json_object_get(g, "id");
		const char *host =
			json_string_value(json_object_get(g, "host"));

		if (!n || !json_is_integer(id))
			return bad(err, errlen, d->path,
				   "generators[%zu]: name or id missing", i);
		snprintf(name, sizeof(name), "%.64s#%lld", n,
			 (long long)json_integer_value(id));
		rc = take_named(d, "lsg ", name, g, host_ppm(root, host), err,
				errlen);
		if (rc)
			return rc;
	}
	json_array_foreach(cls, i, g)
	{
		const char *n = json_string_value(json_object_get(g, "name"));

		rc = n ? take_named(d, "class ", n, g, worst, err, errlen) : 0;
		if (rc)
			return rc;
	}
	snprintf(d->figure, sizeof(d->figure), "rtt");
	return take_named(d, "", "total", json_object_get(root, "total"), worst,
			  err, errlen);
}

static int parse(struct rperf_cmp_doc *d, const json_t *root, char *err,
		 size_t errlen)
{
	const char *cmd = json_string_value(json_object_get(root, "command"));

	if (!json_is_object(root) || !cmd)
		return bad(err, errlen, d->path, "no \"command\" key");
	snprintf(d->command, sizeof(d->command), "%s", cmd);
	if (strcmp(cmd, "lat") == 0)
		return load_lat(d, root, err, errlen);
	if (strcmp(cmd, "run") == 0)
		return load_run(d, root, err, errlen);
	return bad(err, errlen, d->path,
		   "a report of 'rperf %.16s' has no latency to compare", cmd);
}

static int open_doc(const char *path, json_t **root, char *err, size_t errlen)
{
	json_error_t jerr;
	bool too_large;
	struct stat st;
	const char *kind;
	FILE *f;
	int rc;

	f = rperf_fopen_regular(path, &rc, &kind);
	if (!f && kind[0]) {
		snprintf(
			err, errlen,
			"%s: it is %s; accepted: a regular file (an rperf JSON report)",
			path, kind);
		return rc;
	}
	if (!f) {
		snprintf(err, errlen, "%s: cannot read it: %s", path,
			 strerror(rc));
		return rc;
	}
	too_large = fstat(fileno(f), &st) == 0 && st.st_size > CMP_MAX_FILE;
	*root = too_large ? NULL : json_loadf(f, JSON_REJECT_DUPLICATES, &jerr);
	fclose(f);
	if (!*root && too_large) {
		snprintf(err, errlen,
			 "%s: larger than %u MiB: not an rperf report", path,
			 CMP_MAX_FILE >> 20);
		return EBADMSG;
	}
	if (!*root) {
		snprintf(
			err, errlen,
			"%s: line %d: not JSON (%.100s); accepted: a JSON report of 'rperf lat' or 'rperf run'",
			path, jerr.line, jerr.text);
		return EBADMSG;
	}
	return 0;
}

int rperf_cmp_load(const char *arg, struct rperf_cmp_doc **out, char *err,
		   size_t errlen)
{
	struct rperf_cmp_doc *d;
	const char *value;
	const json_t *rep;
	json_t *root = NULL;
	char path[256];
	int rc;

	if (!rperf_cmp_split(arg, path, sizeof(path), &value)) {
		snprintf(err, errlen, "%.64s...: a path of more than %zu bytes",
			 arg, sizeof(path) - 1);
		return EINVAL;
	}
	rc = open_doc(path, &root, err, errlen);
	if (rc)
		return rc;
	rc = rperf_cmp_pick(root, path, value, &rep, err, errlen);
	d = rc ? NULL : calloc(1, sizeof(*d));
	if (!d) {
		json_decref(root);
		return rc ? rc : ENOMEM;
	}
	snprintf(d->path, sizeof(d->path), "%s", arg);
	rc = parse(d, rep, err, errlen);
	json_decref(root);
	if (!rc && !d->nstats)
		rc = bad(err, errlen, arg, "no latency series in it");
	if (rc) {
		free(d);
		return rc;
	}
	*out = d;
	return 0;
}

void rperf_cmp_doc_free(struct rperf_cmp_doc *d)
{
	free(d);
}
