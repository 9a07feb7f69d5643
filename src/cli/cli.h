/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef RPERF_CLI_H
#define RPERF_CLI_H

#include <stdbool.h>

#include "job/cmdline.h"

/* Exit codes (contract; documented in man/rperf.1.md). */
enum rperf_exit {
	RPERF_EXIT_OK = 0,
	RPERF_EXIT_THRESHOLD = 1,
	RPERF_EXIT_USAGE = 2,
	RPERF_EXIT_RUNTIME = 3,
	RPERF_EXIT_INTERNAL = 4,
};

/*
 * Parse the command line into @cfg. Errors, --help, --version and the
 * man-page options are handled (printed) here: then *run stays false and
 * the return value is the exit status. *run true: run cfg->cmd (main's
 * dispatch).
 */
int rperf_cli_front(int argc, char **argv, struct rperf_cmdline *cfg,
		    bool *run);

#endif
