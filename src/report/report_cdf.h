/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The RTT CDF as CSV rows, one renderer for rperf lat --hist (columns
 * size, repeat first: rperf_report_cdf_csv) and rperf run --hist (each
 * LSG's, its generator, from, to and size first); likewise every sample
 * (rperf lat --raw: rperf_report_raw_csv; rperf run --raw).
 */
#ifndef RPERF_REPORT_CDF_H
#define RPERF_REPORT_CDF_H

#include <stdio.h>

struct rperf_hist;

/* The columns every row ends with (the header's tail). */
#define RPERF_RPT_CDF_COLUMNS "lo_ns,hi_ns,value_ns,count,cumulative,fraction"

/* One row per non-empty bucket of @h, increasing, each starting with
 * @prefix (its leading columns, each followed by a comma). 0, EINVAL, or
 * the stream's error. */
int rperf_rpt_cdf_rows(FILE *f, const struct rperf_hist *h, const char *prefix);

/* The columns of every sample's row (rperf lat --raw's header). */
#define RPERF_RPT_RAW_COLUMNS "size,wire_ns,loop_ns,rtt_ns"

/* One row per sample of @s[0..n), in order, each starting with @prefix.
 * 0, EINVAL, or the stream's error. */
struct rperf_raw_sample;
int rperf_rpt_raw_rows(FILE *f, const struct rperf_raw_sample *s, size_t n,
		       const char *prefix);

#endif
