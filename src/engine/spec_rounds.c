/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * "round_sizes": the message size of each round a PLAN runs on the same
 * QPs (rperf run --sweep ... --same-qps; rperf lat/bw's -a). The spec's
 * "size" stays what its QPs and buffers are made for, so every round's
 * size is at most that. A BSG that draws its sizes ("sizes") has no one
 * size to change per round.
 * "round_methods": an LSG's method of each round (rperf lat's --method
 * all), each under the rules of method with verb (spec_lsg.c); its ends
 * are made for every method listed.
 */
#include "engine/spec.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "ctrl/ctrl.h"
#include "util/err.h"

uint64_t rperf_spec_round_size(const struct rperf_gen_spec *s, uint32_t k)
{
	return k < s->round_sizes.n ? s->round_sizes.v[k] : s->size;
}

int rperf_spec_round_method(const struct rperf_gen_spec *s, uint32_t k)
{
	return k < s->round_methods.n ? s->round_methods.v[k] : s->test.method;
}

bool rperf_spec_any_method(const struct rperf_gen_spec *s, int method)
{
	if (s->test.method == method)
		return true;
	for (uint32_t k = 0; k < s->round_methods.n; k++)
		if (s->round_methods.v[k] == method)
			return true;
	return false;
}

/* Every round's method: an LSG's, round 0's its method, each one with
 * its verb as a PLAN's LSG method is (rperf_spec_lsg_check). */
static int methods_check(const struct rperf_gen_spec *s, char *why, size_t wl)
{
	const struct rperf_round_methods *r = &s->round_methods;
	struct rperf_gen_spec one;
	char w[200];

	if (r->n > RPERF_SPEC_MAX_ROUNDS || !rperf_gen_latency(s->kind))
		return rperf_fail(
			why, wl, EBADMSG, "'round_methods' %s",
			!rperf_gen_latency(s->kind) ?
				"with a BSG (only an LSG has a method)" :
				"has too many entries");
	if (r->v[0] != s->test.method)
		return rperf_fail(
			why, wl, EBADMSG,
			"'round_methods' entry 0 is not the spec's 'method'");
	for (uint32_t i = 0; i < r->n; i++) {
		memcpy(&one, s, sizeof(one));
		one.test.method = r->v[i];
		if (r->v[i] < RPERF_METHOD_RPERF ||
		    r->v[i] >= RPERF_METHOD_ALL ||
		    rperf_spec_lsg_check(&one, false, w, sizeof(w)))
			return rperf_fail(
				why, wl, EBADMSG,
				"'round_methods' entry %u: %s", i,
				r->v[i] >= RPERF_METHOD_RPERF &&
						r->v[i] < RPERF_METHOD_ALL ?
					w :
					"not a method");
	}
	return 0;
}

int rperf_spec_rounds_check(const struct rperf_gen_spec *s, char *why,
			    size_t wl)
{
	const struct rperf_round_sizes *r = &s->round_sizes;

	if (s->round_methods.n && methods_check(s, why, wl))
		return EBADMSG;
	if (!r->n)
		return 0;
	if (r->n > RPERF_SPEC_MAX_ROUNDS)
		return rperf_fail(why, wl, EBADMSG,
				  "'round_sizes' has %u entries, above %d",
				  r->n, RPERF_SPEC_MAX_ROUNDS);
	if (s->sizes.n)
		return rperf_fail(
			why, wl, EBADMSG,
			"'round_sizes' with 'sizes' (a BSG drawing its sizes has no one size per round)");
	for (uint32_t i = 0; i < r->n; i++) {
		if (r->v[i] < 1 || r->v[i] > s->size)
			return rperf_fail(
				why, wl, EBADMSG,
				"'round_sizes' entry %u (%llu) is not in [1, 'size' %llu]",
				i, (unsigned long long)r->v[i],
				(unsigned long long)s->size);
	}
	return 0;
}

static int methods_encode(const struct rperf_gen_spec *s, json_t *o)
{
	json_t *a = json_array();

	for (uint32_t i = 0; a && i < s->round_methods.n; i++) {
		if (json_array_append_new(a, json_string(rperf_method_name(
						     s->round_methods.v[i])))) {
			json_decref(a);
			a = NULL;
		}
	}
	return !a || json_object_set_new(o, "round_methods", a) ? ENOMEM : 0;
}

int rperf_spec_rounds_encode(const struct rperf_gen_spec *s, json_t *o)
{
	if (s->round_methods.n && methods_encode(s, o))
		return ENOMEM;
	if (!s->round_sizes.n)
		return 0;
	return rperf_ctrl_set_u64_array(o, "round_sizes", s->round_sizes.v,
					s->round_sizes.n);
}

static int methods_decode(const json_t *o, struct rperf_gen_spec *s, char *why,
			  size_t wl)
{
	const json_t *a = json_object_get(o, "round_methods");
	size_t i;

	s->round_methods.n = 0;
	if (!a)
		return 0;
	if (!json_is_array(a) || !json_array_size(a) ||
	    json_array_size(a) > RPERF_SPEC_MAX_ROUNDS)
		return rperf_fail(
			why, wl, EBADMSG,
			"'round_methods' not an array of 1 to %d methods",
			RPERF_SPEC_MAX_ROUNDS);
	for (i = 0; i < json_array_size(a); i++) {
		const json_t *v = json_array_get(a, i);

		if (!json_is_string(v) ||
		    rperf_name_find(rperf_method_names, RPERF_METHOD_ALL,
				    json_string_value(v),
				    &s->round_methods.v[i]))
			return rperf_fail(
				why, wl, EBADMSG,
				"'round_methods' entry %zu not one of rperf, pingpong, postpoll",
				i);
	}
	s->round_methods.n = (uint32_t)i;
	return 0; /* the rules: rperf_spec_rounds_check */
}

int rperf_spec_rounds_decode(const json_t *o, struct rperf_gen_spec *s,
			     char *why, size_t wl)
{
	const json_t *a = json_object_get(o, "round_sizes");
	size_t i;
	int rc = methods_decode(o, s, why, wl);

	s->round_sizes.n = 0;
	if (rc || !a)
		return rc;
	if (!json_is_array(a) || !json_array_size(a) ||
	    json_array_size(a) > RPERF_SPEC_MAX_ROUNDS)
		return rperf_fail(why, wl, EBADMSG,
				  "'round_sizes' not an array of 1 to %d sizes",
				  RPERF_SPEC_MAX_ROUNDS);
	for (i = 0; i < json_array_size(a); i++) {
		const json_t *v = json_array_get(a, i);

		if (!json_is_integer(v) || json_integer_value(v) < 1)
			return rperf_fail(
				why, wl, EBADMSG,
				"'round_sizes' entry %zu not a positive integer",
				i);
		s->round_sizes.v[i] = (uint64_t)json_integer_value(v);
	}
	s->round_sizes.n = (uint32_t)i;
	return 0; /* the range against "size": rperf_spec_rounds_check */
}
