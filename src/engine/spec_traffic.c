/* SPDX-License-Identifier: BSD-2-Clause */
/* The traffic-shape keys of a generator spec (spec_traffic.h). */
#include "engine/spec_traffic.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ctrl/ctrl.h"
#include "util/err.h"

static bool shaped(const struct rperf_gen_spec *s)
{
	return s->stop_ns || s->max_bytes || s->max_messages || s->sizes.n ||
	       s->burst_bytes || s->period_ns || s->jitter_ns || s->burst_size;
}

static int dist_check(const struct rperf_gen_spec *s, char *why, size_t wl)
{
	const struct rperf_size_dist *d = &s->sizes;

	if (d->n > RPERF_SIZE_DIST_MAX)
		return rperf_fail(why, wl, EBADMSG,
				  "'sizes' has more than %d entries",
				  RPERF_SIZE_DIST_MAX);
	for (uint32_t i = 0; i < d->n; i++) {
		if (!d->size[i] || d->size[i] > s->size ||
		    !(d->weight[i] > 0) || !isfinite(d->weight[i]))
			return rperf_fail(
				why, wl, EBADMSG,
				"'sizes' entry %u: size not in [1, size] or "
				"weight not finite above 0",
				i);
		for (uint32_t j = 0; j < i; j++)
			if (d->size[j] == d->size[i])
				return rperf_fail(
					why, wl, EBADMSG,
					"'sizes' entry %u repeats a size", i);
	}
	if (d->n && rperf_size_dist_max(d) != s->size)
		return rperf_fail(why, wl, EBADMSG,
				  "'size' is not the largest of 'sizes'");
	return 0;
}

int rperf_spec_traffic_check(const struct rperf_gen_spec *s, char *why,
			     size_t wl)
{
	if (!shaped(s))
		return 0;
	if (!rperf_gen_bandwidth(s->kind))
		return rperf_fail(
			why, wl, EBADMSG,
			"'stop_ns', 'bytes', 'messages', 'sizes', 'burst' "
			"and 'burst_size' apply to BSGs only");
	if (s->burst_size && !(s->rate_bps > 0))
		return rperf_fail(why, wl, EBADMSG,
				  "'burst_size' needs 'rate_bps'");
	if (s->stop_ns &&
	    (s->stop_ns <= s->start_ns || s->stop_ns > RPERF_SPEC_MAX_TIME_NS))
		return rperf_fail(why, wl, EBADMSG,
				  "'stop_ns' is not after 'start_ns' (or above "
				  "a day)");
	if (s->burst_bytes && (s->burst_bytes > RPERF_SPEC_MAX_BURST ||
			       s->period_ns < RPERF_SPEC_MIN_PERIOD_NS ||
			       s->period_ns > RPERF_SPEC_MAX_TIME_NS ||
			       s->jitter_ns >= s->period_ns))
		return rperf_fail(
			why, wl, EBADMSG,
			"'burst' needs 'period_ns' in [1 ms, a day] and "
			"'jitter_ns' below it");
	if (!s->burst_bytes && (s->period_ns || s->jitter_ns))
		return rperf_fail(why, wl, EBADMSG,
				  "'period_ns' and 'jitter_ns' need 'burst'");
	return dist_check(s, why, wl);
}

static int set_dist(const struct rperf_size_dist *d, json_t *o)
{
	json_t *w = json_array();
	int rc = w ? 0 : ENOMEM;

	for (uint32_t i = 0; !rc && i < d->n; i++)
		if (json_array_append_new(w, json_real(d->weight[i])))
			rc = ENOMEM;
	if (!rc)
		rc = rperf_ctrl_set_u64_array(o, "sizes", d->size, d->n);
	if (!rc && json_object_set_new(o, "size_weights", w))
		return ENOMEM;
	if (rc)
		json_decref(w);
	return rc;
}

int rperf_spec_traffic_fill(const struct rperf_gen_spec *s, json_t *o)
{
	const struct {
		const char *key;
		uint64_t v;
	} u[] = {
		{ "stop_ns", s->stop_ns },	 { "bytes", s->max_bytes },
		{ "messages", s->max_messages }, { "burst", s->burst_bytes },
		{ "period_ns", s->period_ns },	 { "jitter_ns", s->jitter_ns },
		{ "burst_size", s->burst_size },
	};
	int rc = 0;

	for (size_t i = 0; !rc && i < sizeof(u) / sizeof(u[0]); i++)
		if (u[i].v)
			rc = rperf_ctrl_set_u64(o, u[i].key, u[i].v);
	if (!rc && s->sizes.n)
		rc = set_dist(&s->sizes, o);
	return rc;
}

static int get_dist(const json_t *o, struct rperf_size_dist *d, char *why,
		    size_t wl)
{
	const json_t *w = json_object_get(o, "size_weights");
	size_t n = 0;
	int rc = rperf_ctrl_get_u64_array(o, "sizes", 1, RPERF_SPEC_MAX_SIZE,
					  d->size, RPERF_SIZE_DIST_MAX, &n);

	if (rc == ENOENT && !w)
		return 0;
	if (rc || !n || !json_is_array(w) || json_array_size(w) != n)
		return rperf_fail(
			why, wl, EBADMSG,
			"'sizes' and 'size_weights' not two arrays of 1..%d "
			"entries of the same length",
			RPERF_SIZE_DIST_MAX);
	for (size_t i = 0; i < n; i++) {
		const json_t *x = json_array_get(w, i);

		if (!json_is_number(x))
			return rperf_fail(
				why, wl, EBADMSG,
				"'size_weights' entry %zu not a number", i);
		d->weight[i] = json_number_value(x);
	}
	d->n = (uint32_t)n;
	rperf_size_dist_finish(d); /* weights are checked with the spec */
	return 0;
}

int rperf_spec_traffic_decode(const json_t *o, struct rperf_gen_spec *t,
			      char *why, size_t wl)
{
	struct {
		const char *key;
		uint64_t *v;
		uint64_t max;
	} u[] = {
		{ "stop_ns", &t->stop_ns, RPERF_SPEC_MAX_TIME_NS },
		{ "bytes", &t->max_bytes, UINT64_MAX },
		{ "messages", &t->max_messages, UINT64_MAX },
		{ "burst", &t->burst_bytes, RPERF_SPEC_MAX_BURST },
		{ "period_ns", &t->period_ns, RPERF_SPEC_MAX_TIME_NS },
		{ "jitter_ns", &t->jitter_ns, RPERF_SPEC_MAX_TIME_NS },
		{ "burst_size", &t->burst_size, RPERF_SPEC_MAX_BURST_SIZE },
	};

	for (size_t i = 0; i < sizeof(u) / sizeof(u[0]); i++) {
		int rc = rperf_ctrl_get_u64(o, u[i].key, 0, u[i].max, u[i].v);

		if (rc == ENOENT) {
			*u[i].v = 0;
			continue;
		}
		if (rc)
			return rperf_fail(why, wl, EBADMSG,
					  "'%s' not an integer in [0, %llu]",
					  u[i].key,
					  (unsigned long long)u[i].max);
	}
	memset(&t->sizes, 0, sizeof(t->sizes));
	return get_dist(o, &t->sizes, why, wl);
}
