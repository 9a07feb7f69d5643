/* SPDX-License-Identifier: BSD-2-Clause */
/* Same flags on both sides (twohost/twohost_parity.h): a flag given on the
 * server that agrees with the client's PARAMS is silent; one that disagrees
 * refuses the client naming both values. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "cli/parse.h"
#include "twohost/twohost_parity.h"

struct side {
	struct rperf_cmdline cfg;
	char words[32][64];
};

static void parse(struct side *s, const char *first, ...)
{
	enum rperf_cli_action act;
	char *argv[32], err[256];
	int argc = 0;
	va_list ap;

	memset(s, 0, sizeof(*s));
	argv[argc++] = strcpy(s->words[0], "rperf");
	va_start(ap, first);
	for (const char *w = first; w; w = va_arg(ap, const char *))
		argv[argc] = strcpy(s->words[argc], w), argc++;
	va_end(ap);
	argv[argc] = NULL;
	if (rperf_cli_parse(argc, argv, &s->cfg, &act, err, sizeof(err)))
		fail_msg("parse: %s", err);
}

static struct side srv, cli;

/* The server's check of what @cli ships: 0, or the refusal in @e. */
static int check(struct rperf_err *e)
{
	json_t *params = json_object();
	int rc;

	memset(e, 0, sizeof(*e));
	assert_int_equal(rperf_parity_ship(&cli.cfg, params), 0);
	rc = rperf_parity_check(&srv.cfg, params, e);
	json_decref(params);
	return rc;
}

static void expect_refusal(const char *needle)
{
	struct rperf_err e;

	assert_int_equal(check(&e), EINVAL);
	assert_int_equal(e.cls, RPERF_ERRC_USAGE);
	if (!strstr(e.msg, needle))
		fail_msg("'%s' lacks '%s'", e.msg, needle);
}

static void agree_is_silent(void **state)
{
	struct rperf_err e;

	(void)state;
	parse(&srv, "lat", "-d", "rxe_h1", "-s", "64", "-n", "1000", "-F",
	      NULL);
	parse(&cli, "lat", "-d", "rxe_h2", "-s", "64", "-n", "1000", "-F", "h1",
	      NULL);
	assert_int_equal(check(&e), 0);
	assert_string_equal(e.msg, "");
	/* not given on the server: the client's value stands */
	parse(&srv, "bw", NULL);
	parse(&cli, "bw", "-q", "4", "-s", "4K", "-b", "h1", NULL);
	assert_int_equal(check(&e), 0);
	/* the default agrees with a server that names it */
	parse(&srv, "lat", "-s", "64", NULL);
	parse(&cli, "lat", "h1", NULL);
	assert_int_equal(check(&e), 0);
	/* each side's own device, placement and report options */
	parse(&srv, "bw", "-d", "a", "--cpu-node", "0", "--report_gbits",
	      "--out_json_file", "s.json", NULL);
	parse(&cli, "bw", "-d", "b", "h1", NULL);
	assert_int_equal(check(&e), 0);
	parse(&srv, "bw", "-a", "-n", "200", "-R", NULL);
	parse(&cli, "bw", "-a", "-n", "200", "-R", "h1", NULL);
	assert_int_equal(check(&e), 0);
}

static void disagree_names_both(void **state)
{
	(void)state;
	parse(&srv, "lat", "-s", "64", NULL);
	parse(&cli, "lat", "-s", "4096", "h1", NULL);
	expect_refusal(
		"-s/--size: the server was started with 64, the client asks for 4096; start both with the same value or leave it off the server");
	parse(&srv, "bw", "-b", NULL);
	parse(&cli, "bw", "h1", NULL);
	expect_refusal(
		"-b/--bidirectional: the server was started with it, the client runs without it");
	parse(&srv, "bw", "-D", "5", NULL);
	parse(&cli, "bw", "-D", "250ms", "h1", NULL);
	expect_refusal(
		"the server was started with 5s, the client asks for 250ms");
	parse(&srv, "lat", "--method", "pingpong", NULL);
	parse(&cli, "lat", "h1", NULL);
	expect_refusal(
		"--method: the server was started with pingpong, the client asks for rperf");
	parse(&srv, "lat", "-s", "64", NULL);
	parse(&cli, "lat", "-a", "h1", NULL);
	expect_refusal("the client asks for 2,4,8,16,... (23 sizes)");
	parse(&srv, "bw", "--sizes", "64,4K", NULL);
	parse(&cli, "bw", "-s", "64", "h1", NULL);
	expect_refusal(
		"--sizes: the server was started with 64,4096, the client asks for 64;");
}

/* A client that ships no "options" (older) is not checked. */
static void no_options_shipped(void **state)
{
	struct rperf_err e = { 0 };
	json_t *params = json_object();

	(void)state;
	parse(&srv, "lat", "-s", "64", NULL);
	assert_int_equal(rperf_parity_check(&srv.cfg, params, &e), 0);
	json_decref(params);
}

/* Which options a server checks, keeps as its own, or ignores. */
static void kinds(void **state)
{
	const struct rperf_opt unlisted = { .name = "report-both",
					    .type = RPERF_OT_FLAG };

	(void)state;
	assert_int_equal(rperf_parity_kind(rperf_opt_find("size")),
			 RPERF_PARITY_RUN);
	assert_int_equal(rperf_parity_kind(rperf_opt_find("ib-dev")),
			 RPERF_PARITY_HOST);
	assert_int_equal(rperf_parity_kind(rperf_opt_find("CPU-freq")),
			 RPERF_PARITY_HOST);
	assert_int_equal(rperf_parity_kind(rperf_opt_find("out_json_file")),
			 RPERF_PARITY_CLIENT);
	assert_int_equal(rperf_parity_kind(rperf_opt_find("report-both")),
			 RPERF_PARITY_CLIENT);
	/* the kind is the entry's scope, never looked up by name */
	assert_int_equal(rperf_parity_kind(&unlisted), RPERF_PARITY_RUN);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(agree_is_silent),
		cmocka_unit_test(disagree_names_both),
		cmocka_unit_test(no_options_shipped),
		cmocka_unit_test(kinds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
