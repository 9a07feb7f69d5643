/* SPDX-License-Identifier: BSD-2-Clause */
/* Private helpers shared by the report renderers (src/report); the JSON
 * building blocks that renderers outside src/report use are in report_json.h. */
#ifndef RPERF_REPORT_INT_H
#define RPERF_REPORT_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include <rperf/report.h>

#include "report_json.h"

/* The percentile list of @r (its own or the default one). */
void rperf_rpt_pcts(const struct rperf_report *r, const double **ps, size_t *n);

/* "99.9", "50", "100": the shortest decimal form of @p. */
void rperf_rpt_pct_key(double p, char *buf, size_t len);

/* Flush @f; 0, or EIO when the stream saw a write error. */
int rperf_rpt_io_status(FILE *f);

/* More JSON values; NULL only on allocation failure. */
json_t *rperf_rpt_json_platform(const struct rperf_platform *p);
/* {speed, width} of a PCIe link (unknown parts null); null when none. */
json_t *rperf_rpt_json_pcie(const char *speed, int width);
/* "retransmissions": the object, null for NULL (report_retrans.c) */
struct rperf_retrans;
json_t *rperf_rpt_json_retrans(const struct rperf_retrans *t);

/* Placement and preflight (host_report.c): JSON values, the two top-level
 * keys "placement" and "preflight" (each only when given; 0 or ENOMEM), and
 * the text lines of a run report. */
json_t *rperf_rpt_json_placement(const struct rperf_placement *p);
json_t *rperf_rpt_json_preflight(const struct rperf_preflight *pf);
int rperf_rpt_json_host(json_t *root, const struct rperf_placement *p,
			const struct rperf_preflight *pf);
void rperf_rpt_text_host(FILE *f, const struct rperf_placement *p,
			 const struct rperf_preflight *pf);

/* "yes"/"no". */
static inline const char *rperf_rpt_yesno(bool b)
{
	return b ? "yes" : "no";
}

#endif
