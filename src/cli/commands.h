/* SPDX-License-Identifier: BSD-2-Clause */
/* Subcommands: each returns the process exit status (enum rperf_exit). */
#ifndef RPERF_CLI_COMMANDS_H
#define RPERF_CLI_COMMANDS_H

#include <signal.h>

#include "job/cmdline.h"

int rperf_cmd_info(const struct rperf_cmdline *cfg);
/* rperf lat / rperf bw, client (HOST) or server (src/cli/cmd_twohost.c);
 * @stop: the signal flag. */
int rperf_cmd_lat(const struct rperf_cmdline *cfg, volatile sig_atomic_t *stop);
int rperf_cmd_bw(const struct rperf_cmdline *cfg, volatile sig_atomic_t *stop);
/* An error value's exit status (enum rperf_exit): the one mapping. */
struct rperf_err;
int rperf_cmd_exit(const struct rperf_err *e);
/* rperf run JOB (src/cli/cmd_run.c); @stop: the signal flag. */
int rperf_cmd_run(const struct rperf_cmdline *cfg,
		  const volatile sig_atomic_t *stop);
/* rperf run as main() calls it (src/cli/cmd_mpi.c): with --mpi, every
 * rank of an mpirun/srun launch; otherwise rperf_cmd_run(). */
int rperf_cmd_run_launch(const struct rperf_cmdline *cfg,
			 const volatile sig_atomic_t *stop);
/* rperf agent (src/cli/cmd_agent.c); @stop: the signal flag. */
int rperf_cmd_agent(const struct rperf_cmdline *cfg,
		    const volatile sig_atomic_t *stop);
/* rperf compare BASE RUN (src/cli/cmd_compare.c). */
int rperf_cmd_compare(const struct rperf_cmdline *cfg);
/*
 * --vl: set cfg->spec.path.sl from the local port's SL->VL table, and note which VL
 * the SL maps to when known (cli_vl.c). Returns an exit status.
 */
int rperf_cli_resolve_vl(struct rperf_cmdline *cfg);

#endif
