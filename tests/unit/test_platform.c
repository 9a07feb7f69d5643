// SPDX-License-Identifier: BSD-2-Clause
/* Unit tests of rperf_platform_collect (src/host/platform.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include <rperf/platform.h>

#include "version.h"

static void test_collect(void **state)
{
	struct rperf_platform p;
	unsigned int y, mo, d, h, mi, s;
	char z = 0;

	(void)state;
	memset(&p, 0x5a, sizeof(p)); /* collect must not rely on zeroed input */
	assert_int_equal(rperf_platform_collect(&p), 0);
	/* every string is terminated */
	assert_true(strlen(p.hostname) < sizeof(p.hostname));
	assert_true(strlen(p.os) < sizeof(p.os));
	assert_true(strlen(p.cpu_model) < sizeof(p.cpu_model));
	assert_true(strlen(p.kernel) > 0);
	assert_non_null(strstr(p.kernel, "Linux"));
	assert_true(strlen(p.arch) > 0);
	assert_true(p.cpus_online >= 1);
	assert_true(p.numa_nodes >= 0);
	assert_string_equal(p.rperf_version, RPERF_VERSION);
	assert_string_equal(p.ibverbs_version, RPERF_IBVERBS_VERSION);
	assert_string_equal(p.rdmacm_version, RPERF_RDMACM_VERSION);
	assert_memory_equal(p.json_library, "jansson ", 8);
	/* the model, never the current frequency */
	assert_null(strstr(p.cpu_model, "MHz"));
	assert_int_equal(strlen(p.timestamp), 20);
	assert_int_equal(sscanf(p.timestamp, "%4u-%2u-%2uT%2u:%2u:%2u%c", &y,
				&mo, &d, &h, &mi, &s, &z),
			 7);
	assert_int_equal(z, 'Z');
	assert_true(y >= 2024 && mo >= 1 && mo <= 12 && d >= 1 && d <= 31);
	/* no quotes left from os-release */
	assert_null(strchr(p.os, '"'));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_collect),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
