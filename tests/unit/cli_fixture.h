/* SPDX-License-Identifier: BSD-2-Clause */
/* Parse a command line the way main does (tests of src/cli). */
#ifndef RPERF_TEST_CLI_FIXTURE_H
#define RPERF_TEST_CLI_FIXTURE_H

#include <stdarg.h>
#include <string.h>

#include "cli/parse.h"

struct result {
	int rc;
	enum rperf_cli_action act;
	struct rperf_cli_config cfg;
	char err[512];
	char notes[1024]; /* the parse's warnings, one a line */
	char words[64][128]; /* argv storage: cfg strings point here */
};

/* Parse a NULL-terminated list of words (copied: getopt permutes argv). */
static inline void parse(struct result *r, const char *first, ...)
{
	char *argv[64];
	int argc = 0;
	const char *w;
	va_list ap;

	memset(r, 0, sizeof(*r));
	argv[argc++] = strcpy(r->words[0], "rperf");
	va_start(ap, first);
	for (w = first; w; w = va_arg(ap, const char *), argc++)
		argv[argc] = strcpy(r->words[argc], w);
	va_end(ap);
	argv[argc] = NULL;
	r->rc = rperf_cli_parse_ex(argc, argv, &r->cfg, &r->act, r->err,
				   sizeof(r->err), r->notes, sizeof(r->notes));
}

#endif
