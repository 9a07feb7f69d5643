/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rperf compare BASE.json RUN.json: the switch's (or the BSGs') added
 * latency by differencing two reports, as the RPerf paper reports it, e.g.
 * through the switch minus back to back, or 3 BSGs minus none.
 *
 * Inputs are `rperf lat` reports (results[], one series per method and
 * size) and `rperf run` reports (one series per LSG instance, per class
 * and the total). Series are matched by name; two documents with one
 * series each are paired whatever their names (said in a note).
 *
 * Per point (min, p50, p99, p99.9, p99.99, max and the requested
 * percentiles both files list) diff = run - base, with the uncertainty
 *   u = |base| * (e_b + c_b) + |run| * (e_r + c_r)
 * e: the histogram's relative bucket error (0 for min and max, which are
 * exact; rel_error in the stats, else the default 2^-8, said in a note),
 * c: the clock's error (clock.error_ppm of the host that timed the series).
 * Sampling error is not in u: points that either report marks unreliable
 * (too few samples for that percentile) are flagged instead, and so are
 * points where either value is <= 0 (an RTT of Equation 1 may be: the
 * difference of two such is noise, not a latency added).
 *
 * Every byte of the files is checked; nothing here prints.
 */
#ifndef RPERF_COMPARE_H
#define RPERF_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#define RPERF_CMP_NAME_LEN 96
#define RPERF_CMP_MAX_POINTS 24
#define RPERF_CMP_MAX_NOTES 8

struct rperf_cmp_point {
	char key[16]; /* "min", "p50", "p99.9", "max", ... */
	int64_t base, run, diff; /* ns */
	double uncertainty; /* ns, +- */
	bool unreliable; /* too few samples in either report */
	bool nonpositive; /* base or run <= 0: not a latency added */
};

struct rperf_cmp_series {
	char base_name[RPERF_CMP_NAME_LEN], run_name[RPERF_CMP_NAME_LEN];
	uint64_t base_count, run_count; /* samples (0: not reported) */
	size_t npoints;
	struct rperf_cmp_point points[RPERF_CMP_MAX_POINTS];
};

struct rperf_cmp_result {
	char base_path[256], run_path[256];
	char base_command[8], run_command[8]; /* "lat" or "run" */
	char figure[16]; /* "rtt" or "half_rtt" */
	size_t nseries;
	struct rperf_cmp_series *series;
	size_t nnotes;
	char notes[RPERF_CMP_MAX_NOTES][256];
};

/* One loaded report (opaque). */
struct rperf_cmp_doc;

/* Load and check @path, a report or SWEEP.json#VALUE (the point of a sweep
 * report whose "value" is VALUE): 0, or ENOENT/EACCES (cannot read),
 * EBADMSG (not a report rperf compare understands, a sweep without #VALUE,
 * no such point), EINVAL (path too long), ENOMEM, with @err naming it. */
int rperf_cmp_load(const char *path, struct rperf_cmp_doc **out, char *err,
		   size_t errlen);
void rperf_cmp_doc_free(struct rperf_cmp_doc *d);

/* Difference @run - @base: 0, or EINVAL (nothing comparable: different
 * figures, no common series) / ENOMEM with @err. */
int rperf_cmp_compute(const struct rperf_cmp_doc *base,
		      const struct rperf_cmp_doc *run,
		      struct rperf_cmp_result **out, char *err, size_t errlen);
void rperf_cmp_result_free(struct rperf_cmp_result *r);

/* The text table (µs) to @f; 0 or errno. */
int rperf_cmp_text(FILE *f, const struct rperf_cmp_result *r);
/* The JSON document (new reference; NULL: out of memory). Keys: see
 * compare_out.c. */
json_t *rperf_cmp_json(const struct rperf_cmp_result *r);

#endif
