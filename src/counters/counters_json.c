/* SPDX-License-Identifier: BSD-2-Clause */
/* A counter series in the REPORT (counters_json.h). */
#include "counters/counters_json.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/err.h"

static json_t *row_json(const struct rperf_ctr_series *s, size_t i)
{
	json_t *a = json_array();
	int e = !a;

	e = e ||
	    json_array_append_new(a, json_integer((json_int_t)s->start_ns[i]));
	e = e ||
	    json_array_append_new(a, json_integer((json_int_t)s->dur_ns[i]));
	for (size_t c = 0; !e && c < s->ncols; c++) {
		uint64_t v = s->v[i * s->ncols + c];

		e = json_array_append_new(
			a, v == RPERF_CTR_MISSING || v > INT64_MAX ?
				   json_null() :
				   json_integer((json_int_t)v));
	}
	if (e) {
		json_decref(a);
		return NULL;
	}
	return a;
}

int rperf_ctr_series_encode(const struct rperf_ctr_series *s, json_t **out)
{
	json_t *o = json_object(), *names = json_array(), *g = json_array(),
	       *rows = json_array();
	int e = !o || !names || !g || !rows;

	for (size_t c = 0; !e && c < s->ncols; c++) {
		e = json_array_append_new(names, json_string(s->names[c]));
		if (!e && s->gauge[c])
			e = json_array_append_new(g,
						  json_integer((json_int_t)c));
	}
	for (size_t i = 0; !e && i < s->nrows; i++)
		e = json_array_append_new(rows, row_json(s, i));
	if (!e) {
		e = json_object_set_new(o, "names", names) |
		    json_object_set_new(o, "gauges", g) |
		    json_object_set_new(o, "rows", rows) |
		    json_object_set_new(o, "dropped",
					json_integer((json_int_t)s->dropped));
		names = g = rows = NULL;
	}
	json_decref(names);
	json_decref(g);
	json_decref(rows);
	if (e) {
		json_decref(o);
		return ENOMEM;
	}
	*out = o;
	return 0;
}

static int bad(char *why, size_t len, const char *what)
{
	return rperf_fail(why, len, EBADMSG, "'counters': %s", what);
}

static int names_get(const json_t *o, struct rperf_ctr_series *s, char *why,
		     size_t whylen)
{
	const json_t *names = json_object_get(o, "names"),
		     *g = json_object_get(o, "gauges");
	size_t n = json_array_size(names);

	if (!json_is_array(names) || n > RPERF_CTR_MAX)
		return bad(why, whylen, "'names' not an array of at most 512");
	if (!json_is_array(g) || json_array_size(g) > n)
		return bad(why, whylen, "'gauges' not an array of columns");
	s->names = calloc(n ? n : 1, sizeof(*s->names));
	s->gauge = calloc(n ? n : 1, sizeof(*s->gauge));
	if (!s->names || !s->gauge)
		return ENOMEM;
	s->ncols = n;
	for (size_t c = 0; c < n; c++) {
		const char *t = json_string_value(json_array_get(names, c));

		if (!t || !*t || strlen(t) >= RPERF_CTR_NAME)
			return bad(why, whylen,
				   "a name not a string of 1 to 95 bytes");
		memcpy(s->names[c], t, strlen(t) + 1);
	}
	for (size_t k = 0; k < json_array_size(g); k++) {
		const json_t *x = json_array_get(g, k);

		if (!json_is_integer(x) || json_integer_value(x) < 0 ||
		    (size_t)json_integer_value(x) >= n)
			return bad(why, whylen, "a gauge not a column index");
		s->gauge[json_integer_value(x)] = true;
	}
	return 0;
}

static int row_get(const json_t *e, struct rperf_ctr_series *s, size_t i)
{
	if (!json_is_array(e) || json_array_size(e) != s->ncols + 2)
		return EBADMSG;
	for (size_t k = 0; k < s->ncols + 2; k++) {
		const json_t *x = json_array_get(e, k);
		json_int_t v;

		if (k >= 2 && json_is_null(x)) {
			s->v[i * s->ncols + k - 2] = RPERF_CTR_MISSING;
			continue;
		}
		if (!json_is_integer(x) || (v = json_integer_value(x)) < 0)
			return EBADMSG;
		if (k == 0)
			s->start_ns[i] = (uint64_t)v;
		else if (k == 1)
			s->dur_ns[i] = (uint64_t)v;
		else
			s->v[i * s->ncols + k - 2] = (uint64_t)v;
	}
	return 0;
}

static int rows_get(const json_t *o, struct rperf_ctr_series *s, char *why,
		    size_t whylen)
{
	const json_t *rows = json_object_get(o, "rows"),
		     *d = json_object_get(o, "dropped");
	size_t n = json_array_size(rows), w = s->ncols ? s->ncols : 1;

	if (!json_is_array(rows) || n > RPERF_CTR_MAX_CELLS ||
	    n * w > RPERF_CTR_MAX_CELLS)
		return bad(why, whylen,
			   "'rows' not an array within the cell bound");
	if (d && (!json_is_integer(d) || json_integer_value(d) < 0))
		return bad(why, whylen, "'dropped' not a count");
	s->dropped = d ? (uint64_t)json_integer_value(d) : 0;
	s->start_ns = calloc(n ? n : 1, sizeof(*s->start_ns));
	s->dur_ns = calloc(n ? n : 1, sizeof(*s->dur_ns));
	s->v = calloc(n ? n * w : 1, sizeof(*s->v));
	if (!s->start_ns || !s->dur_ns || !s->v)
		return ENOMEM;
	s->cap = n;
	for (size_t i = 0; i < n; i++) {
		if (row_get(json_array_get(rows, i), s, i)) {
			char what[96];

			snprintf(what, sizeof(what),
				 "'rows'[%zu] not [start, dur, %zu values]", i,
				 s->ncols);
			return bad(why, whylen, what);
		}
		s->nrows++;
	}
	return 0;
}

int rperf_ctr_series_decode(const json_t *o, struct rperf_ctr_series *s,
			    char *why, size_t whylen)
{
	int rc;

	memset(s, 0, sizeof(*s));
	if (!json_is_object(o))
		return bad(why, whylen, "not an object");
	rc = names_get(o, s, why, whylen);
	if (!rc)
		rc = rows_get(o, s, why, whylen);
	if (rc)
		rperf_ctr_series_fini(s);
	return rc;
}
