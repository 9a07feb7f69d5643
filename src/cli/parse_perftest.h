/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The parser's perftest habits: the nearest option to a mistyped one, the
 * refusals of perftest's flags rperf cannot honour (-c UD, --rate_limit_type
 * HW) and the notes of flags it accepts without acting on them.
 */
#ifndef RPERF_CLI_PARSE_PERFTEST_H
#define RPERF_CLI_PARSE_PERFTEST_H

#include <stdbool.h>
#include <stddef.h>

#include "job/cmdline.h"

/* The option of @cmd nearest to @word ("--sise=64", "--tx_dept"), as
 * "--size" in @buf; false when none is near enough to suggest. */
bool rperf_cli_suggest(enum rperf_cmd cmd, const char *word, char *buf,
		       size_t len);

/* Append one line to @notes (NULL: dropped; full: cut). */
void rperf_cli_note(char *notes, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* After parsing (cfg->given set): 0, or EINVAL with @err for a perftest
 * flag rperf refuses; notes for the ones it accepts and ignores. */
int rperf_cli_perftest_check(const struct rperf_cmdline *cfg, char *err,
			     size_t errlen, char *notes, size_t noteslen);

#endif
