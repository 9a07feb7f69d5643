/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rperf compare: the text table and the JSON document.
 *
 * JSON (schema_version 1): { schema_version, command: "compare", base,
 * run (paths), base_command, run_command, figure ("rtt"|"half_rtt"),
 * unit: "ns", series: [{ base_name, run_name, base_samples, run_samples,
 * points: [{ percentile, base, run, diff, uncertainty, unreliable,
 * nonpositive }] }],
 * notes: [] }. diff = run - base; uncertainty is +- in ns.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "compare/compare.h"

static const char *figure_words(const char *figure)
{
	return figure[0] == 'h' ? "RTT/2 (half round trip)" :
				  "RTT (round trip)";
}

static void text_series(FILE *f, const struct rperf_cmp_series *s)
{
	if (strcmp(s->base_name, s->run_name) == 0)
		fprintf(f, "\n%s", s->base_name);
	else
		fprintf(f, "\n%s (base) vs %s (run)", s->base_name,
			s->run_name);
	fprintf(f, ": %llu vs %llu samples\n",
		(unsigned long long)s->base_count,
		(unsigned long long)s->run_count);
	fprintf(f, "  %-10s %12s %12s %12s %10s\n", "percentile", "base[usec]",
		"run[usec]", "diff[usec]", "+-[usec]");
	for (size_t i = 0; i < s->npoints; i++) {
		const struct rperf_cmp_point *p = &s->points[i];

		fprintf(f, "  %-10s %12.3f %12.3f %+12.3f %10.3f%s%s\n", p->key,
			p->base / 1e3, p->run / 1e3, p->diff / 1e3,
			p->uncertainty / 1e3,
			p->unreliable || p->nonpositive ? " " : "",
			p->unreliable  ? (p->nonpositive ? "*!" : "*") :
			p->nonpositive ? "!" :
					 "");
	}
}

int rperf_cmp_text(FILE *f, const struct rperf_cmp_result *r)
{
	fprintf(f, "rperf compare: run - base, %s, microseconds\n",
		figure_words(r->figure));
	fprintf(f, "base: %s (rperf %s)\nrun:  %s (rperf %s)\n", r->base_path,
		r->base_command, r->run_path, r->run_command);
	for (size_t i = 0; i < r->nseries; i++)
		text_series(f, &r->series[i]);
	fputc('\n', f);
	for (size_t i = 0; i < r->nnotes; i++)
		fprintf(f, "note: %s\n", r->notes[i]);
	return ferror(f) ? EIO : 0;
}

static json_t *json_points(const struct rperf_cmp_series *s)
{
	json_t *a = json_array();

	for (size_t i = 0; a && i < s->npoints; i++) {
		const struct rperf_cmp_point *p = &s->points[i];
		json_t *o = json_pack(
			"{s:s, s:I, s:I, s:I, s:f, s:b, s:b}", "percentile",
			p->key, "base", (json_int_t)p->base, "run",
			(json_int_t)p->run, "diff", (json_int_t)p->diff,
			"uncertainty", p->uncertainty, "unreliable",
			p->unreliable, "nonpositive", p->nonpositive);

		if (json_array_append_new(a, o)) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

static json_t *json_series(const struct rperf_cmp_result *r)
{
	json_t *a = json_array();

	for (size_t i = 0; a && i < r->nseries; i++) {
		const struct rperf_cmp_series *s = &r->series[i];
		json_t *pts = json_points(s);
		json_t *o =
			pts ? json_pack("{s:s, s:s, s:I, s:I, s:o}",
					"base_name", s->base_name, "run_name",
					s->run_name, "base_samples",
					(json_int_t)s->base_count,
					"run_samples", (json_int_t)s->run_count,
					"points", pts) :
			      NULL;

		if (json_array_append_new(a, o)) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

json_t *rperf_cmp_json(const struct rperf_cmp_result *r)
{
	json_t *notes = json_array(), *series = json_series(r);

	for (size_t i = 0; notes && i < r->nnotes; i++)
		if (json_array_append_new(notes, json_string(r->notes[i]))) {
			json_decref(notes);
			notes = NULL;
		}
	if (!notes || !series) {
		json_decref(notes);
		json_decref(series);
		return NULL;
	}
	return json_pack("{s:i, s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:o, s:o}",
			 "schema_version", 1, "command", "compare", "base",
			 r->base_path, "run", r->run_path, "base_command",
			 r->base_command, "run_command", r->run_command,
			 "figure", r->figure, "unit", "ns", "series", series,
			 "notes", notes);
}
