/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef RPERF_CLI_PARSE_H
#define RPERF_CLI_PARSE_H

#include <stddef.h>

#include "job/cmdline.h"

enum rperf_cli_action {
	RPERF_ACT_RUN = 0, /* run cfg->cmd */
	RPERF_ACT_HELP, /* print help for cfg->cmd (NONE: top level) */
	RPERF_ACT_VERSION,
	RPERF_ACT_MARKDOWN, /* hidden: option list for man/rperf.1.md */
};

/*
 * Parse argv into @cfg (defaults applied first). Returns 0 and the action, or
 * EINVAL/ERANGE with a one-line message in @err of the form
 * "<option>: <what is wrong>; <what is accepted>" (no "rperf: " prefix).
 */
int rperf_cli_parse(int argc, char **argv, struct rperf_cmdline *cfg,
		    enum rperf_cli_action *act, char *err, size_t errlen);
/* The same, with the parse's warnings (e.g. "-n given with -D: -D wins")
 * in @notes, one per line, for the caller to print (NULL: dropped). */
int rperf_cli_parse_ex(int argc, char **argv, struct rperf_cmdline *cfg,
		       enum rperf_cli_action *act, char *err, size_t errlen,
		       char *notes, size_t noteslen);

#endif
