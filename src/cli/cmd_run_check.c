/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * `rperf run --check JOB` (with --hosts-map, --set, --sweep): load the job
 * with its edits and the controller's checks, as a run would, and print
 * the plan (src/run/run_plan.c) of each point, without a key, an agent or
 * any socket. Exit 0, or 2 with the first error (FILE:LINE for the job
 * file and the hosts map, the option for --set and --sweep).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cmd_run.h"
#include "cli/commands.h"
#include "run/mesh.h"
#include "run/run_plan.h"
#include "run/run_sweep.h"

static int load_error(int rc, const char *err)
{
	fprintf(stderr, "rperf run --check: %s\n", err[0] ? err : strerror(rc));
	return rc == ENOMEM ? RPERF_EXIT_INTERNAL : RPERF_EXIT_USAGE;
}

static int check_one(struct run_cmd *c)
{
	struct rperf_job *job = NULL;
	char err[512] = "";
	int rc;

	rc = run_cmd_load(c, NULL, 0, &job, err, sizeof(err));
	if (rc)
		return load_error(rc, err);
	rc = job->mesh ? rperf_mesh_plan_text(stdout, job) :
			 rperf_run_plan_text(stdout, job);
	if (!rc)
		printf("check: OK (no agent contacted)\n");
	rperf_job_free(job);
	return rc ? RPERF_EXIT_RUNTIME : RPERF_EXIT_OK;
}

/* Every point loaded before any is printed: a bad value fails first. */
static int check_sweep(struct run_cmd *c, struct rperf_sweep *s)
{
	uint64_t total = 0;
	int rc = run_cmd_load_points(c, s);

	if (!rc && c->cfg->same_qps)
		rc = run_cmd_rounds_check(c, s);
	if (rc)
		return rc == ENOMEM ? RPERF_EXIT_INTERNAL : RPERF_EXIT_USAGE;
	printf("sweep: %zu point(s)%s\n", s->npt,
	       c->cfg->same_qps ? ", as rounds on the same QPs (--same-qps)" :
				  "");
	for (size_t i = 0; i < s->npt; i++) {
		printf("== sweep point %zu of %zu:", i + 1, s->npt);
		for (size_t k = 0; k < s->pt[i].nassign; k++)
			printf("%s %s", k ? "," : "", s->pt[i].assigns[k]);
		putchar('\n');
		if (rperf_run_plan_text(stdout, s->pt[i].job))
			return RPERF_EXIT_RUNTIME;
		total += rperf_run_expected_ns(s->pt[i].job);
	}
	printf("expected in all: %.3f s from the first GO over %zu point(s), plus each point's set-up\n",
	       (double)total / 1e9, s->npt);
	printf("check: OK (no agent contacted)\n");
	return RPERF_EXIT_OK;
}

int rperf_cmd_run_check(struct run_cmd *c)
{
	struct rperf_sweep *s = NULL;
	char err[512] = "";
	int rc, status;

	run_cmd_edits(c);
	if (!c->cfg->sweeps.n)
		return check_one(c);
	rc = rperf_sweep_create_multi(c->cfg->sweeps.v, c->cfg->sweeps.n,
				      c->cfg->zip, 1, &s, err, sizeof(err));
	if (rc)
		return load_error(rc, err);
	status = check_sweep(c, s);
	rperf_sweep_free(s);
	return status;
}
