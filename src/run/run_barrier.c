/* SPDX-License-Identifier: BSD-2-Clause */
/* The start barrier's skew in text and JSON (run_barrier.h). */
#include "run/run_barrier.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

bool run_barrier_skew(const struct rperf_run_host *h, int64_t *skew_ns)
{
	if (!h->has_offset || !h->start_at_ctrl_ns || !h->has_start)
		return false;
	/* the actual start on the controller's clock - the intended one */
	*skew_ns = (int64_t)(h->start_ns - (uint64_t)h->offset_ns -
			     h->start_at_ctrl_ns);
	return true;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Nearest rank: the smallest value with >= 99 % at or below it. */
static uint64_t p99(uint64_t *v, size_t n)
{
	size_t k = (99 * n + 99) / 100;

	qsort(v, n, sizeof(*v), cmp_u64);
	return n ? v[k ? k - 1 : 0] : 0;
}

int run_barrier_stats(const struct rperf_run_results *r,
		      struct run_barrier_stats *s)
{
	size_t n = r->job->nhosts ? r->job->nhosts : 1;
	uint64_t *abs_skew = calloc(n, sizeof(*abs_skew));
	uint64_t *unc = calloc(n, sizeof(*unc));

	memset(s, 0, sizeof(*s));
	if (!abs_skew || !unc) {
		free(abs_skew);
		free(unc);
		return ENOMEM;
	}
	for (size_t i = 0; i < r->job->nhosts; i++) {
		const struct rperf_run_host *h = &r->hosts[i];
		int64_t k;

		if (!h->has_offset)
			continue;
		unc[s->nsynced++] = h->offset_uncertainty_ns;
		if (!run_barrier_skew(h, &k))
			continue;
		if (!s->nskew || k < s->min_skew_ns)
			s->min_skew_ns = k;
		if (!s->nskew || k > s->max_skew_ns)
			s->max_skew_ns = k;
		abs_skew[s->nskew++] = (uint64_t)(k < 0 ? -k : k);
	}
	s->p99_abs_skew_ns = p99(abs_skew, s->nskew);
	s->max_abs_skew_ns = s->nskew ? abs_skew[s->nskew - 1] : 0;
	s->p99_uncertainty_ns = p99(unc, s->nsynced);
	s->max_uncertainty_ns = s->nsynced ? unc[s->nsynced - 1] : 0;
	free(abs_skew);
	free(unc);
	return 0;
}

void run_barrier_text(FILE *f, const struct rperf_run_results *r)
{
	struct run_barrier_stats s;

	if (run_barrier_stats(r, &s) || !s.nsynced)
		return;
	fprintf(f,
		"Start barrier: %zu agent(s) started on measured clock offsets (set-up's CLOCK exchanges, %.3f s); offset uncertainty p99 %.1f us, max %.1f us",
		s.nsynced, r->sync_seconds, s.p99_uncertainty_ns / 1e3,
		s.max_uncertainty_ns / 1e3);
	if (s.nskew)
		fprintf(f,
			"; estimated start skew over %zu agent(s) (actual - intended start, controller's clock): |skew| p99 %.1f us, max %.1f us (min %+.1f, max %+.1f us)",
			s.nskew, s.p99_abs_skew_ns / 1e3,
			s.max_abs_skew_ns / 1e3, s.min_skew_ns / 1e3,
			s.max_skew_ns / 1e3);
	fprintf(f, "\n");
	for (size_t i = 0; i < r->job->nhosts; i++) {
		const struct rperf_run_host *h = &r->hosts[i];
		int64_t k;

		if (!h->has_offset || s.nsynced > RUN_BARRIER_TEXT_AGENTS)
			continue;
		fprintf(f, "  %-16s offset %+.1f us +- %.1f us", h->host->name,
			h->offset_ns / 1e3, h->offset_uncertainty_ns / 1e3);
		if (run_barrier_skew(h, &k))
			fprintf(f, ", start skew %+.1f us +- %.1f us", k / 1e3,
				h->offset_uncertainty_ns / 1e3);
		else
			fprintf(f, ", start skew not reported");
		fprintf(f, "\n");
	}
}

static json_t *num_or_null(bool known, json_int_t v)
{
	return known ? json_integer(v) : json_null();
}

int run_barrier_json(json_t *cp, const struct rperf_run_results *r)
{
	struct run_barrier_stats s;
	json_t *a = json_array(), *o;
	int e = a ? 0 : -1;

	if (e || run_barrier_stats(r, &s)) {
		json_decref(a);
		return -1;
	}
	for (size_t i = 0; !e && i < r->job->nhosts; i++) {
		const struct rperf_run_host *h = &r->hosts[i];
		int64_t k = 0;
		bool has = run_barrier_skew(h, &k);

		if (!h->has_offset)
			continue;
		e |= json_array_append_new(
			a, json_pack("{s:s, s:I, s:I, s:I, s:o}", "host",
				     h->host->name, "offset_ns",
				     (json_int_t)h->offset_ns, "rtt_ns",
				     (json_int_t)h->offset_rtt_ns,
				     "uncertainty_ns",
				     (json_int_t)h->offset_uncertainty_ns,
				     "skew_ns", num_or_null(has, k)));
	}
	o = json_pack("{s:I, s:o, s:o, s:o, s:o, s:o, s:o, s:f, s:f}",
		      "synced_agents", (json_int_t)s.nsynced, "skew_agents",
		      json_integer((json_int_t)s.nskew), "p99_abs_ns",
		      num_or_null(s.nskew, (json_int_t)s.p99_abs_skew_ns),
		      "max_abs_ns",
		      num_or_null(s.nskew, (json_int_t)s.max_abs_skew_ns),
		      "min_ns", num_or_null(s.nskew, s.min_skew_ns), "max_ns",
		      num_or_null(s.nskew, s.max_skew_ns), "p99_uncertainty_ns",
		      num_or_null(s.nsynced, (json_int_t)s.p99_uncertainty_ns),
		      "sync_seconds", r->sync_seconds, "ready_seconds",
		      r->ready_seconds);
	if (o)
		e |= json_object_set_new(
			o, "max_uncertainty_ns",
			num_or_null(s.nsynced,
				    (json_int_t)s.max_uncertainty_ns));
	e |= json_object_set_new(cp, "start", a);
	e |= o ? json_object_set_new(cp, "start_skew", o) : -1;
	return e ? -1 : 0;
}
