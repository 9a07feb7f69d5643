/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Text report of `rperf run`: one table with a line per generator instance
 * (LSG columns are RTT percentiles in microseconds, BSG columns Gb/s), then
 * the same columns per class, per host and in total; then the clocks the
 * LSG hosts used, failed hosts, errors and warnings.
 */
#include "run/run.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rperf/hist.h>

#define HDR_FMT "%-16s %-4s %-21s %-15s %9s %9s %9s %9s %9s %9s  %s\n"

/* "h1 -> h4", cut to fit. */
static void path_str(char *b, size_t n, const char *from, const char *to)
{
	snprintf(b, n, "%s -> %s", from, to);
}

static const struct rperf_run_class *class_of(const struct rperf_run_results *r,
					      const struct rperf_gen_spec *s)
{
	for (size_t i = 0; i < r->ncls; i++)
		if (r->cls[i].sl == s->path.sl &&
		    r->cls[i].tclass == s->path.tclass)
			return &r->cls[i];
	return NULL;
}

static void us(char *b, size_t n, int64_t ns)
{
	snprintf(b, n, "%.2f", (double)ns / 1000.0);
}

/* The four RTT columns of @h ("-" when there is none). */
static void rtt_cols(const struct rperf_hist *h, char c[4][24])
{
	static const double ps[3] = { 50, 99, 99.9 };
	int64_t v[3];

	if (!h || !rperf_hist_count(h)) {
		for (int i = 0; i < 4; i++)
			snprintf(c[i], 24, "-");
		return;
	}
	rperf_hist_percentiles(h, ps, 3, v);
	for (int i = 0; i < 3; i++)
		us(c[i], 24, v[i]);
	us(c[3], 24, rperf_hist_max(h));
}

static void gbps_col(char *b, size_t n, size_t nbsg, double g)
{
	if (nbsg)
		snprintf(b, n, "%.3f", g);
	else
		snprintf(b, n, "-");
}

static void line(FILE *f, const char *name, const char *kind, const char *path,
		 const char *cls, const struct rperf_run_agg *a,
		 const char *status, bool sent)
{
	char c[4][24], s[24], rcv[24];

	rtt_cols(a->rtt, c);
	gbps_col(s, sizeof(s), sent ? a->nbsg : 0, a->gbps);
	gbps_col(rcv, sizeof(rcv), a->nbsg, a->receiver_gbps);
	fprintf(f, HDR_FMT, name, kind, path, cls, c[0], c[1], c[2], c[3], s,
		rcv, status);
}

static void header(FILE *f, const char *first)
{
	fprintf(f, HDR_FMT, first, "KIND", "PATH", "CLASS", "p50 us", "p99 us",
		"p99.9 us", "max us", "sent Gb/s", "recv Gb/s", "STATUS");
}

static void instances(FILE *f, const struct rperf_run_results *r)
{
	char path[2 * RPERF_NAME_LEN + 8];

	header(f, "GENERATOR");
	for (size_t i = 0; i < r->job->ninst; i++) {
		const struct rperf_run_inst *in = &r->inst[i];
		const struct rperf_run_class *c = class_of(r, in->spec);
		struct rperf_run_agg a = { 0 };

		/* an instance as a one-member aggregate */
		a.rtt = in->rtt;
		a.nlsg = in->spec->kind == RPERF_GEN_LSG;
		a.nbsg = !a.nlsg && in->have_source;
		a.gbps = in->gbps;
		a.receiver_gbps = in->receiver_gbps;
		path_str(path, sizeof(path), in->spec->from, in->spec->to);
		line(f, in->spec->name, rperf_gen_kind_name(in->spec->kind),
		     path, c ? c->name : "?", &a,
		     rperf_run_status_name(in->status), true);
	}
}

static void aggregates(FILE *f, const struct rperf_run_results *r)
{
	char n[2 * RPERF_NAME_LEN + 16];
	size_t i;

	fprintf(f, "\n");
	header(f, "AGGREGATE");
	for (i = 0; i < r->ncls; i++) {
		line(f, "class", "", "", r->cls[i].name, &r->cls[i].agg, "",
		     true);
	}
	for (i = 0; i < r->job->nhosts; i++) {
		const struct rperf_run_host *h = &r->hosts[i];
		const char *st = h->failed ? "FAILED" : "ok";

		if (!h->involved)
			continue;
		if (h->sent.nlsg || h->sent.nbsg) {
			snprintf(n, sizeof(n), "%s -> *", h->host->name);
			line(f, "from host", "", n, "", &h->sent, st, true);
		}
		if (h->received.nlsg || h->received.nbsg) {
			snprintf(n, sizeof(n), "* -> %s", h->host->name);
			line(f, "to host", "", n, "", &h->received, st, false);
		}
	}
	line(f, "total", "", "", "", &r->total, "", true);
}

static void clocks(FILE *f, const struct rperf_run_results *r)
{
	bool any = false;

	for (size_t i = 0; i < r->job->nhosts; i++) {
		const struct rperf_run_host *h = &r->hosts[i];
		char *s;

		if (!h->clock || !h->sent.nlsg)
			continue;
		s = json_dumps(h->clock, JSON_COMPACT | JSON_SORT_KEYS);
		if (!any)
			fprintf(f, "\nClock of each LSG host:\n");
		any = true;
		fprintf(f, "  %s: %s\n", h->host->name, s ? s : "?");
		free(s);
	}
}

static void problems(FILE *f, const struct rperf_run_results *r)
{
	size_t i;

	if (r->aborted)
		fprintf(f,
			"Aborted before the start (nothing was measured): %s\n",
			r->abort_why);
	if (r->interrupted)
		fprintf(f,
			"\nInterrupted: the figures cover the time until the stop.\n");
	for (i = 0; i < r->job->nhosts; i++)
		if (r->hosts[i].failed)
			fprintf(f, "FAILED host %s: %s\n",
				r->hosts[i].host->name, r->hosts[i].why);
	for (i = 0; i < r->job->ninst; i++)
		if (r->inst[i].error[0])
			fprintf(f, "error: %s (%s -> %s): %s\n",
				r->inst[i].spec->name, r->inst[i].spec->from,
				r->inst[i].spec->to, r->inst[i].error);
	for (i = 0; i < r->job->ninst; i++) {
		const struct rperf_run_inst *in = &r->inst[i];

		if (in->nonpositive)
			fprintf(f,
				"warning: %s (%s): %llu RTT samples <= 0 (loopback slower than the wire: check the clock and the path)\n",
				in->spec->name, in->spec->from,
				(unsigned long long)in->nonpositive);
		if (in->precompleted || in->loop_precompleted)
			fprintf(f,
				"warning: %s (%s): %llu wire and %llu loopback SENDs completed inside ibv_post_send (software RDMA: try pair_order = sequential)\n",
				in->spec->name, in->spec->from,
				(unsigned long long)in->precompleted,
				(unsigned long long)in->loop_precompleted);
	}
}

int rperf_run_report_text(FILE *f, const struct rperf_run_results *r)
{
	fprintf(f,
		"rperf run %s: %zu generator instance(s) on %zu host(s), warm-up %.3f s, duration %.3f s, elapsed %.3f s\n\n",
		r->job->path, r->job->ninst, r->job->nhosts,
		(double)r->job->warmup_ns / 1e9,
		(double)r->job->duration_ns / 1e9, r->elapsed);
	if (!r->aborted) {
		instances(f, r);
		aggregates(f, r);
		clocks(f, r);
	}
	problems(f, r);
	return ferror(f) ? EIO : 0;
}
