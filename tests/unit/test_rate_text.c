/* SPDX-License-Identifier: BSD-2-Clause */
/* Rates as text: three significant digits, Mb/s below 1 Gb/s (issue 20). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "util/rate_text.h"

static void check(double gbps, const char *want)
{
	char b[32];

	rperf_rate_text(b, sizeof(b), gbps);
	assert_string_equal(b, want);
}

static void three_digits(void **state)
{
	(void)state;
	check(97.34, "97.3 Gb/s");
	check(123.4, "123 Gb/s");
	check(9.876, "9.88 Gb/s");
	check(1.0, "1.00 Gb/s");
	check(0.9996, "1.00 Gb/s"); /* rounds up into Gb/s, not "1000 Mb/s" */
	check(0.9994, "999 Mb/s");
	check(0.3524, "352 Mb/s");
	check(0.0352, "35.2 Mb/s");
	/* issue 20: a 4 Mb/s port's 3.52 Mb/s printed as 0.004 Gb/s */
	check(0.003524, "3.52 Mb/s");
	check(0.000357, "0.357 Mb/s");
	/* 16 x 1 KiB in 4.52 s: 0.0290 Mb/s */
	check(16.0 * 1024 * 8 / 4.52 / 1e9, "0.0290 Mb/s");
	check(0, "0 Mb/s");
	check(-1, "?");
	check(NAN, "?");
	check(INFINITY, "?");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(three_digits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
