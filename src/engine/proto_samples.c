/* SPDX-License-Identifier: BSD-2-Clause */
/* SAMPLES: an LSG's every sample, between STOP and REPORT (proto.h). */
#include "engine/proto.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "util/err.h"

static const char *const cols[] = { "wire_ns", "loop_ns", "rtt_ns" };

static int64_t *col(struct rperf_raw_sample *s, size_t k)
{
	return k == 0 ? &s->wire_ns : k == 1 ? &s->loop_ns : &s->rtt_ns;
}

int rperf_proto_samples_encode(uint32_t id, uint64_t first,
			       const struct rperf_raw_sample *s, size_t n,
			       json_t **out)
{
	json_t *o;
	int rc = 0;

	if (!s || !out || !n || n > RPERF_PROTO_SAMPLES_PER_FRAME)
		return EINVAL;
	o = json_object();
	if (!o || rperf_ctrl_set_u64(o, "id", id) ||
	    rperf_ctrl_set_u64(o, "first", first))
		rc = ENOMEM;
	for (size_t k = 0; !rc && k < 3; k++) {
		json_t *a = json_array();

		for (size_t i = 0; a && i < n; i++)
			if (json_array_append_new(
				    a, json_integer(*col(
					       (struct rperf_raw_sample *)&s[i],
					       k))))
				break;
		if (!a || json_array_size(a) != n ||
		    json_object_set_new(o, cols[k], a))
			rc = ENOMEM;
	}
	return rperf_ctrl_json_out(o, rc, out);
}

int rperf_proto_samples_decode(const struct rperf_ctrl_msg *m,
			       struct rperf_proto_samples *out, char *why,
			       size_t whylen)
{
	const json_t *a[3];
	uint64_t id;
	size_t n;

	if (!m || !out)
		return EINVAL;
	*out = (struct rperf_proto_samples){ 0 };
	if (m->type != RPERF_CTRL_SAMPLES || !json_is_object(m->payload) ||
	    rperf_ctrl_get_u64(m->payload, "id", 0, UINT32_MAX, &id) ||
	    rperf_ctrl_get_u64(m->payload, "first", 0, INT64_MAX, &out->first))
		return rperf_fail(why, whylen, EBADMSG,
				  "SAMPLES: 'id' or 'first' bad");
	for (size_t k = 0; k < 3; k++)
		a[k] = json_object_get(m->payload, cols[k]);
	n = json_array_size(a[0]);
	for (size_t k = 0; k < 3; k++) {
		if (!json_is_array(a[k]) || !n ||
		    n > RPERF_PROTO_SAMPLES_PER_FRAME ||
		    json_array_size(a[k]) != n)
			return rperf_fail(
				why, whylen, EBADMSG,
				"SAMPLES: '%s' not an array of 1 to %u integers, as long as the others",
				cols[k], RPERF_PROTO_SAMPLES_PER_FRAME);
	}
	out->s = calloc(n, sizeof(*out->s));
	if (!out->s)
		return ENOMEM;
	for (size_t k = 0; k < 3; k++) {
		for (size_t i = 0; i < n; i++) {
			const json_t *v = json_array_get(a[k], i);

			if (!json_is_integer(v)) {
				snprintf(
					why, whylen,
					"SAMPLES: '%s' entry %zu not an integer",
					cols[k], i);
				rperf_proto_samples_fini(out);
				return EBADMSG;
			}
			*col(&out->s[i], k) = (int64_t)json_integer_value(v);
		}
	}
	out->id = (uint32_t)id;
	out->n = n;
	return 0;
}

void rperf_proto_samples_fini(struct rperf_proto_samples *x)
{
	if (!x)
		return;
	free(x->s);
	x->s = NULL;
	x->n = 0;
}
