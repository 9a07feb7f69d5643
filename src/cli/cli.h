/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef RPERF_CLI_H
#define RPERF_CLI_H

/* Exit codes (contract; documented in man/rperf.1.md). */
enum rperf_exit {
	RPERF_EXIT_OK = 0,
	RPERF_EXIT_THRESHOLD = 1,
	RPERF_EXIT_USAGE = 2,
	RPERF_EXIT_RUNTIME = 3,
	RPERF_EXIT_INTERNAL = 4,
};

/* Run the command line; returns the process exit status. */
int rperf_cli_main(int argc, char **argv);

#endif
