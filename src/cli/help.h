/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef RPERF_CLI_HELP_H
#define RPERF_CLI_HELP_H

#include <stdio.h>

#include "job/cmdline.h"

/* --help for @cmd (RPERF_CMD_NONE: the top level). */
void rperf_cli_help(FILE *f, enum rperf_cmd cmd);
/* The OPTIONS section of man/rperf.1.md (pandoc Markdown). */
void rperf_cli_markdown(FILE *f);

#endif
