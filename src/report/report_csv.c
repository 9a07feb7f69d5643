// SPDX-License-Identifier: BSD-2-Clause
/*
 * CSV reports.
 *
 * rperf_report_csv: one header line, then one row per (method, size) with the
 * JSON figures flattened:
 *   method,size,samples,warmup,nonpositive,precompleted,seconds,figure,
 *   then for X in rtt, wire, loop:
 *   X_min_ns,X_p50_ns,X_p99_ns,X_p999_ns,X_p9999_ns,X_max_ns,X_mean_ns,
 *   X_stdev_ns, X_p<p>_ns for each requested percentile not among
 *   50/99/99.9/99.99, and X_unreliable (requested percentiles that are
 *   unreliable, space separated). wire/loop cells are empty when absent.
 *
 * rperf_report_raw_csv: "wire_ns,loop_ns,rtt_ns" then one line per sample.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "report/report_cdf.h"
#include "report_int.h"

static const char *const hist_names[] = { "rtt", "wire", "loop" };
static const char *const fixed_cols[] = { "min",   "p50", "p99",  "p999",
					  "p9999", "max", "mean", "stdev" };

/* Requested percentiles already covered by a fixed column. */
static bool pct_is_fixed(double p)
{
	return p == 50 || p == 99 || p == 99.9 || p == 99.99;
}

/* A CSV field, quoted (RFC 4180) when it holds a comma, quote or newline. */
static void csv_str(FILE *f, const char *s)
{
	if (!s)
		return;
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void csv_header(FILE *f, const double *ps, size_t n)
{
	char key[32];
	size_t h, i;

	fputs("method,size,samples,warmup,nonpositive,precompleted,seconds,"
	      "figure",
	      f);
	for (h = 0; h < 3; h++) {
		for (i = 0; i < sizeof(fixed_cols) / sizeof(fixed_cols[0]); i++)
			fprintf(f, ",%s_%s_ns", hist_names[h], fixed_cols[i]);
		for (i = 0; i < n; i++) {
			if (pct_is_fixed(ps[i]))
				continue;
			rperf_rpt_pct_key(ps[i], key, sizeof(key));
			fprintf(f, ",%s_p%s_ns", hist_names[h], key);
		}
		fprintf(f, ",%s_unreliable", hist_names[h]);
	}
	fputc('\n', f);
}

static void csv_unreliable(FILE *f, const struct rperf_hist *h,
			   const double *ps, size_t n)
{
	uint64_t cnt = rperf_hist_count(h);
	const char *sep = "";
	char key[32];
	size_t i;

	fputc(',', f);
	for (i = 0; i < n; i++) {
		if (rperf_percentile_reliable(ps[i], cnt))
			continue;
		rperf_rpt_pct_key(ps[i], key, sizeof(key));
		fprintf(f, "%s%s", sep, key);
		sep = " ";
	}
}

static void csv_stats(FILE *f, const struct rperf_hist *h, const double *ps,
		      size_t n)
{
	size_t i;

	if (!h) {
		size_t ncells = 0;

		for (i = 0; i < n; i++)
			ncells += !pct_is_fixed(ps[i]);
		ncells += sizeof(fixed_cols) / sizeof(fixed_cols[0]) + 1;
		for (i = 0; i < ncells; i++)
			fputc(',', f);
		return;
	}
	fprintf(f,
		",%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64
		",%" PRId64 ",%.3f,%.3f",
		rperf_hist_min(h), rperf_hist_percentile(h, 50),
		rperf_hist_percentile(h, 99), rperf_hist_percentile(h, 99.9),
		rperf_hist_percentile(h, 99.99), rperf_hist_max(h),
		rperf_hist_mean(h), rperf_hist_stdev(h));
	for (i = 0; i < n; i++)
		if (!pct_is_fixed(ps[i]))
			fprintf(f, ",%" PRId64,
				rperf_hist_percentile(h, ps[i]));
	csv_unreliable(f, h, ps, n);
}

static void csv_row(FILE *f, const struct rperf_lat_result *l, const double *ps,
		    size_t n)
{
	csv_str(f, l->method);
	fprintf(f,
		",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
		",%.6f,%s",
		l->size, l->samples, l->warmup, l->nonpositive, l->precompleted,
		l->seconds, l->half_rtt ? "half_rtt" : "rtt");
	csv_stats(f, l->rtt, ps, n);
	csv_stats(f, l->wire, ps, n);
	csv_stats(f, l->loop, ps, n);
	fputc('\n', f);
}

int rperf_report_csv(FILE *f, const struct rperf_report *r)
{
	const double *ps;
	size_t n, i;

	if (!f || !r || (r->nlat && !r->lat))
		return EINVAL;
	for (i = 0; i < r->nlat; i++)
		if (!r->lat[i].rtt)
			return EINVAL;
	rperf_rpt_pcts(r, &ps, &n);
	csv_header(f, ps, n);
	for (i = 0; i < r->nlat; i++)
		csv_row(f, &r->lat[i], ps, n);
	return rperf_rpt_io_status(f);
}

int rperf_rpt_raw_rows(FILE *f, const struct rperf_raw_sample *s, size_t n,
		       const char *prefix)
{
	if (!f || (n && !s) || !prefix)
		return EINVAL;
	for (size_t i = 0; i < n; i++) {
		if (fprintf(f,
			    "%s%" PRIu64 ",%" PRId64 ",%" PRId64 ",%" PRId64
			    "\n",
			    prefix, s[i].size, s[i].wire_ns, s[i].loop_ns,
			    s[i].rtt_ns) < 0)
			break;
	}
	return rperf_rpt_io_status(f);
}

int rperf_report_raw_csv(FILE *f, const struct rperf_raw_sample *s, size_t n)
{
	if (!f)
		return EINVAL;
	fputs(RPERF_RPT_RAW_COLUMNS "\n", f);
	return rperf_rpt_raw_rows(f, s, n, "");
}

int rperf_rpt_cdf_rows(FILE *f, const struct rperf_hist *h, const char *prefix)
{
	struct rperf_hist_iter it;

	if (!f || !h)
		return EINVAL;
	rperf_hist_iter_init(&it, h);
	while (rperf_hist_next(&it)) {
		if (fprintf(f,
			    "%s%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRIu64
			    ",%" PRIu64 ",%.9f\n",
			    prefix, it.lo, it.hi, it.value, it.count,
			    it.cumulative, it.fraction) < 0)
			break;
	}
	return rperf_rpt_io_status(f);
}

int rperf_report_cdf_csv(FILE *f, const struct rperf_hist *h, uint64_t size,
			 uint64_t repeat, bool header)
{
	char prefix[48];

	if (header && f)
		fputs("size,repeat," RPERF_RPT_CDF_COLUMNS "\n", f);
	snprintf(prefix, sizeof(prefix), "%" PRIu64 ",%" PRIu64 ",", size,
		 repeat);
	return rperf_rpt_cdf_rows(f, h, prefix);
}
