/* SPDX-License-Identifier: BSD-2-Clause */
/* The incasts of a run (run_incast.h). */
#include "run/run_incast.h"

#include <stdlib.h>
#include <string.h>

#include "report/report_json.h"
#include "run/run_ctlplane.h"

#define MAX_SENDERS RPERF_JOB_MAX_INSTANCES

struct incast {
	const char *name, *to;
	uint64_t burst_bytes, period_ns;
	const struct rperf_run_inst *snd[MAX_SENDERS]; /* reporting */
	int64_t off[MAX_SENDERS]; /* go_rx alignment, ns (no barrier) */
	size_t nsenders, nrep;
	bool aligned;
	size_t nb; /* bursts every reporting sender completed */
	uint64_t *done; /* [nb] completion per burst, ns */
	uint64_t p50, p99, max;
};

static uint64_t go_rx_of(const struct rperf_run_results *r, const char *host)
{
	const struct rperf_run_host *h = rperf_run_host_of(r, host);

	return h ? h->go_rx_ns : 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Nearest rank of @p percent in sorted @v[@n]. */
static uint64_t rank(const uint64_t *v, size_t n, double p)
{
	size_t k = (size_t)((p / 100.0) * (double)n + 0.999999);

	return v[k ? k - 1 : 0];
}

/* Every sender's GO carried the controller's start instant: the senders
 * started at one instant and their times ("after the barrier") are
 * aligned already; adding their GO receipts would add the GO's delivery
 * skew: 7.5 ms across 5 lab agents in one round). */
static bool one_barrier(const struct rperf_run_results *r,
			const struct incast *ic)
{
	for (size_t s = 0; s < ic->nrep; s++) {
		const struct rperf_run_host *h =
			rperf_run_host_of(r, ic->snd[s]->spec->from);

		if (!h || !h->start_at_ctrl_ns)
			return false;
	}
	return true;
}

/* The senders of the incast of instance @first's name; 0 or -1 (ENOMEM).
 * Their times are aligned by the start barrier, or, when GO carried no
 * start instant, by the agents' GO receipts on one clock. */
static int gather(const struct rperf_run_results *r, size_t first,
		  struct incast *ic)
{
	uint64_t spread = 0, lo = UINT64_MAX;
	bool same = false;

	memset(ic, 0, sizeof(*ic));
	ic->name = r->inst[first].spec->name;
	ic->to = r->inst[first].spec->to;
	ic->burst_bytes = r->inst[first].spec->burst_bytes;
	ic->period_ns = r->inst[first].spec->period_ns;
	ic->aligned = run_ctlplane_go_spread(r, &spread, &same) && same;
	for (size_t i = first; i < r->job->ninst; i++) {
		const struct rperf_run_inst *in = &r->inst[i];

		if (!in->spec->burst_bytes || strcmp(in->spec->name, ic->name))
			continue;
		ic->nsenders++;
		if (!in->have_source || !in->nbursts)
			continue;
		ic->snd[ic->nrep++] = in;
		if (go_rx_of(r, in->spec->from) < lo)
			lo = go_rx_of(r, in->spec->from);
	}
	ic->aligned = ic->aligned && !one_barrier(r, ic);
	ic->nb = ic->nrep ? SIZE_MAX : 0;
	for (size_t s = 0; s < ic->nrep; s++) {
		if (ic->snd[s]->nbursts < ic->nb)
			ic->nb = ic->snd[s]->nbursts;
		ic->off[s] =
			ic->aligned ?
				(int64_t)(go_rx_of(r, ic->snd[s]->spec->from) -
					  lo) :
				0;
	}
	ic->done = calloc(ic->nb ? ic->nb : 1, sizeof(*ic->done));
	return ic->done ? 0 : -1;
}

static void completions(struct incast *ic)
{
	uint64_t *sorted;

	for (size_t k = 0; k < ic->nb; k++) {
		int64_t lo = INT64_MAX, hi = INT64_MIN;

		for (size_t s = 0; s < ic->nrep; s++) {
			const uint64_t *b = &ic->snd[s]->bursts[2 * k];
			int64_t a = (int64_t)b[0] + ic->off[s];
			int64_t e = (int64_t)b[1] + ic->off[s];

			lo = a < lo ? a : lo;
			hi = e > hi ? e : hi;
		}
		ic->done[k] = (uint64_t)(hi - lo);
	}
	if (!ic->nb)
		return;
	sorted = malloc(ic->nb * sizeof(*sorted));
	if (!sorted)
		return;
	memcpy(sorted, ic->done, ic->nb * sizeof(*sorted));
	qsort(sorted, ic->nb, sizeof(*sorted), cmp_u64);
	ic->p50 = rank(sorted, ic->nb, 50);
	ic->p99 = rank(sorted, ic->nb, 99);
	ic->max = sorted[ic->nb - 1];
	free(sorted);
}

/* Sender @s's payload rate during its own bursts (bytes/ns). */
static double rate_of(const struct incast *ic, size_t s)
{
	uint64_t d = 0;

	for (size_t k = 0; k < ic->nb; k++)
		d += ic->snd[s]->bursts[2 * k + 1] - ic->snd[s]->bursts[2 * k];
	return d ? (double)ic->burst_bytes * (double)ic->nb / (double)d : 0;
}

static double share_of(const struct incast *ic, size_t s)
{
	double sum = 0;

	for (size_t j = 0; j < ic->nrep; j++)
		sum += rate_of(ic, j);
	return sum > 0 ? rate_of(ic, s) / sum : 0;
}

/* Is instance @i the first of its incast? */
static bool first_of(const struct rperf_run_results *r, size_t i)
{
	if (!r->inst[i].spec->burst_bytes)
		return false;
	for (size_t j = 0; j < i; j++)
		if (r->inst[j].spec->burst_bytes &&
		    !strcmp(r->inst[j].spec->name, r->inst[i].spec->name))
			return false;
	return true;
}

static json_t *incast_json(const struct incast *ic)
{
	json_t *o = json_object(), *sh = json_object(), *done = json_array();
	int e = o && sh && done ? 0 : -1;

	e |= json_object_set_new(o, "name", rperf_rpt_json_str(ic->name));
	e |= json_object_set_new(o, "to", rperf_rpt_json_str(ic->to));
	e |= json_object_set_new(o, "senders",
				 json_integer((json_int_t)ic->nsenders));
	e |= json_object_set_new(o, "bursts", json_integer((json_int_t)ic->nb));
	e |= json_object_set_new(o, "burst_ns",
				 ic->nb ? json_pack("{s:I, s:I, s:I}", "p50",
						    (json_int_t)ic->p50, "p99",
						    (json_int_t)ic->p99, "max",
						    (json_int_t)ic->max) :
					  json_null());
	for (size_t s = 0; s < ic->nrep; s++)
		e |= json_object_set_new(sh, ic->snd[s]->spec->from,
					 rperf_rpt_json_real(share_of(ic, s)));
	e |= json_object_set_new(o, "share", sh);
	e |= json_object_set_new(o, "burst_bytes",
				 rperf_rpt_json_uint(ic->burst_bytes));
	e |= json_object_set_new(o, "period_ns",
				 rperf_rpt_json_uint(ic->period_ns));
	e |= json_object_set_new(
		o, "aligned", json_string(ic->aligned ? "go_rx" : "barrier"));
	for (size_t k = 0; k < ic->nb; k++)
		e |= json_array_append_new(done,
					   rperf_rpt_json_uint(ic->done[k]));
	e |= json_object_set_new(o, "completion_ns", done);
	return rperf_rpt_json_done(o, e);
}

int run_incasts_json(json_t *root, const struct rperf_run_results *r)
{
	json_t *a = json_array();
	struct incast *ic = malloc(sizeof(*ic));
	int e = a && ic ? 0 : -1;

	for (size_t i = 0; !e && i < r->job->ninst; i++) {
		if (!first_of(r, i))
			continue;
		e = gather(r, i, ic);
		if (!e) {
			completions(ic);
			e = json_array_append_new(a, incast_json(ic));
		}
		free(ic->done);
	}
	free(ic);
	if (e || json_object_set_new(root, "incasts", a))
		return -1;
	return 0;
}

void run_incasts_text(FILE *f, const struct rperf_run_results *r)
{
	struct incast *ic = malloc(sizeof(*ic));

	for (size_t i = 0; ic && i < r->job->ninst; i++) {
		if (!first_of(r, i) || gather(r, i, ic))
			continue;
		completions(ic);
		fprintf(f,
			"incast %s -> %s: %zu senders (%zu reported), %llu B each per burst, %zu bursts every sender completed; completion (first post to last byte, times aligned by %s)",
			ic->name, ic->to, ic->nsenders, ic->nrep,
			(unsigned long long)ic->burst_bytes, ic->nb,
			ic->aligned ? "the agents' GO receipt (one clock)" :
				      "the start barriers");
		if (ic->nb)
			fprintf(f, " p50 %.3f ms, p99 %.3f ms, max %.3f ms",
				(double)ic->p50 / 1e6, (double)ic->p99 / 1e6,
				(double)ic->max / 1e6);
		fprintf(f, "; share:");
		for (size_t s = 0; s < ic->nrep; s++)
			fprintf(f, " %s %.3f", ic->snd[s]->spec->from,
				share_of(ic, s));
		fprintf(f, "\n");
		free(ic->done);
	}
	free(ic);
}
