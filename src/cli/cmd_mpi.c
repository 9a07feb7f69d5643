/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * `rperf run [--mpi] JOB`: without --mpi, the normal controller (cmd_run.c).
 * With --mpi every rank that mpirun or srun started runs this: rank 0 maps
 * the ranks to the job's hosts and broadcasts the plan and the key, each
 * rank with a host runs its agent (a thread of its own on rank 0, which is
 * also the controller), the gather of their ports is the start barrier,
 * rank 0 runs the experiment over TCP exactly as `rperf run` does, and a
 * broadcast of its exit status ends every rank (src/mpi/mpi.h).
 * Exit: the controller's status on every rank; 2 for a bad job, rank
 * count or key; 3 when an agent could not start.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agent/agent.h"
#include "cli/cli.h"
#include "cli/cli_agents.h"
#include "cli/cmd_run.h"
#include "cli/commands.h"
#include "job/options.h"
#include "job/job.h"
#include "mpi/mpi.h"
#include "run/run.h"

#define STEP_MS 100

struct mpi_cmd {
	const struct rperf_cmdline *cfg;
	const volatile sig_atomic_t *stop;
	struct rperf_mpi m;
	struct rperf_mpi_plan *plan; /* broadcast by rank 0 */
	struct rperf_clock clk;
	struct rperf_agent *agent; /* this rank's, NULL: controller only */
	char tag[RPERF_NAME_LEN + 32]; /* "rank 2 (h3)" */
};

static size_t nranks(const struct mpi_cmd *c)
{
	return c->m.size > 0 ? (size_t)c->m.size : 1;
}

static void log_line(void *arg, const char *line)
{
	const struct mpi_cmd *c = arg;
	char prefix[sizeof(c->tag) + 16];

	snprintf(prefix, sizeof(prefix), "rperf agent %s", c->tag);
	cli_agent_say(prefix, line);
}

/* Rank 0: the job, the rank mapping, the key and the timeout; the exit
 * status every rank takes when this fails. */
static int32_t make_plan(struct mpi_cmd *c)
{
	const struct rperf_cmdline *cfg = c->cfg;
	struct rperf_mpi_plan *p = c->plan;
	struct run_cmd rcmd = { .cfg = cfg };
	struct rperf_job *job = NULL;
	char err[512] = "";
	size_t keylen = 0;
	uint64_t timeout_ns;
	int rc;

	/* the job as the controller will run it: --hosts-map and --set */
	rc = run_cmd_prepare_common(&rcmd, err, sizeof(err));
	cli_auth_clear(&rcmd.auth);
	if (!rc && (cfg->tls_cert || cfg->tls_key || cfg->tls_ca)) {
		snprintf(
			err, sizeof(err),
			"--mpi hands its agents a pre-shared key (--key-file, or one of its own); --cert/--key/--ca are for agents started by hand");
		rc = EINVAL;
	}
	if (!rc)
		rc = rperf_job_load_edit(cfg->job, &rcmd.edit, &job, err,
					 sizeof(err));
	for (size_t i = 0; !rc && i < job->nhosts; i++) {
		if (!job->hosts[i].local)
			continue;
		snprintf(
			err, sizeof(err),
			"%s:%d: [host %s] control = local with --mpi: the launcher starts every host's agent on its rank; give it the address its rank binds (control = ADDR)",
			job->path, job->hosts[i].line, job->hosts[i].name);
		rc = EINVAL;
	}
	if (!rc)
		rc = rperf_mpi_plan_make(job, c->m.size, p, err, sizeof(err));
	if (!rc && cfg->key_file)
		rc = rperf_proto_key_load(cfg->key_file, p->key, &keylen, err,
					  sizeof(err));
	else if (!rc) /* a key of this launch only: no agent is open */
		rc = rperf_proto_nonce(p->key);
	if (rc) {
		fprintf(stderr, "rperf run --mpi: %s\n",
			err[0] ? err : strerror(rc));
		rperf_job_free(job);
		return RPERF_EXIT_USAGE;
	}
	p->keylen = cfg->key_file ? (uint32_t)keylen : RPERF_MPI_RANDOM_KEY_LEN;
	timeout_ns = cfg->global.timeout_ns ? cfg->global.timeout_ns :
					      job->timeout_ns;
	p->timeout_ms = (int32_t)(timeout_ns / 1000000ull);
	if (p->timeout_ms <= 0)
		p->timeout_ms = 1;
	rperf_job_free(job);
	return 0;
}

static void agent_cfg(const struct mpi_cmd *c, const char *bind,
		      struct rperf_agent_cfg *a)
{
	const struct rperf_cmdline *cfg = c->cfg;

	memset(a, 0, sizeof(*a));
	a->bind = bind;
	a->port = 0; /* the kernel picks; the gather tells rank 0 */
	a->auth.psk = c->plan->key; /* the channel is TLS-PSK */
	a->auth.psklen = c->plan->keylen;
	a->timeout_ms = c->plan->timeout_ms;
	a->clk = &c->clk; /* calibrated right after listening */
	a->engine = cfg->dry_run ? &rperf_agent_dry_engine : NULL;
	a->log = log_line;
	a->log_arg = (void *)c;
	a->local = cfg->sel; /* its own -d, -i, -x, --cpu */
}

/* This rank's agent: listen, calibrate; @h says how it went. */
static void start_agent(struct mpi_cmd *c, struct rperf_mpi_hello *h)
{
	const struct rperf_mpi_assign *as = &c->plan->rank[c->m.rank];
	struct rperf_agent_cfg acfg;
	char err[RPERF_MPI_MSG_LEN] = "";
	int rc;

	snprintf(h->node, sizeof(h->node), "%s", c->m.node);
	if (!as->host[0])
		return; /* rank 0, controller only */
	agent_cfg(c, as->bind, &acfg);
	rc = rperf_agent_create(&acfg, &c->agent, err, sizeof(err));
	if (rc) {
		h->rc = rc;
		snprintf(
			h->msg, sizeof(h->msg),
			"[host %s] %.100s (is this node the host's? order the hostfile as the job's hosts)",
			as->host, err);
		return;
	}
	rc = rperf_clock_init(&c->clk, (enum rperf_clock_source)c->cfg->clock);
	if (rc == ENOTSUP) {
		h->rc = rc;
		snprintf(h->msg, sizeof(h->msg), "--clock %s: %.160s",
			 rperf_clock_source_name(
				 (enum rperf_clock_source)c->cfg->clock),
			 c->clk.reason);
		return;
	}
	h->port = rperf_agent_port(c->agent);
	if (c->cfg->dry_run)
		log_line(c, "DRY RUN: no RDMA device, no QP, no traffic");
}

/* Rank 0: every rank's hello fine? Prints the ones that are not. */
static bool hellos_ok(const struct mpi_cmd *c,
		      const struct rperf_mpi_hello *all)
{
	bool ok = true;

	for (int r = 0; r < c->m.size; r++) {
		if (!all[r].rc)
			continue;
		fprintf(stderr, "rperf run --mpi: rank %d on %s: %s\n", r,
			all[r].node, all[r].msg);
		ok = false;
	}
	return ok;
}

struct agent_thread {
	struct rperf_agent *a;
	volatile sig_atomic_t stop;
	int rc;
	char err[256];
};

static void *agent_main(void *arg)
{
	struct agent_thread *t = arg;

	t->rc = rperf_agent_run(t->a, &t->stop, t->err, sizeof(t->err));
	return NULL;
}

/* Rank 0: `rperf run` against the launched agents (its own agent, if
 * any, on a thread of its own meanwhile). */
static int run_controller(struct mpi_cmd *c, const struct rperf_mpi_hello *all)
{
	struct rperf_run_boot_host *hosts = calloc(nranks(c), sizeof(*hosts));
	struct rperf_run_boot boot = { .hosts = hosts,
				       .key = c->plan->key,
				       .keylen = c->plan->keylen };
	struct agent_thread t = { .a = c->agent };
	struct rperf_cmdline cfg = *c->cfg;
	pthread_t tid;
	int status = RPERF_EXIT_INTERNAL;

	if (!hosts)
		return status;
	for (int r = 0; r < c->m.size; r++) {
		const struct rperf_mpi_assign *as = &c->plan->rank[r];

		if (!as->host[0])
			continue;
		memcpy(hosts[boot.n].name, as->host, sizeof(as->host));
		memcpy(hosts[boot.n].addr, as->bind, sizeof(as->bind));
		hosts[boot.n++].port = all[r].port;
	}
	cfg.run_boot = &boot;
	if (!c->agent) {
		status = rperf_cmd_run(&cfg, c->stop);
	} else if (!pthread_create(&tid, NULL, agent_main, &t)) {
		status = rperf_cmd_run(&cfg, c->stop);
		t.stop = 1;
		pthread_join(tid, NULL);
		if (t.rc)
			fprintf(stderr, "rperf run --mpi: rank 0's agent: %s\n",
				t.err);
	} else {
		fprintf(stderr,
			"rperf run --mpi: cannot start rank 0's agent\n");
	}
	free(hosts);
	return status;
}

/* Agent ranks: serve until rank 0 broadcasts the end (its status). */
static int32_t serve(struct mpi_cmd *c)
{
	int32_t status = RPERF_EXIT_RUNTIME;
	char err[256];
	bool done = false;

	if (rperf_mpi_end_start(&c->m, 0)) /* receives rank 0's status */
		return status;
	if (c->agent)
		log_line(c,
			 "listening (MPI launch); serving until rank 0 ends");
	while (!done) {
		if (!c->agent ||
		    rperf_agent_step(c->agent, STEP_MS, err, sizeof(err)))
			usleep(STEP_MS * 1000);
		if (rperf_mpi_end_test(&c->m, &done, &status))
			break;
	}
	return status;
}

/* Rank 0: end every rank with @status (completes at once at the root). */
static void end_all(struct mpi_cmd *c, int32_t status)
{
	bool done = false;
	int32_t st;

	if (rperf_mpi_end_start(&c->m, status))
		return;
	while (!done && !rperf_mpi_end_test(&c->m, &done, &st))
		if (!done)
			usleep(1000);
}

/* Gather what each agent served; rank 0 prints one line. */
static void summary(struct mpi_cmd *c, const struct rperf_mpi_hello *all)
{
	uint64_t mine = c->agent ? rperf_agent_served(c->agent) : 0;
	uint64_t *served = c->m.rank ? NULL :
				       calloc(nranks(c), sizeof(*served));
	uint64_t lo = UINT64_MAX, hi = 0;
	int nodes = 0;

	if (rperf_mpi_gather(&c->m, &mine, sizeof(mine), served) || !served ||
	    !all) {
		free(served);
		return;
	}
	for (int r = 0; r < c->m.size; r++) {
		bool seen = false;

		for (int q = 0; q < r && !seen; q++)
			seen = !strcmp(all[q].node, all[r].node);
		nodes += !seen;
		if (!c->plan->rank[r].host[0])
			continue;
		lo = served[r] < lo ? served[r] : lo;
		hi = served[r] > hi ? served[r] : hi;
	}
	fprintf(stderr,
		"rperf run --mpi: %d rank(s) on %d node(s)%s; each agent served %llu",
		c->m.size, nodes,
		c->plan->ctl_only ? ", rank 0 only the controller" : "",
		(unsigned long long)lo);
	if (hi != lo)
		fprintf(stderr, " to %llu", (unsigned long long)hi);
	fprintf(stderr, " experiment(s)\n");
	free(served);
}

/* After the plan: agents up, gathered, the experiment, the end. */
static int32_t launched(struct mpi_cmd *c)
{
	struct rperf_mpi_hello mine = { 0 }, *all = NULL;
	int32_t status;

	snprintf(c->tag, sizeof(c->tag), "rank %d (%s)", c->m.rank,
		 c->plan->rank[c->m.rank].host[0] ?
			 c->plan->rank[c->m.rank].host :
			 "controller");
	start_agent(c, &mine);
	if (!c->m.rank) {
		all = calloc(nranks(c), sizeof(*all));
		if (!all)
			return RPERF_EXIT_INTERNAL; /* MPI aborts the others */
	}
	if (rperf_mpi_gather(&c->m, &mine, sizeof(mine), all)) {
		free(all);
		return RPERF_EXIT_RUNTIME;
	}
	if (c->m.rank) {
		status = serve(c);
	} else {
		status = hellos_ok(c, all) ? run_controller(c, all) :
					     RPERF_EXIT_RUNTIME;
		end_all(c, status);
	}
	summary(c, all);
	free(all);
	return status;
}

int rperf_cmd_run_launch(const struct rperf_cmdline *cfg,
			 const volatile sig_atomic_t *stop)
{
	struct mpi_cmd c = { .cfg = cfg, .stop = stop };
	char err[512] = "";
	int32_t status;
	int rc;

	if (cfg->run_check) /* nothing to launch: the plan only */
		return rperf_cmd_run(cfg, stop);
	if (!cfg->mpi) /* --dry-run: the local agents' (cmd_run.c) */
		return rperf_cmd_run(cfg, stop);
	if (cfg->sweeps.n || cfg->repeat > 1) {
		fprintf(stderr,
			"rperf run: --sweep or --repeat with --mpi: not supported; accepted: one launch per value (--set KEY=VALUE)\n");
		return RPERF_EXIT_USAGE;
	}
	if (cfg->every_ns) {
		fprintf(stderr,
			"rperf run: --every with --mpi: not supported; accepted: one launch per run (a scheduler's repeat), or agents started by hand and rperf run --every\n");
		return RPERF_EXIT_USAGE;
	}
	rc = rperf_mpi_init(&c.m, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "rperf run --mpi: %s\n", err);
		return rc == ENOTSUP ? RPERF_EXIT_USAGE : RPERF_EXIT_RUNTIME;
	}
	c.plan = calloc(1, sizeof(*c.plan));
	if (!c.plan) {
		rperf_mpi_finalize(&c.m);
		return RPERF_EXIT_INTERNAL;
	}
	if (!c.m.rank)
		c.plan->status = make_plan(&c);
	if (rperf_mpi_bcast(&c.m, c.plan, sizeof(*c.plan)))
		status = RPERF_EXIT_RUNTIME;
	else
		status = c.plan->status ? c.plan->status : launched(&c);
	rperf_agent_destroy(c.agent);
	memset(c.plan->key, 0, sizeof(c.plan->key));
	free(c.plan);
	rperf_mpi_finalize(&c.m);
	return status;
}
