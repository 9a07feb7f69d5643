/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * "round_sizes": the message size of each round a PLAN runs on the same
 * QPs (rperf run --sweep ... --same-qps; rperf lat/bw's -a). The spec's
 * "size" stays what its QPs and buffers are made for, so every round's
 * size is at most that. A BSG that draws its sizes ("sizes") has no one
 * size to change per round.
 */
#include "engine/spec.h"

#include <errno.h>
#include <stdio.h>

#include "ctrl/ctrl.h"

uint64_t rperf_spec_round_size(const struct rperf_gen_spec *s, uint32_t k)
{
	return k < s->round_sizes.n ? s->round_sizes.v[k] : s->size;
}

int rperf_spec_rounds_check(const struct rperf_gen_spec *s, char *why,
			    size_t wl)
{
	const struct rperf_round_sizes *r = &s->round_sizes;

	if (!r->n)
		return 0;
	if (r->n > RPERF_SPEC_MAX_ROUNDS) {
		snprintf(why, wl, "'round_sizes' has %u entries, above %d",
			 r->n, RPERF_SPEC_MAX_ROUNDS);
		return EBADMSG;
	}
	if (s->sizes.n) {
		snprintf(
			why, wl,
			"'round_sizes' with 'sizes' (a BSG drawing its sizes has no one size per round)");
		return EBADMSG;
	}
	for (uint32_t i = 0; i < r->n; i++) {
		if (r->v[i] < 1 || r->v[i] > s->size) {
			snprintf(
				why, wl,
				"'round_sizes' entry %u (%llu) is not in [1, 'size' %llu]",
				i, (unsigned long long)r->v[i],
				(unsigned long long)s->size);
			return EBADMSG;
		}
	}
	return 0;
}

int rperf_spec_rounds_encode(const struct rperf_gen_spec *s, json_t *o)
{
	json_t *a;

	if (!s->round_sizes.n)
		return 0;
	a = json_array();
	if (!a)
		return ENOMEM;
	for (uint32_t i = 0; i < s->round_sizes.n; i++) {
		if (json_array_append_new(
			    a, json_integer((json_int_t)s->round_sizes.v[i]))) {
			json_decref(a);
			return ENOMEM;
		}
	}
	return json_object_set_new(o, "round_sizes", a) ? ENOMEM : 0;
}

int rperf_spec_rounds_decode(const json_t *o, struct rperf_gen_spec *s,
			     char *why, size_t wl)
{
	const json_t *a = json_object_get(o, "round_sizes");
	size_t i;

	s->round_sizes.n = 0;
	if (!a)
		return 0;
	if (!json_is_array(a) || !json_array_size(a) ||
	    json_array_size(a) > RPERF_SPEC_MAX_ROUNDS) {
		snprintf(why, wl, "'round_sizes' not an array of 1 to %d sizes",
			 RPERF_SPEC_MAX_ROUNDS);
		return EBADMSG;
	}
	for (i = 0; i < json_array_size(a); i++) {
		const json_t *v = json_array_get(a, i);

		if (!json_is_integer(v) || json_integer_value(v) < 1) {
			snprintf(
				why, wl,
				"'round_sizes' entry %zu not a positive integer",
				i);
			return EBADMSG;
		}
		s->round_sizes.v[i] = (uint64_t)json_integer_value(v);
	}
	s->round_sizes.n = (uint32_t)i;
	return 0; /* the range against "size": rperf_spec_rounds_check */
}
