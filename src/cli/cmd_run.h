/* SPDX-License-Identifier: BSD-2-Clause */
/* `rperf run`: what cmd_run.c (one experiment) and cmd_run_sweep.c (one
 * per value of --sweep) share. */
#ifndef RPERF_CLI_CMD_RUN_H
#define RPERF_CLI_CMD_RUN_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "cli/cli_agents.h"
#include "cli/cli_auth.h"
#include "job/cmdline.h"
#include "engine/proto.h"
#include "job/job.h"
#include "run/run.h"
#include "run/run_sweep.h"

struct run_cmd {
	const struct rperf_cmdline *cfg;
	struct rperf_job *job;
	struct cli_auth auth; /* --key-file or certificates */
	const char *json_path; /* NULL: no JSON */
	/* --hosts-map and --set, in order; then the sweep point's */
	struct rperf_job_assign
		assigns[RPERF_MAX_STR_LIST + RPERF_SWEEP_MAX_KEYS];
	char origins[RPERF_MAX_STR_LIST][160];
	struct rperf_job_edit edit;
	/* --every: its stop flag; a run that flag aborted before GO (nothing
	 * measured) leaves the --prom file as the last run wrote it */
	const volatile sig_atomic_t *every_stop;
	/* the agents of the job's hosts with control = local (NULL: none) */
	struct cli_local *local;
};

/* The job edits of @c->cfg (--hosts-map, --set) into @c->edit. */
void run_cmd_edits(struct run_cmd *c);
/* The key or certificates (none: EACCES unless --insecure or --mpi), the
 * JSON path (checked writable) and the edits of @c->cfg. */
int run_cmd_prepare_common(struct run_cmd *c, char *err, size_t errlen);
/* Load @c's job file with its edits plus @nextra more (a sweep point's,
 * at most RPERF_SWEEP_MAX_KEYS), then the controller's checks. */
int run_cmd_load(struct run_cmd *c, const struct rperf_job_assign *extra,
		 size_t nextra, struct rperf_job **out, char *err,
		 size_t errlen);
/* The options of one experiment (authentication, timeout, heartbeat). */
void run_cmd_opts(const struct run_cmd *c, struct rperf_run_opts *o);
/* 3 when a host failed, the experiment was aborted or an instance
 * reported an error (not after SIGINT); else 1 when an LSG instance is
 * above an RTT limit of its [lsg] (max_p50, max_p999); else 0. */
int run_cmd_exit_status(const struct rperf_run_results *r);
/* The stderr line of @status (run_cmd_exit_status): the failures, or the
 * instances above a limit; nothing for 0. */
void run_cmd_status_line(const struct rperf_run_results *r, int status);
/* The file a report goes to: @c->json_path when something was measured
 * (@measured), else the aborted report's own file beside it, so that the
 * previous results are kept byte-identical: "out.json" ->
 * "out.aborted.json", "out" -> "out.aborted.json" (README: results
 * files). @buf holds the name. NULL when there is no JSON. */
const char *run_cmd_json_target(const struct run_cmd *c, bool measured,
				char *buf, size_t len);
/* Write the JSON of @r or @sweep (one of them) where
 * run_cmd_json_target() says, and say on stderr where an aborted report
 * went; 0 or the exit status 3 when writing failed. */
int run_cmd_write_json(const struct run_cmd *c, bool measured,
		       const struct rperf_run_results *r,
		       const struct rperf_sweep *sweep);
/* One line on stderr naming every failed host and why. */
void run_cmd_summary(const struct rperf_run_results *r);

/* Load every point's job of @s (cmd_run_sweep.c); the first error on
 * stderr: 0 or its errno. */
int run_cmd_load_points(struct run_cmd *c, struct rperf_sweep *s);
/* --same-qps: the loaded points differ only in message sizes (else the
 * line on stderr and EINVAL). */
int run_cmd_rounds_check(struct run_cmd *c, const struct rperf_sweep *s);
/* rperf run --check (cmd_run_check.c): an exit status (0 or 2). */
int rperf_cmd_run_check(struct run_cmd *c);
/* A job with a [mesh], or rperf mesh HOSTS-OR-JOB (cmd_mesh.c): loads
 * @c->job unless loaded; an exit status. */
int rperf_cmd_mesh(struct run_cmd *c, const volatile sig_atomic_t *stop);

/* One experiment (or a mesh) of @c: loads the job, runs, reports; an
 * exit status. */
int run_cmd_one(struct run_cmd *c, const volatile sig_atomic_t *stop);
/* rperf run --every (cmd_run_every.c): an exit status. */
int rperf_cmd_run_every(struct run_cmd *c, const volatile sig_atomic_t *stop);
/* rperf run --sweep / --repeat (cmd_run_sweep.c): an exit status. */
int rperf_cmd_run_sweep(struct run_cmd *c, const volatile sig_atomic_t *stop);

#endif
