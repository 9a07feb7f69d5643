/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * An LSG's time series (struct rperf_lsg_interval): the JSON "intervals"
 * of rperf run's generators[] and rperf lat's results[] (one spelling for
 * both), and rperf lat's text rows. RTTs, never halved (--half-rtt halves
 * the table, not the series).
 */
#include "report/report_json.h"

#include <errno.h>
#include <stdio.h>

static json_t *us_or_null(const struct rperf_lsg_interval *v, int64_t ns)
{
	return v->samples ? json_real((double)ns / 1e3) : json_null();
}

json_t *rperf_rpt_json_lsg_intervals(const struct rperf_lsg_interval *iv,
				     size_t n)
{
	json_t *a = json_array();
	int err = 0;

	for (size_t i = 0; !err && i < n; i++) {
		const struct rperf_lsg_interval *v = &iv[i];

		err |= json_array_append_new(
			a, json_pack("{s:f, s:I, s:o, s:o, s:o}", "start_s",
				     (double)v->start_ns / 1e9, "samples",
				     (json_int_t)v->samples, "p50_us",
				     us_or_null(v, v->p50_ns), "p99_us",
				     us_or_null(v, v->p99_ns), "max_us",
				     us_or_null(v, v->max_ns)));
	}
	return rperf_rpt_json_done(a, err);
}

/* One row: start, samples, p50, p99, max (usec; "-" without samples). */
static void row(FILE *f, const struct rperf_lat_result *l,
		const struct rperf_lsg_interval *v)
{
	fprintf(f, "  %-8s %8llu", l->method ? l->method : "?",
		(unsigned long long)l->size);
	if (l->repeat)
		fprintf(f, " %6llu", (unsigned long long)l->repeat);
	fprintf(f, " %10.3f %9llu", (double)v->start_ns / 1e9,
		(unsigned long long)v->samples);
	if (!v->samples) {
		fprintf(f, " %12s %12s %12s\n", "-", "-", "-");
		return;
	}
	fprintf(f, " %12.3f %12.3f %12.3f\n", (double)v->p50_ns / 1e3,
		(double)v->p99_ns / 1e3, (double)v->max_ns / 1e3);
}

int rperf_report_intervals_text(FILE *f, const struct rperf_report *r)
{
	bool any = false, rep = false;

	for (size_t i = 0; i < r->nlat; i++) {
		any |= r->lat[i].interval_ns > 0;
		rep |= r->lat[i].repeat > 0;
	}
	if (!any)
		return 0;
	fprintf(f,
		"\nintervals (RTT of the samples posted in each, usec; start: s after the first measured sample)\n");
	fprintf(f, "  %-8s %8s%s %10s %9s %12s %12s %12s\n", "method", "#bytes",
		rep ? " repeat" : "", "start[s]", "samples", "p50[usec]",
		"p99[usec]", "max[usec]");
	for (size_t i = 0; i < r->nlat; i++)
		for (size_t k = 0; k < r->lat[i].nintervals; k++)
			row(f, &r->lat[i], &r->lat[i].intervals[k]);
	return ferror(f) ? EIO : 0;
}
