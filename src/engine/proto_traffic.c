/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * REPORT's optional traffic keys of a BSG source (proto.h): "end_ns" and
 * an incast sender's "bursts" [[start_ns, end_ns], ...]. Absent keys leave
 * the result as it was (older agents send neither).
 */
#include "engine/proto.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "ctrl/ctrl.h"
#include "util/err.h"

int rperf_proto_traffic_fill(const struct rperf_proto_result *r, json_t *o)
{
	json_t *a;

	if (r->has_end && rperf_ctrl_set_u64(o, "end_ns", r->end_ns))
		return ENOMEM;
	if (!r->nbursts)
		return 0;
	if (r->nbursts > RPERF_PROTO_MAX_BURSTS)
		return EINVAL;
	a = json_array();
	if (!a)
		return ENOMEM;
	for (size_t i = 0; i < r->nbursts; i++) {
		json_t *p = json_pack("[I,I]", (json_int_t)r->bursts[2 * i],
				      (json_int_t)r->bursts[2 * i + 1]);

		if (!p || json_array_append_new(a, p)) {
			json_decref(a);
			return ENOMEM;
		}
	}
	return json_object_set_new(o, "bursts", a) ? ENOMEM : 0;
}

static int bad(char *why, size_t whylen, size_t idx, const char *what)
{
	return rperf_fail(why, whylen, EBADMSG, "instances[%zu]: %s", idx,
			  what);
}

static int bursts_decode(const json_t *a, struct rperf_proto_result *r,
			 size_t idx, char *why, size_t whylen)
{
	size_t n = json_array_size(a);

	if (!json_is_array(a) || !n || n > RPERF_PROTO_MAX_BURSTS)
		return bad(why, whylen, idx,
			   "'bursts' not an array of 1..2048 pairs");
	r->bursts = calloc(2 * n, sizeof(*r->bursts));
	if (!r->bursts)
		return ENOMEM;
	for (size_t i = 0; i < n; i++) {
		const json_t *p = json_array_get(a, i);
		const json_t *s = json_array_get(p, 0),
			     *e = json_array_get(p, 1);

		if (!json_is_array(p) || json_array_size(p) != 2 ||
		    !json_is_integer(s) || !json_is_integer(e) ||
		    json_integer_value(s) < 0 ||
		    json_integer_value(e) < json_integer_value(s))
			return bad(why, whylen, idx,
				   "'bursts' entry not [start_ns, end_ns] with "
				   "0 <= start <= end");
		r->bursts[2 * i] = (uint64_t)json_integer_value(s);
		r->bursts[2 * i + 1] = (uint64_t)json_integer_value(e);
		r->nbursts = i + 1;
	}
	return 0;
}

int rperf_proto_traffic_decode(const json_t *o, struct rperf_proto_result *r,
			       size_t idx, char *why, size_t whylen)
{
	const json_t *a = json_object_get(o, "bursts");
	int rc = rperf_ctrl_get_u64(o, "end_ns", 0, UINT64_MAX, &r->end_ns);

	if (rc && rc != ENOENT)
		return bad(why, whylen, idx,
			   "'end_ns' not an unsigned integer");
	r->has_end = rc == 0;
	return a ? bursts_decode(a, r, idx, why, whylen) : 0;
}

void rperf_proto_traffic_fini(struct rperf_proto_result *r)
{
	free(r->bursts);
	r->bursts = NULL;
	r->nbursts = 0;
}
