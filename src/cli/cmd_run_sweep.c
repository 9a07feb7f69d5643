/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * `rperf run --sweep SECTION.NAME.KEY=V1,V2,... JOB`: every point's job is
 * loaded and checked before the first runs (a bad value: exit 2, nothing
 * run); then the points run one after the other, each printing its own
 * report under a header line; then the summary table (src/run/run_sweep.c)
 * and, with --out_json_file, one JSON document holding every point. Exit 3
 * when a point failed (its hosts or instances; the others still run), 0
 * otherwise. SIGINT stops the running point and skips the rest (not_run).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cmd_run.h"
#include "cli/commands.h"
#include "cli/progress.h"
#include "run/run_sweep.h"

int run_cmd_load_points(struct run_cmd *c, struct rperf_sweep *s)
{
	char err[512];
	int rc;

	for (size_t i = 0; i < s->npt; i++) {
		struct rperf_sweep_point *p = &s->pt[i];
		struct rperf_job_assign a[RPERF_SWEEP_MAX_KEYS];

		for (size_t k = 0; k < p->nassign; k++)
			a[k] = (struct rperf_job_assign){
				.text = p->assigns[k], .origin = p->origins[k]
			};
		err[0] = '\0';
		rc = run_cmd_load(c, a, p->nassign, &p->job, err, sizeof(err));
		if (!rc && p->job->mesh) {
			snprintf(
				err, sizeof(err),
				"%s: --sweep of a job with a [mesh] section: run the mesh once per value (--set)",
				c->cfg->job);
			rc = EINVAL;
		}
		if (rc) {
			fprintf(stderr, "rperf run: %s\n",
				err[0] ? err : strerror(rc));
			return rc;
		}
	}
	return 0;
}

int run_cmd_rounds_check(struct run_cmd *c, const struct rperf_sweep *s)
{
	const struct rperf_job *jobs[RPERF_SWEEP_MAX_POINTS];
	char err[512] = "";
	int rc;

	for (size_t i = 0; i < s->npt; i++)
		jobs[i] = s->pt[i].job;
	rc = rperf_run_rounds_check(jobs, s->npt, err, sizeof(err));
	if (rc)
		fprintf(stderr, "rperf run: %s: %s\n", c->cfg->job, err);
	return rc;
}

/* "== sweep point 2 of 4: bsg.b.size = 4K, bsg.b.count = 2 (repeat 1 of 3)" */
static void point_header(const struct rperf_sweep *s, size_t i, size_t rep,
			 char *item, size_t len)
{
	const struct rperf_sweep_point *p = &s->pt[i];
	size_t n = 0;

	item[0] = '\0';
	for (size_t k = 0; k < s->nax && n < len; k++)
		n += (size_t)snprintf(item + n, len - n, "%s%s = %s",
				      k ? ", " : "", s->ax[k].key, p->vals[k]);
	if (s->repeat > 1 && n < len)
		snprintf(item + n, len - n, "%srepeat %zu of %zu",
			 s->nax ? " (" : "", rep + 1, s->repeat);
	if (s->repeat > 1 && s->nax && strlen(item) + 1 < len)
		strcat(item, ")");
	if (s->nax)
		printf("== sweep point %zu of %zu: %s\n", i + 1, s->npt, item);
	else
		printf("== %s\n", item);
	fflush(stdout);
}

/* Point @i's results @r (owned by the sweep now): its report on stdout.
 * 0 or an exit status. */
static int point_done(struct rperf_sweep *s, size_t i,
		      struct rperf_run_results *r)
{
	const struct rperf_sweep_point *p = &s->pt[i];
	int rc = rperf_run_report_text(stdout, r), status;

	fflush(stdout);
	if (rc)
		fprintf(stderr, "rperf run: writing the report: %s\n",
			strerror(rc));
	status = run_cmd_exit_status(r);
	if (r->aborted)
		fprintf(stderr, "rperf run: %s: aborted: %s\n",
			p->origin ? p->origin : "the run", r->abort_why);
	else
		run_cmd_status_line(r, status);
	if (r->interrupted)
		s->interrupted = true;
	rperf_sweep_set_result(s, i, r);
	return status;
}

static int run_failed(const struct rperf_sweep_point *p, int rc,
		      const char *err)
{
	fprintf(stderr, "rperf run: %s: %s\n",
		p->origin ? p->origin : "the run", err);
	return rc == ENOMEM ? RPERF_EXIT_INTERNAL : RPERF_EXIT_RUNTIME;
}

/* Run point @i once more (repeat @rep); its report on stdout (the
 * progress line paused for it). 0 or an exit status. */
static int run_point(struct run_cmd *c, struct rperf_sweep *s, size_t i,
		     size_t rep, const volatile sig_atomic_t *stop,
		     struct rperf_progress *pg)
{
	struct rperf_sweep_point *p = &s->pt[i];
	struct rperf_run_results *r = NULL;
	struct rperf_run_opts o;
	char err[512] = "";
	int rc;

	point_header(s, i, rep, err, sizeof(err));
	run_cmd_opts(c, &o);
	rperf_progress_item(pg, i * s->repeat + rep, err);
	rc = rperf_run_execute(p->job, &o, stop, &r, err, sizeof(err));
	rperf_progress_pause(pg);
	return rc ? run_failed(p, rc, err) : point_done(s, i, r);
}

/* --same-qps: every point as a round of one experiment (repeat @rep);
 * each round's report under its point's header. The highest status. */
static int run_rounds(struct run_cmd *c, struct rperf_sweep *s, size_t rep,
		      const volatile sig_atomic_t *stop,
		      struct rperf_progress *pg)
{
	const struct rperf_job *jobs[RPERF_SWEEP_MAX_POINTS];
	struct rperf_run_results *r[RPERF_SWEEP_MAX_POINTS];
	struct rperf_run_opts o;
	char err[512] = "";
	int rc, status = RPERF_EXIT_OK, st;

	for (size_t i = 0; i < s->npt; i++)
		jobs[i] = s->pt[i].job;
	run_cmd_opts(c, &o);
	snprintf(err, sizeof(err), "%zu rounds on the same QPs", s->npt);
	rperf_progress_item(pg, rep * s->npt, err);
	rc = rperf_run_execute_rounds(jobs, s->npt, &o, stop, r, err,
				      sizeof(err));
	rperf_progress_pause(pg);
	if (rc)
		return run_failed(&s->pt[0], rc, err);
	for (size_t i = 0; i < s->npt && r[i]; i++) {
		point_header(s, i, rep, err, sizeof(err));
		st = point_done(s, i, r[i]);
		if (st > status)
			status = st;
	}
	return status;
}

static int finish(struct run_cmd *c, const struct rperf_sweep *s, int status)
{
	bool measured = false;
	int rc;

	printf("\n");
	rc = rperf_sweep_report_text(stdout, s);
	fflush(stdout);
	if (rc)
		fprintf(stderr, "rperf run: writing the sweep table: %s\n",
			strerror(rc));
	for (size_t i = 0; i < s->npt && !measured; i++)
		measured = rperf_sweep_measured(&s->pt[i]);
	rc = run_cmd_write_json(c, measured, NULL, s);
	return rc ? rc : status;
}

int rperf_cmd_run_sweep(struct run_cmd *c, const volatile sig_atomic_t *stop)
{
	const struct rperf_cmdline *cfg = c->cfg;
	struct rperf_sweep *s = NULL;
	char err[512] = "";
	int rc, status = RPERF_EXIT_OK, st;
	struct rperf_progress pg;

	rc = rperf_sweep_create_multi(cfg->sweeps.v, cfg->sweeps.n, cfg->zip,
				      (size_t)cfg->repeat, &s, err,
				      sizeof(err));
	if (rc) {
		fprintf(stderr, "rperf run: %s\n", err[0] ? err : strerror(rc));
		return rc == ENOMEM ? RPERF_EXIT_INTERNAL : RPERF_EXIT_USAGE;
	}
	s->job_path = cfg->job;
	s->same_qps = cfg->same_qps;
	s->hosts_map = cfg->hosts_map;
	s->sets = cfg->sets.v;
	s->nsets = cfg->sets.n;
	rc = run_cmd_load_points(c, s);
	if (!rc && cfg->same_qps)
		rc = run_cmd_rounds_check(c, s);
	if (rc) {
		status = rc == ENOMEM ? RPERF_EXIT_INTERNAL : RPERF_EXIT_USAGE;
		goto free_sweep;
	}
	/* an error leaves the line off (pg.f NULL): the run goes on */
	(void)rperf_progress_start(
		&pg, rperf_progress_wanted(cfg) ? stderr : NULL,
		s->nax ? "rperf run --sweep" : "rperf run --repeat",
		s->npt * s->repeat, 0);
	for (size_t i = 0; i < s->npt * s->repeat; i++) {
		if (stop && *stop) {
			s->interrupted = true;
			break;
		}
		if (cfg->same_qps && i % s->npt)
			continue; /* one experiment runs every point */
		st = cfg->same_qps ? run_rounds(c, s, i / s->npt, stop, &pg) :
				     run_point(c, s, i / s->repeat,
					       i % s->repeat, stop, &pg);
		if (st > status) /* internal 4, runtime 3, a limit 1 */
			status = st;
	}
	rperf_progress_end(&pg);
	status = finish(c, s, status);
free_sweep:
	rperf_sweep_free(s);
	return status;
}
