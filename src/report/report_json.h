/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The JSON building blocks of rperf's reports, for the renderers outside
 * src/report that build their own documents from them (the run report in
 * src/run, the agent's REPORT message in src/agent): one spelling of a
 * string, a number, a clock, a histogram's statistics in every document.
 */
#ifndef RPERF_REPORT_JSON_H
#define RPERF_REPORT_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include <rperf/report.h>

/* Percentiles shown when the report asks for none. */
#define RPERF_RPT_NDEFAULT_PCTS 4
extern const double rperf_rpt_default_pcts[RPERF_RPT_NDEFAULT_PCTS];

/* JSON values; NULL only on allocation failure. */
json_t *rperf_rpt_json_str(const char *s); /* NULL -> null; bad UTF-8 -> '?' */
/* @o, or NULL (@o freed) when @err: one of its setters failed. A NULL @o
 * (json_object() or json_array() out of memory) fails every jansson setter,
 * which frees the value it was given: this one check covers it. */
json_t *rperf_rpt_json_done(json_t *o, int err);
json_t *rperf_rpt_json_real(double d); /* non-finite -> null */
/* A configuration entry's value; NULL with *@bad set when malformed. */
json_t *rperf_rpt_json_kv(const struct rperf_kv *kv, bool *bad);
json_t *rperf_rpt_json_uint(uint64_t u); /* > INT64_MAX -> real */
json_t *rperf_rpt_json_clock(const struct rperf_clock *c,
			     const struct rperf_clock_selftest *st);

/* The statistics of one histogram, as under "rtt_ns" of rperf lat: min,
 * p50, p99, p999, p9999, max, mean, stdev, percentiles{@ps}, unreliable. */
struct rperf_hist;
json_t *rperf_rpt_json_stats(const struct rperf_hist *h, const double *ps,
			     size_t n);

/* An LSG's "intervals" (report_series.c): [{start_s, samples, p50_us,
 * p99_us, max_us}], the percentiles null without samples. */
json_t *rperf_rpt_json_lsg_intervals(const struct rperf_lsg_interval *iv,
				     size_t n);

/* Dump @root (reference stolen) to @f with a trailing newline. */
int rperf_rpt_json_emit(FILE *f, json_t *root);
/* The same into the file @path, written atomically (rperf_atomic_write);
 * ENOMEM for a NULL @root. */
int rperf_rpt_json_write(const char *path, json_t *root);

#endif
