/* SPDX-License-Identifier: BSD-2-Clause */
/* Live rows: GO's "live" and the rows a HEARTBEAT carries (proto.h). */
#include "engine/proto.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/err.h"

/* A row's times and counts: at most the longest run (a day) in ns, and
 * counts a day of messages could not pass. */
#define MAX_NS (8 * RPERF_SPEC_MAX_TIME_NS)
#define MAX_COUNT (1ull << 62)

int rperf_proto_go_set_live(json_t *go)
{
	return rperf_ctrl_set_bool(go, "live", true) ? ENOMEM : 0;
}

int rperf_proto_go_live(const struct rperf_ctrl_msg *m, bool *live)
{
	*live = false;
	if (!json_is_object(m->payload) || !json_object_get(m->payload, "live"))
		return 0;
	return rperf_ctrl_get_bool(m->payload, "live", live) ? EBADMSG : 0;
}

static json_t *row_encode(const struct rperf_live_row *r)
{
	json_t *o = json_object();
	bool bsg = rperf_gen_bandwidth(r->kind);
	int e;

	if (!o)
		return NULL;
	e = rperf_ctrl_set_u64(o, "id", r->id);
	e |= rperf_ctrl_set_str(o, "kind", rperf_gen_kind_name(r->kind));
	e |= rperf_ctrl_set_u64(o, "start_ns", r->start_ns);
	if (bsg) {
		e |= rperf_ctrl_set_u64(o, "dur_ns", r->dur_ns);
		e |= rperf_ctrl_set_u64(o, "messages", r->messages);
		e |= rperf_ctrl_set_u64(o, "bytes", r->bytes);
	} else {
		e |= rperf_ctrl_set_u64(o, "samples", r->samples);
		e |= rperf_ctrl_set_i64(o, "p50_ns", r->p50_ns);
		e |= rperf_ctrl_set_i64(o, "p99_ns", r->p99_ns);
		e |= rperf_ctrl_set_i64(o, "max_ns", r->max_ns);
	}
	if (e) {
		json_decref(o);
		return NULL;
	}
	return o;
}

int rperf_proto_live_encode(const struct rperf_live_row *rows, size_t n,
			    uint64_t skipped, json_t **out)
{
	json_t *o, *a;

	if (n > RPERF_PROTO_MAX_LIVE_ROWS)
		return EINVAL;
	for (size_t i = 0; i < n; i++)
		if (!rperf_gen_kind_at(rows[i].kind))
			return EINVAL;
	o = json_object();
	a = json_array();
	if (!o || !a || json_object_set_new(o, "rows", a)) {
		json_decref(o);
		if (!o)
			json_decref(a);
		return ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		if (json_array_append_new(a, row_encode(&rows[i]))) {
			json_decref(o);
			return ENOMEM;
		}
	}
	return rperf_ctrl_json_out(
		o,
		skipped && rperf_ctrl_set_u64(o, "skipped", skipped) ? ENOMEM :
								       0,
		out);
}

/* One row: every key present, typed and in range, for its kind. */
static int row_decode(const json_t *o, struct rperf_live_row *r,
		      const char **bad)
{
	static const char *const bsg_keys[] = { "start_ns", "dur_ns",
						"messages", "bytes" };
	static const char *const lsg_i64[] = { "p50_ns", "p99_ns", "max_ns" };
	char kind[RPERF_NAME_LEN];
	uint64_t id, *bsg_v[] = { &r->start_ns, &r->dur_ns, &r->messages,
				  &r->bytes };
	int64_t *lsg_v[] = { &r->p50_ns, &r->p99_ns, &r->max_ns };
	int k;

	memset(r, 0, sizeof(*r));
	*bad = "id";
	if (!json_is_object(o) ||
	    rperf_ctrl_get_u64(o, "id", 0, UINT32_MAX, &id))
		return EBADMSG;
	r->id = (uint32_t)id;
	*bad = "kind";
	if (rperf_ctrl_get_str(o, "kind", kind, sizeof(kind)) ||
	    rperf_gen_kind_parse(kind, &r->kind))
		return EBADMSG;
	if (rperf_gen_bandwidth(r->kind)) {
		for (k = 0; k < 4; k++) {
			*bad = bsg_keys[k];
			if (rperf_ctrl_get_u64(o, bsg_keys[k], 0,
					       k < 2 ? MAX_NS : MAX_COUNT,
					       bsg_v[k]))
				return EBADMSG;
		}
		return 0;
	}
	*bad = "start_ns";
	if (rperf_ctrl_get_u64(o, "start_ns", 0, MAX_NS, &r->start_ns))
		return EBADMSG;
	*bad = "samples";
	if (rperf_ctrl_get_u64(o, "samples", 0, MAX_COUNT, &r->samples))
		return EBADMSG;
	for (k = 0; k < 3; k++) {
		*bad = lsg_i64[k];
		if (rperf_ctrl_get_i64(o, lsg_i64[k], -(int64_t)MAX_NS,
				       (int64_t)MAX_NS, lsg_v[k]))
			return EBADMSG;
	}
	return 0;
}

int rperf_proto_live_decode(const struct rperf_ctrl_msg *m,
			    struct rperf_proto_live *out, char *why,
			    size_t whylen)
{
	const json_t *a;
	const char *bad = "";
	size_t n;
	int rc;

	memset(out, 0, sizeof(*out));
	if (!json_is_object(m->payload))
		return rperf_fail(why, whylen, EBADMSG,
				  "HEARTBEAT: not an object");
	rc = rperf_ctrl_get_u64(m->payload, "skipped", 0, MAX_COUNT,
				&out->skipped);
	if (rc && rc != ENOENT)
		return rperf_fail(why, whylen, EBADMSG,
				  "HEARTBEAT: 'skipped' bad");
	out->skipped = rc ? 0 : out->skipped;
	a = json_object_get(m->payload, "rows");
	if (!a)
		return 0;
	n = json_array_size(a);
	if (!json_is_array(a) || n > RPERF_PROTO_MAX_LIVE_ROWS)
		return rperf_fail(
			why, whylen, EBADMSG,
			"HEARTBEAT: 'rows' not an array of at most %u",
			RPERF_PROTO_MAX_LIVE_ROWS);
	out->rows = calloc(n ? n : 1, sizeof(*out->rows));
	if (!out->rows)
		return ENOMEM;
	for (size_t i = 0; i < n; i++, out->n++) {
		if (row_decode(json_array_get(a, i), &out->rows[i], &bad)) {
			snprintf(why, whylen, "HEARTBEAT: rows[%zu]: '%s' bad",
				 i, bad);
			rperf_proto_live_fini(out);
			return EBADMSG;
		}
	}
	return 0;
}

void rperf_proto_live_fini(struct rperf_proto_live *l)
{
	free(l->rows);
	l->rows = NULL;
	l->n = 0;
}
