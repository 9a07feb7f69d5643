/* SPDX-License-Identifier: BSD-2-Clause */
/* perftest's habits in the parser (issue 11): hyphen and underscore
 * spellings, the nearest option, -n with -D, the server taking run flags,
 * perftest's flags and their refusals and notes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "job/options.h"
#include "cli/parse.h"
#include "cli_fixture.h"
#include "cli/parse_perftest.h"
#include "twohost/twohost_parity.h"

static void expect_in(const char *hay, const char *needle)
{
	if (!strstr(hay, needle))
		fail_msg("'%s' lacks '%s'", hay, needle);
}

/* Every long option under its hyphen and its underscore spelling. */
static void hyphen_and_underscore(void **state)
{
	static struct result r;

	(void)state;
	parse(&r, "bw", "--tx_depth", "64", "--post-list", "2", "--cq_mod", "8",
	      "--retry_count", "3", "--rdma-cm", "--rate-limit", "1",
	      "--rate-units", "g", "h", NULL);
	assert_int_equal(r.rc, 0);
	assert_int_equal(r.cfg.spec.tx_depth, 64);
	assert_int_equal(r.cfg.spec.post_list, 2);
	assert_int_equal(r.cfg.spec.cq_mod, 8);
	assert_int_equal(r.cfg.spec.path.retry_count, 3);
	assert_true(r.cfg.spec.test.rdma_cm);
	parse(&r, "lat", "--source-ip", "10.0.0.2", "--out-json-file=x.json",
	      "--pair_order", "sequential", "-R", "h", NULL);
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.cfg.source_ip, "10.0.0.2");
	assert_string_equal(r.cfg.out_json_file, "x.json");
	parse(&r, "bw", "--no-peak-bw", "--no_peak_bw", "h", NULL);
	assert_int_equal(r.rc, 0);
	assert_true(r.cfg.no_peak);
}

/* An unknown option names the nearest one; a far one gets no guess. */
static void did_you_mean(void **state)
{
	static struct result r;
	char buf[64];

	(void)state;
	parse(&r, "lat", "--sise", "64", "h", NULL);
	assert_int_not_equal(r.rc, 0);
	expect_in(
		r.err,
		"--sise: unknown option of 'rperf lat'; did you mean -s/--size?");
	parse(&r, "bw", "--report-gbit", "h", NULL); /* a prefix: getopt's */
	assert_int_equal(r.rc, 0);
	parse(&r, "bw", "--reprot_gbits", "h", NULL);
	expect_in(r.err, "did you mean --report_gbits?");
	parse(&r, "lat", "--iter=5", "--itres=5", "h", NULL);
	expect_in(r.err, "did you mean -n/--iters?");
	parse(&r, "lat", "--frobnicate", "h", NULL);
	assert_int_not_equal(r.rc, 0);
	assert_null(strstr(r.err, "did you mean"));
	assert_false(
		rperf_cli_suggest(RPERF_CMD_LAT, "--xy", buf, sizeof(buf)));
	assert_true(rperf_cli_suggest(RPERF_CMD_BW, "--tx-dpth=4", buf,
				      sizeof(buf)));
	assert_string_equal(buf, "-t/--tx-depth");
}

/* perftest: -n with -D runs for the duration, with a warning. */
static void iters_with_duration(void **state)
{
	static struct result r;

	(void)state;
	parse(&r, "lat", "-n", "1000", "-D", "2", "h", NULL);
	assert_int_equal(r.rc, 0);
	assert_int_equal(r.cfg.spec.test.iters, 0);
	assert_int_equal(r.cfg.global.duration_ns, 2000000000ull);
	expect_in(r.notes, "-n/--iters: given with -D/--duration; -D wins");
	parse(&r, "lat", "-n", "1000", "h", NULL);
	assert_string_equal(r.notes, "");
}

/* The server accepts every run flag the client does and records them. */
static void server_takes_run_flags(void **state)
{
	static struct result r;
	const struct rperf_opt *s = rperf_opt_find("size");

	(void)state;
	parse(&r, "lat", "-d", "rxe_h1", "-s", "64", "-n", "1000", "-F", "-R",
	      "-e", "-q", "2", "-b", "--report_gbits", NULL);
	assert_int_equal(r.rc, 0);
	assert_null(r.cfg.host);
	assert_true(rperf_parity_given(&r.cfg, rperf_opt_index(s)));
	assert_false(rperf_parity_given(
		&r.cfg, rperf_opt_index(rperf_opt_find("duration"))));
	expect_in(r.notes, "-q/--qp, -b/--bidirectional: bandwidth options");
	expect_in(r.notes, "-e/--events");
	expect_in(r.notes,
		  "on the server, --report_gbits only serves the client");
	parse(&r, "lat", "-q", "2", "--report_gbits", "h", NULL);
	expect_in(r.notes, "-q/--qp, --report_gbits: bandwidth options");
	parse(&r, "bw", "-a", "-n", "200", "-R", "-T", "96", "-z", "10.0.0.2",
	      "--burst_size", "8", "--rate_limit", "100", NULL);
	assert_int_equal(r.rc, 0);
	assert_int_equal(r.cfg.tos, 96);
	assert_int_equal(r.cfg.spec.burst_size, 8);
	assert_int_equal(r.cfg.nsizes, 23);
	/* a client with the same flags says nothing of them */
	parse(&r, "bw", "-s", "64", "-n", "1000", "-F", "h", NULL);
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.notes, "");
}

/* perftest flags rperf cannot honour: clear refusals. */
static void refusals(void **state)
{
	static struct result r;

	(void)state;
	parse(&r, "lat", "-c", "UD", "h", NULL);
	expect_in(r.err, "-c/--connection: UD is not supported; accepted: RC");
	parse(&r, "bw", "-c", "RC", "h", NULL);
	assert_int_equal(r.rc, 0);
	parse(&r, "bw", "--rate_limit", "1", "--rate_limit_type", "HW", "h",
	      NULL);
	expect_in(r.err,
		  "--rate_limit_type: HW is not supported; accepted: SW");
	parse(&r, "bw", "--burst_size", "4", "h", NULL);
	expect_in(r.err, "--burst_size: given without --rate_limit");
	parse(&r, "lat", "--all-max", "4K", "h", NULL);
	expect_in(r.err, "--all-max: given without -a");
	parse(&r, "lat", "-a", "--all-max", "4K", "h", NULL);
	assert_int_equal(r.rc, 0);
	assert_int_equal(r.cfg.nsizes, 12);
	assert_int_equal(r.cfg.sizes[11], 4096);
	parse(&r, "lat", "-z", "10.0.0.2", "h", NULL);
	assert_int_equal(r.rc, 0);
	expect_in(r.notes, "ignored without -R");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(hyphen_and_underscore),
		cmocka_unit_test(did_you_mean),
		cmocka_unit_test(iters_with_duration),
		cmocka_unit_test(server_takes_run_flags),
		cmocka_unit_test(refusals),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
