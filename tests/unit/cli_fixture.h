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
	struct rperf_cmdline cfg;
	char err[512];
	char notes[1024]; /* the parse's warnings, one a line */
	char words[64][128]; /* argv storage: cfg strings point here */
};

/* Parse "rperf" + the words of @ap (NULL-terminated) + @last (if not
 * NULL); the words are copied: getopt permutes argv. */
static inline void parse_words(struct result *r, const char *last,
			       const char *first, va_list ap)
{
	char *argv[64];
	int argc = 0;
	const char *w;

	memset(r, 0, sizeof(*r));
	argv[argc++] = strcpy(r->words[0], "rperf");
	for (w = first; w; w = va_arg(ap, const char *), argc++)
		argv[argc] = strcpy(r->words[argc], w);
	if (last) {
		argv[argc] = strcpy(r->words[argc], last);
		argc++;
	}
	argv[argc] = NULL;
	r->rc = rperf_cli_parse_ex(argc, argv, &r->cfg, &r->act, r->err,
				   sizeof(r->err), r->notes, sizeof(r->notes));
}

/* Parse a NULL-terminated list of words. */
static inline void parse(struct result *r, const char *first, ...)
{
	va_list ap;

	va_start(ap, first);
	parse_words(r, NULL, first, ap);
	va_end(ap);
}

/* The same, the client of host 10.0.0.1. */
static inline void parse_host(struct result *r, const char *first, ...)
{
	va_list ap;

	va_start(ap, first);
	parse_words(r, "10.0.0.1", first, ap);
	va_end(ap);
}

#endif
