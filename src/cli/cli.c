/* SPDX-License-Identifier: BSD-2-Clause */
#include "cli/cli.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/help.h"
#include "job/options.h"
#include "cli/parse.h"
#include "version.h"

int rperf_cli_front(int argc, char **argv, struct rperf_cmdline *cfg, bool *run)
{
	enum rperf_cli_action act;
	char err[512], notes[1024];
	int rc;

	*run = false;
	rc = rperf_cli_parse_ex(argc, argv, cfg, &act, err, sizeof(err), notes,
				sizeof(notes));
	for (char *line = notes, *nl; !rc && (nl = strchr(line, '\n'));
	     line = nl + 1) {
		*nl = '\0';
		fprintf(stderr, "rperf: warning: %s\n", line);
	}
	if (rc == ENOMEM) {
		fprintf(stderr, "rperf: out of memory\n");
		return RPERF_EXIT_INTERNAL;
	}
	if (rc) {
		fprintf(stderr, "rperf: %s\n", err);
		return RPERF_EXIT_USAGE;
	}
	switch (act) {
	case RPERF_ACT_HELP:
		rperf_cli_help(stdout, cfg->cmd);
		return RPERF_EXIT_OK;
	case RPERF_ACT_VERSION:
		printf("rperf %s\n", RPERF_VERSION);
		return RPERF_EXIT_OK;
	case RPERF_ACT_MARKDOWN:
		rperf_cli_markdown(stdout);
		return RPERF_EXIT_OK;
	default:
		*run = true;
		return RPERF_EXIT_OK;
	}
}
