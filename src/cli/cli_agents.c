/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Agents in the command's own process (cli_agents.h). A local host's
 * agent is `rperf agent`'s library (src/agent) on a thread: the
 * controller dials it over TCP as any other, so the conversation, the
 * limits and the checks are the same ones. It listens on its device's
 * address because that is what the controller's connection to it shows
 * as the host's address in every PLAN (src/run/run_msgs.c), and the other
 * agents connect only endpoints whose GIDs are that address.
 */
#include "cli/cli_agents.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rperf/clock.h>

#include "agent/agent.h"
#include "run/run_plan.h"
#include "cli/cli.h"
#include "job/options.h"
#include "engine/limits.h"
#include "verbs/verbs.h"

#define LOCAL_TIMEOUT_MS 10000 /* as rperf agent's default --timeout */

void cli_agent_limits(const struct rperf_cmdline *cfg,
		      struct rperf_plan_limits *out, char *line, size_t len)
{
	struct rperf_limits l;
	char mem[32];

	rperf_limits_of(cfg, &l);
	out->max_memory = l.max_memory;
	out->max_qps = l.max_qps;
	out->max_instances = cfg->max_instances ? cfg->max_instances :
						  RPERF_PROTO_MAX_INSTANCES;
	out->max_duration_ns = cfg->max_duration_ns ?
				       cfg->max_duration_ns :
				       RPERF_ENGINE_MAX_DURATION_NS;
	out->stall_ns = l.stall_ns;
	rperf_limits_bytes(out->max_memory, mem, sizeof(mem));
	snprintf(
		line, len,
		"limits per PLAN: --max-memory %s, --max-qps %llu, --max-instances %llu, --max-duration %.0f s, --stall-limit %.1f s",
		mem, (unsigned long long)out->max_qps,
		(unsigned long long)out->max_instances,
		(double)out->max_duration_ns / 1e9,
		(double)out->stall_ns / 1e9);
}

#define AGENT_TIMEOUT_MS 10000

void cli_agent_cfg(const struct rperf_cmdline *cfg, struct rperf_agent_cfg *a,
		   char *line, size_t len)
{
	*a = (struct rperf_agent_cfg){
		.bind = cfg->bind,
		.port = (uint16_t)cfg->tcp_port,
		.timeout_ms =
			cfg->global.timeout_ns ?
				(int)(cfg->global.timeout_ns / 1000000ull) :
				AGENT_TIMEOUT_MS,
		.handshake_ms = (int)(cfg->handshake_timeout_ns / 1000000ull),
		.max_conns = (unsigned int)cfg->max_conns,
		.one_off = cfg->one_off,
	};
	a->local = cfg->sel; /* its own -d, -i, -x, --cpu: what a job
				 leaves open */
	cli_agent_limits(cfg, &a->limits, line, len);
}

struct local_agent {
	struct rperf_agent *a;
	const char *host; /* the job host's name (boot[i].name) */
	pthread_t tid;
	bool running;
	volatile sig_atomic_t stop;
	int rc;
	char err[256];
};

struct cli_local {
	struct local_agent *ag;
	struct rperf_run_boot_host *hosts;
	struct rperf_run_boot boot;
	size_t n;
	struct rperf_clock clk;
	struct cli_local_opts o;
};

void cli_agent_say(const char *prefix, const char *line)
{
	time_t now = time(NULL);
	struct tm tm;
	char ts[16] = "";

	if (localtime_r(&now, &tm))
		strftime(ts, sizeof(ts), "%H:%M:%S", &tm);
	fprintf(stderr, "%s %s: %s\n", prefix, ts, line);
	fflush(stderr);
}

static void log_line(void *arg, const char *line)
{
	const struct local_agent *la = arg;
	char prefix[RPERF_NAME_LEN + 32];

	snprintf(prefix, sizeof(prefix), "rperf run: local agent %s", la->host);
	cli_agent_say(prefix, line);
}

static void *agent_main(void *arg)
{
	struct local_agent *la = arg;

	la->rc = rperf_agent_run(la->a, &la->stop, la->err, sizeof(la->err));
	return NULL;
}

/* The address @h's agent listens on: its RDMA device's (see above). */
static int local_addr(const struct rperf_job_host *h, char *buf, size_t len,
		      char *err, size_t errlen)
{
	struct rperf_verbs_cfg v = {
		.dev_name = h->sel.device,
		.ib_port = h->sel.port,
		.gid_index = h->sel.gid_index,
	};
	struct rperf_dev *d;
	char why[256];
	int rc = rperf_dev_open(&v, &d, why, sizeof(why));

	if (rc) {
		snprintf(err, errlen, "[host %s] control = local: %s", h->name,
			 why);
		return rc;
	}
	rc = rperf_limits_gid_source(d, buf, len);
	if (rc == ENOTSUP && !d->roce) { /* InfiniBand: no address in a GID */
		snprintf(buf, len, "127.0.0.1");
		rc = 0;
	} else if (rc) {
		snprintf(
			err, errlen,
			"[host %s] control = local: GID %d of %s port %d is no address the other agents can reach (link-local); give gid_index of a routable one",
			h->name, d->gid_index, d->name, d->port);
	}
	rperf_dev_close(d);
	return rc;
}

static int start_one(const struct rperf_cmdline *cfg,
		     const struct rperf_job *job,
		     const struct rperf_ctrl_auth *auth, struct cli_local *l,
		     const struct rperf_job_host *h)
{
	struct rperf_run_boot_host *b = &l->hosts[l->n];
	struct local_agent *la = &l->ag[l->n];
	struct rperf_agent_cfg acfg = {
		.auth = *auth,
		.insecure = cfg->insecure || l->o.insecure,
		.clk = l->o.clk ? l->o.clk : &l->clk,
		.log = l->o.quiet ? NULL : log_line,
		.counters_off = l->o.quiet, /* lat / bw: no counter series */
		.log_arg = la,
	};
	uint64_t t = cfg->global.timeout_ns ? cfg->global.timeout_ns :
					      job->timeout_ns;
	char err[512], line[256];
	int rc;

	memcpy(b->name, h->name, sizeof(b->name));
	la->host = b->name;
	if (cfg->dry_run) { /* no device: the loopback */
		acfg.engine = &rperf_agent_dry_engine;
		snprintf(b->addr, sizeof(b->addr), "127.0.0.1");
	}
	rc = cfg->dry_run ?
		     0 :
		     local_addr(h, b->addr, sizeof(b->addr), err, sizeof(err));
	if (rc) {
		fprintf(stderr, "%s: %s\n", l->o.prefix, err);
		return rc == ENODEV ? RPERF_EXIT_USAGE : RPERF_EXIT_RUNTIME;
	}
	acfg.bind = b->addr;
	acfg.timeout_ms = t ? (int)(t / 1000000ull) : LOCAL_TIMEOUT_MS;
	cli_agent_limits(cfg, &acfg.limits, line, sizeof(line));
	rc = rperf_agent_create(&acfg, &la->a, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "%s: [host %s] control = local: %s\n",
			l->o.prefix, h->name, err);
		return RPERF_EXIT_RUNTIME;
	}
	b->port = rperf_agent_port(la->a);
	l->n++;
	if (pthread_create(&la->tid, NULL, agent_main, la)) {
		fprintf(stderr,
			"%s: [host %s] control = local: cannot start its thread\n",
			l->o.prefix, h->name);
		return RPERF_EXIT_RUNTIME;
	}
	la->running = true;
	if (l->o.quiet)
		return 0;
	log_line(la, line);
	if (cfg->dry_run)
		log_line(la, "DRY RUN: no RDMA device, no QP, no traffic");
	return 0;
}

/* Does @h have an instance end in @job? */
static bool involved(const struct rperf_job *job,
		     const struct rperf_job_host *h)
{
	size_t src, dst;

	rperf_run_host_roles(job, h, &src, &dst);
	return src || dst;
}

int cli_agent_clock(const char *who, const struct rperf_cmdline *cfg,
		    struct rperf_clock *clk)
{
	int rc = rperf_clock_init(clk, (enum rperf_clock_source)cfg->clock);

	if (rc == ENOTSUP) {
		fprintf(stderr,
			"%s: --clock %s is not available here (%s); accepted: auto or posix\n",
			who,
			rperf_clock_source_name(
				(enum rperf_clock_source)cfg->clock),
			clk->reason);
		return RPERF_EXIT_USAGE;
	}
	if (!clk->trusted)
		fprintf(stderr, "%s: clock %s: %s\n", who,
			rperf_clock_source_name(clk->source), clk->reason);
	return 0;
}

int cli_local_start(const struct rperf_cmdline *cfg,
		    const struct rperf_job *job,
		    const struct rperf_ctrl_auth *auth,
		    const struct cli_local_opts *opts, struct cli_local **out)
{
	struct cli_local *l;
	size_t n = 0;
	int status = 0;

	*out = NULL;
	for (size_t i = 0; i < job->nhosts; i++)
		n += job->hosts[i].local && involved(job, &job->hosts[i]);
	if (!n)
		return 0;
	l = calloc(1, sizeof(*l));
	if (l) {
		l->ag = calloc(n, sizeof(*l->ag));
		l->hosts = calloc(n, sizeof(*l->hosts));
	}
	if (!l || !l->ag || !l->hosts) {
		cli_local_stop(l);
		fprintf(stderr, "rperf run: out of memory\n");
		return RPERF_EXIT_INTERNAL;
	}
	l->o = opts ? *opts : (struct cli_local_opts){ .prefix = "rperf run" };
	status = l->o.clk ? 0 :
			    cli_agent_clock("rperf run: local agents", cfg,
					    &l->clk);
	for (size_t i = 0; !status && i < job->nhosts; i++)
		if (job->hosts[i].local && involved(job, &job->hosts[i]))
			status = start_one(cfg, job, auth, l, &job->hosts[i]);
	if (status) {
		cli_local_stop(l);
		return status;
	}
	l->boot = (struct rperf_run_boot){ .hosts = l->hosts, .n = l->n };
	*out = l;
	return 0;
}

const struct rperf_run_boot *cli_local_boot(const struct cli_local *l)
{
	return l ? &l->boot : NULL;
}

void cli_local_stop(struct cli_local *l)
{
	if (!l)
		return;
	for (size_t i = 0; i < l->n; i++) {
		struct local_agent *la = &l->ag[i];

		la->stop = 1;
		if (la->running)
			pthread_join(la->tid, NULL);
		if (la->running && la->rc)
			fprintf(stderr, "rperf run: local agent %s: %s\n",
				la->host, la->err);
		rperf_agent_destroy(la->a);
	}
	free(l->ag);
	free(l->hosts);
	free(l);
}
