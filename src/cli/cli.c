/* SPDX-License-Identifier: BSD-2-Clause */
#include <stdio.h>
#include "cli/cli.h"

int rperf_cli_main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "rperf: under construction\n");
	return RPERF_EXIT_INTERNAL;
}
