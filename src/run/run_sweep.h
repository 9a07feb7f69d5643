/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * `rperf run --sweep SECTION.NAME.KEY=V1,V2,...`: one experiment per value
 * of one job key, then one table and one JSON document over all points.
 * This module holds the sweep (its points, their jobs and results) and
 * renders it; the command layer loads each point's job and runs it.
 *
 * JSON (schema_version 1, contract keys; documented in man rperf, SWEEPS):
 *   { schema_version, command: "run", job, hosts_map (null), sets [..],
 *     sweep { key, section, name, param, values [..] },
 *     interrupted, points: [ {
 *       index, value (as given), x (the value in the key's base unit:
 *       ns, bytes, bits/s or a count; null for names and choices),
 *       status ("ok", "failed": a host failed or an instance reported an
 *       error, "aborted": nothing was measured, "not_run": interrupted
 *       before it), exit_status (0 or 3),
 *       lsg_count, lsg_samples, lsg_rtt_ns { p50, p99, p999 } (all LSG
 *       instances merged: RTT in ns; null without samples),
 *       bsg_count, bsg_gbps, bsg_receiver_gbps (payload Gb/s summed over
 *       the BSG instances: sent, received; null when nothing was measured:
 *       not run or aborted),
 *       bsg_gbps_by_name { SECTION: Gb/s sent, summed over its instances },
 *       bsg_gbps_by_class { "tclass 96": Gb/s sent }, failed_hosts [..],
 *       instances_with_errors,
 *       report: the point's full `rperf run` JSON document, or null } ] }
 */
#ifndef RPERF_RUN_SWEEP_H
#define RPERF_RUN_SWEEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "job/job.h"
#include "run/run.h"

#define RPERF_SWEEP_MAX_POINTS 64

enum rperf_sweep_status {
	RPERF_SWEEP_NOT_RUN = 0,
	RPERF_SWEEP_OK,
	RPERF_SWEEP_FAILED,
	RPERF_SWEEP_ABORTED,
};

struct rperf_sweep_point {
	const char *value; /* the item as given (points into the sweep) */
	char *assign; /* "SECTION.NAME.KEY=VALUE", owned */
	char *origin; /* how messages name it, owned */
	bool has_x;
	double x; /* the value in the key's base unit */
	struct rperf_job *job; /* owned, NULL until loaded */
	struct rperf_run_results *res; /* owned, NULL when not run */
	enum rperf_sweep_status status;
};

struct rperf_sweep {
	char key[128]; /* SECTION.NAME.KEY */
	struct rperf_job_target target;
	char *list; /* owned copy of the value list */
	struct rperf_sweep_point pt[RPERF_SWEEP_MAX_POINTS];
	size_t npt;
	/* context, for the report */
	const char *job_path;
	const char *hosts_map; /* NULL = none */
	const char *const *sets;
	size_t nsets;
	bool interrupted;
};

/* Parse SECTION.NAME.KEY=V1,V2,... (at most RPERF_SWEEP_MAX_POINTS values,
 * no empty item, not 'from'). *out is a new sweep without jobs. EINVAL
 * with @err ("--sweep ...: ...") or ENOMEM. */
int rperf_sweep_create(const char *spec, struct rperf_sweep **out, char *err,
		       size_t errlen);
void rperf_sweep_free(struct rperf_sweep *s);

/* Record the results of point @i (ownership moves; NULL: not run). */
void rperf_sweep_set_result(struct rperf_sweep *s, size_t i,
			    struct rperf_run_results *res);

/* The summary table: one line per point. */
int rperf_sweep_report_text(FILE *f, const struct rperf_sweep *s);
/* The JSON document (new reference in *out) and its atomic write. */
int rperf_sweep_report_json(const struct rperf_sweep *s, json_t **out);
int rperf_sweep_write_json(const char *path, const struct rperf_sweep *s);

/* A point's figures, as the table and the JSON show them. */
struct rperf_sweep_sum {
	size_t nlsg, nbsg;
	uint64_t lsg_samples;
	bool have_rtt;
	int64_t p50, p99, p999; /* ns */
	double bsg_gbps, bsg_receiver_gbps;
	size_t nfailed, nerrors;
};
void rperf_sweep_summary(const struct rperf_sweep_point *p,
			 struct rperf_sweep_sum *sum);
/* Did point @p measure anything (it ran and was not aborted)? */
bool rperf_sweep_measured(const struct rperf_sweep_point *p);
/* Gb/s sent by the BSG instances of section @name, or by class @cls (its
 * name, "tclass 96"); false when the point has none. */
bool rperf_sweep_gbps_by_name(const struct rperf_sweep_point *p,
			      const char *name, double *gbps);
bool rperf_sweep_gbps_by_class(const struct rperf_sweep_point *p,
			       const char *cls, double *gbps);
const char *rperf_sweep_status_name(enum rperf_sweep_status st);

#endif
