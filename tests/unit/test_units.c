/* SPDX-License-Identifier: BSD-2-Clause */
/* Strict number parsing with unit suffixes (src/util/units.c). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "util/units.h"

static void sizes(void **state)
{
	static const struct {
		const char *s;
		uint64_t v;
	} ok[] = {
		{ "64", 64 },	      { "0", 0 },
		{ "4K", 4096 },	      { "4k", 4096 },
		{ "4Ki", 4096 },      { "4KiB", 4096 },
		{ "4KB", 4096 },      { "1M", 1048576 },
		{ "1MiB", 1048576 },  { "2G", 2147483648ull },
		{ "1T", 1ull << 40 }, { "64B", 64 },
	};
	static const char *const bad[] = { "",	  "abc", "-5",	 "+5",	 " 5",
					   "5 ",  "4KK", "1.5K", "0x10", "4kb",
					   "5e3", "K",	 "4 K" };
	char err[256];
	uint64_t v;

	(void)state;
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		assert_int_equal(rperf_parse_size(ok[i].s, 0, UINT64_MAX, &v,
						  err, sizeof(err)),
				 0);
		assert_int_equal(v, ok[i].v);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		assert_int_equal(rperf_parse_size(bad[i], 0, UINT64_MAX, &v,
						  err, sizeof(err)),
				 EINVAL);
		assert_non_null(strstr(err, "accepted"));
		assert_null(strchr(err, '\n'));
	}
	assert_int_equal(rperf_parse_size("16E", 0, UINT64_MAX, &v, err,
					  sizeof(err)),
			 EINVAL);
	assert_int_equal(rperf_parse_size("99999999999999999999", 0, UINT64_MAX,
					  &v, err, sizeof(err)),
			 ERANGE);
	assert_int_equal(rperf_parse_size("17000000T", 0, UINT64_MAX, &v, err,
					  sizeof(err)),
			 ERANGE);
	assert_int_equal(rperf_parse_size("2K", 1, 1024, &v, err, sizeof(err)),
			 ERANGE);
	assert_non_null(strstr(err, "1024"));
}

static void counts(void **state)
{
	char err[256];
	uint64_t v;

	(void)state;
	assert_int_equal(rperf_parse_count("10000", 1, UINT64_MAX, &v, err,
					   sizeof(err)),
			 0);
	assert_int_equal(v, 10000);
	assert_int_equal(rperf_parse_count("10k", 1, UINT64_MAX, &v, err,
					   sizeof(err)),
			 0);
	assert_int_equal(v, 10000);
	assert_int_equal(rperf_parse_count("2M", 1, UINT64_MAX, &v, err,
					   sizeof(err)),
			 0);
	assert_int_equal(v, 2000000);
	assert_int_equal(rperf_parse_count("-5", 1, 100, &v, err, sizeof(err)),
			 EINVAL);
	assert_int_equal(rperf_parse_count("0", 1, 100, &v, err, sizeof(err)),
			 ERANGE);
	assert_int_equal(rperf_parse_count("1.5", 1, 100, &v, err, sizeof(err)),
			 EINVAL);
}

static void ints(void **state)
{
	char err[256];
	int64_t v;

	(void)state;
	assert_int_equal(rperf_parse_int("15", 0, 15, &v, err, sizeof(err)), 0);
	assert_int_equal(v, 15);
	assert_int_equal(rperf_parse_int("-1", -1, 15, &v, err, sizeof(err)),
			 0);
	assert_int_equal(v, -1);
	assert_int_equal(rperf_parse_int("16", 0, 15, &v, err, sizeof(err)),
			 ERANGE);
	assert_non_null(strstr(err, "from 0 to 15"));
	assert_int_equal(rperf_parse_int("1x", 0, 15, &v, err, sizeof(err)),
			 EINVAL);
	assert_int_equal(rperf_parse_int("", 0, 15, &v, err, sizeof(err)),
			 EINVAL);
	assert_int_equal(rperf_parse_int("-", 0, 15, &v, err, sizeof(err)),
			 EINVAL);
	assert_int_equal(rperf_parse_int("99999999999999999999", 0, 15, &v, err,
					 sizeof(err)),
			 ERANGE);
}

static void times(void **state)
{
	static const struct {
		const char *s;
		uint64_t ns;
	} ok[] = {
		{ "5ns", 5 },
		{ "5us", 5000 },
		{ "1.5ms", 1500000 },
		{ "2s", 2000000000ull },
		{ "1m", 60000000000ull },
		{ "3", 3000000000ull },
		{ "0.5", 500000000ull },
		{ "10sec", 10000000000ull },
	};
	static const char *const bad[] = { "",	  "ms",	 "-1s",	 "1h", "1 s",
					   "1.s", ".5s", "1e3s", "abc" };
	char err[256];
	uint64_t v;

	(void)state;
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		assert_int_equal(rperf_parse_time(ok[i].s, 1000000000ull, 0,
						  UINT64_MAX / 2, &v, err,
						  sizeof(err)),
				 0);
		assert_int_equal(v, ok[i].ns);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(rperf_parse_time(bad[i], 1000000000ull, 0,
						  UINT64_MAX / 2, &v, err,
						  sizeof(err)),
				 EINVAL);
	assert_int_equal(rperf_parse_time("1ms", 1, 2000000, 10000000, &v, err,
					  sizeof(err)),
			 ERANGE);
	assert_non_null(strstr(err, "2ms"));
}

static void rates(void **state)
{
	char err[256];
	double v;

	(void)state;
	assert_int_equal(rperf_parse_rate("10M", 0, 1e15, &v, err, sizeof(err)),
			 0);
	assert_true(v == 1e7);
	assert_int_equal(
		rperf_parse_rate("10Mbit", 0, 1e15, &v, err, sizeof(err)), 0);
	assert_true(v == 1e7);
	assert_int_equal(
		rperf_parse_rate("10Mbps", 0, 1e15, &v, err, sizeof(err)), 0);
	assert_true(v == 1e7);
	assert_int_equal(
		rperf_parse_rate("2.5G", 0, 1e15, &v, err, sizeof(err)), 0);
	assert_true(v == 2.5e9);
	assert_int_equal(rperf_parse_rate("100", 0, 1e15, &v, err, sizeof(err)),
			 0);
	assert_true(v == 100);
	assert_int_equal(rperf_parse_rate("10X", 0, 1e15, &v, err, sizeof(err)),
			 EINVAL);
	assert_int_equal(rperf_parse_rate("10Mbytes", 0, 1e15, &v, err,
					  sizeof(err)),
			 EINVAL);
	assert_int_equal(rperf_parse_rate("-1M", 0, 1e15, &v, err, sizeof(err)),
			 EINVAL);
	assert_int_equal(rperf_parse_rate("2G", 0, 1e9, &v, err, sizeof(err)),
			 ERANGE);
}

static void doubles(void **state)
{
	char err[256];
	double v;

	(void)state;
	assert_int_equal(
		rperf_parse_double("99.9", 0, 100, &v, err, sizeof(err)), 0);
	assert_true(v == 99.9);
	assert_int_equal(rperf_parse_double("100.1", 0, 100, &v, err,
					    sizeof(err)),
			 ERANGE);
	assert_int_equal(rperf_parse_double("nan", 0, 100, &v, err,
					    sizeof(err)),
			 EINVAL);
	assert_int_equal(rperf_parse_double("inf", 0, 100, &v, err,
					    sizeof(err)),
			 EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sizes), cmocka_unit_test(counts),
		cmocka_unit_test(ints),	 cmocka_unit_test(times),
		cmocka_unit_test(rates), cmocka_unit_test(doubles),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
