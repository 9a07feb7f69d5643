/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * `rperf run JOB`: the command layer. Loads the job with its edits
 * (--hosts-map, --set; errors name FILE:LINE or the option: exit 2), the
 * key or certificates (neither: exit 2 unless --insecure), checks the JSON
 * output can be written, runs the experiment
 * (src/run), prints the text report and writes the JSON. Exit 3 when a host
 * failed, the experiment was aborted or an instance reported an error (not
 * after SIGINT: then every instance was cut short on purpose): the others'
 * results are still printed and written. --sweep, --repeat:
 * cmd_run_sweep.c; --every: cmd_run_every.c.
 */
#include "cli/cmd_run.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/signals.h"

void run_cmd_edits(struct run_cmd *c)
{
	const struct rperf_cmdline *cfg = c->cfg;

	for (size_t i = 0; i < cfg->sets.n; i++) {
		snprintf(c->origins[i], sizeof(c->origins[i]), "--set %s",
			 cfg->sets.v[i]);
		c->assigns[i] =
			(struct rperf_job_assign){ .text = cfg->sets.v[i],
						   .origin = c->origins[i] };
	}
	c->edit = (struct rperf_job_edit){ .hosts_map = cfg->hosts_map,
					   .assigns = c->assigns,
					   .nassigns = cfg->sets.n };
}

int run_cmd_prepare_common(struct run_cmd *c, char *err, size_t errlen)
{
	const struct rperf_cmdline *cfg = c->cfg;
	int rc;

	run_cmd_edits(c);
	rc = cli_auth_load(cfg, false, cfg->mpi || cfg->run_boot, &c->auth, err,
			   errlen);
	if (rc)
		return rc;
	if (cfg->out_json || cfg->out_json_file)
		c->json_path = cfg->out_json_file ? cfg->out_json_file :
						    "rperf.json";
	if (c->json_path)
		rc = rperf_run_check_writable(c->json_path, err, errlen);
	if (!rc && cfg->prom_file)
		rc = rperf_run_check_writable(cfg->prom_file, err, errlen);
	if (!rc && cfg->hist_file)
		rc = rperf_run_check_writable(cfg->hist_file, err, errlen);
	if (!rc && cfg->raw_file)
		rc = rperf_run_check_writable(cfg->raw_file, err, errlen);
	return rc;
}

int run_cmd_load(struct run_cmd *c, const struct rperf_job_assign *extra,
		 size_t nextra, struct rperf_job **out, char *err,
		 size_t errlen)
{
	struct rperf_job_edit ed = c->edit;
	int rc;

	for (size_t i = 0; i < nextra && i < RPERF_SWEEP_MAX_KEYS; i++)
		c->assigns[ed.nassigns++] = extra[i];
	rc = rperf_job_load_edit(c->cfg->job, &ed, out, err, errlen);
	if (!rc && !c->cfg->run_boot) /* --mpi: the launched agents' ports */
		rc = rperf_run_check_job(*out, err, errlen);
	if (rc && *out) {
		rperf_job_free(*out);
		*out = NULL;
	}
	return rc;
}

void run_cmd_opts(const struct run_cmd *c, struct rperf_run_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->auth = c->auth.auth;
	o->insecure = c->cfg->insecure;
	o->heartbeat_ns = c->cfg->heartbeat_ns;
	o->timeout_ns = c->cfg->global.timeout_ns;
	o->boot = c->cfg->run_boot; /* rperf run --mpi: the launched agents */
	o->local = cli_local_boot(c->local); /* control = local */
	o->raw = c->cfg->raw_file != NULL; /* every sample comes back */
	if (c->cfg->live) { /* the rows on stdout, before the report */
		o->on_live = rperf_run_live_text;
		o->on_live_skipped = rperf_run_live_skipped_text;
		o->live_arg = stdout;
	}
}

int run_cmd_exit_status(const struct rperf_run_results *r)
{
	if (r->aborted || rperf_run_results_nfailed(r) || r->overflow ||
	    (r->nerrors && !r->interrupted))
		return RPERF_EXIT_RUNTIME;
	if (rperf_run_results_over(r)) /* an [lsg]'s max_p50, max_p999 */
		return RPERF_EXIT_THRESHOLD;
	return RPERF_EXIT_OK;
}

void run_cmd_status_line(const struct rperf_run_results *r, int status)
{
	if (status == RPERF_EXIT_RUNTIME)
		run_cmd_summary(r);
	else if (status == RPERF_EXIT_THRESHOLD)
		fprintf(stderr,
			"rperf run: %zu instance(s) above an RTT limit (max_p50, max_p999): the limit: lines above; exit 1\n",
			rperf_run_results_over(r));
}

void run_cmd_summary(const struct rperf_run_results *r)
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

const char *run_cmd_json_target(const struct run_cmd *c, bool measured,
				char *buf, size_t len)
{
	const char *p = c->json_path;
	size_t n;

	if (!p || measured)
		return p;
	n = strlen(p);
	if (n > 5 && !strcmp(p + n - 5, ".json"))
		n -= 5;
	snprintf(buf, len, "%.*s.aborted.json", (int)n, p);
	return buf;
}

int run_cmd_write_json(const struct run_cmd *c, bool measured,
		       const struct rperf_run_results *r,
		       const struct rperf_sweep *sweep)
{
	char buf[4096];
	const char *path = run_cmd_json_target(c, measured, buf, sizeof(buf));
	int rc;

	if (!path)
		return 0;
	rc = sweep ? rperf_sweep_write_json(path, sweep) :
		     rperf_run_write_json(path, r);
	if (rc) {
		fprintf(stderr, "rperf run: writing %s: %s\n", path,
			strerror(rc));
		return RPERF_EXIT_RUNTIME;
	}
	if (!measured)
		fprintf(stderr,
			"rperf run: nothing was measured: %s is left as it was; the aborted report is in %s\n",
			c->json_path, path);
	return 0;
}

/* --prom, unless --every's signal aborted the run before GO (nothing
 * measured: the file keeps the last run's figures). */
static bool prom_due(const struct run_cmd *c, const struct rperf_run_results *r)
{
	return c->cfg->prom_file &&
	       !(r->aborted && c->every_stop && *c->every_stop);
}

static int report(struct run_cmd *c, const struct rperf_run_results *r)
{
	int status = run_cmd_exit_status(r);
	int rc;

	rc = rperf_run_report_text(stdout, r);
	fflush(stdout);
	if (rc)
		fprintf(stderr, "rperf run: writing the report: %s\n",
			strerror(rc));
	rc = run_cmd_write_json(c, !r->aborted, r, NULL);
	if (rc)
		status = rc;
	rc = prom_due(c, r) ? rperf_run_write_prom(c->cfg->prom_file, r) : 0;
	if (rc) {
		fprintf(stderr, "rperf run: writing %s: %s\n",
			c->cfg->prom_file, strerror(rc));
		status = RPERF_EXIT_RUNTIME;
	}
	rc = c->cfg->hist_file && !r->aborted ?
		     rperf_run_write_hist(c->cfg->hist_file, r) :
		     0;
	if (rc) {
		fprintf(stderr, "rperf run: writing %s: %s\n",
			c->cfg->hist_file, strerror(rc));
		status = RPERF_EXIT_RUNTIME;
	}
	rc = c->cfg->raw_file && !r->aborted ?
		     rperf_run_write_raw(c->cfg->raw_file, r) :
		     0;
	if (rc) {
		fprintf(stderr, "rperf run: writing %s: %s\n", c->cfg->raw_file,
			strerror(rc));
		status = RPERF_EXIT_RUNTIME;
	}
	if (r->aborted)
		fprintf(stderr, "rperf run: aborted: %s\n", r->abort_why);
	else
		run_cmd_status_line(r, status);
	return status;
}

/* A [mesh] (rperf mesh, or a job with one): its pairs, not LSG
 * instances, so no --hist or --raw. */
static int mesh(struct run_cmd *c, const volatile sig_atomic_t *stop)
{
	if (!c->cfg->hist_file && !c->cfg->raw_file)
		return rperf_cmd_mesh(c, stop);
	fprintf(stderr,
		"rperf run: %s with a [mesh]: not supported; accepted: the pairs' RTTs in its JSON (--out_json_file)\n",
		c->cfg->hist_file ? "--hist" : "--raw");
	rperf_job_free(c->job);
	c->job = NULL;
	return RPERF_EXIT_USAGE;
}

int run_cmd_one(struct run_cmd *c, const volatile sig_atomic_t *stop)
{
	struct rperf_run_opts o;
	struct rperf_run_results *r = NULL;
	char err[512] = "";
	int rc, status;

	if (c->cfg->mesh_cmd) /* rperf mesh HOSTS-OR-JOB */
		return mesh(c, stop);
	rc = run_cmd_load(c, NULL, 0, &c->job, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "rperf run: %s\n", err[0] ? err : strerror(rc));
		return rc == ENOMEM ? RPERF_EXIT_INTERNAL : RPERF_EXIT_USAGE;
	}
	if (c->job->mesh) /* a [mesh]: round by round (cmd_mesh.c) */
		return mesh(c, stop);
	run_cmd_opts(c, &o);
	rc = rperf_run_execute(c->job, &o, stop, &r, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "%s\n", err);
		status = rc == ENOMEM ? RPERF_EXIT_INTERNAL :
					RPERF_EXIT_RUNTIME;
		goto free_job;
	}
	status = report(c, r);
	rperf_run_results_free(r);
free_job:
	rperf_job_free(c->job);
	c->job = NULL;
	return status;
}

/* The agents of the job's hosts with control = local, before any run
 * (every point of a sweep and every --every run dials the same ones;
 * --dry-run makes them dry, and needs one). A job that does not load is
 * said by the run that loads it next; with --mpi the launcher starts
 * every agent. */
static int start_local(struct run_cmd *c)
{
	struct rperf_job *job = NULL;
	char err[512];
	int status;

	if (c->cfg->run_boot || c->cfg->mesh_cmd ||
	    run_cmd_load(c, NULL, 0, &job, err, sizeof(err)))
		return 0;
	status = cli_local_start(c->cfg, job, &c->auth.auth, NULL, &c->local);
	rperf_job_free(job);
	if (!status && c->cfg->dry_run && !c->local) {
		fprintf(stderr,
			"rperf run: --dry-run: this job has no host with control = local, and without --mpi no agent runs here to make dry; start `rperf agent --dry-run` on every host instead\n");
		status = RPERF_EXIT_USAGE;
	}
	return status;
}

int rperf_cmd_run(const struct rperf_cmdline *cfg,
		  const volatile sig_atomic_t *stop)
{
	struct run_cmd *c = calloc(1, sizeof(*c));
	char err[512] = "";
	int rc, status;

	if (!c) {
		fprintf(stderr, "rperf run: out of memory\n");
		return RPERF_EXIT_INTERNAL;
	}
	c->cfg = cfg;
	if (cfg->run_check) { /* no key, no agent, no output file */
		status = rperf_cmd_run_check(c);
		free(c);
		return status;
	}
	rc = run_cmd_prepare_common(c, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "rperf run: %s\n", err[0] ? err : strerror(rc));
		status = rc == ENOMEM ? RPERF_EXIT_INTERNAL : RPERF_EXIT_USAGE;
	} else if ((status = start_local(c)) != 0) {
		/* said */
	} else if (cfg->same_qps && !cfg->sweeps.n) {
		fprintf(stderr,
			"rperf run: --same-qps without --sweep: no points to run on the same QPs; accepted: --sweep lsg.NAME.size=LIST --same-qps\n");
		status = RPERF_EXIT_USAGE;
	} else if ((cfg->sweeps.n || cfg->repeat > 1) &&
		   (cfg->prom_file || cfg->hist_file || cfg->raw_file)) {
		const char *o = cfg->prom_file ? "--prom" :
				cfg->hist_file ? "--hist" :
						 "--raw";

		fprintf(stderr,
			"rperf run: %s with --sweep or --repeat: not supported; accepted: one run per value (--set KEY=VALUE), each with its %s\n",
			o, o);
		status = RPERF_EXIT_USAGE;
	} else if ((cfg->sweeps.n || cfg->repeat > 1) && cfg->every_ns) {
		fprintf(stderr,
			"rperf run: --every with --sweep or --repeat: not supported; accepted: --every alone (each run's JSON is numbered)\n");
		status = RPERF_EXIT_USAGE;
	} else if (cfg->sweeps.n || cfg->repeat > 1) {
		status = rperf_cmd_run_sweep(c, stop);
	} else if (cfg->every_ns) {
		status = rperf_cmd_run_every(c, stop);
	} else {
		status = run_cmd_one(c, stop);
	}
	cli_local_stop(c->local);
	cli_auth_clear(&c->auth);
	free(c);
	return status;
}
