/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * REPORT: per-instance results. Histograms travel as the bytes of
 * rperf_hist_serialize() in lowercase hex; percentiles never travel.
 */
#include "engine/proto.h"
#include "counters/counters_json.h"
#include "engine/proto_priv.h"
#include "util/err.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SECONDS 1e9

static const char *const lsg_counters[] = {
	"samples", "warmup", "nonpositive", "precompleted", "loop_precompleted",
};
static const char *const bsg_counters[] = {
	"messages",
	"bytes",
	"posted",
	"post_calls",
};
static const char *const sink_counters[] = { "messages", "bytes" };
/* the first three required (an LSG source's), then the optional ones */
static const char *const hist_keys[RPERF_PROTO_NHIST] = {
	"rtt_hist", "wire_hist", "loop_hist", "post_wire_hist", "post_loop_hist"
};
#define REQUIRED_HISTS 3

static uint64_t *counter(struct rperf_proto_result *r, const char *key)
{
	static const struct {
		const char *key;
		size_t off;
	} map[] = {
#define M(f) { #f, offsetof(struct rperf_proto_result, f) }
		M(samples),
		M(warmup),
		M(nonpositive),
		M(precompleted),
		M(loop_precompleted),
		M(messages),
		M(bytes),
		M(posted),
		M(post_calls),
#undef M
	};
	size_t i;

	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (strcmp(map[i].key, key) == 0)
			return (uint64_t *)((char *)r + map[i].off);
	return NULL;
}

/* The counter keys of @r's role and kind. */
static const char *const *counters_of(const struct rperf_proto_result *r,
				      size_t *n)
{
	if (r->role == RPERF_ROLE_SINK) {
		*n = sizeof(sink_counters) / sizeof(sink_counters[0]);
		return sink_counters;
	}
	if (rperf_gen_latency(r->kind)) {
		*n = sizeof(lsg_counters) / sizeof(lsg_counters[0]);
		return lsg_counters;
	}
	*n = sizeof(bsg_counters) / sizeof(bsg_counters[0]);
	return bsg_counters;
}

static bool has_hists(const struct rperf_proto_result *r)
{
	return r->role == RPERF_ROLE_SOURCE && rperf_gen_latency(r->kind);
}

struct rperf_hist **rperf_proto_result_hist(struct rperf_proto_result *r,
					    size_t i)
{
	struct rperf_hist **h[RPERF_PROTO_NHIST] = { &r->rtt, &r->wire,
						     &r->loop, &r->post_wire,
						     &r->post_loop };

	return h[i];
}

void rperf_proto_result_hists_fini(struct rperf_proto_result *r)
{
	for (size_t i = 0; i < RPERF_PROTO_NHIST; i++) {
		rperf_hist_destroy(*rperf_proto_result_hist(r, i));
		*rperf_proto_result_hist(r, i) = NULL;
	}
}

static int hist_set(json_t *o, const char *key, const struct rperf_hist *h)
{
	size_t cap = rperf_hist_serialized_size(h), len = 0;
	uint8_t *bin = malloc(cap ? cap : 1);
	char *hex = malloc(2 * cap + 1);
	int rc = ENOMEM;

	if (bin && hex && !rperf_hist_serialize(h, bin, cap, &len)) {
		rperf_ctrl_hex(bin, len, hex);
		rc = rperf_ctrl_set_str(o, key, hex);
	}
	free(bin);
	free(hex);
	return rc;
}

#define NIC_MAX_HZ 1e12
#define NIC_MAX_PPM 1e6

static int nic_clock_set(json_t *o, const struct rperf_proto_nic_clock *c)
{
	json_t *n = json_object();

	if (!n || rperf_ctrl_set_double(n, "hz", c->hz) ||
	    rperf_ctrl_set_double(n, "measured_hz", c->measured_hz) ||
	    rperf_ctrl_set_double(n, "ppm", c->ppm) ||
	    json_object_set_new(o, "nic_clock", n)) {
		json_decref(n);
		return ENOMEM;
	}
	return 0;
}

static int place_set(json_t *o, const struct rperf_proto_placement *p)
{
	json_t *x = json_pack("{s:i, s:i, s:i, s:b}", "nic_node",
			      (json_int_t)p->nic_node, "cpu_node",
			      (json_int_t)p->cpu_node, "mem_node",
			      (json_int_t)p->mem_node, "remote", p->remote);

	if (!x || json_object_set_new(o, "placement", x))
		return ENOMEM;
	return 0;
}

/* optional "placement" {nic_node, cpu_node, mem_node, remote} */
static int place_decode(const json_t *o, struct rperf_proto_result *r,
			size_t idx, char *why, size_t whylen)
{
	const json_t *x = json_object_get(o, "placement");
	struct rperf_proto_placement p;
	int64_t v[3];
	const char *const keys[3] = { "nic_node", "cpu_node", "mem_node" };

	if (!x)
		return 0;
	for (size_t i = 0; i < 3; i++)
		if (!json_is_object(x) ||
		    rperf_ctrl_get_i64(x, keys[i], -1, RPERF_SPEC_MAX_NODE,
				       &v[i]))
			return rperf_fail(
				why, whylen, EBADMSG,
				"instances[%zu]: 'placement' '%s' missing or "
				"not in [-1, %d]",
				idx, keys[i], RPERF_SPEC_MAX_NODE);
	if (!json_is_boolean(json_object_get(x, "remote")))
		return rperf_fail(
			why, whylen, EBADMSG,
			"instances[%zu]: 'placement' 'remote' not a boolean",
			idx);
	p.nic_node = (int)v[0];
	p.cpu_node = (int)v[1];
	p.mem_node = (int)v[2];
	p.remote = json_is_true(json_object_get(x, "remote"));
	r->place = p;
	r->placed = true;
	return 0;
}

static int result_fill(const struct rperf_proto_result *r, json_t *o)
{
	const char *const *keys;
	size_t i, n;
	int rc;

	rc = rperf_ctrl_set_u64(o, "id", r->id);
	if (!rc)
		rc = rperf_ctrl_set_str(o, "role",
					rperf_proto_role_name(r->role));
	if (!rc)
		rc = rperf_ctrl_set_str(o, "kind",
					rperf_gen_kind_name(r->kind));
	if (!rc)
		rc = rperf_ctrl_set_str(o, "error", r->error);
	if (!rc)
		rc = rperf_ctrl_set_double(o, "seconds", r->seconds);
	if (!rc)
		rc = rperf_ctrl_set_double(o, "cpu_seconds", r->cpu_seconds);
	keys = counters_of(r, &n);
	for (i = 0; !rc && i < n; i++)
		rc = rperf_ctrl_set_u64(o, keys[i],
					*counter((struct rperf_proto_result *)r,
						 keys[i]));
	for (i = 0; !rc && has_hists(r) && i < RPERF_PROTO_NHIST; i++) {
		const struct rperf_hist *h = *rperf_proto_result_hist(
			(struct rperf_proto_result *)r, i);

		if (h || i < REQUIRED_HISTS)
			rc = hist_set(o, hist_keys[i], h);
	}
	if (!rc && has_hists(r))
		rc = rperf_ctrl_set_str(o, "timestamps",
					r->nic_ts ? "nic" : "cpu");
	if (!rc && has_hists(r) && r->ts_note[0])
		rc = rperf_ctrl_set_str(o, "timestamps_note", r->ts_note);
	if (!rc && has_hists(r) && r->nic_ts && r->nic_clock.hz > 0)
		rc = nic_clock_set(o, &r->nic_clock);
	if (!rc && has_hists(r) && r->has_raw)
		rc = rperf_ctrl_set_u64(o, "raw_samples", r->nraw);
	if (!rc && r->placed)
		rc = place_set(o, &r->place);
	if (!rc)
		rc = rperf_proto_traffic_fill(r, o);
	if (!rc && has_hists(r))
		rc = rperf_proto_sched_set(o, r);
	if (!rc)
		rc = rperf_proto_series_set(o, r);
	return rc;
}

static bool result_ok(const struct rperf_proto_result *r)
{
	if ((unsigned int)r->role > RPERF_ROLE_SINK ||
	    !rperf_gen_kind_at(r->kind) ||
	    !memchr(r->error, 0, sizeof(r->error)) ||
	    !(r->seconds >= 0 && r->seconds <= MAX_SECONDS) ||
	    !(r->cpu_seconds >= 0 && r->cpu_seconds <= MAX_SECONDS))
		return false;
	return !has_hists(r) || (r->rtt && r->wire && r->loop);
}

static int counters_set(json_t *o, const struct rperf_ctr_series *s)
{
	json_t *c;

	if (rperf_ctr_series_encode(s, &c))
		return ENOMEM;
	return json_object_set_new(o, "counters", c) ? ENOMEM : 0;
}

/* the optional "counters" (an older agent sends none) */
static int counters_get(const json_t *o, struct rperf_proto_report *r,
			char *why, size_t whylen)
{
	const json_t *c = json_object_get(o, "counters");

	return c ? rperf_ctr_series_decode(c, &r->counters, why, whylen) : 0;
}

int rperf_proto_report_encode(const struct rperf_proto_report *r, json_t **out)
{
	json_t *o, *a;
	size_t i;
	int rc = 0;

	if (!r || !out || r->n > RPERF_PROTO_MAX_INSTANCES ||
	    (r->n && !r->res) || !memchr(r->host, 0, sizeof(r->host)))
		return EINVAL;
	for (i = 0; i < r->n; i++)
		if (!result_ok(&r->res[i]))
			return EINVAL;
	o = json_object();
	a = json_array();
	if (!o || !a || rperf_ctrl_set_str(o, "host", r->host))
		rc = ENOMEM;
	for (i = 0; !rc && i < r->n; i++) {
		json_t *x = json_object();

		rc = x ? result_fill(&r->res[i], x) : ENOMEM;
		if (!rc && json_array_append(a, x))
			rc = ENOMEM;
		json_decref(x);
	}
	if (!rc && r->dry_run && json_object_set_new(o, "dry_run", json_true()))
		rc = ENOMEM;
	if (!rc && r->has_go_rx)
		rc = rperf_ctrl_set_u64(o, "go_rx_ns", r->go_rx_ns);
	if (!rc && r->has_start)
		rc = rperf_ctrl_set_u64(o, "start_ns", r->start_ns);
	if (!rc && r->buffers_note[0])
		rc = rperf_ctrl_set_str(o, "buffers_note", r->buffers_note);
	if (!rc && r->counters.ncols)
		rc = counters_set(o, &r->counters);
	return rperf_proto_finish(o, "instances", a, rc, out);
}

static int hist_get(const json_t *o, const char *key, struct rperf_hist **out)
{
	const json_t *v = json_object_get(o, key);
	size_t len, n;
	uint8_t *bin;
	int rc;

	if (!json_is_string(v))
		return EBADMSG;
	len = json_string_length(v);
	if (!len || len % 2 || strlen(json_string_value(v)) != len)
		return EBADMSG;
	n = len / 2;
	bin = malloc(n);
	if (!bin)
		return ENOMEM;
	rc = rperf_ctrl_unhex(json_string_value(v), bin, n);
	if (!rc)
		rc = rperf_hist_deserialize(bin, n, out);
	free(bin);
	return rc == ENOMEM ? ENOMEM : rc ? EBADMSG : 0;
}

static int head_decode(const json_t *o, struct rperf_proto_result *r)
{
	const json_t *err = json_object_get(o, "error");
	uint64_t id;
	char kind[RPERF_NAME_LEN];

	if (!json_is_object(o) ||
	    rperf_ctrl_get_u64(o, "id", 0, UINT32_MAX, &id) ||
	    rperf_proto_role_get(o, &r->role) ||
	    rperf_ctrl_get_str(o, "kind", kind, sizeof(kind)) ||
	    rperf_gen_kind_parse(kind, &r->kind) || !json_is_string(err) ||
	    rperf_ctrl_get_double(o, "seconds", 0, MAX_SECONDS, &r->seconds) ||
	    rperf_ctrl_get_double(o, "cpu_seconds", 0, MAX_SECONDS,
				  &r->cpu_seconds))
		return EBADMSG;
	r->id = (uint32_t)id;
	/* a long reason is cut, not refused (as REFUSE/ERROR reasons) */
	snprintf(r->error, sizeof(r->error), "%s", json_string_value(err));
	rperf_ctrl_text_clean(r->error);
	return 0;
}

/* optional "nic_clock", only with NIC stamps */
static int nic_clock_decode(const json_t *o, struct rperf_proto_result *r,
			    size_t idx, char *why, size_t whylen)
{
	const json_t *n = json_object_get(o, "nic_clock");
	struct rperf_proto_nic_clock *c = &r->nic_clock;

	if (!n)
		return 0;
	if (!r->nic_ts || !json_is_object(n) ||
	    rperf_ctrl_get_double(n, "hz", 1, NIC_MAX_HZ, &c->hz) ||
	    rperf_ctrl_get_double(n, "measured_hz", 0, NIC_MAX_HZ,
				  &c->measured_hz) ||
	    rperf_ctrl_get_double(n, "ppm", -NIC_MAX_PPM, NIC_MAX_PPM,
				  &c->ppm)) {
		snprintf(
			why, whylen,
			"instances[%zu]: 'nic_clock' not {hz, measured_hz, ppm} in range, or without NIC stamps",
			idx);
		*c = (struct rperf_proto_nic_clock){ 0 };
		return EBADMSG;
	}
	return 0;
}

/* optional "raw_samples": the samples its agent sent in SAMPLES */
static int raw_count_decode(const json_t *o, struct rperf_proto_result *r,
			    size_t idx, char *why, size_t whylen)
{
	uint64_t n = 0;
	int rc = rperf_ctrl_get_u64(o, "raw_samples", 0, INT64_MAX, &n);

	if (rc == ENOENT)
		return 0;
	if (rc)
		return rperf_fail(why, whylen, EBADMSG,
				  "instances[%zu]: 'raw_samples' not a count",
				  idx);
	r->has_raw = true;
	r->nraw = (size_t)n;
	r->raw = NULL; /* they came in SAMPLES */
	return 0;
}

/* optional "timestamps": "nic" | "cpu", and "timestamps_note" (a string,
 * cut to fit, as "error") */
static int stamps_decode(const json_t *o, struct rperf_proto_result *r,
			 size_t idx, char *why, size_t whylen)
{
	const json_t *note = json_object_get(o, "timestamps_note");
	char ts[8];
	int rc = rperf_ctrl_get_str(o, "timestamps", ts, sizeof(ts));

	if (note && !json_is_string(note))
		return rperf_fail(
			why, whylen, EBADMSG,
			"instances[%zu]: 'timestamps_note' not a string", idx);
	if (note) {
		snprintf(r->ts_note, sizeof(r->ts_note), "%s",
			 json_string_value(note));
		rperf_ctrl_text_clean(r->ts_note);
	}
	if (rc == ENOENT)
		return 0;
	if (rc || (strcmp(ts, "nic") && strcmp(ts, "cpu")))
		return rperf_fail(
			why, whylen, EBADMSG,
			"instances[%zu]: 'timestamps' not \"nic\" or \"cpu\"",
			idx);
	r->nic_ts = ts[0] == 'n';
	return 0;
}

static int result_decode(const json_t *o, struct rperf_proto_result *r,
			 size_t idx, char *why, size_t whylen)
{
	const char *const *keys;
	size_t i, n;
	int rc;

	if (head_decode(o, r))
		return rperf_fail(
			why, whylen, EBADMSG,
			"instances[%zu]: id, role, kind, error, seconds or "
			"cpu_seconds missing or bad",
			idx);
	keys = counters_of(r, &n);
	for (i = 0; i < n; i++) {
		if (rperf_ctrl_get_u64(o, keys[i], 0, UINT64_MAX,
				       counter(r, keys[i])))
			return rperf_fail(why, whylen, EBADMSG,
					  "instances[%zu]: '%s' bad", idx,
					  keys[i]);
	}
	for (i = 0; has_hists(r) && i < RPERF_PROTO_NHIST; i++) {
		if (i >= REQUIRED_HISTS && !json_object_get(o, hist_keys[i]))
			continue;
		rc = hist_get(o, hist_keys[i], rperf_proto_result_hist(r, i));
		if (rc)
			return rperf_fail(why, whylen, rc,
					  "instances[%zu]: '%s' bad", idx,
					  hist_keys[i]);
	}
	rc = has_hists(r) ? stamps_decode(o, r, idx, why, whylen) : 0;
	if (!rc && has_hists(r))
		rc = nic_clock_decode(o, r, idx, why, whylen);
	if (!rc && has_hists(r))
		rc = raw_count_decode(o, r, idx, why, whylen);
	if (!rc && has_hists(r))
		rc = rperf_proto_sched_get(o, r, idx, why, whylen);
	if (!rc && (has_hists(r) || rperf_gen_bandwidth(r->kind)))
		rc = rperf_proto_series_get(o, r, idx, why, whylen);
	if (!rc)
		rc = place_decode(o, r, idx, why, whylen);
	return rc ? rc : rperf_proto_traffic_decode(o, r, idx, why, whylen);
}

/* optional "dry_run" (boolean), "buffers_note" (string), "start_ns" and
 * "go_rx_ns" (u64) */
static int head_extras(const json_t *o, struct rperf_proto_report *r, char *why,
		       size_t whylen)
{
	const json_t *d = json_object_get(o, "dry_run");
	const json_t *note = json_object_get(o, "buffers_note");

	if (d && !json_is_boolean(d))
		return rperf_fail(why, whylen, EBADMSG,
				  "'dry_run' not a boolean");
	r->dry_run = json_is_true(d);
	if (note && !json_is_string(note))
		return rperf_fail(why, whylen, EBADMSG,
				  "'buffers_note' not a string");
	if (note) {
		snprintf(r->buffers_note, sizeof(r->buffers_note), "%s",
			 json_string_value(note));
		rperf_ctrl_text_clean(r->buffers_note);
	}
	if (json_object_get(o, "start_ns")) {
		if (rperf_ctrl_get_u64(o, "start_ns", 0, UINT64_MAX,
				       &r->start_ns))
			return rperf_fail(why, whylen, EBADMSG,
					  "'start_ns' not an unsigned integer");
		r->has_start = true;
	}
	if (!json_object_get(o, "go_rx_ns"))
		return 0;
	if (rperf_ctrl_get_u64(o, "go_rx_ns", 0, UINT64_MAX, &r->go_rx_ns))
		return rperf_fail(why, whylen, EBADMSG,
				  "'go_rx_ns' not an unsigned integer");
	r->has_go_rx = true;
	return 0;
}

int rperf_proto_report_decode(const struct rperf_ctrl_msg *m,
			      struct rperf_proto_report *r, char *why,
			      size_t whylen)
{
	const json_t *a;
	size_t i;
	int rc = 0;

	if (!m || !r || !why || !whylen)
		return EINVAL;
	if (m->type != RPERF_CTRL_REPORT)
		return EPROTO;
	memset(r, 0, sizeof(*r));
	a = json_object_get(m->payload, "instances");
	if (!json_is_object(m->payload) ||
	    rperf_ctrl_get_str(m->payload, "host", r->host, sizeof(r->host)) ||
	    !json_is_array(a) || json_array_size(a) > RPERF_PROTO_MAX_INSTANCES)
		return rperf_fail(why, whylen, EBADMSG,
				  "'host' or 'instances' missing or bad");
	if (head_extras(m->payload, r, why, whylen))
		return EBADMSG;
	rc = counters_get(m->payload, r, why, whylen);
	if (rc)
		return rc;
	r->res = calloc(json_array_size(a) + 1, sizeof(*r->res));
	if (!r->res)
		return ENOMEM;
	for (i = 0; !rc && i < json_array_size(a); i++) {
		r->n = i + 1;
		rc = result_decode(json_array_get(a, i), &r->res[i], i, why,
				   whylen);
	}
	if (rc)
		rperf_proto_report_fini(r);
	return rc;
}

void rperf_proto_result_fini(struct rperf_proto_result *r)
{
	rperf_proto_result_hists_fini(r);
	rperf_proto_traffic_fini(r);
	rperf_lsg_series_fini(&r->series);
	rperf_bsg_series_fini(&r->bsg_series);
	free(r->raw);
	r->raw = NULL;
	r->nraw = 0;
}

void rperf_proto_report_fini(struct rperf_proto_report *r)
{
	size_t i;

	if (!r)
		return;
	for (i = 0; r->res && i < r->n; i++)
		rperf_proto_result_fini(&r->res[i]);
	free(r->res);
	r->res = NULL;
	r->n = 0;
	rperf_ctr_series_fini(&r->counters);
}
