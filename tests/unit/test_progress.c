// SPDX-License-Identifier: BSD-2-Clause
/*
 * The progress line (src/cli/progress.c): its text and estimate of what is
 * left, that it draws only after a second and into the file it was given,
 * redraws in place and erases itself; off (NULL) it writes nothing.
 * unit.progress_tty runs it on a pseudo-terminal through rperf run --sweep.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "cli/progress.h"

static void text(void **state)
{
	struct rperf_progress p = { .n = 12, .k = 3, .t0 = 100, .tk = 110 };
	char buf[160];

	(void)state;
	snprintf(p.what, sizeof(p.what), "rperf lat");
	snprintf(p.item, sizeof(p.item), "8 B");
	/* items of unknown length: 2 done in 10 s, 10 to go from item 3 */
	rperf_progress_text(&p, 112, buf, sizeof(buf));
	assert_string_equal(
		buf, "rperf lat: 8 B, 3 of 12, elapsed 12 s, about 48 s left");
	/* -D 10s per item: 9 more items and 8 s of this one */
	p.per_item_s = 10;
	rperf_progress_text(&p, 112, buf, sizeof(buf));
	assert_string_equal(
		buf,
		"rperf lat: 8 B, 3 of 12, elapsed 12 s, about 1 min 38 s left");
	/* the first item of unknown length: no estimate yet */
	p.per_item_s = 0;
	p.k = 1;
	p.tk = 100;
	rperf_progress_text(&p, 101, buf, sizeof(buf));
	assert_string_equal(
		buf,
		"rperf lat: 8 B, 1 of 12, elapsed 1 s, time left not known yet");
}

static void draws_after_a_second(void **state)
{
	struct rperf_progress p;
	char buf[1024] = "";
	FILE *f = tmpfile();
	size_t n;

	(void)state;
	assert_non_null(f);
	assert_int_equal(rperf_progress_start(&p, f, "rperf bw", 2, 0), 0);
	rperf_progress_item(&p, 0, "65536 B");
	usleep(300000);
	rperf_progress_item(&p, 1, "4096 B"); /* redrawn at once after 1 s */
	usleep(1500000);
	rperf_progress_end(&p);
	rewind(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	assert_non_null(
		strstr(buf, "\r\033[Krperf bw: 4096 B, 2 of 2, elapsed "));
	assert_null(strstr(buf, "65536 B")); /* under a second: not drawn */
	/* erased at the end */
	assert_true(n >= 4 && !strcmp(buf + n - 4, "\r\033[K"));

	/* off: nothing at all, no thread */
	assert_int_equal(rperf_progress_start(&p, NULL, "rperf bw", 2, 0), 0);
	rperf_progress_item(&p, 0, "65536 B");
	rperf_progress_pause(&p);
	rperf_progress_end(&p);
	assert_null(p.f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(text),
		cmocka_unit_test(draws_after_a_second),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
