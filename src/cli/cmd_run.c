/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * `rperf run JOB`: the command layer. Loads the job (errors name FILE:LINE:
 * exit 2), the key, checks the JSON output can be written, runs the
 * experiment (src/run), prints the text report and writes the JSON. Exit 3
 * when a host failed, the experiment was aborted or an instance reported an
 * error (not after SIGINT: then every instance was cut short on purpose):
 * the others' results are still printed and written.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/signals.h"
#include "engine/proto.h"
#include "job/job.h"
#include "run/run.h"

struct run_cmd {
	const struct rperf_cli_config *cfg;
	struct rperf_job *job;
	uint8_t key[RPERF_PROTO_MAX_KEY];
	size_t keylen;
	const char *json_path; /* NULL: no JSON */
};

/* Everything that can be checked before any agent is contacted. */
static int prepare(struct run_cmd *c, char *err, size_t errlen)
{
	const struct rperf_cli_config *cfg = c->cfg;
	int rc;

	rc = rperf_job_load(cfg->job, &c->job, err, errlen);
	if (!rc && !cfg->run_boot) /* --mpi: the launched agents' ports */
		rc = rperf_run_check_job(c->job, err, errlen);
	if (rc)
		return rc;
	if (cfg->key_file) {
		rc = rperf_proto_key_load(cfg->key_file, c->key, &c->keylen,
					  err, errlen);
		if (rc)
			return rc;
	}
	if (cfg->out_json || cfg->out_json_file)
		c->json_path = cfg->out_json_file ? cfg->out_json_file :
						    "rperf.json";
	if (c->json_path)
		rc = rperf_run_check_writable(c->json_path, err, errlen);
	return rc;
}

/* 3 when a host failed or the experiment never started; instance errors
 * count too, except after SIGINT (the stop cut every instance short). */
static int exit_status(const struct rperf_run_results *r)
{
	if (r->aborted || rperf_run_results_nfailed(r) ||
	    (r->nerrors && !r->interrupted))
		return RPERF_EXIT_RUNTIME;
	return RPERF_EXIT_OK;
}

/* One line on stderr naming every failed host and why. */
static void summary(const struct rperf_run_results *r)
{
	const char *sep = "";

	fprintf(stderr, "rperf run: ");
	for (size_t i = 0; i < r->job->nhosts; i++) {
		if (!r->hosts[i].failed)
			continue;
		fprintf(stderr, "%shost %s failed (%s)", sep,
			r->hosts[i].host->name, r->hosts[i].why);
		sep = "; ";
	}
	fprintf(stderr,
		"%s%zu instance(s) with errors; partial results above\n", sep,
		r->nerrors);
}

static int report(struct run_cmd *c, const struct rperf_run_results *r)
{
	int status = exit_status(r);
	int rc;

	rc = rperf_run_report_text(stdout, r);
	fflush(stdout);
	if (rc)
		fprintf(stderr, "rperf run: writing the report: %s\n",
			strerror(rc));
	if (c->json_path) {
		rc = rperf_run_write_json(c->json_path, r);
		if (rc) {
			fprintf(stderr, "rperf run: writing %s: %s\n",
				c->json_path, strerror(rc));
			status = RPERF_EXIT_RUNTIME;
		}
	}
	if (r->aborted)
		fprintf(stderr, "rperf run: aborted: %s\n", r->abort_why);
	else if (status == RPERF_EXIT_RUNTIME)
		summary(r);
	return status;
}

int rperf_cmd_run(const struct rperf_cli_config *cfg,
		  const volatile sig_atomic_t *stop)
{
	struct run_cmd c = { .cfg = cfg };
	struct rperf_run_opts o = { 0 };
	struct rperf_run_results *r = NULL;
	char err[512] = "";
	int rc, status;

	rc = prepare(&c, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "rperf run: %s\n", err[0] ? err : strerror(rc));
		status = rc == ENOMEM ? RPERF_EXIT_INTERNAL : RPERF_EXIT_USAGE;
		goto free_job;
	}
	o.key = cfg->key_file ? c.key : NULL;
	o.keylen = c.keylen;
	o.timeout_ns = cfg->run_timeout_ns;
	o.boot = cfg->run_boot; /* rperf run --mpi: the launched agents */
	rc = rperf_run_execute(c.job, &o, stop, &r, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "%s\n", err);
		status = rc == ENOMEM ? RPERF_EXIT_INTERNAL :
					RPERF_EXIT_RUNTIME;
		goto free_job;
	}
	status = report(&c, r);
	rperf_run_results_free(r);
free_job:
	if (c.job)
		rperf_job_free(c.job);
	memset(c.key, 0, sizeof(c.key));
	return status;
}
