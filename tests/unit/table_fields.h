/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Reading a text table the way a perftest user's script does (awk's $N):
 * field @col (1-based) of the first line whose first field is @first.
 * Include after cmocka.h.
 */
#ifndef RPERF_TESTS_UNIT_TABLE_FIELDS_H
#define RPERF_TESTS_UNIT_TABLE_FIELDS_H

#include <stdlib.h>
#include <string.h>

static inline char *field_of(const char *out, const char *first, int col)
{
	char *copy = strdup(out), *line, *save = NULL, *ret = NULL;

	assert_non_null(copy);
	for (line = strtok_r(copy, "\n", &save); line && !ret;
	     line = strtok_r(NULL, "\n", &save)) {
		char *f[64], *s2 = NULL, *tok;
		int n = 0;

		for (tok = strtok_r(line, " \t", &s2); tok && n < 64;
		     tok = strtok_r(NULL, " \t", &s2))
			f[n++] = tok;
		if (n >= col && strcmp(f[0], first) == 0)
			ret = strdup(f[col - 1]);
	}
	free(copy);
	assert_non_null(ret);
	return ret;
}

static inline void expect_field(const char *out, const char *first, int col,
				const char *want)
{
	char *got = field_of(out, first, col);

	assert_string_equal(got, want);
	free(got);
}

#endif
