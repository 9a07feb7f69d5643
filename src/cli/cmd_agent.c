/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * `rperf agent`: the command layer. Reads the key (--key-file: refused when
 * empty or readable by group/others) or the certificates (--cert/--key/
 * --ca); with neither it refuses to start unless --insecure (printed at
 * start). Listens on --bind/-p (default
 * RPERF_AGENT_DEFAULT_PORT) before anything slow, calibrates the clock
 * once (connections wait in the backlog meanwhile) and serves controllers
 * until SIGINT/SIGTERM/SIGHUP (--one-off: until its first controller's
 * experiment ended), printing one line per event to stderr. Exit 0 when
 * stopped by a signal or after that one controller, 2 for bad input (key file, --clock), 3 when it
 * cannot listen or its loop fails. -d, -x and --cpu fill in what a job's
 * [host] section leaves open (device, gid_index, cpu). --dry-run serves
 * the same protocol with the dry-run engine (src/agent/agent_dry.c).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "agent/agent.h"
#include "cli/cli.h"
#include "cli/cli_agents.h"
#include "cli/cli_auth.h"
#include "cli/commands.h"
#include "engine/proto.h"
#include "engine/limits.h"
#include "twohost/twohost_spec.h"
#include "util/err.h"

static void log_line(void *arg, const char *line)
{
	(void)arg;
	cli_agent_say("rperf agent", line);
}

int rperf_cmd_agent(const struct rperf_cmdline *cfg,
		    const volatile sig_atomic_t *stop)
{
	struct rperf_agent_cfg acfg;
	struct rperf_err e;
	struct cli_auth auth;
	struct rperf_agent *a = NULL;
	struct rperf_clock clk;
	char err[512], lim[256];
	int rc;

	if (cfg->one_off && cfg->persistent) {
		fprintf(stderr,
			"rperf agent: --one-off with --persistent: an agent serves one controller after another unless --one-off; give one of them\n");
		return RPERF_EXIT_USAGE;
	}
	cli_agent_cfg(cfg, &acfg, lim, sizeof(lim));
	acfg.log = log_line;
	acfg.engine = cfg->dry_run ? &rperf_agent_dry_engine : NULL;
	rc = cli_auth_load(cfg, true, false, &auth, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "rperf agent: %s\n", err);
		return RPERF_EXIT_USAGE;
	}
	acfg.auth = auth.auth;
	acfg.insecure = cfg->insecure;
	if (cfg->insecure) /* nothing authenticates the plan: say so */
		log_line(
			NULL,
			"INSECURE (--insecure): plain TCP, no authentication, no encryption; any controller that reaches this port is accepted; its plans are held to this agent's limits and its endpoints to the plan's host addresses, but those addresses are the controller's word");
	log_line(NULL, lim);
	acfg.clk = &clk; /* calibrated right after listening (up to 250 ms) */
	/* the agent's own -d is checked before it listens */
	if (cfg->sel.device[0] && rperf_twohost_check_device(cfg, &e)) {
		fprintf(stderr, "rperf agent: %s\n", e.msg);
		return RPERF_EXIT_USAGE;
	}
	rc = rperf_agent_create(&acfg, &a, err, sizeof(err));
	if (rc) {
		cli_auth_clear(&auth);
		fprintf(stderr, "rperf agent: %s\n", err);
		return RPERF_EXIT_RUNTIME;
	}
	rc = cli_agent_clock("rperf agent", cfg, &clk);
	if (rc) {
		rperf_agent_destroy(a);
		cli_auth_clear(&auth);
		return rc;
	}
	if (cfg->dry_run)
		log_line(
			NULL,
			"DRY RUN: no RDMA device, no QP, no traffic; reports carry no measurement (marked dry_run)");
	rc = rperf_agent_run(a, stop, err, sizeof(err));
	if (rc)
		fprintf(stderr, "rperf agent: %s\n", err);
	else
		log_line(NULL, rperf_agent_served(a) && cfg->one_off ?
				       "served one controller (--one-off)" :
				       "stopped by a signal");
	rperf_agent_destroy(a);
	cli_auth_clear(&auth);
	return rc ? RPERF_EXIT_RUNTIME : RPERF_EXIT_OK;
}
