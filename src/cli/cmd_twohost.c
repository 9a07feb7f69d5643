/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rperf lat and rperf bw: the command layer over their two-host
 * controllers (src/twohost). The only place where their errors are printed
 * and mapped to exit statuses.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "agent/agent.h"
#include "cli/cli.h"
#include "cli/cli_agents.h"
#include "cli/commands.h"
#include "job/cmdline_kv.h"
#include "cli/out_check.h"
#include "cli/progress.h"
#include "twohost/twohost_parity.h"
#include "twohost/twohost.h"
#include "twohost/twohost_bw.h"
#include "twohost/twohost_connect.h"
#include "twohost/twohost_lat.h"
#include "twohost/twohost_place.h"
#include "twohost/twohost_spec.h"
#include "verbs/verbs.h"

int rperf_cmd_exit(const struct rperf_err *e)
{
	if (!e->rc)
		return RPERF_EXIT_OK;
	switch (e->cls) {
	case RPERF_ERRC_THRESHOLD:
		return RPERF_EXIT_THRESHOLD;
	case RPERF_ERRC_USAGE:
		return RPERF_EXIT_USAGE;
	case RPERF_ERRC_INTERNAL:
		return RPERF_EXIT_INTERNAL;
	default:
		return RPERF_EXIT_RUNTIME;
	}
}

static int say_err(const struct rperf_err *e)
{
	if (e->rc)
		fprintf(stderr, "rperf: %s\n", e->msg);
	return rperf_cmd_exit(e);
}

/* The runs' one-line messages (struct rperf_say). */
static void say_line(void *arg, const char *msg)
{
	(void)arg;
	fprintf(stderr, "rperf: %s\n", msg);
}

/* Before anything is measured: the output files can be written. */
static bool outputs_ok(const struct rperf_cmdline *cfg)
{
	char err[512];

	if (!rperf_cli_check_outputs(cfg, err, sizeof(err)))
		return true;
	fprintf(stderr, "rperf: %s\n", err);
	return false;
}

/* The progress line's view of a round: "256 B", "256 B pingpong",
 * "256 B, run 2" (the methods and repeats of a lat run). */
struct progress_ctx {
	struct rperf_progress line;
	const struct rperf_cmdline *cfg;
	bool lat;
};

static void round_started(void *arg, size_t i, size_t n, uint64_t size)
{
	struct progress_ctx *p = arg;
	const struct rperf_cmdline *cfg = p->cfg;
	char item[64];
	int off = snprintf(item, sizeof(item), "%llu B",
			   (unsigned long long)size);

	(void)n;
	if (p->lat && cfg->spec.test.method == RPERF_METHOD_ALL && off > 0)
		off += snprintf(item + off, sizeof(item) - (size_t)off, " %s",
				rperf_method_name(rperf_lat_method_at(
					cfg, i / (cfg->nsizes * cfg->repeat))));
	if (p->lat && cfg->repeat > 1 && off > 0)
		snprintf(item + off, sizeof(item) - (size_t)off, ", run %zu",
			 i % (cfg->nsizes * cfg->repeat) / cfg->nsizes + 1);
	rperf_progress_item(&p->line, i, item);
}

/* Rounds of @cfg's run and the hook that shows them (on a terminal). */
static struct rperf_round_hook
progress_on(struct progress_ctx *p, const struct rperf_cmdline *cfg, bool lat)
{
	size_t n =
		cfg->nsizes * (lat ? cfg->repeat * rperf_lat_nmethods(cfg) : 1);

	p->cfg = cfg;
	p->lat = lat;
	if (rperf_progress_start(&p->line,
				 rperf_progress_wanted(cfg) ? stderr : NULL,
				 lat ? "rperf lat" : "rperf bw", n,
				 cfg->run_infinitely ?
					 0 :
					 (double)cfg->global.duration_ns / 1e9))
		return (struct rperf_round_hook){ 0 };
	return (struct rperf_round_hook){ .start = round_started, .arg = p };
}

/* The server's connection, in the client's retry window, from our
 * device's address (--bind: that one): 0, or the exit status said. */
static int dial_server(const struct rperf_cmdline *cfg, const char *cmd,
		       volatile sig_atomic_t *stop, const struct cli_local *l,
		       struct rperf_run_boot_host *h)
{
	const struct rperf_run_boot *b = cli_local_boot(l);
	char why[512];
	int rc;

	snprintf(h->name, sizeof(h->name), "%s", RPERF_TWOHOST_SERVER);
	rc = rperf_twohost_connect(cfg,
				   cfg->bind ? cfg->bind : b->hosts[0].addr,
				   stop, cmd, &h->fd, why, sizeof(why));
	if (!rc)
		return 0;
	fprintf(stderr, "rperf: %s\n", why);
	return rc == ENOENT ? RPERF_EXIT_USAGE : RPERF_EXIT_RUNTIME;
}

/* HEARTBEATs at the RC stall limit (1 to 30 s): the data path's own
 * failure (RC gives up: its words) ends a run, not the control connection
 * the same outage delays. */
static uint64_t hb_ns(const struct rperf_cmdline *cfg)
{
	uint64_t ns =
		rperf_rc_stall_ns((unsigned int)cfg->spec.path.qp_timeout,
				  (unsigned int)cfg->spec.path.retry_count);

	return ns < 1000000000ull  ? 1000000000ull :
	       ns > 30000000000ull ? 30000000000ull :
				     ns;
}

/* A measurement of rperf lat / bw HOST: @job's run by @go. */
struct twohost {
	const char *cmd; /* "lat", "bw": the HELLO's command */
	uint64_t hb_ns; /* HEARTBEATs (live rows); 0: at the RC stall limit */
	const struct rperf_clock *clk; /* the report's, this host's agent's */
	const struct rperf_job *job;
	volatile sig_atomic_t *stop;
	void (*go)(void *arg, const struct rperf_run_opts *o);
	void *arg;
};

/* This host's agent, the server's connection, the run options (run flags
 * for the server's check); then t->go. 0 or the exit status said. */
static int twohost_run(const struct rperf_cmdline *cfg, const struct twohost *t)
{
	const struct cli_local_opts lo = { .prefix = "rperf",
					   .quiet = true,
					   .insecure = true,
					   .clk = t->clk };
	struct rperf_run_boot_host server = { .fd = -1 };
	const struct rperf_run_boot dialled = { .hosts = &server, .n = 1 };
	struct rperf_ctrl_auth none = { 0 };
	struct cli_local *local = NULL;
	json_t *params = json_object();
	int status = cli_local_start(cfg, t->job, &none, &lo, &local);

	if (!status)
		status = dial_server(cfg, t->cmd, t->stop, local, &server);
	if (!status && (!params || rperf_parity_ship(cfg, params))) {
		fprintf(stderr, "rperf: out of memory\n");
		status = RPERF_EXIT_INTERNAL;
	}
	if (!status) {
		struct rperf_run_opts o = {
			.local = cli_local_boot(local),
			.insecure = true,
			.command = t->cmd,
			.dialled = &dialled,
			.raw = t->job->inst[0].raw,
			.plan_options = json_object_get(params, "options"),
			.heartbeat_ns = t->hb_ns ? t->hb_ns : hb_ns(cfg),
		};

		t->go(t->arg, &o);
	}
	json_decref(params);
	cli_local_stop(local);
	return status;
}

struct lat_go {
	struct rperf_lat_run *run;
	const struct rperf_job *job;
	struct rperf_err *e;
};

static void lat_go(void *arg, const struct rperf_run_opts *o)
{
	struct lat_go *g = arg;

	rperf_lat_ctl_run(g->run, g->job, o, g->e);
}

/* rperf lat's measurement. 0 or the exit status said. */
static int lat_measure(struct rperf_lat_run *run, struct rperf_err *e)
{
	struct rperf_job *job = NULL;
	struct lat_go g = { .run = run, .e = e };
	char err[512];
	int status;

	if (rperf_lat_ctl_check(run, e))
		return say_err(e);
	if (rperf_lat_ctl_job(run->c.cfg, &job, err, sizeof(err))) {
		fprintf(stderr, "rperf: %s\n", err);
		return RPERF_EXIT_INTERNAL;
	}
	g.job = job;
	status = twohost_run(run->c.cfg, &(struct twohost){ .cmd = "lat",
							    .clk = &run->clk,
							    .job = job,
							    .stop = run->c.stop,
							    .go = lat_go,
							    .arg = &g });
	rperf_job_free(job);
	return status;
}

static int lat_client(const struct rperf_cmdline *cfg,
		      volatile sig_atomic_t *stop)
{
	struct rperf_kv kv[RPERF_MAX_OPTIONS + 2];
	struct rperf_lat_run *run;
	struct rperf_err e = { 0 };
	struct progress_ctx pg;
	int rc, code;

	if (!outputs_ok(cfg))
		return RPERF_EXIT_USAGE;
	if (rperf_lat_run_new(cfg, stop, &run))
		return RPERF_EXIT_INTERNAL;
	run->c.say.line = say_line;
	run->c.out = stdout;
	rc = rperf_lat_prepare(run, &e);
	run->c.round = progress_on(&pg, cfg, true);
	if (!rc && (code = lat_measure(run, &e)) != 0) {
		rperf_progress_end(&pg.line);
		rperf_lat_run_free(run);
		return code;
	}
	rc = rc ? rc : e.rc;
	rperf_progress_end(&pg.line);
	if (run->ts_note[0]) {
		printf("rperf: note: %s: CPU completion stamps (--timestamps auto)\n",
		       run->ts_note);
		fflush(stdout);
	}
	code = say_err(&e);
	if (run->c.measured) {
		rperf_lat_check_results(run);
		if (rperf_lat_report(run, kv, rperf_cmdline_kv(cfg, kv)))
			code = RPERF_EXIT_RUNTIME;
		else if (!rc && rperf_lat_thresholds(run))
			code = RPERF_EXIT_THRESHOLD;
	}
	rperf_lat_run_free(run);
	return code;
}

/* The server's check of a client's PLAN: the run flags it was given
 * against the client's "options" (SAME FLAGS ON BOTH SIDES). */
static int same_flags(void *arg, const json_t *plan, char *why, size_t len)
{
	struct rperf_err e = { 0 };
	int rc = rperf_parity_check(arg, plan, &e);

	if (rc)
		snprintf(why, len, "%s", e.msg);
	return rc;
}

static void server_line(void *arg, const char *line)
{
	cli_agent_say(arg, line);
}

/* rperf lat's server: an agent that serves "lat" controllers, on the
 * plain channel, one client unless --persistent. */
static int serve_agent(const struct rperf_cmdline *cfg,
		       volatile sig_atomic_t *stop, const char *name)
{
	char what[32], lim[256], err[512];
	struct rperf_agent_cfg a;
	struct rperf_agent *ag = NULL;
	struct rperf_clock clk;
	struct rperf_err e;
	int rc;

	snprintf(what, sizeof(what), "rperf %s server", name);
	cli_agent_cfg(cfg, &a, lim, sizeof(lim));
	if (rperf_twohost_check_device(cfg, &e))
		return say_err(&e);
	a.command = name;
	a.what = what;
	a.insecure = true;
	a.one_off = !cfg->persistent;
	a.one_off_created = true;
	a.plan_check = same_flags;
	a.log_sinks = true;
	a.failed_stop_ns = a.limits.stall_ns;
	a.peers_at_controller = true;
	a.counters_off = true;
	a.plan_check_arg = (void *)cfg;
	a.log = server_line;
	a.log_arg = what;
	a.clk = &clk;
	rc = rperf_agent_create(&a, &ag, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "rperf: %s\n", err);
		return RPERF_EXIT_RUNTIME;
	}
	rc = cli_agent_clock("rperf", cfg, &clk);
	if (rc) {
		rperf_agent_destroy(ag);
		return rc;
	}
	printf("%s: listening on port %u\n", what, rperf_agent_port(ag));
	fflush(stdout);
	rc = rperf_agent_run(ag, stop, err, sizeof(err));
	if (rc)
		fprintf(stderr, "rperf: %s\n", err);
	/* one client: its run's status (the reason is in the log) */
	if (!rc && a.one_off && rperf_agent_served(ag) &&
	    !rperf_agent_last_done(ag))
		rc = EIO;
	rperf_agent_destroy(ag);
	return rc ? RPERF_EXIT_RUNTIME : RPERF_EXIT_OK;
}

int rperf_cmd_lat(const struct rperf_cmdline *cfg, volatile sig_atomic_t *stop)
{
	if (cfg->host)
		return lat_client(cfg, stop);
	return serve_agent(cfg, stop, "lat");
}

struct bw_go {
	struct rperf_bw_run *run;
	const struct rperf_job *job;
	struct rperf_err *e;
};

static void bw_go(void *arg, const struct rperf_run_opts *o)
{
	struct bw_go *g = arg;

	rperf_bw_ctl_run(g->run, g->job, o, g->e);
}

/* rperf bw's measurement. 0 or the exit status said. */
static int bw_measure(struct rperf_bw_run *run, struct rperf_err *e)
{
	struct rperf_job *job = NULL;
	struct bw_go g = { .run = run, .e = e };
	struct rperf_clock clk;
	char err[512];
	int status;

	if (rperf_twohost_place_client(run->c.cfg, &run->c.host,
				       &run->c.platform, &run->c.notes, e) ||
	    rperf_bw_ctl_check(run, e))
		return say_err(e);
	status = cli_agent_clock("rperf", run->c.cfg, &clk);
	if (status)
		return status;
	if (rperf_bw_ctl_job(run->c.cfg, &job, err, sizeof(err))) {
		fprintf(stderr, "rperf: %s\n", err);
		return RPERF_EXIT_INTERNAL;
	}
	g.job = job;
	status = twohost_run(run->c.cfg, &(struct twohost){ .cmd = "bw",
							    .clk = &clk,
							    .job = job,
							    .stop = run->c.stop,
							    .go = bw_go,
							    .arg = &g });
	rperf_job_free(job);
	return status;
}

static int bw_client(const struct rperf_cmdline *cfg,
		     volatile sig_atomic_t *stop)
{
	struct rperf_kv kv[RPERF_MAX_OPTIONS + 2];
	struct rperf_bw_run *run;
	struct rperf_err e = { 0 };
	struct progress_ctx pg;
	int rc, code;

	if (!outputs_ok(cfg))
		return RPERF_EXIT_USAGE;
	if (rperf_bw_run_new(cfg, stop, &run))
		return RPERF_EXIT_INTERNAL;
	run->c.say.line = say_line;
	run->c.out = stdout;
	run->c.round = progress_on(&pg, cfg, false);
	code = bw_measure(run, &e);
	rperf_progress_end(&pg.line);
	if (code) {
		rperf_bw_run_free(run);
		return code;
	}
	rc = e.rc;
	code = say_err(&e);
	if (run->c.measured &&
	    rperf_bw_report(run, kv, rperf_cmdline_kv(cfg, kv)))
		code = RPERF_EXIT_RUNTIME;
	else if (run->c.measured && !rc && rperf_bw_thresholds(run))
		code = RPERF_EXIT_THRESHOLD;
	rperf_bw_run_free(run);
	return code;
}

int rperf_cmd_bw(const struct rperf_cmdline *cfg, volatile sig_atomic_t *stop)
{
	if (cfg->host)
		return bw_client(cfg, stop);
	return serve_agent(cfg, stop, "bw");
}
