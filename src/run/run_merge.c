/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Merging the agents' REPORTs (pure: no I/O). Each REPORT names its host and
 * lists one result per instance end on that host; a source result belongs to
 * an instance whose `from` is that host, a sink result to one whose `to` is.
 * Every value is hostile until checked; a report is checked whole before any
 * of it is kept, so a bad report leaves the results as they were.
 */
#include "run/run.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rperf/hist.h>

const char *rperf_run_status_name(enum rperf_run_status st)
{
	switch (st) {
	case RPERF_RUN_ST_OK:
		return "ok";
	case RPERF_RUN_ST_ERROR:
		return "error";
	case RPERF_RUN_ST_FAILED:
		return "failed";
	default:
		return "missing";
	}
}

int rperf_run_results_create(const struct rperf_job *job,
			     struct rperf_run_results **out)
{
	struct rperf_run_results *r;
	size_t i;

	if (!job || !out)
		return EINVAL;
	r = calloc(1, sizeof(*r));
	if (!r)
		return ENOMEM;
	r->job = job;
	r->inst = calloc(job->ninst ? job->ninst : 1, sizeof(*r->inst));
	r->hosts = calloc(job->nhosts ? job->nhosts : 1, sizeof(*r->hosts));
	r->sw = calloc(job->nswitches ? job->nswitches : 1, sizeof(*r->sw));
	if (!r->inst || !r->hosts || !r->sw) {
		rperf_run_results_free(r);
		return ENOMEM;
	}
	for (i = 0; i < job->ninst; i++)
		r->inst[i].spec = &job->inst[i];
	for (i = 0; i < job->nhosts; i++)
		r->hosts[i].host = &job->hosts[i];
	for (i = 0; i < job->nswitches; i++)
		r->sw[i].sw = &job->switches[i];
	for (i = 0; i < job->ninst; i++) {
		const struct rperf_job_host *f, *t;

		f = rperf_job_host(job, job->inst[i].from);
		t = rperf_job_host(job, job->inst[i].to);
		if (f)
			r->hosts[f - job->hosts].involved = true;
		if (t)
			r->hosts[t - job->hosts].involved = true;
	}
	*out = r;
	return 0;
}

static void inst_free(struct rperf_run_inst *in)
{
	rperf_lsg_series_fini(&in->series);
	rperf_bsg_series_fini(&in->bsg_series);
	rperf_bsg_series_fini(&in->rx_series);
	rperf_hist_destroy(in->rtt);
	rperf_hist_destroy(in->wire);
	rperf_hist_destroy(in->loop);
	rperf_hist_destroy(in->post_wire);
	rperf_hist_destroy(in->post_loop);
	in->rtt = in->wire = in->loop = in->post_wire = in->post_loop = NULL;
	free(in->bursts);
	in->bursts = NULL;
	free(in->raw);
	in->raw = NULL;
	in->nraw = in->raw_cap = 0;
}

static void agg_free(struct rperf_run_agg *a)
{
	rperf_hist_destroy(a->rtt);
	a->rtt = NULL;
}

void rperf_run_results_free(struct rperf_run_results *r)
{
	size_t i;

	if (!r)
		return;
	for (i = 0; r->inst && i < r->job->ninst; i++)
		inst_free(&r->inst[i]);
	for (i = 0; r->hosts && i < r->job->nhosts; i++) {
		json_decref(r->hosts[i].clock);
		rperf_ctr_series_fini(&r->hosts[i].counters);
		agg_free(&r->hosts[i].sent);
		agg_free(&r->hosts[i].received);
	}
	for (i = 0; r->sw && i < r->job->nswitches; i++)
		rperf_ctr_series_fini(&r->sw[i].s);
	free(r->sw);
	for (i = 0; i < r->ncls; i++)
		agg_free(&r->cls[i].agg);
	agg_free(&r->total);
	free(r->cls);
	free(r->inst);
	free(r->hosts);
	free(r);
}

struct rperf_run_host *rperf_run_host_of(const struct rperf_run_results *r,
					 const char *name)
{
	const struct rperf_job_host *h = rperf_job_host(r->job, name);

	return h ? &r->hosts[h - r->job->hosts] : NULL;
}

/* Every string value under @j (objects and arrays), cleaned. 0 or ENOMEM. */
static int clean_strings(json_t *j)
{
	if (json_is_object(j)) {
		for (void *it = json_object_iter(j); it;
		     it = json_object_iter_next(j, it))
			if (clean_strings(json_object_iter_value(it)))
				return ENOMEM;
	} else if (json_is_array(j)) {
		for (size_t i = 0; i < json_array_size(j); i++)
			if (clean_strings(json_array_get(j, i)))
				return ENOMEM;
	} else if (json_is_string(j)) {
		char *s = strdup(json_string_value(j));
		int rc;

		if (!s)
			return ENOMEM;
		rperf_ctrl_text_clean(s);
		rc = json_string_set(j, s) ? ENOMEM : 0;
		free(s);
		return rc;
	}
	return 0;
}

void rperf_run_results_set_link(struct rperf_run_results *r, const char *host,
				const char *link_layer)
{
	struct rperf_run_host *h = rperf_run_host_of(r, host);

	if (h && link_layer) {
		snprintf(h->link_layer, sizeof(h->link_layer), "%s",
			 link_layer);
		rperf_ctrl_text_clean(h->link_layer);
	}
}

/* A peer's "clock" object, kept when small (RPERF_RUN_CLOCK_MAX bytes as
 * compact JSON; a bigger one is dropped: null) with every string in it
 * cleaned (rperf_ctrl_text_clean). NULL when dropped or out of memory. */
static json_t *clock_copy(const json_t *clk)
{
	char *s = json_dumps(clk, JSON_COMPACT);
	size_t n = s ? strlen(s) : SIZE_MAX;
	json_t *c;

	free(s);
	if (n > RPERF_RUN_CLOCK_MAX)
		return NULL;
	c = json_deep_copy(clk);
	if (c && clean_strings(c)) {
		json_decref(c);
		return NULL;
	}
	return c;
}

void rperf_run_results_set_link_gbps(struct rperf_run_results *r,
				     const char *host, double gbps)
{
	struct rperf_run_host *h = rperf_run_host_of(r, host);

	if (h && isfinite(gbps) && gbps > 0 && gbps <= RPERF_SPEC_MAX_RATE_BPS)
		h->link_gbps = gbps;
}

void rperf_run_results_host_failed(struct rperf_run_results *r,
				   const char *host, const char *why)
{
	struct rperf_run_host *h = rperf_run_host_of(r, host);

	if (!h || h->failed)
		return;
	h->failed = true;
	snprintf(h->why, sizeof(h->why), "%s", why ? why : "failed");
}

size_t rperf_run_results_nfailed(const struct rperf_run_results *r)
{
	size_t i, n = 0;

	for (i = 0; i < r->job->nhosts; i++)
		n += r->hosts[i].failed;
	return n;
}

/* Check one result of host @host against the plan. */
static int check_result(const struct rperf_run_results *r, const char *host,
			const struct rperf_proto_result *p, char *err,
			size_t errlen)
{
	const struct rperf_gen_spec *s;
	bool sink = p->role == RPERF_ROLE_SINK;

	if (p->id >= r->job->ninst) {
		snprintf(err, errlen, "%s: REPORT: unknown instance %u", host,
			 p->id);
		return EBADMSG;
	}
	s = &r->job->inst[p->id];
	if (strcmp(sink ? s->to : s->from, host) || p->kind != s->kind) {
		snprintf(
			err, errlen,
			"%s: REPORT: instance %u (%s) is not a %s %s of this host",
			host, p->id, s->name, rperf_gen_kind_name(p->kind),
			rperf_proto_role_name(p->role));
		return EBADMSG;
	}
	if (!sink && rperf_gen_latency(s->kind) && !p->rtt) {
		snprintf(
			err, errlen,
			"%s: REPORT: LSG instance %u (%s) without its RTT histogram",
			host, p->id, s->name);
		return EBADMSG;
	}
	return 0;
}

static void keep(struct rperf_run_inst *in, struct rperf_proto_result *p)
{
	bool sink = p->role == RPERF_ROLE_SINK;

	if (sink) {
		in->have_sink = true;
		in->rx_messages = p->messages;
		in->rx_bytes = p->bytes;
		in->rx_seconds = p->seconds;
		rperf_bsg_series_fini(&in->rx_series);
		in->rx_series = p->bsg_series;
		memset(&p->bsg_series, 0, sizeof(p->bsg_series));
		in->rx_rows_dropped = p->rows_dropped;
	} else {
		in->have_source = true;
		in->seconds = p->seconds;
		in->cpu_seconds = p->cpu_seconds;
		in->samples = p->samples;
		in->warmup = p->warmup;
		in->nonpositive = p->nonpositive;
		in->precompleted = p->precompleted;
		in->loop_precompleted = p->loop_precompleted;
		in->sched = p->sched;
		rperf_lsg_series_fini(&in->series);
		in->series = p->series;
		memset(&p->series, 0, sizeof(p->series));
		rperf_bsg_series_fini(&in->bsg_series);
		in->bsg_series = p->bsg_series;
		memset(&p->bsg_series, 0, sizeof(p->bsg_series));
		in->messages = p->messages;
		in->bytes = p->bytes;
		in->posted = p->posted;
		in->post_calls = p->post_calls;
		in->nic_ts = p->nic_ts;
		in->nic_clock = p->nic_clock;
		snprintf(in->ts_note, sizeof(in->ts_note), "%s", p->ts_note);
		in->placed = p->placed;
		in->place = p->place;
		in->rtt = p->rtt;
		in->wire = p->wire;
		in->loop = p->loop;
		in->post_wire = p->post_wire;
		in->post_loop = p->post_loop;
		p->rtt = p->wire = p->loop = p->post_wire = p->post_loop = NULL;
		in->has_end = p->has_end;
		in->end_ns = p->end_ns;
		in->bursts = p->bursts; /* moves too */
		in->nbursts = p->nbursts;
		p->bursts = NULL;
		p->nbursts = 0;
	}
	/* the source's error first: it says why the numbers are short */
	if (p->error[0] && (!in->error[0] || !sink))
		snprintf(in->error, sizeof(in->error), "%s%.240s",
			 sink ? "sink: " : "", p->error);
}

int rperf_run_results_add_report(struct rperf_run_results *r, const char *host,
				 struct rperf_proto_report *rep,
				 const json_t *extra, char *err, size_t errlen)
{
	struct rperf_run_host *h = rperf_run_host_of(r, host);
	size_t i, j;
	int rc = 0;

	if (!h) {
		snprintf(err, errlen, "%s: not a host of the job", host);
		return EINVAL;
	}
	for (i = 0; i < rep->n && !rc; i++)
		rc = check_result(r, host, &rep->res[i], err, errlen);
	for (i = 0; i < rep->n && !rc; i++) {
		const struct rperf_proto_result *p = &rep->res[i];
		const struct rperf_run_inst *in = &r->inst[p->id];
		bool dup = p->role == RPERF_ROLE_SINK ? in->have_sink :
							in->have_source;

		for (j = 0; j < i; j++)
			dup |= rep->res[j].id == p->id &&
			       rep->res[j].role == p->role;
		if (dup) {
			snprintf(err, errlen,
				 "%s: REPORT: instance %u reported twice", host,
				 p->id);
			rc = EBADMSG;
		}
	}
	if (rc)
		return rc;
	for (i = 0; i < rep->n; i++)
		keep(&r->inst[rep->res[i].id], &rep->res[i]);
	h->reported = true;
	h->dry_run = rep->dry_run;
	r->dry_run |= rep->dry_run;
	h->has_go_rx = rep->has_go_rx;
	h->go_rx_ns = rep->go_rx_ns;
	h->has_start = rep->has_start;
	h->start_ns = rep->start_ns;
	snprintf(h->buffers_note, sizeof(h->buffers_note), "%s",
		 rep->buffers_note);
	rperf_ctr_series_move(&h->counters, &rep->counters);
	if (extra) {
		const json_t *clk = json_object_get(extra, "clock");
		const json_t *ll = json_object_get(extra, "link_layer");

		if (json_is_string(ll))
			rperf_run_results_set_link(r, host,
						   json_string_value(ll));
		if (json_is_object(clk) && !h->clock)
			h->clock = clock_copy(clk);
	}
	return 0;
}
