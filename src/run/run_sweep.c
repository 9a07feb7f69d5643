/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Sweeps of `rperf run` (run_sweep.h): the points of one key's value list,
 * each point's summary and the text table. RTT columns are microseconds of
 * round trip (all LSG instances merged), '*' marks a percentile fewer
 * samples support than it needs (10 / (1 - p)); Gb/s columns are payload
 * sent by the BSG sources.
 */
#include "run/run_sweep.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rperf/hist.h>
#include <rperf/report.h>

#define MAX_COLS 8 /* per-BSG-section and per-class columns */

const char *rperf_sweep_status_name(enum rperf_sweep_status st)
{
	switch (st) {
	case RPERF_SWEEP_OK:
		return "ok";
	case RPERF_SWEEP_FAILED:
		return "failed";
	case RPERF_SWEEP_ABORTED:
		return "aborted";
	case RPERF_SWEEP_NOT_RUN:
		break;
	}
	return "not_run";
}

void rperf_sweep_summary(const struct rperf_sweep_point *p,
			 struct rperf_sweep_sum *sum)
{
	rperf_sweep_summary_of(p->res, sum);
}

void rperf_sweep_summary_of(const struct rperf_run_results *r,
			    struct rperf_sweep_sum *sum)
{
	static const double ps[3] = { 50, 99, 99.9 };
	int64_t v[3];

	memset(sum, 0, sizeof(*sum));
	if (!r)
		return;
	sum->nlsg = r->total.nlsg;
	sum->nbsg = r->total.nbsg;
	sum->bsg_gbps = r->total.gbps;
	sum->bsg_receiver_gbps = r->total.receiver_gbps;
	sum->nfailed = rperf_run_results_nfailed(r);
	sum->nerrors = r->nerrors;
	if (r->total.rtt)
		sum->lsg_samples = rperf_hist_count(r->total.rtt);
	if (!sum->lsg_samples)
		return;
	rperf_hist_percentiles(r->total.rtt, ps, 3, v);
	sum->have_rtt = true;
	sum->p50 = v[0];
	sum->p99 = v[1];
	sum->p999 = v[2];
}

bool rperf_sweep_measured(const struct rperf_sweep_point *p)
{
	return p->res && p->status != RPERF_SWEEP_ABORTED;
}

bool rperf_sweep_gbps_by_name(const struct rperf_sweep_point *p,
			      const char *name, double *gbps)
{
	return rperf_sweep_gbps_by_name_of(
		rperf_sweep_measured(p) ? p->res : NULL, name, gbps);
}

bool rperf_sweep_gbps_by_name_of(const struct rperf_run_results *r,
				 const char *name, double *gbps)
{
	bool any = false;

	*gbps = 0;
	for (size_t i = 0; r && i < r->job->ninst; i++) {
		const struct rperf_run_inst *in = &r->inst[i];

		if (!rperf_gen_bandwidth(in->spec->kind) ||
		    strcmp(in->spec->name, name))
			continue;
		any = true;
		if (in->have_source)
			*gbps += in->gbps;
	}
	return any;
}

bool rperf_sweep_gbps_by_class(const struct rperf_sweep_point *p,
			       const char *cls, double *gbps)
{
	return rperf_sweep_gbps_by_class_of(
		rperf_sweep_measured(p) ? p->res : NULL, cls, gbps);
}

bool rperf_sweep_gbps_by_class_of(const struct rperf_run_results *r,
				  const char *cls, double *gbps)
{
	for (size_t i = 0; r && i < r->ncls; i++) {
		if (strcmp(r->cls[i].name, cls) || !r->cls[i].agg.nbsg)
			continue;
		*gbps = r->cls[i].agg.gbps;
		return true;
	}
	return false;
}

/* Column names: BSG sections of every point's job, then the classes that
 * carry BSGs (only when there are two or more: one equals the total). */
struct cols {
	const char *bsg[MAX_COLS], *cls[MAX_COLS];
	size_t nbsg, ncls;
};

static void add_col(const char **v, size_t *n, const char *name)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp(v[i], name))
			return;
	if (*n < MAX_COLS)
		v[(*n)++] = name;
}

static void find_cols(const struct rperf_sweep *s, struct cols *c)
{
	memset(c, 0, sizeof(*c));
	for (size_t i = 0; i < s->npt; i++) {
		const struct rperf_job *job = s->pt[i].job;
		const struct rperf_run_results *r = s->pt[i].res;

		for (size_t k = 0; job && k < job->ninst; k++)
			if (rperf_gen_bandwidth(job->inst[k].kind))
				add_col(c->bsg, &c->nbsg, job->inst[k].name);
		for (size_t k = 0; r && k < r->ncls; k++)
			if (r->cls[k].agg.nbsg)
				add_col(c->cls, &c->ncls, r->cls[k].name);
	}
	if (c->ncls < 2)
		c->ncls = 0;
	if (c->nbsg < 2)
		c->nbsg = 0; /* the total column says it */
}

static void rtt(char *b, size_t n, bool have, int64_t ns, double p,
		uint64_t cnt)
{
	if (!have)
		snprintf(b, n, "-");
	else
		snprintf(b, n, "%.2f%s", (double)ns / 1000.0,
			 rperf_percentile_reliable(p, cnt) ? "" : "*");
}

/* One Gb/s column of width @w. */
static void gbps(FILE *f, int w, bool have, double g)
{
	if (have)
		fprintf(f, " %*.6f", w, g);
	else
		fprintf(f, " %*s", w, "-");
}

static void header(FILE *f, const struct rperf_sweep *s, const struct cols *c)
{
	fprintf(f, "sweep %s: %zu point%s of %s", s->nax ? s->key : "(none)",
		s->npt, s->npt == 1 ? "" : "s",
		s->job_path ? s->job_path : "the job");
	for (size_t i = 1; i < s->nax; i++)
		fprintf(f, "%s %s",
			i == 1 ? (s->zip ? "; zipped with" : "; times") : ",",
			s->ax[i].key);
	if (s->same_qps)
		fprintf(f, "; as rounds on the same QPs");
	if (s->repeat > 1)
		fprintf(f, "; %zu repeats each (the table shows the last)",
			s->repeat);
	fprintf(f, "\n");
	fprintf(f, "%-12s %-8s %4s %4s %10s %10s %10s %10s %12s", "value",
		"status", "LSGs", "BSGs", "samples", "p50_us", "p99_us",
		"p99.9_us", "BSG_Gbps");
	for (size_t i = 0; i < c->nbsg; i++)
		fprintf(f, " %12.12s", c->bsg[i]);
	for (size_t i = 0; i < c->ncls; i++)
		fprintf(f, " %16.16s", c->cls[i]); /* "SL 1 / tclass 96" */
	fprintf(f, " %s\n", "failures");
}

static void line(FILE *f, const struct rperf_sweep_point *p,
		 const struct cols *c)
{
	struct rperf_sweep_sum m;
	char v[3][32];
	double g;

	rperf_sweep_summary(p, &m);
	rtt(v[0], sizeof(v[0]), m.have_rtt, m.p50, 50, m.lsg_samples);
	rtt(v[1], sizeof(v[1]), m.have_rtt, m.p99, 99, m.lsg_samples);
	rtt(v[2], sizeof(v[2]), m.have_rtt, m.p999, 99.9, m.lsg_samples);
	fprintf(f, "%-12s %-8s %4zu %4zu %10llu %10s %10s %10s", p->value,
		rperf_sweep_status_name(p->status), m.nlsg, m.nbsg,
		(unsigned long long)m.lsg_samples, v[0], v[1], v[2]);
	gbps(f, 12, rperf_sweep_measured(p) && m.nbsg, m.bsg_gbps);
	for (size_t i = 0; i < c->nbsg; i++) {
		bool have = rperf_sweep_gbps_by_name(p, c->bsg[i], &g);

		gbps(f, 12, have, g);
	}
	for (size_t i = 0; i < c->ncls; i++) {
		bool have = rperf_sweep_gbps_by_class(p, c->cls[i], &g);

		gbps(f, 16, have, g);
	}
	if (!p->res)
		fprintf(f, " -\n");
	else
		fprintf(f, " %zu host%s, %zu instance%s\n", m.nfailed,
			m.nfailed == 1 ? "" : "s", m.nerrors,
			m.nerrors == 1 ? "" : "s");
}

/* "mean±ci" of @st into @b ("-" without values; "mean" with one). */
static void stat_cell(char *b, size_t n, const struct rperf_sweep_stat *st,
		      double scale, int prec)
{
	if (!st->n)
		snprintf(b, n, "-");
	else if (st->n < 2)
		snprintf(b, n, "%.*f", prec, st->mean * scale);
	else
		snprintf(b, n, "%.*f±%.*f", prec, st->mean * scale, prec,
			 st->ci95 * scale);
}

/* With --repeat: every figure as mean ± 95 % interval over the repeats. */
static void repeat_table(FILE *f, const struct rperf_sweep *s,
			 const struct cols *c)
{
	struct rperf_sweep_stat st;
	char b[48];

	fprintf(f,
		"mean ± 95 %% interval over %zu repeats (Student's t; n = repeats that measured the figure)\n",
		s->repeat);
	fprintf(f, "%-12s %4s %18s %18s %18s %22s", "value", "n", "p50_us",
		"p99_us", "p99.9_us", "BSG_Gbps");
	for (size_t i = 0; i < c->nbsg; i++)
		fprintf(f, " %22.22s", c->bsg[i]);
	for (size_t i = 0; i < c->ncls; i++)
		fprintf(f, " %22.22s", c->cls[i]);
	fprintf(f, "\n");
	for (size_t i = 0; i < s->npt; i++) {
		const struct rperf_sweep_point *p = &s->pt[i];

		fprintf(f, "%-12s %4zu", p->value, p->nrep);
		for (int k = RPERF_SWEEP_P50; k <= RPERF_SWEEP_GBPS; k++) {
			rperf_sweep_stat(p, (enum rperf_sweep_fig)k, &st);
			stat_cell(b, sizeof(b), &st,
				  k == RPERF_SWEEP_GBPS ? 1 : 1e-3,
				  k == RPERF_SWEEP_GBPS ? 6 : 2);
			fprintf(f, k == RPERF_SWEEP_GBPS ? " %22s" : " %18s",
				b);
		}
		for (size_t k = 0; k < c->nbsg + c->ncls; k++) {
			bool cls = k >= c->nbsg;

			rperf_sweep_stat_by(
				p, cls ? c->cls[k - c->nbsg] : c->bsg[k], cls,
				&st);
			stat_cell(b, sizeof(b), &st, 1, 6);
			fprintf(f, " %22s", b);
		}
		fprintf(f, "\n");
	}
}

int rperf_sweep_report_text(FILE *f, const struct rperf_sweep *s)
{
	struct cols c;

	find_cols(s, &c);
	header(f, s, &c);
	for (size_t i = 0; i < s->npt; i++)
		line(f, &s->pt[i], &c);
	fprintf(f,
		"RTT: round trip, microseconds, every LSG instance merged; * = fewer samples than the percentile needs (10 / (1 - p)); Gb/s: payload sent by the BSG sources%s\n",
		c.nbsg || c.ncls ? " (total, per BSG section, per class)" : "");
	if (s->repeat > 1)
		repeat_table(f, s, &c);
	if (s->interrupted)
		fprintf(f,
			"interrupted: the points marked not_run did not run\n");
	return fflush(f) || ferror(f) ? EIO : 0;
}
