/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The port-pair latency matrix of a switch ([mesh NAME]): every
 * ordered pair of N hosts measured with RPerf's LSG (RTT with the end hosts'
 * time subtracted), then localized: a slow port, a slow pair, or nothing.
 *
 * Four layers, each usable alone:
 *   mesh_plan.c    (pure) the schedule: rounds of disjoint pairs from a
 *                  round-robin tournament (circle method), or one round
 *                  with every pair (concurrent);
 *   mesh_locate.c  (pure) localization over a matrix of p50 RTTs with
 *                  medians and MADs of cells, rows and columns;
 *   mesh_run.c     runs the rounds: one `rperf run` experiment
 *                  (rperf_run_execute) per round, with the job's other
 *                  generators beside it, and fills the matrix;
 *   mesh_report.c  the JSON document (contract: top-level "mesh") and the
 *                  text report.
 * Conventions: 0 or a positive errno, a one-line message in @err; nothing
 * here prints except the report functions, to the FILE given.
 */
#ifndef RPERF_RUN_MESH_H
#define RPERF_RUN_MESH_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "run/run.h"

#define RPERF_MESH_MAX_HOSTS 1024 /* the planner's bound */

/* ---- plan (pure) ---- */

/* An unordered pair of mesh hosts (indexes 0..n-1, a < b), measured in
 * both directions (a -> b and b -> a) in its round. */
struct rperf_mesh_pair {
	uint16_t a, b;
};

struct rperf_mesh_plan {
	size_t nhosts;
	size_t nrounds;
	struct rperf_mesh_pair *pairs; /* every pair once, round by round */
	size_t *first; /* [nrounds + 1]: round r is pairs[first[r]..first[r+1]) */
};

/*
 * The schedule of @n hosts (2..RPERF_MESH_MAX_HOSTS). rounds: the circle
 * method: host n-1 (even n) or a bye (odd n: one host idle per round) stays,
 * the others turn; n-1 rounds of n/2 pairs (even n), n rounds of (n-1)/2
 * pairs (odd n); every unordered pair once, no host in two pairs of a round.
 * concurrent: one round with all n(n-1)/2 pairs. 0, EINVAL or ENOMEM.
 */
int rperf_mesh_plan_make(size_t n, enum rperf_mesh_schedule sched,
			 struct rperf_mesh_plan *out);
void rperf_mesh_plan_free(struct rperf_mesh_plan *p);

/* ---- localization (pure) ---- */

/*
 * The rule (stated in the report; the constants below):
 *   1. baseline b = median of the measured cells' p50 RTTs, noise
 *      s = 1.4826 x MAD (median absolute deviation) of the cells less
 *      each end's port effect max(0, min(its row's median excess, its
 *      column's median excess)); a cell is
 *      out when its excess over b is above the threshold
 *      T = max(K x s, FLOOR, REL x b), FLOOR the mesh's out_above
 *      (default RPERF_MESH_OUT_ABOVE_NS, 20 us);
 *   2. a port h is named when the median excess of its row (h as source)
 *      and the median excess of its column (h as destination) are both
 *      above T: every path through it is slow. b, s and T are then taken
 *      again from the cells that touch no named port, and the ports
 *      checked again (twice at most);
 *   3. each named port's added RTT = the median, over the cells of its row
 *      and column, of the cell's excess less the other end's named port's
 *      added RTT;
 *   4. a pair i -> j is named when its excess less the added RTTs of named
 *      ports among i and j is above T; when i or j is a named port, also
 *      above BEHIND x that port's added RTT and K x the noise (1.4826 x
 *      MAD of the residuals) of its cells: a delay's own jitter grows
 *      with the delay and is no pair (a pair behind a slow port is named
 *      only when the cell is twice as far out as the port explains).
 *   5. (mesh_run.c) the pairs of step 4 are measured again, each alone,
 *      and the rule applied again with each cell's lower statistic: a
 *      pair is named only when it is out twice.
 * Slower only: a fast cell is never out. Fewer than 3 measured cells: no
 * verdict (nothing named, said in the report).
 */
#define RPERF_MESH_K 6.0
#define RPERF_MESH_REL 0.2
#define RPERF_MESH_BEHIND 1.0

enum rperf_mesh_suspect_kind {
	RPERF_MESH_PORT = 1,
	RPERF_MESH_PAIR = 2,
};

struct rperf_mesh_suspect {
	enum rperf_mesh_suspect_kind kind;
	size_t host; /* port */
	size_t from, to; /* pair */
	double added_ns;
};

struct rperf_mesh_verdict {
	bool decided; /* enough cells for a verdict */
	size_t cells; /* measured cells the verdict rests on */
	size_t clean_cells; /* of them, touching no named port */
	double base_ns, noise_ns, threshold_ns;
	struct rperf_mesh_suspect *suspects; /* ports first, then pairs */
	size_t nsuspects;
};

/* Localize over @p50 (row-major n x n, ns; NaN = not measured, the
 * diagonal ignored) with FLOOR @floor_ns. 0 or ENOMEM. */
int rperf_mesh_locate(const double *p50, size_t n, double floor_ns,
		      struct rperf_mesh_verdict *out);
void rperf_mesh_verdict_free(struct rperf_mesh_verdict *v);
/* The rule in one line, for the report. */
const char *rperf_mesh_rule(void);

/* ---- run ---- */

struct rperf_mesh_cell {
	bool planned; /* off the diagonal */
	enum rperf_run_status status;
	char error[RPERF_RUN_WHY_LEN];
	uint64_t samples;
	double p50_ns, p99_ns, p999_ns; /* NaN without samples */
	double min_ns, p10_ns; /* the low end: what a fixed delay moves */
	size_t round;
	/* measured again to confirm a named pair (the statistic; NaN: not
	 * measured again or no sample then); the verdict takes the lower */
	double again_ns;
	uint64_t again_samples;
};

struct rperf_mesh_result {
	const struct rperf_job *job;
	const struct rperf_job_mesh *mesh;
	struct rperf_mesh_plan plan;
	struct rperf_mesh_cell *cells; /* [n * n], row = source */
	json_t *rounds; /* array: each round's `rperf run` document */
	struct rperf_mesh_verdict verdict;
	size_t nfailed; /* cells not ok or without samples */
	size_t rounds_run; /* rounds with an experiment that ran */
	size_t experiments; /* rperf run experiments that ran */
	size_t again_pairs; /* pairs measured again to confirm them */
	size_t other_errors; /* the job's own generators: runs not ok */
	bool interrupted;
	bool dry_run;
	double elapsed; /* wall seconds of the whole mesh, set-ups included */
};

/*
 * Run the mesh of @job (job->mesh != NULL): each round of the plan is one
 * experiment of the job's generators plus the round's pairs. A host that
 * fails is reported in its cells and left out of later rounds (its cells
 * "failed" with the reason); the round is run again without it when it
 * failed before GO. Always fills *out when 0 is returned.
 */
int rperf_mesh_execute(const struct rperf_job *job,
		       const struct rperf_run_opts *opts,
		       const volatile sig_atomic_t *stop,
		       struct rperf_mesh_result **out, char *err,
		       size_t errlen);
void rperf_mesh_result_free(struct rperf_mesh_result *m);
/* A pair the first verdict names is measured again alone before it is
 * named (both directions, one experiment per pair, at most this many
 * pairs); each cell then counts with the lower of its two statistics. */
#define RPERF_MESH_AGAIN_MAX 16
/* The unordered pairs of @v's named pairs (the first RPERF_MESH_AGAIN_MAX)
 * into @out[RPERF_MESH_AGAIN_MAX]; their count. Pure. */
size_t rperf_mesh_again_pairs(const struct rperf_mesh_verdict *v,
			      struct rperf_mesh_pair *out);

/* Fill the verdict from the cells (rperf_mesh_execute does it). */
int rperf_mesh_result_locate(struct rperf_mesh_result *m);

/* ---- report ---- */

int rperf_mesh_report_json(const struct rperf_mesh_result *m, json_t **out);
int rperf_mesh_write_json(const char *path, const struct rperf_mesh_result *m);
/* The same document in the Prometheus text format, atomically (--prom,
 * src/report/report_prom.h): 0 or errno. */
int rperf_mesh_write_prom(const char *path, const struct rperf_mesh_result *m);
/* The verdict and summary, then (up to 16 hosts) the p50 and p99 tables;
 * larger: the outlying and failed cells. */
int rperf_mesh_report_text(FILE *f, const struct rperf_mesh_result *m);
/* The plan of @job's [mesh] (rperf run --check): rounds, pairs, expected
 * length, on @f. 0 or the planner's errno. */
int rperf_mesh_plan_text(FILE *f, const struct rperf_job *job);

#endif
