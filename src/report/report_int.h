/* SPDX-License-Identifier: BSD-2-Clause */
/* Private helpers shared by the report renderers (src/report). */
#ifndef RPERF_REPORT_INT_H
#define RPERF_REPORT_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include <rperf/report.h>

/* Percentiles shown when the report asks for none. */
#define RPERF_RPT_NDEFAULT_PCTS 4
extern const double rperf_rpt_default_pcts[RPERF_RPT_NDEFAULT_PCTS];

/* The percentile list of @r (its own or the default one). */
void rperf_rpt_pcts(const struct rperf_report *r, const double **ps, size_t *n);

/* "99.9", "50", "100": the shortest decimal form of @p. */
void rperf_rpt_pct_key(double p, char *buf, size_t len);

/* Flush @f; 0, or EIO when the stream saw a write error. */
int rperf_rpt_io_status(FILE *f);

/* JSON values; NULL only on allocation failure. */
json_t *rperf_rpt_json_str(const char *s); /* NULL -> null; bad UTF-8 -> '?' */
json_t *rperf_rpt_json_real(double d); /* non-finite -> null */
json_t *rperf_rpt_json_uint(uint64_t u); /* > INT64_MAX -> real */
/* "retransmissions": the object, null for NULL (report_retrans.c) */
struct rperf_retrans;
json_t *rperf_rpt_json_retrans(const struct rperf_retrans *t);
json_t *rperf_rpt_json_clock(const struct rperf_clock *c,
			     const struct rperf_clock_selftest *st);
json_t *rperf_rpt_json_platform(const struct rperf_platform *p);
/* {speed, width} of a PCIe link (unknown parts null); null when none. */
json_t *rperf_rpt_json_pcie(const char *speed, int width);

/* Placement and preflight (host_report.c): JSON values, the two top-level
 * keys "placement" and "preflight" (each only when given; 0 or ENOMEM), and
 * the text lines of a run report. */
json_t *rperf_rpt_json_placement(const struct rperf_placement *p);
json_t *rperf_rpt_json_preflight(const struct rperf_preflight *pf);
int rperf_rpt_json_host(json_t *root, const struct rperf_placement *p,
			const struct rperf_preflight *pf);
void rperf_rpt_text_host(FILE *f, const struct rperf_placement *p,
			 const struct rperf_preflight *pf);

/* The statistics of one histogram, as under "rtt_ns" of rperf lat: min,
 * p50, p99, p999, p9999, max, mean, stdev, percentiles{@ps}, unreliable. */
struct rperf_hist;
json_t *rperf_rpt_json_stats(const struct rperf_hist *h, const double *ps,
			     size_t n);

/* Dump @root (reference stolen) to @f with a trailing newline. */
int rperf_rpt_json_emit(FILE *f, json_t *root);

/* "yes"/"no". */
static inline const char *rperf_rpt_yesno(bool b)
{
	return b ? "yes" : "no";
}

#endif
