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
#define RPERF_SWEEP_MAX_KEYS 4 /* --sweep given up to 4 times */
#define RPERF_SWEEP_MAX_REPEAT 100 /* --repeat */

enum rperf_sweep_status {
	RPERF_SWEEP_NOT_RUN = 0,
	RPERF_SWEEP_OK,
	RPERF_SWEEP_FAILED,
	RPERF_SWEEP_ABORTED,
};

/* One swept key and its values. */
struct rperf_sweep_axis {
	char key[128]; /* SECTION.NAME.KEY */
	struct rperf_job_target target;
	char *list; /* owned copy of the value list, cut in place */
	const char *values[RPERF_SWEEP_MAX_POINTS];
	size_t nvalues;
};

struct rperf_sweep_point {
	const char *value; /* the item as given; several keys: "V1, V2" */
	char *label; /* owned text of @value with several keys */
	/* one SECTION.NAME.KEY=VALUE per axis (owned) and how messages
	 * name it; @assign/@origin are the first */
	char *assigns[RPERF_SWEEP_MAX_KEYS], *origins[RPERF_SWEEP_MAX_KEYS];
	const char *vals[RPERF_SWEEP_MAX_KEYS]; /* per axis */
	bool has_xs[RPERF_SWEEP_MAX_KEYS];
	double xs[RPERF_SWEEP_MAX_KEYS]; /* in each key's base unit */
	size_t nassign;
	char *assign; /* "SECTION.NAME.KEY=VALUE" of the first axis */
	char *origin;
	bool has_x;
	double x; /* the first axis' value in the key's base unit */
	struct rperf_job *job; /* owned, NULL until loaded */
	struct rperf_run_results *res; /* the last repeat's; NULL: not run */
	struct rperf_run_results *rep[RPERF_SWEEP_MAX_REPEAT]; /* owned */
	size_t nrep;
	enum rperf_sweep_status status;
};

struct rperf_sweep {
	/* the first axis (key, target) as before; all in @ax */
	char key[128]; /* SECTION.NAME.KEY; "" without a --sweep */
	struct rperf_job_target target;
	struct rperf_sweep_axis ax[RPERF_SWEEP_MAX_KEYS];
	size_t nax; /* 0: --repeat of one job */
	bool zip; /* the i-th values of every axis together (else the
		     cartesian product, the last axis fastest) */
	bool same_qps; /* every point a round on one set of QPs (--same-qps;
			  set by the caller) */
	size_t repeat; /* runs per point, >= 1 */
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
/* Several --sweep (@n of them, 0..RPERF_SWEEP_MAX_KEYS: 0 is one point,
 * the job as it is): the cartesian product of their values, or with @zip
 * their i-th values together (equal lengths); at most
 * RPERF_SWEEP_MAX_POINTS points; every point run @repeat times
 * (1..RPERF_SWEEP_MAX_REPEAT). A key swept twice is refused. */
int rperf_sweep_create_multi(const char *const *specs, size_t n, bool zip,
			     size_t repeat, struct rperf_sweep **out, char *err,
			     size_t errlen);
void rperf_sweep_free(struct rperf_sweep *s);

/* Record one run (repeat) of point @i (ownership moves; NULL: not run).
 * Its status: aborted when every repeat was, failed when one failed or
 * was aborted, else ok. */
void rperf_sweep_set_result(struct rperf_sweep *s, size_t i,
			    struct rperf_run_results *res);

/* A figure over the repeats of a point: mean and the half width of its
 * 95 % confidence interval (Student's t; NAN with one value). */
struct rperf_sweep_stat {
	size_t n;
	double mean, ci95;
	double v[RPERF_SWEEP_MAX_REPEAT];
};
/* Figures: lsg_p50_ns, lsg_p99_ns, lsg_p999_ns, bsg_gbps,
 * bsg_receiver_gbps (repeats that measured it). */
enum rperf_sweep_fig {
	RPERF_SWEEP_P50,
	RPERF_SWEEP_P99,
	RPERF_SWEEP_P999,
	RPERF_SWEEP_GBPS,
	RPERF_SWEEP_RX_GBPS,
	RPERF_SWEEP_NFIG,
};
extern const char *const rperf_sweep_fig_names[RPERF_SWEEP_NFIG];
void rperf_sweep_stat(const struct rperf_sweep_point *p, enum rperf_sweep_fig f,
		      struct rperf_sweep_stat *st);
/* The same for Gb/s by BSG section (@cls false) or class (@cls true). */
void rperf_sweep_stat_by(const struct rperf_sweep_point *p, const char *name,
			 bool cls, struct rperf_sweep_stat *st);
/* Mean and 95 % half width of @v[@n] (run_sweep_stats.c). */
void rperf_mean_ci95(const double *v, size_t n, double *mean, double *ci95);

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
/* The same for one run's results (NULL: nothing). */
void rperf_sweep_summary_of(const struct rperf_run_results *r,
			    struct rperf_sweep_sum *sum);
bool rperf_sweep_gbps_by_name_of(const struct rperf_run_results *r,
				 const char *name, double *gbps);
bool rperf_sweep_gbps_by_class_of(const struct rperf_run_results *r,
				  const char *cls, double *gbps);
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
