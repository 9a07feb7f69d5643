/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The mesh's reports (mesh.h). JSON (contract): top-level "mesh" with
 * "hosts" (names in order), "matrix" (rows = sources, columns =
 * destinations; each cell {p50_ns, p99_ns, p999_ns, samples, status}, null
 * on the diagonal; "error" when the cell has one) and "suspects" ({kind:
 * "port", host, added_ns} or {kind: "pair", from, to, added_ns}; empty when
 * nothing is out), beside the localization's figures and rule; then
 * "rounds": each round's `rperf run` document. RTTs are RPerf RTTs in ns
 * (the end hosts' time subtracted), round trips, not one way.
 */
#include "run/mesh.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <rperf/report.h>

#include "report/report_json.h"

#define TEXT_MAX_HOSTS 16
#define TEXT_MAX_OUTLIERS 20

static const char *hname(const struct rperf_mesh_result *m, size_t i)
{
	return m->job->hosts[m->mesh->hosts[i]].name;
}

static const struct rperf_mesh_cell *cellc(const struct rperf_mesh_result *m,
					   size_t i, size_t j)
{
	return &m->cells[i * m->mesh->nhosts + j];
}

static json_t *ns(double v)
{
	return isfinite(v) ? json_integer((json_int_t)llround(v)) : json_null();
}

static json_t *json_cell(const struct rperf_mesh_cell *c)
{
	json_t *o;

	if (!c->planned)
		return json_null();
	o = json_pack("{s:o, s:o, s:o, s:o, s:s}", "p50_ns", ns(c->p50_ns),
		      "p99_ns", ns(c->p99_ns), "p999_ns", ns(c->p999_ns),
		      "samples", rperf_rpt_json_uint(c->samples), "status",
		      rperf_run_status_name(c->status));
	if (o && c->error[0])
		json_object_set_new(o, "error", rperf_rpt_json_str(c->error));
	if (!o)
		return NULL;
	json_object_set_new(o, "round", json_integer((json_int_t)c->round));
	json_object_set_new(o, "min_ns", ns(c->min_ns));
	json_object_set_new(o, "p10_ns", ns(c->p10_ns));
	if (isfinite(c->again_ns) || c->again_samples) {
		json_object_set_new(o, "again_ns", ns(c->again_ns));
		json_object_set_new(o, "again_samples",
				    rperf_rpt_json_uint(c->again_samples));
	}
	return o;
}

static json_t *json_suspect(const struct rperf_mesh_result *m,
			    const struct rperf_mesh_suspect *s)
{
	if (s->kind == RPERF_MESH_PORT)
		return json_pack("{s:s, s:s, s:o}", "kind", "port", "host",
				 hname(m, s->host), "added_ns",
				 ns(s->added_ns));
	return json_pack("{s:s, s:s, s:s, s:o}", "kind", "pair", "from",
			 hname(m, s->from), "to", hname(m, s->to), "added_ns",
			 ns(s->added_ns));
}

static int json_matrix(const struct rperf_mesh_result *m, json_t *mesh)
{
	size_t n = m->mesh->nhosts;
	json_t *hosts = json_array(), *rows = json_array(), *sus = json_array();
	int e = hosts && rows && sus ? 0 : -1;

	for (size_t i = 0; i < n && !e; i++) {
		json_t *row = json_array();

		e |= json_array_append_new(hosts, json_string(hname(m, i)));
		for (size_t j = 0; j < n && row; j++)
			e |= json_array_append_new(row,
						   json_cell(cellc(m, i, j)));
		e |= json_array_append_new(rows, row);
	}
	for (size_t k = 0; k < m->verdict.nsuspects && !e; k++)
		e |= json_array_append_new(
			sus, json_suspect(m, &m->verdict.suspects[k]));
	e |= json_object_set_new(mesh, "hosts", hosts);
	e |= json_object_set_new(mesh, "matrix", rows);
	e |= json_object_set_new(mesh, "suspects", sus);
	return e;
}

static json_t *json_locate(const struct rperf_mesh_result *m)
{
	const struct rperf_mesh_verdict *v = &m->verdict;
	json_t *o = json_object();
	int e = o ? 0 : -1;

	e |= json_object_set_new(o, "decided", json_boolean(v->decided));
	e |= json_object_set_new(o, "rule", json_string(rperf_mesh_rule()));
	e |= json_object_set_new(
		o, "statistic",
		json_string(m->mesh->statistic == RPERF_MESH_STAT_P10 ? "p10" :
									"p50"));
	e |= json_object_set_new(o, "cells_measured",
				 rperf_rpt_json_uint(v->cells));
	e |= json_object_set_new(o, "cells_clean",
				 rperf_rpt_json_uint(v->clean_cells));
	e |= json_object_set_new(o, "cells_failed",
				 rperf_rpt_json_uint(m->nfailed));
	e |= json_object_set_new(o, "pairs_again",
				 rperf_rpt_json_uint(m->again_pairs));
	e |= json_object_set_new(o, "baseline_ns", ns(v->base_ns));
	e |= json_object_set_new(o, "noise_ns", ns(v->noise_ns));
	e |= json_object_set_new(o, "threshold_ns", ns(v->threshold_ns));
	e |= json_object_set_new(o, "out_above_ns",
				 rperf_rpt_json_uint(m->mesh->out_above_ns));
	return rperf_rpt_json_done(o, e);
}

int rperf_mesh_report_json(const struct rperf_mesh_result *m, json_t **out)
{
	json_t *root = json_object(), *mesh = json_object();
	int e = root && mesh ? 0 : -1;

	e |= json_object_set_new(mesh, "name", json_string(m->mesh->name));
	e |= json_object_set_new(
		mesh, "schedule",
		json_string(rperf_mesh_schedule_name(m->mesh->schedule)));
	e |= json_object_set_new(mesh, "rounds",
				 json_integer((json_int_t)m->plan.nrounds));
	e |= json_object_set_new(mesh, "rounds_run",
				 json_integer((json_int_t)m->rounds_run));
	e |= json_object_set_new(mesh, "experiments",
				 json_integer((json_int_t)m->experiments));
	e |= json_object_set_new(mesh, "parallel",
				 rperf_rpt_json_uint(m->mesh->parallel));
	e |= json_object_set_new(
		mesh, "pair_duration_ns",
		rperf_rpt_json_uint(m->mesh->spec.duration_ns));
	e |= json_object_set_new(mesh, "pair_samples",
				 rperf_rpt_json_uint(m->mesh->samples));
	e |= json_object_set_new(mesh, "pair_warmup_ns",
				 rperf_rpt_json_uint(m->mesh->spec.warmup_ns));
	e |= json_object_set_new(mesh, "size",
				 rperf_rpt_json_uint(m->mesh->spec.size));
	e |= json_object_set_new(mesh, "rtt", json_string("rperf"));
	e |= json_object_set_new(mesh, "dry_run", json_boolean(m->dry_run));
	e |= json_object_set_new(mesh, "interrupted",
				 json_boolean(m->interrupted));
	e |= json_object_set_new(mesh, "elapsed",
				 rperf_rpt_json_real(m->elapsed));
	if (!e)
		e |= json_matrix(m, mesh);
	e |= json_object_set_new(mesh, "localization", json_locate(m));
	e |= json_object_set_new(root, "job", json_string(m->job->path));
	e |= json_object_set_new(root, "mesh", mesh);
	e |= json_object_set(root, "rounds", m->rounds);
	*out = rperf_rpt_json_done(root, e);
	return *out ? 0 : ENOMEM;
}

int rperf_mesh_write_json(const char *path, const struct rperf_mesh_result *m)
{
	json_t *root = NULL;
	int rc = rperf_mesh_report_json(m, &root);

	return rc ? rc : rperf_rpt_json_write(path, root);
}

/* ---- text ---- */

/* samples = N: the cells that recorded fewer (N is what the pair's
 * duration offers; late or lost probes record less). */
static void text_short(FILE *f, const struct rperf_mesh_result *m)
{
	size_t n = m->mesh->nhosts, k = 0;
	uint64_t least = UINT64_MAX;

	for (size_t i = 0; m->mesh->samples && i < n * n; i++) {
		if (!m->cells[i].planned || !m->cells[i].samples)
			continue;
		if (m->cells[i].samples < m->mesh->samples)
			k++;
		if (m->cells[i].samples < least)
			least = m->cells[i].samples;
	}
	if (k)
		fprintf(f,
			"  samples: %zu cell%s recorded fewer than the %llu offered per pair (least %llu)\n",
			k, k == 1 ? "" : "s",
			(unsigned long long)m->mesh->samples,
			(unsigned long long)least);
}

static void text_verdict(FILE *f, const struct rperf_mesh_result *m)
{
	const struct rperf_mesh_verdict *v = &m->verdict;
	size_t n = m->mesh->nhosts;

	fprintf(f,
		"mesh %s: %zu hosts, %zu of %zu cells measured (RPerf RTT: round trip, end-host time subtracted), %zu round%s (schedule %s) in %.1f s\n",
		m->mesh->name, n, v->cells, n * (n - 1), m->rounds_run,
		m->rounds_run == 1 ? "" : "s",
		rperf_mesh_schedule_name(m->mesh->schedule), m->elapsed);
	if (m->dry_run) {
		fprintf(f, "  dry run: agents measured nothing; no verdict\n");
		return;
	}
	if (!v->decided) {
		fprintf(f, "  no verdict: %zu measured cell%s (3 needed)\n",
			v->cells, v->cells == 1 ? "" : "s");
		return;
	}
	fprintf(f,
		"  on the cells' %s: baseline %.1f us, noise %.1f us (1.4826 x MAD), out above +%.1f us; verdict rests on %zu cells (%zu through no named port)\n",
		m->mesh->statistic == RPERF_MESH_STAT_P10 ? "p10" : "p50",
		v->base_ns / 1e3, v->noise_ns / 1e3, v->threshold_ns / 1e3,
		v->cells, v->clean_cells);
	if (!v->nsuspects)
		fprintf(f, "  verdict: nothing out (no port, no pair)\n");
	for (size_t k = 0; k < v->nsuspects; k++) {
		const struct rperf_mesh_suspect *s = &v->suspects[k];

		if (s->kind == RPERF_MESH_PORT)
			fprintf(f,
				"  verdict: port %s: every path through port %s +%.0f us\n",
				hname(m, s->host), hname(m, s->host),
				s->added_ns / 1e3);
		else
			fprintf(f, "  verdict: pair %s -> %s +%.0f us\n",
				hname(m, s->from), hname(m, s->to),
				s->added_ns / 1e3);
	}
	if (m->again_pairs)
		fprintf(f,
			"  measured again alone: %zu pair%s the first verdict named (a cell counts with the lower of its two measurements)\n",
			m->again_pairs, m->again_pairs == 1 ? "" : "s");
	fprintf(f, "  rule: %s\n", rperf_mesh_rule());
	text_short(f, m);
}

static void text_failed(FILE *f, const struct rperf_mesh_result *m)
{
	size_t n = m->mesh->nhosts, shown = 0;

	if (!m->nfailed)
		return;
	fprintf(f, "  not measured: %zu cell%s\n", m->nfailed,
		m->nfailed == 1 ? "" : "s");
	for (size_t i = 0; i < n; i++) {
		for (size_t j = 0; j < n; j++) {
			const struct rperf_mesh_cell *c = cellc(m, i, j);

			if (!c->planned || (c->status == RPERF_RUN_ST_OK &&
					    (c->samples || m->dry_run)))
				continue;
			if (shown++ < TEXT_MAX_OUTLIERS)
				fprintf(f, "    %s -> %s: %s%s%s\n",
					hname(m, i), hname(m, j),
					rperf_run_status_name(c->status),
					c->error[0] ? ": " : "",
					c->error[0] ? c->error : "no samples");
		}
	}
	if (shown > TEXT_MAX_OUTLIERS)
		fprintf(f, "    ... %zu more in the JSON report\n",
			shown - TEXT_MAX_OUTLIERS);
}

/* One table of @what (p50 or p99) in us. */
static void text_table(FILE *f, const struct rperf_mesh_result *m, bool p99)
{
	size_t n = m->mesh->nhosts;

	fprintf(f, "\n%s RTT (us)  src \\ dst\n", p99 ? "p99" : "p50");
	fprintf(f, "%-8.8s", "");
	for (size_t j = 0; j < n; j++)
		fprintf(f, " %7.7s", hname(m, j));
	fputc('\n', f);
	for (size_t i = 0; i < n; i++) {
		fprintf(f, "%-8.8s", hname(m, i));
		for (size_t j = 0; j < n; j++) {
			const struct rperf_mesh_cell *c = cellc(m, i, j);
			double v = p99 ? c->p99_ns : c->p50_ns;

			if (!c->planned)
				fprintf(f, " %7s", "-");
			else if (!isfinite(v))
				fprintf(f, " %7s",
					c->status == RPERF_RUN_ST_OK ? "n/a" :
								       "FAIL");
			else
				fprintf(f, " %7.1f", v / 1e3);
		}
		fputc('\n', f);
	}
}

/* Larger meshes: the cells furthest above the baseline. */
static void text_outliers(FILE *f, const struct rperf_mesh_result *m)
{
	size_t n = m->mesh->nhosts, shown = 0;
	double t = m->verdict.threshold_ns, b = m->verdict.base_ns;

	if (!m->verdict.decided)
		return;
	fprintf(f, "\ncells out (p50 above baseline + %.1f us):\n", t / 1e3);
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < n; j++) {
			const struct rperf_mesh_cell *c = cellc(m, i, j);

			if (!c->planned || !isfinite(c->p50_ns) ||
			    c->p50_ns - b <= t)
				continue;
			if (shown++ < TEXT_MAX_OUTLIERS)
				fprintf(f, "  %s -> %s: p50 %.1f us (+%.1f)\n",
					hname(m, i), hname(m, j),
					c->p50_ns / 1e3, (c->p50_ns - b) / 1e3);
		}
	if (!shown)
		fprintf(f, "  none\n");
	else if (shown > TEXT_MAX_OUTLIERS)
		fprintf(f, "  ... %zu more in the JSON report\n",
			shown - TEXT_MAX_OUTLIERS);
}

int rperf_mesh_report_text(FILE *f, const struct rperf_mesh_result *m)
{
	text_verdict(f, m);
	text_failed(f, m);
	if (m->mesh->nhosts <= TEXT_MAX_HOSTS) {
		text_table(f, m, false);
		text_table(f, m, true);
	} else {
		text_outliers(f, m);
	}
	return ferror(f) ? EIO : 0;
}

/* rperf run --check of a job with a [mesh]: its rounds, the experiments
 * they run as (parallel caps the pairs at once) and the expected length. */
int rperf_mesh_plan_text(FILE *f, const struct rperf_job *job)
{
	const struct rperf_job_mesh *mh = job->mesh;
	size_t cap = mh->parallel ? (size_t)mh->parallel : SIZE_MAX, nexp = 0;
	uint64_t each = mh->spec.warmup_ns + mh->spec.duration_ns;
	struct rperf_mesh_plan p;
	int rc = rperf_mesh_plan_make(mh->nhosts, mh->schedule, &p);

	if (rc)
		return rc;
	fprintf(f,
		"mesh %s: %zu host(s), schedule %s: %zu round(s), %zu pair(s), each measured both ways\n",
		mh->name, mh->nhosts, rperf_mesh_schedule_name(mh->schedule),
		p.nrounds, p.first[p.nrounds]);
	fprintf(f, "  round  experiments  pairs\n");
	for (size_t r = 0; r < p.nrounds; r++) {
		size_t n = p.first[r + 1] - p.first[r];
		size_t ex = n ? (n + (cap < n ? cap : n) - 1) /
					    (cap < n ? cap : n) :
				0;

		nexp += ex;
		fprintf(f, "  %5zu  %11zu  ", r + 1, ex);
		for (size_t q = p.first[r]; q < p.first[r + 1]; q++)
			fprintf(f, "%s%s<->%s", q > p.first[r] ? " " : "",
				job->hosts[mh->hosts[p.pairs[q].a]].name,
				job->hosts[mh->hosts[p.pairs[q].b]].name);
		fputc('\n', f);
	}
	fprintf(f,
		"expected: %.3f s of measurement (%zu experiment(s) of warm-up %.3f s + duration %.3f s), plus each experiment's set-up and start barrier\n",
		(double)each * (double)nexp / 1e9, nexp,
		(double)mh->spec.warmup_ns / 1e9,
		(double)mh->spec.duration_ns / 1e9);
	if (mh->samples)
		fprintf(f, "  duration from samples = %llu per pair\n",
			(unsigned long long)mh->samples);
	rperf_mesh_plan_free(&p);
	return 0;
}
