/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * perftest's output habits on the command line (src/job/options_report.c
 * and the defaults): -H, -U, --cpu_util, -w/--limit_bw, --limit_lat,
 * --run_infinitely with -D, --rate_units' default, rperf bw's size.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cli/help.h"
#include "job/options.h"
#include "cli/parse.h"

#include "cli_fixture.h"

static void perftest_defaults(void **state)
{
	static struct result r;

	(void)state;
	parse(&r, "bw", "10.0.0.1", NULL);
	assert_int_equal(r.rc, 0);
	assert_int_equal(r.cfg.nsizes, 1);
	assert_int_equal(r.cfg.sizes[0], 65536); /* ib_*_bw's default */
	assert_int_equal(r.cfg.rate_units, RPERF_RATE_GBPS); /* perftest's */
	assert_false(r.cfg.cpu_util);
	assert_true(r.cfg.limit_bw == 0);
	parse(&r, "lat", "10.0.0.1", NULL);
	assert_int_equal(r.rc, 0);
	assert_int_equal(r.cfg.sizes[0], 64);
	assert_int_equal(r.cfg.limit_lat_ns, 0);
	assert_false(r.cfg.report_histogram);
	assert_false(r.cfg.report_unsorted);
	/* an explicit unit still wins */
	parse(&r, "bw", "--rate_limit", "10", "--rate_units", "M", "h", NULL);
	assert_int_equal(r.rc, 0);
	assert_int_equal(r.cfg.rate_units, RPERF_RATE_MBPS);
}

static void report_flags(void **state)
{
	static struct result r;

	(void)state;
	/* -H and -U are flags, as in perftest: the host is not eaten */
	parse(&r, "lat", "-H", "-U", "--cpu_util", "--limit_lat", "25", "h",
	      NULL);
	assert_int_equal(r.rc, 0);
	assert_true(r.cfg.report_histogram);
	assert_true(r.cfg.report_unsorted);
	assert_true(r.cfg.cpu_util);
	assert_int_equal(r.cfg.limit_lat_ns, 25000); /* bare: microseconds */
	assert_string_equal(r.cfg.host, "h");
	parse(&r, "bw", "-w", "2.5", "--cpu_util", "h", NULL);
	assert_int_equal(r.rc, 0);
	assert_true(r.cfg.limit_bw == 2.5);
	assert_true(r.cfg.cpu_util);
	parse(&r, "bw", "--limit_bw", "1k", "h", NULL);
	assert_int_equal(r.rc, 0);
	assert_true(r.cfg.limit_bw == 1000);
	/* lat-only and bw-only letters stay where they mean something */
	parse(&r, "bw", "-H", "h", NULL);
	assert_int_not_equal(r.rc, 0);
	parse(&r, "lat", "-w", "1", "h", NULL);
	assert_int_not_equal(r.rc, 0);
	parse(&r, "bw", "-w", "-1", "h", NULL);
	assert_int_not_equal(r.rc, 0);
	assert_non_null(strstr(r.err, "limit_bw"));
	parse(&r, "lat", "--limit_lat", "0", "h", NULL);
	assert_int_not_equal(r.rc, 0);
	assert_non_null(strstr(r.err, "limit_lat"));
}

static void run_infinitely(void **state)
{
	static struct result r;

	(void)state;
	/* perftest's -D with --run_infinitely: the report period */
	parse(&r, "bw", "--run_infinitely", "-D", "2", "h", NULL);
	assert_int_equal(r.rc, 0);
	assert_true(r.cfg.run_infinitely);
	assert_int_equal(r.cfg.global.duration_ns, 2000000000ull);
	parse(&r, "bw", "--run_infinitely", "h", NULL);
	assert_int_equal(r.rc, 0);
	assert_int_equal(r.cfg.global.duration_ns, 0);
	parse(&r, "bw", "--run_infinitely", "-n", "5", "h", NULL);
	assert_int_not_equal(r.rc, 0);
	assert_non_null(strstr(r.err, "--run_infinitely"));
	assert_non_null(strstr(r.err, "accepted"));
}

/* --help covers the flags; the exit text names every pass/fail limit. */
static void help_text(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(m);
	rperf_cli_help(m, RPERF_CMD_LAT);
	rperf_cli_help(m, RPERF_CMD_BW);
	fclose(m);
	assert_non_null(strstr(buf, "-H, --report-histogram"));
	assert_non_null(strstr(buf, "-U, --report-unsorted"));
	assert_non_null(strstr(buf, "--cpu_util"));
	assert_non_null(strstr(buf, "-w, --limit_bw=BW"));
	assert_non_null(strstr(buf, "--limit_lat=TIME"));
	assert_non_null(strstr(buf, "--warmup samples"));
	assert_non_null(strstr(buf, "bw 65536"));
	assert_non_null(strstr(buf, "report every N seconds"));
	assert_non_null(strstr(buf, "1 a pass/fail limit"));
	assert_null(strstr(buf, "1 a --max-* threshold"));
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(perftest_defaults),
		cmocka_unit_test(report_flags),
		cmocka_unit_test(run_infinitely),
		cmocka_unit_test(help_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
