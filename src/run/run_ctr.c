/* SPDX-License-Identifier: BSD-2-Clause */
/* Counters per interval and the tail summary (run_ctr.h). */
#include "run/run_ctr.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_json.h"
#include "run/run_hook.h"

struct src {
	const char *prefix; /* "HOST:"; "" for a switch (names carry it) */
	const struct rperf_ctr_series *s;
};

#define MAX_SRC (2 + RPERF_JOB_MAX_SWITCHES)

/* The series an interval of @in is shown with: its hosts', the switches'. */
static size_t sources(const struct rperf_run_results *r,
		      const struct rperf_run_inst *in, struct src *out)
{
	const struct rperf_run_host *f = rperf_run_host_of(r, in->spec->from),
				    *t = rperf_run_host_of(r, in->spec->to);
	size_t n = 0;

	if (f && f->counters.ncols)
		out[n++] = (struct src){ f->host->name, &f->counters };
	if (t && t != f && t->counters.ncols)
		out[n++] = (struct src){ t->host->name, &t->counters };
	for (size_t i = 0; i < r->job->nswitches; i++)
		if (r->sw[i].s.ncols)
			out[n++] = (struct src){ "", &r->sw[i].s };
	return n;
}

static void col_name(const struct src *x, size_t c, char *b, size_t len)
{
	snprintf(b, len, "%s%s%s", x->prefix, *x->prefix ? ":" : "",
		 x->s->names[c]);
}

/* Interval @i of @in: its start from the start instant (both kinds of
 * series start there: an LSG's first interval after its warm-up; a BSG's
 * rows as run_json.c wrote them into @ivs, sent and received merged), its
 * span. */
static void iv_at(const struct rperf_run_inst *in, const json_t *ivs, size_t i,
		  uint64_t *start, uint64_t *span)
{
	const json_t *s = json_object_get(json_array_get(ivs, i), "start_s");

	*span = in->spec->interval_ns;
	*start = rperf_gen_latency(in->spec->kind) ?
			 in->series.iv[i].start_ns :
			 (uint64_t)llround(json_number_value(s) * 1e9);
}

static uint64_t value_at(const struct src *x, size_t c, uint64_t start,
			 uint64_t span)
{
	long row = x->s->gauge[c] ?
			   rperf_ctr_series_gauge_at(x->s, start, span) :
			   rperf_ctr_series_row_at(x->s, start, span);

	return row < 0 ? RPERF_CTR_MISSING : x->s->v[row * x->s->ncols + c];
}

static double mean_of(const double *v, const double *p99, size_t n, double med,
		      bool high)
{
	double s = 0;
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if ((p99[i] >= med) == high) {
			s += v[i];
			k++;
		}
	return k ? s / (double)k : NAN;
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* One counter against the interval p99s: false when too few pairs. */
static bool rank_one(const struct rperf_run_inst *in, const struct src *x,
		     size_t c, double *p99, double *v, struct run_tail_item *it)
{
	size_t n = 0;
	double med, *sorted;

	for (size_t i = 0; i < in->series.n; i++) {
		uint64_t start, span, val;

		if (!in->series.iv[i].samples)
			continue;
		iv_at(in, NULL, i, &start, &span);
		val = value_at(x, c, start, span);
		if (val == RPERF_CTR_MISSING)
			continue;
		p99[n] = (double)in->series.iv[i].p99_ns;
		v[n++] = (double)val;
	}
	if (n < RUN_TAIL_MIN)
		return false;
	it->rho = rperf_ctr_spearman(p99, v, n);
	sorted = malloc(n * sizeof(*sorted));
	if (!sorted || isnan(it->rho)) {
		free(sorted);
		return false;
	}
	memcpy(sorted, p99, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), cmp_dbl);
	med = sorted[n / 2];
	free(sorted);
	it->high_mean = mean_of(v, p99, n, med, true);
	it->low_mean = mean_of(v, p99, n, med, false);
	it->n = n;
	col_name(x, c, it->name, sizeof(it->name));
	return true;
}

/* Keep @it among the top @max (rho descending). */
static size_t insert(struct run_tail_item *top, size_t n, size_t max,
		     const struct run_tail_item *it)
{
	size_t at = n;

	while (at > 0 && top[at - 1].rho < it->rho)
		at--;
	if (at >= max)
		return n;
	if (n == max)
		n--;
	memmove(&top[at + 1], &top[at], (n - at) * sizeof(*top));
	top[at] = *it;
	return n + 1;
}

size_t run_tail_rank(const struct rperf_run_results *r,
		     const struct rperf_run_inst *in, struct run_tail_item *top,
		     size_t max)
{
	struct src xs[MAX_SRC];
	size_t nx, n = 0;
	double *p99, *v;

	if (!rperf_gen_latency(in->spec->kind) || !in->series.n)
		return 0;
	nx = sources(r, in, xs);
	p99 = malloc(in->series.n * sizeof(*p99));
	v = malloc(in->series.n * sizeof(*v));
	for (size_t k = 0; p99 && v && k < nx; k++)
		for (size_t c = 0; c < xs[k].s->ncols; c++) {
			struct run_tail_item it;

			if (rank_one(in, &xs[k], c, p99, v, &it))
				n = insert(top, n, max, &it);
		}
	free(p99);
	free(v);
	return n;
}

/* "counters" of interval @i of @in. */
static json_t *iv_counters(const struct src *xs, size_t nx,
			   const struct rperf_run_inst *in, const json_t *ivs,
			   size_t i)
{
	char name[RPERF_NAME_LEN + RPERF_CTR_NAME + 1];
	uint64_t start, span;
	json_t *o = json_object();

	iv_at(in, ivs, i, &start, &span);
	for (size_t k = 0; o && k < nx; k++)
		for (size_t c = 0; c < xs[k].s->ncols; c++) {
			uint64_t v = value_at(&xs[k], c, start, span);

			col_name(&xs[k], c, name, sizeof(name));
			if (json_object_set_new(
				    o, name,
				    v == RPERF_CTR_MISSING ?
					    json_null() :
					    json_integer((json_int_t)v))) {
				json_decref(o);
				return NULL;
			}
		}
	return o;
}

static int gen_counters(json_t *g, const struct rperf_run_results *r,
			const struct rperf_run_inst *in)
{
	json_t *ivs = json_object_get(g, "intervals");
	struct src xs[MAX_SRC];
	size_t nx = sources(r, in, xs), n;
	int e = 0;

	n = rperf_gen_latency(in->spec->kind) ? in->series.n :
						json_array_size(ivs);
	if (!nx || json_array_size(ivs) != n)
		return 0;
	for (size_t i = 0; !e && i < n; i++)
		e = json_object_set_new(json_array_get(ivs, i), "counters",
					iv_counters(xs, nx, in, ivs, i));
	return e ? -1 : 0;
}

static bool any_series(const struct rperf_run_results *r)
{
	for (size_t i = 0; i < r->job->nhosts; i++)
		if (r->hosts[i].counters.ncols)
			return true;
	return r->job->nswitches > 0;
}

static json_t *json_hosts(const struct rperf_run_results *r)
{
	json_t *a = json_array();
	int e = 0;

	for (size_t i = 0; !e && i < r->job->nhosts; i++) {
		const struct rperf_run_host *h = &r->hosts[i];

		if (h->counters.ncols)
			e |= json_array_append_new(
				a, json_pack("{s:s, s:I, s:I, s:I}", "host",
					     h->host->name, "counters",
					     (json_int_t)h->counters.ncols,
					     "intervals",
					     (json_int_t)h->counters.nrows,
					     "dropped",
					     (json_int_t)h->counters.dropped));
	}
	return rperf_rpt_json_done(a, e);
}

static json_t *json_switches(const struct rperf_run_results *r)
{
	json_t *a = json_array();
	int e = 0;

	for (size_t i = 0; !e && i < r->job->nswitches; i++) {
		const struct rperf_run_switch *w = &r->sw[i];

		e |= json_array_append_new(
			a,
			json_pack("{s:s, s:s, s:I, s:I, s:I, s:I, s:f, s:f, "
				  "s:s?}",
				  "name", w->sw->name, "command",
				  w->sw->counters, "counters",
				  (json_int_t)w->s.ncols, "runs",
				  (json_int_t)w->runs, "failed",
				  (json_int_t)w->failed, "cut",
				  (json_int_t)w->cut, "seconds_max",
				  (double)w->took_max_ns / 1e9, "seconds_mean",
				  w->runs ? (double)w->took_sum_ns /
						    (double)w->runs / 1e9 :
					    0.0,
				  "error", w->why[0] ? w->why : NULL));
	}
	return rperf_rpt_json_done(a, e);
}

static json_t *json_top(const struct run_tail_item *top, size_t n)
{
	json_t *a = json_array();
	int e = 0;

	for (size_t i = 0; !e && i < n; i++)
		e |= json_array_append_new(
			a, json_pack("{s:s, s:f, s:I, s:o, s:o}", "counter",
				     top[i].name, "spearman", top[i].rho,
				     "intervals", (json_int_t)top[i].n,
				     "high_p99_mean",
				     rperf_rpt_json_real(top[i].high_mean),
				     "low_p99_mean",
				     rperf_rpt_json_real(top[i].low_mean)));
	return rperf_rpt_json_done(a, e);
}

static json_t *json_tail(const struct rperf_run_results *r)
{
	struct run_tail_item top[RUN_TAIL_TOP];
	json_t *a = json_array();
	int e = 0;

	for (size_t i = 0; !e && i < r->job->ninst; i++) {
		const struct rperf_run_inst *in = &r->inst[i];
		size_t n;

		if (!rperf_gen_latency(in->spec->kind) || !in->series.n)
			continue;
		n = run_tail_rank(r, in, top, RUN_TAIL_TOP);
		e |= json_array_append_new(
			a, json_pack("{s:s, s:i, s:o}", "generator",
				     in->spec->name, "id",
				     (json_int_t)in->spec->id, "ranked",
				     json_top(top, n)));
	}
	return rperf_rpt_json_done(a, e);
}

/* "IB PMA counters skipped on ...: why" when hosts are RoCE; "" else. */
static void pma_note(const struct rperf_run_results *r, char *b, size_t len)
{
	size_t n = 0, k = 0;

	b[0] = '\0';
	for (size_t i = 0; i < r->job->nhosts && n + 1 < len; i++) {
		const struct rperf_run_host *h = &r->hosts[i];

		if (!h->reported || strcmp(h->link_layer, "ethernet"))
			continue;
		n += (size_t)snprintf(b + n, len - n, "%s%s",
				      k++ ? ", " :
					    "IB PMA counters skipped on ",
				      h->host->name);
	}
	if (k && n + 1 < len)
		snprintf(
			b + n, len - n,
			": RoCE ports (Ethernet link layer) have no InfiniBand subnet to send PMA MADs through; read Ethernet switches with [switch NAME] counters = CMD");
}

int run_ctr_json(json_t *root, const struct rperf_run_results *r)
{
	json_t *gens = json_object_get(root, "generators"), *o;
	char note[600];
	int e = 0;

	if (!any_series(r))
		return 0;
	for (size_t i = 0; !e && i < r->job->ninst; i++)
		e = gen_counters(json_array_get(gens, i), r, &r->inst[i]);
	pma_note(r, note, sizeof(note));
	o = json_pack("{s:f, s:o, s:o, s:o, s:s?}", "interval_s",
		      (double)run_hook_interval_ns(r->job) / 1e9, "hosts",
		      json_hosts(r), "switches", json_switches(r), "tail",
		      json_tail(r), "pma_skipped", note[0] ? note : NULL);
	if (e || !o || json_object_set_new(root, "counters", o))
		return -1;
	return 0;
}

void run_ctr_text(FILE *f, const struct rperf_run_results *r)
{
	struct run_tail_item top[RUN_TAIL_TOP];
	char note[600];

	if (!any_series(r))
		return;
	pma_note(r, note, sizeof(note));
	if (note[0])
		fprintf(f, "%s\n", note);
	for (size_t i = 0; i < r->job->nswitches; i++) {
		const struct rperf_run_switch *w = &r->sw[i];

		fprintf(f,
			"switch %s: counters command ran %" PRIu64
			" times (%.3f s at most), %zu counters",
			w->sw->name, w->runs, (double)w->took_max_ns / 1e9,
			w->s.ncols);
		if (w->failed)
			fprintf(f,
				"; %" PRIu64 " failed (%" PRIu64
				" cut at the deadline), first: %s",
				w->failed, w->cut, w->why);
		fprintf(f, "\n");
	}
	for (size_t i = 0; i < r->job->ninst; i++) {
		const struct rperf_run_inst *in = &r->inst[i];
		size_t n = run_tail_rank(r, in, top, RUN_TAIL_TOP);

		if (!rperf_gen_latency(in->spec->kind) || !in->series.n)
			continue;
		fprintf(f, "counters vs p99 of %s:%s\n", in->spec->name,
			n && top[0].rho > 0 ?
				"" :
				" none rose with it (or fewer than 5 intervals)");
		for (size_t k = 0; k < n && top[k].rho > 0; k++)
			fprintf(f,
				"  %-40s spearman %+.2f over %zu intervals (mean %.4g per interval while p99 was high, %.4g otherwise)\n",
				top[k].name, top[k].rho, top[k].n,
				top[k].high_mean, top[k].low_mean);
	}
}
