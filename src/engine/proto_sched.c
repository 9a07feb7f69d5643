/* SPDX-License-Identifier: BSD-2-Clause */
/* REPORT: an LSG's optional "open_schedule" figures and "intervals"
 * (proto.h). */
#include "engine/proto.h"
#include "engine/proto_priv.h"

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
		    rperf_ctrl_get_u64(x, keys[i], 0, UINT64_MAX,
				       field(&f, i))) {
			snprintf(
				why, whylen,
				"instances[%zu]: 'open_schedule' '%s' missing or bad",
				idx, keys[i]);
			return EBADMSG;
		}
	r->sched = f;
	return 0;
}

int rperf_proto_series_set(json_t *o, const struct rperf_proto_result *r)
{
	const struct rperf_lsg_series *s = &r->series;
	json_t *a;

	if (!s->n)
		return 0;
	a = json_array();
	if (!a)
		return ENOMEM;
	for (size_t i = 0; i < s->n; i++) {
		const struct rperf_lsg_interval *v = &s->iv[i];

		if (json_array_append_new(a,
					  json_pack("[I, I, I, I, I]",
						    (json_int_t)v->start_ns,
						    (json_int_t)v->samples,
						    (json_int_t)v->p50_ns,
						    (json_int_t)v->p99_ns,
						    (json_int_t)v->max_ns))) {
			json_decref(a);
			return ENOMEM;
		}
	}
	return json_object_set_new(o, "intervals", a) ? ENOMEM : 0;
}

/* One [start_ns, samples, p50_ns, p99_ns, max_ns]: 0 or EBADMSG. */
static int interval_get(const json_t *e, struct rperf_lsg_interval *v)
{
	json_int_t x[5];

	if (!json_is_array(e) || json_array_size(e) != 5)
		return EBADMSG;
	for (size_t k = 0; k < 5; k++) {
		const json_t *n = json_array_get(e, k);

		if (!json_is_integer(n) || (x[k] = json_integer_value(n)) < 0)
			return EBADMSG;
	}
	*v = (struct rperf_lsg_interval){ .start_ns = (uint64_t)x[0],
					  .samples = (uint64_t)x[1],
					  .p50_ns = x[2],
					  .p99_ns = x[3],
					  .max_ns = x[4] };
	return 0;
}

int rperf_proto_series_get(const json_t *o, struct rperf_proto_result *r,
			   size_t idx, char *why, size_t whylen)
{
	const json_t *a = json_object_get(o, "intervals");
	struct rperf_lsg_series *s = &r->series;
	size_t n;

	memset(s, 0, sizeof(*s));
	if (!a)
		return 0;
	n = json_is_array(a) ? json_array_size(a) : RPERF_SERIES_MAX + 1;
	if (n > RPERF_SERIES_MAX) {
		snprintf(
			why, whylen,
			"instances[%zu]: 'intervals' not an array of at most %d",
			idx, RPERF_SERIES_MAX);
		return EBADMSG;
	}
	s->iv = calloc(n ? n : 1, sizeof(*s->iv));
	if (!s->iv)
		return ENOMEM;
	s->cap = n ? n : 1;
	for (s->n = 0; s->n < n; s->n++)
		if (interval_get(json_array_get(a, s->n), &s->iv[s->n])) {
			snprintf(
				why, whylen,
				"instances[%zu]: 'intervals'[%zu] not 5 integers >= 0",
				idx, s->n);
			rperf_lsg_series_fini(s); /* not the caller's to free */
			return EBADMSG;
		}
	return 0;
}
