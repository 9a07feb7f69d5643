/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Aggregates of the merged results (pure): per instance status and Gb/s,
 * then per class (SL on InfiniBand, traffic class on RoCE), per host and in
 * total. LSG RTTs aggregate by merging histogram buckets: the percentiles of
 * an aggregate are those of all its samples together, never an average of
 * percentiles. BSG Gb/s add up.
 */
#include "run/run.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rperf/hist.h>

#include "gen/bw_math.h"

static int agg_add(struct rperf_run_results *r, struct rperf_run_agg *a,
		   const struct rperf_run_inst *in)
{
	int rc;

	if (rperf_gen_bandwidth(in->spec->kind)) {
		a->nbsg++;
		if (in->implausible)
			return 0;
		a->nsent += in->have_source;
		a->nrecv += in->have_sink && !in->rx_invisible;
		a->gbps += in->gbps;
		a->receiver_gbps += in->receiver_gbps;
		return 0;
	}
	a->nlsg++;
	if (!in->rtt)
		return 0;
	if (!a->rtt) {
		rc = rperf_hist_create(rperf_hist_bits(in->rtt), &a->rtt);
		if (rc)
			return rc;
	}
	/* histograms of another resolution cannot merge: left out; one
	 * that would wrap a count is left out and flagged */
	if (rperf_hist_merge(a->rtt, in->rtt) == EOVERFLOW)
		a->overflow = r->overflow = true;
	return 0;
}

/* *dst += v, saturated and flagged rather than wrapped. */
static void sat_add(struct rperf_run_results *r, uint64_t *dst, uint64_t v)
{
	if (__builtin_add_overflow(*dst, v, dst)) {
		*dst = UINT64_MAX;
		r->overflow = true;
	}
}

/* A BSG figure above what its path can carry: above its host's port rate
 * (RPERF_RUN_RATE_SLACK), or any rate rperf accepts when that is unknown.
 * The instance becomes an error, left out of the aggregates. */
static void rate_check(struct rperf_run_inst *in,
		       const struct rperf_run_host *h, double gbps,
		       const char *what)
{
	double cap = h && h->link_gbps > 0 ?
			     h->link_gbps * RPERF_RUN_RATE_SLACK :
			     RPERF_SPEC_MAX_RATE_BPS / 1e9;

	if (in->implausible || !(gbps > cap))
		return;
	in->implausible = true;
	if (in->error[0]) /* the agent's own error says more */
		return;
	if (h && h->link_gbps > 0)
		snprintf(
			in->error, sizeof(in->error),
			"implausible: %.4g Gb/s %s, above the %.4g Gb/s port of host %s: not a measurement",
			gbps, what, h->link_gbps, h->host->name);
	else
		snprintf(
			in->error, sizeof(in->error),
			"implausible: %.4g Gb/s %s, above any rate rperf accepts (%.0f Gb/s): not a measurement",
			gbps, what, RPERF_SPEC_MAX_RATE_BPS / 1e9);
}

/*
 * The window a receiver's rate is computed over: the run's, i.e. the
 * source's run (warm-up, duration and tail, which the sink's count spans
 * from ARMED to STOP), or the planned warm-up + duration when the source
 * never reported. Not the sink's first to last arrival: 16 messages in 5 s
 * are 16 messages in 5 s, not in the 0.15 s between the first and the last.
 */
static double receive_window(const struct rperf_run_inst *in)
{
	if (in->have_source && in->seconds > 0)
		return in->seconds;
	return (double)(in->spec->warmup_ns + in->spec->duration_ns) / 1e9;
}

static void inst_finish(struct rperf_run_results *r, struct rperf_run_inst *in)
{
	const struct rperf_run_host *src = rperf_run_host_of(r, in->spec->from);
	const struct rperf_run_host *dst = rperf_run_host_of(r, in->spec->to);

	if (rperf_gen_bandwidth(in->spec->kind)) {
		in->rx_invisible = !rperf_verb_consumes_recv(in->spec->verb);
		in->gbps = rperf_bw_gbps(in->bytes, in->seconds);
		in->receiver_gbps =
			rperf_bw_gbps(in->rx_bytes, receive_window(in));
		rate_check(in, src, in->gbps, "sent");
		rate_check(in, dst, in->receiver_gbps, "received");
	}
	if (!in->have_source) {
		in->status = src && src->failed ? RPERF_RUN_ST_FAILED :
						  RPERF_RUN_ST_MISSING;
	} else {
		in->status = in->error[0] || in->implausible ?
				     RPERF_RUN_ST_ERROR :
				     RPERF_RUN_ST_OK;
	}
	if (in->status == RPERF_RUN_ST_OK && !in->have_sink && dst &&
	    dst->failed) {
		snprintf(in->error, sizeof(in->error),
			 "destination host %s failed", in->spec->to);
		in->status = RPERF_RUN_ST_ERROR;
	}
	if (in->status != RPERF_RUN_ST_OK)
		r->nerrors++;
	sat_add(r, &r->nonpositive, in->nonpositive);
	sat_add(r, &r->precompleted, in->precompleted);
	sat_add(r, &r->loop_precompleted, in->loop_precompleted);
}

static void class_name(struct rperf_run_class *c)
{
	if (strcmp(c->link_layer, "ethernet") == 0)
		snprintf(c->name, sizeof(c->name), "tclass %u", c->tclass);
	else if (strcmp(c->link_layer, "infiniband") == 0 && c->tclass == 0)
		snprintf(c->name, sizeof(c->name), "SL %u", c->sl);
	else
		snprintf(c->name, sizeof(c->name), "SL %u / tclass %u", c->sl,
			 c->tclass);
}

/* The class of @in, created when new. */
static struct rperf_run_class *class_of(struct rperf_run_results *r,
					const struct rperf_run_inst *in)
{
	const struct rperf_run_host *src = rperf_run_host_of(r, in->spec->from);
	const char *ll = src ? src->link_layer : "";
	struct rperf_run_class *c = NULL;
	size_t i;

	for (i = 0; i < r->ncls && !c; i++)
		if (r->cls[i].sl == in->spec->path.sl &&
		    r->cls[i].tclass == in->spec->path.tclass)
			c = &r->cls[i];
	if (!c) {
		c = &r->cls[r->ncls++];
		c->sl = in->spec->path.sl;
		c->tclass = in->spec->path.tclass;
		snprintf(c->link_layer, sizeof(c->link_layer), "%s", ll);
	} else if (strcmp(c->link_layer, ll)) {
		snprintf(c->link_layer, sizeof(c->link_layer), "%s",
			 c->link_layer[0] && ll[0] ? "mixed" : "");
	}
	return c;
}

int rperf_run_results_finish(struct rperf_run_results *r)
{
	const struct rperf_job *job = r->job;
	size_t i;
	int rc = 0;

	r->cls = calloc(job->ninst ? job->ninst : 1, sizeof(*r->cls));
	if (!r->cls)
		return ENOMEM;
	for (i = 0; i < job->ninst; i++)
		inst_finish(r, &r->inst[i]);
	for (i = 0; i < job->ninst && !rc; i++) {
		const struct rperf_run_inst *in = &r->inst[i];
		const struct rperf_job_host *f =
			rperf_job_host(job, in->spec->from);
		const struct rperf_job_host *t =
			rperf_job_host(job, in->spec->to);

		rc = agg_add(r, &class_of(r, in)->agg, in);
		if (!rc)
			rc = agg_add(r, &r->total, in);
		if (!rc && f)
			rc = agg_add(r, &r->hosts[f - job->hosts].sent, in);
		if (!rc && t)
			rc = agg_add(r, &r->hosts[t - job->hosts].received, in);
	}
	for (i = 0; i < r->ncls; i++)
		class_name(&r->cls[i]);
	return rc;
}
