/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * JSON document of `rperf run` (contract keys): generators[] {name, kind,
 * host, to, sl, tclass, id, status, error, LSG: rtt_ns (the keys of rperf
 * lat's rtt_ns), BSG: gbps, receiver_gbps}, failed_hosts[], classes[],
 * hosts[], total, plus the job's path and timing. A generator whose
 * source reported where it ran also has placement {nic_node, cpu_node,
 * mem_node, remote} (nodes -1: unknown / not bound).
 */
#include "run/run.h"
#include "run/run_ctlplane.h"
#include "run/run_ctr.h"
#include "run/run_incast.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rperf/hist.h>
#include <rperf/report.h>

#include "report/report_json.h"

#define RPERF_RUN_SCHEMA 1

static int set(json_t *o, const char *k, json_t *v)
{
	return json_object_set_new(o, k, v) ? -1 : 0;
}

static json_t *stats(const struct rperf_hist *h)
{
	if (!h)
		return json_null();
	return rperf_rpt_json_stats(h, rperf_rpt_default_pcts,
				    RPERF_RPT_NDEFAULT_PCTS);
}

/* The breakdown's post costs: null when not reported (the postpoll and
 * pingpong methods post no loopback operation). */
static int breakdown(json_t *o, const struct rperf_run_inst *in)
{
	const struct rperf_hist *loop = in->post_loop;

	if (loop && !rperf_hist_count(loop))
		loop = NULL;
	return set(o, "post_wire_ns", stats(in->post_wire)) |
	       set(o, "post_loop_ns", stats(loop));
}

/* Gb/s of @bytes over @dur_ns; null over no time. */
static json_t *gbps_of(uint64_t bytes, uint64_t dur_ns)
{
	return dur_ns ? json_real((double)bytes * 8 / (double)dur_ns) :
			json_null();
}

/* Row @w's sent figures {start_s, seconds, messages, gbps} (null past the
 * source's rows) into @o. */
static int bsg_sent(json_t *o, const struct rperf_run_bsg_row *w)
{
	const struct rperf_bsg_interval *v = w->sent;
	int e = 0;

	e |= set(o, "start_s", json_real((double)w->start_ns / 1e9));
	e |= set(o, "seconds",
		 v ? json_real((double)v->dur_ns / 1e9) : json_null());
	e |= set(o, "messages",
		 v ? json_integer((json_int_t)v->messages) : json_null());
	e |= set(o, "gbps", v ? gbps_of(v->bytes, v->dur_ns) : json_null());
	return e;
}

/* Row @w's received figures {received_messages, received_seconds,
 * received_gbps}: the destination's intervals summed into it. Nothing
 * arrived in the whole run: 0 over the source's interval. Null when the
 * destination cannot see (RDMA WRITE) or did not say (an older agent, no
 * report); a row no destination interval fell in: 0 messages over 0 s. */
static int bsg_received(json_t *o, const struct rperf_run_inst *in,
			const struct rperf_run_bsg_row *w)
{
	bool known = in->have_sink && !in->rx_invisible &&
		     (in->rx_series.n || !in->rx_messages);
	uint64_t dur = w->rx_dur_ns;
	int e = 0;

	if (!known) {
		e |= set(o, "received_messages", json_null());
		e |= set(o, "received_seconds", json_null());
		return e | set(o, "received_gbps", json_null());
	}
	if (!in->rx_series.n && w->sent) /* nothing arrived at all */
		dur = w->sent->dur_ns;
	e |= set(o, "received_messages",
		 json_integer((json_int_t)w->rx_messages));
	e |= set(o, "received_seconds", json_real((double)dur / 1e9));
	return e | set(o, "received_gbps", gbps_of(w->rx_bytes, dur));
}

/* A BSG's "intervals" (run.h rperf_run_bsg_rows): {start_s (from GO),
 * seconds, messages, gbps}: what the source saw complete in each interval;
 * received_messages, received_seconds, received_gbps: what arrived at the
 * destination in it (payload, both). */
static json_t *json_bsg_series(const struct rperf_run_inst *in)
{
	struct rperf_run_bsg_row *rows = NULL;
	json_t *a = json_array();
	size_t n = 0;
	int e = rperf_run_bsg_rows(in, &rows, &n) ? -1 : 0;

	for (size_t i = 0; !e && i < n; i++) {
		json_t *o = json_object();

		e |= bsg_sent(o, &rows[i]) | bsg_received(o, in, &rows[i]);
		e |= json_array_append_new(a, o);
	}
	free(rows);
	return rperf_rpt_json_done(a, e);
}

/* An LSG's "schedule" and, when open, "open_schedule" (µs). */
static int json_sched(json_t *o, const struct rperf_run_inst *in)
{
	const struct rperf_sched_figs *f = &in->sched;
	char name[RPERF_SCHED_TEXT];
	int e;

	rperf_sched_format(&in->spec->schedule, name, sizeof(name));
	e = set(o, "schedule", json_string(name));
	if (!f->open)
		return e;
	return e | set(o, "open_schedule",
		       json_pack("{s:o, s:f, s:f, s:f, s:o, s:b}", "late",
				 rperf_rpt_json_uint(f->late), "lag_bound_us",
				 (double)f->lag_bound_ns / 1e3, "lag_p99_us",
				 (double)f->lag_p99_ns / 1e3, "lag_max_us",
				 (double)f->lag_max_ns / 1e3, "inflight_max",
				 rperf_rpt_json_uint(f->inflight_max),
				 "fell_behind",
				 rperf_sched_fell_behind(f, in->samples)));
}

/* An LSG's "limits" when its [lsg] set any (max_p50, max_p999): one
 * object per limit set, the limit and the percentile in µs (null without
 * samples), and whether it was crossed (run_limits.c). */
static int json_limits(json_t *o, const struct rperf_run_inst *in)
{
	struct rperf_run_limit l[RPERF_RUN_NLIMITS];
	bool measured = in->rtt && rperf_hist_count(in->rtt);
	json_t *a = NULL;
	int e = 0;

	rperf_run_inst_limits(in, l);
	for (size_t i = 0; i < RPERF_RUN_NLIMITS; i++) {
		if (!l[i].limit_ns)
			continue;
		if (!a && !(a = json_array()))
			return -1;
		e |= json_array_append_new(
			a,
			json_pack("{s:s, s:f, s:o, s:b}", "key", l[i].key,
				  "limit_us", (double)l[i].limit_ns / 1e3,
				  "value_us",
				  measured ? json_real((double)l[i].value_ns /
						       1e3) :
					     json_null(),
				  "exceeded", l[i].over));
	}
	return a ? e | set(o, "limits", a) : 0;
}

/* Why a BSG's destination has no count: the verb completes nothing there. */
/* "nic_clock_hz" (rperf lat's key: the NIC clock's hca_core_clock, null
 * without NIC stamps) and "nic_clock_ppm" (measured against it; null when
 * not measured). */
static int json_nic_clock(json_t *o, const struct rperf_run_inst *in)
{
	const struct rperf_proto_nic_clock *c = &in->nic_clock;
	bool nic = in->nic_ts && c->hz > 0;

	return set(o, "nic_clock_hz", nic ? json_real(c->hz) : json_null()) |
	       set(o, "nic_clock_ppm",
		   nic && c->measured_hz > 0 ? json_real(c->ppm) : json_null());
}

/* A verb whose target consumes no receive: why nothing is counted. */
static json_t *rx_note(int verb)
{
	char note[128];

	snprintf(note, sizeof(note),
		 "%s: the destination sees no completion, nothing to count",
		 rperf_verb_of(verb)->label);
	return json_string(note);
}
static json_t *json_inst(const struct rperf_run_inst *in)
{
	const struct rperf_gen_spec *s = in->spec;
	json_t *o = json_object();
	int e = 0;

	e |= set(o, "name", rperf_rpt_json_str(s->name));
	e |= set(o, "id", json_integer(s->id));
	e |= set(o, "kind", json_string(rperf_gen_kind_name(s->kind)));
	e |= set(o, "host", rperf_rpt_json_str(s->from));
	e |= set(o, "to", rperf_rpt_json_str(s->to));
	e |= set(o, "sl", json_integer(s->path.sl));
	e |= set(o, "tclass", json_integer(s->path.tclass));
	e |= set(o, "size", rperf_rpt_json_uint(s->size));
	e |= set(o, "status", json_string(rperf_run_status_name(in->status)));
	e |= set(o, "error", rperf_rpt_json_str(in->error));
	e |= set(o, "seconds", rperf_rpt_json_real(in->seconds));
	e |= set(o, "cpu_seconds", rperf_rpt_json_real(in->cpu_seconds));
	if (in->placed)
		e |= set(o, "placement",
			 json_pack("{s:i, s:i, s:i, s:b}", "nic_node",
				   (json_int_t)in->place.nic_node, "cpu_node",
				   (json_int_t)in->place.cpu_node, "mem_node",
				   (json_int_t)in->place.mem_node, "remote",
				   in->place.remote));
	if (rperf_gen_latency(s->kind)) {
		e |= set(o, "samples", rperf_rpt_json_uint(in->samples));
		e |= set(o, "warmup", rperf_rpt_json_uint(in->warmup));
		e |= set(o, "nonpositive",
			 rperf_rpt_json_uint(in->nonpositive));
		e |= set(o, "precompleted",
			 rperf_rpt_json_uint(in->precompleted));
		e |= set(o, "loop_precompleted",
			 rperf_rpt_json_uint(in->loop_precompleted));
		e |= set(o, "timestamps",
			 json_string(in->nic_ts ? "nic" : "cpu"));
		e |= json_nic_clock(o, in);
		e |= set(o, "method",
			 json_string(rperf_method_name(s->test.method)));
		e |= set(o, "verb", json_string(rperf_verb_name(s->verb)));
		e |= set(o, "timestamps_note",
			 rperf_rpt_json_str(in->ts_note[0] ? in->ts_note :
							     NULL));
		e |= json_sched(o, in);
		e |= json_limits(o, in);
		e |= set(o, "intervals",
			 rperf_rpt_json_lsg_intervals(in->series.iv,
						      in->series.n));
		e |= set(o, "rtt_ns", stats(in->rtt));
		e |= set(o, "wire_ns", stats(in->wire));
		e |= set(o, "loop_ns", stats(in->loop));
		if (s->breakdown) /* as rperf lat --breakdown's */
			e |= breakdown(o, in);
	} else {
		/* null: that end never reported (its host failed) */
		e |= set(o, "gbps",
			 in->have_source ? rperf_rpt_json_real(in->gbps) :
					   json_null());
		e |= set(o, "receiver_gbps",
			 in->have_sink && !in->rx_invisible ?
				 rperf_rpt_json_real(in->receiver_gbps) :
				 json_null());
		if (in->rx_invisible)
			e |= set(o, "receiver_note", rx_note(in->spec->verb));
		else if (in->rx_rows_dropped)
			e |= set(o, "receiver_note",
				 json_string(RPERF_RUN_ROWS_DROPPED));
		e |= set(o, "intervals", json_bsg_series(in));
		e |= set(o, "messages", rperf_rpt_json_uint(in->messages));
		e |= set(o, "bytes", rperf_rpt_json_uint(in->bytes));
		e |= set(o, "received_messages",
			 rperf_rpt_json_uint(in->rx_messages));
		e |= set(o, "received_bytes",
			 rperf_rpt_json_uint(in->rx_bytes));
		e |= set(o, "end_ns",
			 in->has_end ? rperf_rpt_json_uint(in->end_ns) :
				       json_null());
	}
	return rperf_rpt_json_done(o, e);
}

/* Fields of an aggregate into @o. */
static int json_agg(json_t *o, const struct rperf_run_agg *a, bool sent)
{
	int e = 0;

	e |= set(o, "lsg_count", json_integer((json_int_t)a->nlsg));
	e |= set(o, "bsg_count", json_integer((json_int_t)a->nbsg));
	e |= set(o, "rtt_ns", stats(a->rtt));
	if (sent)
		e |= set(o, "gbps", rperf_rpt_json_real(a->gbps));
	e |= set(o, "receiver_gbps", rperf_rpt_json_real(a->receiver_gbps));
	e |= set(o, "bsg_sent_count", json_integer((json_int_t)a->nsent));
	e |= set(o, "bsg_received_count", json_integer((json_int_t)a->nrecv));
	return e;
}

static json_t *json_class(const struct rperf_run_class *c)
{
	json_t *o = json_object();
	int e = 0;

	e |= set(o, "name", json_string(c->name));
	e |= set(o, "sl", json_integer(c->sl));
	e |= set(o, "tclass", json_integer(c->tclass));
	e |= set(o, "link_layer", json_string(c->link_layer));
	e |= json_agg(o, &c->agg, true);
	return rperf_rpt_json_done(o, e);
}

static json_t *json_host(const struct rperf_run_host *h)
{
	json_t *o = json_object(), *snd = json_object(), *rcv = json_object();
	int e = 0;

	e |= set(o, "name", rperf_rpt_json_str(h->host->name));
	e |= set(o, "control", rperf_rpt_json_str(h->host->control));
	e |= set(o, "failed", json_boolean(h->failed));
	e |= set(o, "reason", rperf_rpt_json_str(h->why));
	e |= set(o, "link_layer", json_string(h->link_layer));
	e |= set(o, "clock", h->clock ? json_incref(h->clock) : json_null());
	e |= set(
		o, "hugepages",
		json_string(rperf_hugepage_names[h->host->sel.hugepages].name));
	e |= set(o, "buffers_note",
		 rperf_rpt_json_str(h->buffers_note[0] ? h->buffers_note :
							 NULL));
	e |= json_agg(snd, &h->sent, true);
	e |= json_agg(rcv, &h->received, false);
	e |= set(o, "sent", snd);
	e |= set(o, "received", rcv);
	return rperf_rpt_json_done(o, e);
}

static json_t *json_warnings(const struct rperf_run_results *r)
{
	json_t *o = json_object();
	int e = 0;

	e |= set(o, "nonpositive", rperf_rpt_json_uint(r->nonpositive));
	e |= set(o, "precompleted", rperf_rpt_json_uint(r->precompleted));
	e |= set(o, "loop_precompleted",
		 rperf_rpt_json_uint(r->loop_precompleted));
	e |= set(o, "instances_with_errors",
		 json_integer((json_int_t)r->nerrors));
	e |= set(o, "overflow", json_boolean(r->overflow));
	return rperf_rpt_json_done(o, e);
}

/* Arrays of @root: generators, failed_hosts, classes, hosts. */
static int json_arrays(json_t *root, const struct rperf_run_results *r)
{
	json_t *gens = json_array(), *failed = json_array();
	json_t *cls = json_array(), *hosts = json_array();
	int e = 0;
	size_t i;

	e |= set(root, "generators", gens);
	e |= set(root, "failed_hosts", failed);
	e |= set(root, "classes", cls);
	e |= set(root, "hosts", hosts);
	if (e || !gens || !failed || !cls || !hosts)
		return -1;
	for (i = 0; i < r->job->ninst; i++)
		e |= json_array_append_new(gens, json_inst(&r->inst[i]));
	for (i = 0; i < r->ncls; i++)
		e |= json_array_append_new(cls, json_class(&r->cls[i]));
	for (i = 0; i < r->job->nhosts; i++) {
		const struct rperf_run_host *h = &r->hosts[i];

		if (h->failed)
			e |= json_array_append_new(
				failed, rperf_rpt_json_str(h->host->name));
		if (h->involved)
			e |= json_array_append_new(hosts, json_host(h));
	}
	return e;
}

int rperf_run_report_json(const struct rperf_run_results *r, json_t **out)
{
	json_t *root = json_object(), *total = json_object();
	int e = root && total ? 0 : -1;

	if (!e) {
		e |= set(root, "schema_version",
			 json_integer(RPERF_RUN_SCHEMA));
		e |= set(root, "command", json_string("run"));
		e |= set(root, "job", rperf_rpt_json_str(r->job->path));
		e |= set(root, "duration_ns",
			 rperf_rpt_json_uint(r->job->duration_ns));
		e |= set(root, "warmup_ns",
			 rperf_rpt_json_uint(r->job->warmup_ns));
		e |= set(root, "timeout_ns",
			 rperf_rpt_json_uint(r->timeout_ns));
		e |= set(root, "elapsed_seconds",
			 rperf_rpt_json_real(r->elapsed));
		e |= set(root, "interrupted", json_boolean(r->interrupted));
		e |= set(root, "cut_short", json_boolean(r->cut_short));
		e |= set(root, "aborted", json_boolean(r->aborted));
		e |= set(root, "abort_reason",
			 rperf_rpt_json_str(r->abort_why));
		e |= json_arrays(root, r);
		e |= run_ctr_json(root, r);
		e |= json_agg(total, &r->total, true);
		e |= set(root, "total", total);
		total = NULL;
		e |= set(root, "warnings", json_warnings(r));
		e |= run_ctlplane_json(root, r);
		e |= run_incasts_json(root, r);
	}
	json_decref(total); /* NULL unless root or total was not made */
	*out = rperf_rpt_json_done(root, e);
	return *out ? 0 : ENOMEM;
}

int rperf_run_write_json(const char *path, const struct rperf_run_results *r)
{
	json_t *root = NULL;
	int rc = rperf_run_report_json(r, &root);

	return rc ? rc : rperf_rpt_json_write(path, root);
}

int rperf_run_check_writable(const char *path, char *err, size_t errlen)
{
	int rc = rperf_atomic_check(path);

	if (rc)
		snprintf(err, errlen, "cannot write %s: %s", path,
			 strerror(rc));
	return rc;
}
