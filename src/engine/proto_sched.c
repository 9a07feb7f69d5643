/* SPDX-License-Identifier: BSD-2-Clause */
/* REPORT: an LSG's optional "open_schedule" figures, every generator's
 * "intervals", a BSG sink's "intervals_dropped", and fitting a REPORT into
 * one control message (proto.h). */
#include "engine/proto.h"
#include "engine/proto_priv.h"
#include "util/err.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const keys[] = { "late", "lag_bound_ns", "lag_p99_ns",
				    "lag_max_ns", "inflight_max" };

static uint64_t *field(struct rperf_sched_figs *f, size_t i)
{
	switch (i) {
	case 0:
		return &f->late;
	case 1:
		return &f->lag_bound_ns;
	case 2:
		return &f->lag_p99_ns;
	case 3:
		return &f->lag_max_ns;
	default:
		return &f->inflight_max;
	}
}

int rperf_proto_sched_set(json_t *o, const struct rperf_proto_result *r)
{
	struct rperf_sched_figs f = r->sched;
	json_t *x;
	int rc = 0;

	if (!f.open)
		return 0;
	x = json_object();
	if (!x)
		return ENOMEM;
	for (size_t i = 0; !rc && i < sizeof(keys) / sizeof(keys[0]); i++)
		rc = rperf_ctrl_set_u64(x, keys[i], *field(&f, i));
	if (rc || json_object_set_new(o, "open_schedule", x))
		return ENOMEM;
	return 0;
}

int rperf_proto_sched_get(const json_t *o, struct rperf_proto_result *r,
			  size_t idx, char *why, size_t whylen)
{
	const json_t *x = json_object_get(o, "open_schedule");
	struct rperf_sched_figs f = { .open = true };

	r->sched = (struct rperf_sched_figs){ .open = false };
	if (!x)
		return 0;
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (!json_is_object(x) ||
		    rperf_ctrl_get_u64(x, keys[i], 0, UINT64_MAX, field(&f, i)))
			return rperf_fail(
				why, whylen, EBADMSG,
				"instances[%zu]: 'open_schedule' '%s' missing or bad",
				idx, keys[i]);
	r->sched = f;
	return 0;
}

/* An LSG's row: start_ns, samples, p50, p99, max; a BSG's (source: sent,
 * sink: received): start_ns, dur_ns, messages, bytes. Every value an
 * integer >= 0 but an LSG's RTTs. */
static size_t row_width(const struct rperf_proto_result *r)
{
	return rperf_gen_latency(r->kind) ? 5 : 4;
}

static size_t rows(const struct rperf_proto_result *r)
{
	return rperf_gen_latency(r->kind) ? r->series.n : r->bsg_series.n;
}

static void row_get(const struct rperf_proto_result *r, size_t i, json_int_t *x)
{
	if (rperf_gen_latency(r->kind)) {
		const struct rperf_lsg_interval *v = &r->series.iv[i];

		x[0] = (json_int_t)v->start_ns;
		x[1] = (json_int_t)v->samples;
		x[2] = v->p50_ns;
		x[3] = v->p99_ns;
		x[4] = v->max_ns;
		return;
	}
	x[0] = (json_int_t)r->bsg_series.iv[i].start_ns;
	x[1] = (json_int_t)r->bsg_series.iv[i].dur_ns;
	x[2] = (json_int_t)r->bsg_series.iv[i].messages;
	x[3] = (json_int_t)r->bsg_series.iv[i].bytes;
}

int rperf_proto_series_set(json_t *o, const struct rperf_proto_result *r)
{
	size_t w = row_width(r);
	json_t *a;

	if (r->rows_dropped &&
	    json_object_set_new(o, "intervals_dropped", json_true()))
		return ENOMEM;
	if (!rows(r))
		return 0;
	a = json_array();
	if (!a)
		return ENOMEM;
	for (size_t i = 0; i < rows(r); i++) {
		json_int_t x[5];
		json_t *e = json_array();

		row_get(r, i, x);
		for (size_t k = 0; e && k < w; k++)
			if (json_array_append_new(e, json_integer(x[k])))
				break;
		if (!e || json_array_size(e) != w ||
		    json_array_append_new(a, e)) {
			json_decref(a);
			return ENOMEM;
		}
	}
	return json_object_set_new(o, "intervals", a) ? ENOMEM : 0;
}

/* The times of a row (its start; a BSG's duration): at most this, as the
 * REPORT's seconds (1e9 s). */
#define MAX_ROW_NS 1000000000000000000ll

/* One row of @w integers, the first @unsigned_cols of them >= 0 (an LSG's
 * p50, p99 and max are RTTs, which Equation 1 can make <= 0), the first
 * @time_cols of them at most MAX_ROW_NS: 0 or EBADMSG. */
static int row_read(const json_t *e, size_t w, size_t unsigned_cols,
		    size_t time_cols, json_int_t *x)
{
	if (!json_is_array(e) || json_array_size(e) != w)
		return EBADMSG;
	for (size_t k = 0; k < w; k++) {
		const json_t *n = json_array_get(e, k);

		if (!json_is_integer(n))
			return EBADMSG;
		x[k] = json_integer_value(n);
		if ((k < unsigned_cols && x[k] < 0) ||
		    (k < time_cols && x[k] > MAX_ROW_NS))
			return EBADMSG;
	}
	return 0;
}

static int row_put(struct rperf_proto_result *r, const json_int_t *x)
{
	struct rperf_bsg_interval b = { (uint64_t)x[0], (uint64_t)x[1],
					(uint64_t)x[2], (uint64_t)x[3] };
	struct rperf_lsg_series *s = &r->series;

	if (!rperf_gen_latency(r->kind))
		return rperf_bsg_series_push(&r->bsg_series, &b);
	s->iv[s->n++] = (struct rperf_lsg_interval){ .start_ns = (uint64_t)x[0],
						     .samples = (uint64_t)x[1],
						     .p50_ns = x[2],
						     .p99_ns = x[3],
						     .max_ns = x[4] };
	return 0;
}

static void series_free(struct rperf_proto_result *r)
{
	rperf_lsg_series_fini(&r->series);
	rperf_bsg_series_fini(&r->bsg_series);
}

int rperf_proto_series_get(const json_t *o, struct rperf_proto_result *r,
			   size_t idx, char *why, size_t whylen)
{
	const json_t *a = json_object_get(o, "intervals");
	const json_t *d = json_object_get(o, "intervals_dropped");
	size_t n, w = row_width(r);
	json_int_t x[5];
	int rc = 0;

	memset(&r->series, 0, sizeof(r->series));
	memset(&r->bsg_series, 0, sizeof(r->bsg_series));
	r->rows_dropped = json_is_true(d);
	if (d && !json_is_boolean(d))
		return rperf_fail(
			why, whylen, EBADMSG,
			"instances[%zu]: 'intervals_dropped' not a boolean",
			idx);
	if (!a)
		return 0;
	n = json_is_array(a) ? json_array_size(a) : RPERF_SERIES_MAX + 1;
	if (n > RPERF_SERIES_MAX)
		return rperf_fail(
			why, whylen, EBADMSG,
			"instances[%zu]: 'intervals' not an array of at most %d",
			idx, RPERF_SERIES_MAX);
	r->series.iv = calloc(n ? n : 1, sizeof(*r->series.iv));
	if (!r->series.iv)
		return ENOMEM;
	r->series.cap = n ? n : 1;
	for (size_t i = 0; !rc && i < n; i++) {
		bool lsg = rperf_gen_latency(r->kind);

		rc = row_read(json_array_get(a, i), w, lsg ? 2 : w, lsg ? 1 : 2,
			      x);
		if (rc)
			snprintf(
				why, whylen,
				"instances[%zu]: 'intervals'[%zu] not %zu integers (%s, times <= 1e18 ns)",
				idx, i, w,
				lsg ? "start and samples >= 0" : "each >= 0");
		else
			rc = row_put(r, x);
	}
	if (rc) /* not the caller's to free: it may not count this one */
		series_free(r);
	return rc == ENOMEM ? ENOMEM : rc ? EBADMSG : 0;
}

/* @o's size as sent (ctrl_frame.c: compact, ASCII): SIZE_MAX when it
 * cannot be dumped. */
static size_t dumped_size(const json_t *o)
{
	char *t = json_dumps(o, JSON_COMPACT | JSON_ENSURE_ASCII);
	size_t n = t ? strlen(t) : SIZE_MAX;

	free(t);
	return n;
}

int rperf_proto_report_fit(json_t *o, size_t max, size_t *dropped)
{
	json_t *a = json_object_get(o, "instances");
	size_t n = dumped_size(o);

	*dropped = 0;
	for (size_t i = 0; n > max && i < json_array_size(a); i++) {
		json_t *e = json_array_get(a, i);
		const char *role =
			json_string_value(json_object_get(e, "role"));

		if (!role || strcmp(role, "sink") ||
		    !json_object_get(e, "intervals"))
			continue;
		if (json_object_del(e, "intervals") ||
		    json_object_set_new(e, "intervals_dropped", json_true()))
			return ENOMEM;
		(*dropped)++;
		n = dumped_size(o);
	}
	return n == SIZE_MAX ? ENOMEM : n > max ? EMSGSIZE : 0;
}
