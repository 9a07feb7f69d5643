/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The agents a command runs in its own process: `rperf agent`'s PLAN
 * limits, and the agents `rperf run` starts for the hosts of its job
 * with control = local (cli_agents.c).
 */
#ifndef RPERF_CLI_AGENTS_H
#define RPERF_CLI_AGENTS_H

#include <stdbool.h>
#include <stddef.h>

#include <rperf/clock.h>

#include "job/cmdline.h"
#include "ctrl/ctrl_tls.h"
#include "engine/engine.h"
#include "job/job.h"
#include "run/run.h"

/* The PLAN limits of an agent: the lat/bw servers' defaults
 * (rperf_limits_of) for memory and QPs unless --max-memory/--max-qps,
 * 1024 instances, 1 h; @line says them ("limits per PLAN: ..."). */
void cli_agent_limits(const struct rperf_cmdline *cfg,
		      struct rperf_plan_limits *out, char *line, size_t len);

/* One line of an agent on stderr: "PREFIX HH:MM:SS: LINE", flushed. */
void cli_agent_say(const char *prefix, const char *line);

/* An agent's clock calibrated (@who: how its messages start): 0, or the
 * exit status said (a --clock not available here); an untrusted clock
 * said too. */
int cli_agent_clock(const char *who, const struct rperf_cmdline *cfg,
		    struct rperf_clock *clk);

/* What rperf agent and the rperf lat / bw servers share of @cfg: where to
 * listen, timeouts, --one-off, -d/-x/--cpu, the limits (their line in
 * @line). */
struct rperf_agent_cfg;
void cli_agent_cfg(const struct rperf_cmdline *cfg, struct rperf_agent_cfg *a,
		   char *line, size_t len);

struct cli_local;

/*
 * Start an agent in this process for every host of @job with control =
 * local that has an instance end, each on its own thread: listening on
 * the address of the host's RDMA device (RoCE: its GID's, the address the
 * other agents check its endpoints against; InfiniBand: 127.0.0.1) on a
 * port the kernel picks, authenticated by @auth (or plain with
 * --insecure), with cli_agent_limits() and one clock calibrated for all
 * (--clock); their lines go to stderr. With --dry-run they run the
 * dry-run engine on 127.0.0.1. *out NULL when there is none.
 * 0, or an exit status (2 bad input, 3 the device or listening failed)
 * with its line printed.
 */
/* rperf lat / bw HOST's local agent: its messages' prefix ("rperf"),
 * quiet (its failures reach the controller anyway), the clock it stamps
 * with (the report's). NULL: rperf run's ("rperf run", logged, its own
 * clock). */
struct cli_local_opts {
	const char *prefix;
	bool quiet;
	bool insecure; /* its channel is the plain one, whatever @cfg says */
	const struct rperf_clock *clk;
};

int cli_local_start(const struct rperf_cmdline *cfg,
		    const struct rperf_job *job,
		    const struct rperf_ctrl_auth *auth,
		    const struct cli_local_opts *opts, struct cli_local **out);
/* Where they listen, for rperf_run_opts.local (NULL: none). */
const struct rperf_run_boot *cli_local_boot(const struct cli_local *l);
/* Stop and free them (an experiment still running is stopped). NULL-safe. */
void cli_local_stop(struct cli_local *l);

#endif
