/* SPDX-License-Identifier: BSD-2-Clause */
/* Job file errors: each names FILE:LINE, the section and the key. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "job/job.h"

/* 8 lines: hosts h1..h4 */
#define HOSTS4                            \
	"[host h1]\ncontrol = 10.0.0.1\n" \
	"[host h2]\ncontrol = 10.0.0.2\n" \
	"[host h3]\ncontrol = 10.0.0.3\n" \
	"[host h4]\ncontrol = 10.0.0.4\n"
/* lines 9..11 */
#define BSG "[bsg b]\nfrom = h2\nto = h1\n"
#define LSG "[lsg l]\nfrom = h2\nto = h1\n"

/* Cases give {text, want} or {text, want, also}. */
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

struct bad_case {
	const char *text;
	const char *want; /* the message starts with it */
	const char *also; /* and contains this (NULL: nothing more) */
};

static const struct bad_case cases[] = {
	/* sections */
	{ "[hots h1]\ncontrol = a\n",
	  "t.ini:1: [hots h1]: unknown section type 'hots'; did you mean 'host'?" },
	{ HOSTS4 "[BSG b]\nfrom=h1\nto=h2\n",
	  "t.ini:9: [BSG b]: unknown section type 'BSG'; did you mean 'bsg'?" },
	{ "[experiment]\n", "t.ini:1: [experiment]: unknown section type",
	  "sections are [global], [host NAME], [lsg NAME], [bsg NAME] and [mesh NAME]" },
	{ "[host]\ncontrol = a\n", "t.ini:1: [host]: missing name",
	  "[host NAME]" },
	{ "[global x]\n", "t.ini:1: [global x]: [global] takes no name" },
	{ "[host a b]\n", "t.ini:1: [host a b]: a section name is one word" },
	{ "[host a\n", "t.ini:1: section header without ']'" },
	{ "[host a] x = 1\n", "t.ini:1: text after the section header" },
	{ "[host a/b]\n", "t.ini:1: [host a/b]: bad name 'a/b'" },
	{ "[]\n", "t.ini:1: []: bad section header" },
	{ HOSTS4 "[host h2]\ncontrol = x\n",
	  "t.ini:9: [host h2]: duplicate section (first at line 3 as [host h2])" },
	{ HOSTS4 LSG "[bsg l]\nfrom = h3\nto = h1\n",
	  "t.ini:12: [bsg l]: duplicate section (first at line 9 as [lsg l])" },
	{ "[global]\n[global]\n",
	  "t.ini:2: [global]: duplicate section (first at line 1" },
	/* keys */
	{ "duration = 1s\n[global]\n",
	  "t.ini:1: duration: key outside a section; put it under [global]" },
	{ "[global]\nduraton = 5s\n",
	  "t.ini:2: [global] duraton: unknown key; did you mean 'duration'?" },
	{ HOSTS4 BSG "szie = 4K\n",
	  "t.ini:12: [bsg b] szie: unknown key; did you mean 'size'?" },
	{ HOSTS4 BSG "tx-depth = 4\n",
	  "t.ini:12: [bsg b] tx-depth: unknown key; did you mean 'tx_depth'?" },
	{ HOSTS4 BSG "qp = 4\n",
	  "t.ini:12: [bsg b] qp: unknown key; did you mean 'qps'?" },
	{ "[host h1]\ncontrl = a\n",
	  "t.ini:2: [host h1] contrl: unknown key; did you mean 'control'?" },
	{ "[host h1]\nzzzzzzzz = 1\n",
	  "t.ini:2: [host h1] zzzzzzzz: unknown key; [host] takes: control, device, port, gid_index, cpu" },
	{ HOSTS4 LSG "tx_depth = 4\n",
	  "t.ini:12: [lsg l] tx_depth: applies to [bsg] sections only" },
	{ HOSTS4 BSG "pair_order = alternate\n",
	  "t.ini:12: [bsg b] pair_order: applies to [lsg] sections only" },
	{ HOSTS4 BSG "duration = 1s\n",
	  "t.ini:12: [bsg b] duration: applies to [global] sections only" },
	{ "[global]\nsize = 1\n",
	  "t.ini:2: [global] size: applies to [lsg] and [bsg] sections only" },
	{ HOSTS4 BSG "size = 1K\nsize = 2K\n",
	  "t.ini:13: [bsg b] size: given twice (first at line 12); keep one" },
	{ HOSTS4 BSG "size =\n", "t.ini:12: [bsg b] size: no value" },
	{ HOSTS4 BSG "= 4K\n", "t.ini:12: no key before '='" },
	{ "[global]\nthis is not ini\n",
	  "t.ini:2: cannot read 'this is not ini'", "key = value" },
	/* values */
	{ HOSTS4 LSG "sl = 16\n",
	  "t.ini:12: [lsg l] sl: '16' is out of range; accepted: an integer from 0 to 15" },
	{ HOSTS4 LSG "tclass = 256\n",
	  "t.ini:12: [lsg l] tclass: '256' is out of range; accepted: an integer from 0 to 255" },
	{ HOSTS4 LSG "qp_timeout = 32\n",
	  "t.ini:12: [lsg l] qp_timeout: '32'" },
	{ HOSTS4 LSG "retry_count = 8\n",
	  "t.ini:12: [lsg l] retry_count: '8'" },
	{ HOSTS4 LSG "completion = busy\n",
	  "t.ini:12: [lsg l] completion: 'busy' is not a choice; accepted: poll, event" },
	{ HOSTS4 LSG "size = 0\n",
	  "t.ini:12: [lsg l] size: '0' is out of range" },
	{ HOSTS4 BSG "qps = 0\n",
	  "t.ini:12: [bsg b] qps: '0' is out of range" },
	{ HOSTS4 BSG "rate = -1M\n",
	  "t.ini:12: [bsg b] rate: '-1M' is not a rate" },
	{ HOSTS4 BSG "verb = wirte\n",
	  "t.ini:12: [bsg b] verb: 'wirte' is not a choice; did you mean 'write'?" },
	{ HOSTS4 LSG "pair_order = wirefirst\n",
	  "t.ini:12: [lsg l] pair_order: 'wirefirst' is not a choice; did you mean 'wire_first'?" },
	{ "[host h1]\ncontrol = a\ngid_index = 256\n",
	  "t.ini:3: [host h1] gid_index: '256' is out of range" },
	{ "[global]\nsink_completion = spin\n",
	  "t.ini:2: [global] sink_completion: 'spin' is not a choice" },
	{ "[global]\ntimeout = 1ms\n",
	  "t.ini:2: [global] timeout:", "out of range" },
	{ "[host h1]\ncontrol = a\nport = 0\n",
	  "t.ini:3: [host h1] port: '0'" },
	{ "[host h1]\ncontrol = a\ngid_index = x\n",
	  "t.ini:3: [host h1] gid_index: 'x' is not an integer",
	  "or auto (-1)" },
	{ "[host h1]\ncontrol = a\ncpu = all\n",
	  "t.ini:3: [host h1] cpu: 'all' is not an integer", "or none (-1)" },
	{ "[host h1]\ncontrol = a\ndevice = mlx 5\n",
	  "t.ini:3: [host h1] device: 'mlx 5' is not a device name" },
	/* control */
	{ "[host h1]\ncontrol = fe80::1\n",
	  "t.ini:2: [host h1] control: 'fe80::1': an IPv6 address goes in brackets" },
	{ "[host h1]\ncontrol = [fe80::1\n",
	  "t.ini:2: [host h1] control: '[fe80::1' is not an address" },
	{ "[host h1]\ncontrol = [fe80::1]x\n", "t.ini:2: [host h1] control:" },
	{ "[host h1]\ncontrol = a:0\n",
	  "t.ini:2: [host h1] control: '0' is out of range" },
	{ "[host h1]\ncontrol = a:70000\n", "t.ini:2: [host h1] control:" },
	{ "[host h1]\ncontrol = :5\n", "t.ini:2: [host h1] control:" },
	{ "[host h1]\ncontrol = a b\n", "t.ini:2: [host h1] control:" },
	{ "[host h1]\ncontrol = local:18521\n",
	  "t.ini:2: [host h1] control: 'local:18521': a local agent takes no port" },
	{ "[host h1]\ndevice = mlx5_0\n",
	  "t.ini:1: [host h1]: no 'control' key; add control = ADDR[:PORT]" },
	/* references */
	{ HOSTS4 "[bsg b]\nfrom = h2, nowhere\nto = h1\n",
	  "t.ini:10: [bsg b] from: unknown host 'nowhere'; define [host nowhere] or use one of: h1, h2, h3, h4" },
	{ HOSTS4 "[bsg b]\nfrom = h2\nto = hh1\n",
	  "t.ini:11: [bsg b] to: unknown host 'hh1'; did you mean 'h1'?" },
	{ "[lsg l]\nfrom = a\nto = b\n",
	  "t.ini:2: [lsg l] from: unknown host 'a'", "(no [host] section)" },
	{ HOSTS4 "[bsg b]\nfrom = h2,h3\nto = h3\n",
	  "t.ini:11: [bsg b] to: 'h3' is also in from (line 10)",
	  "cannot send to its own host" },
	{ HOSTS4 "[bsg b]\nto = h1\n",
	  "t.ini:9: [bsg b]: no 'from' key; add from = HOST[,HOST...]" },
	{ HOSTS4 "[lsg l]\nfrom = h1\n",
	  "t.ini:9: [lsg l]: no 'to' key; add to = HOST" },
	{ HOSTS4 "[bsg b]\nfrom = h2\nto = h1,h3\n",
	  "t.ini:11: [bsg b] to: 'h1,h3': one destination per section" },
	{ HOSTS4 "[bsg b]\nfrom = h2,,h3\nto = h1\n",
	  "t.ini:10: [bsg b] from: empty or too long host name in 'h2,,h3'" },
	{ HOSTS4 "[bsg b]\nfrom = h2,\nto = h1\n",
	  "t.ini:10: [bsg b] from: empty" },
	{ HOSTS4 "[bsg b]\nfrom = h2,h3,h2\nto = h1\n",
	  "t.ini:10: [bsg b] from: host 'h2' listed twice" },
	{ HOSTS4 "[bsg b]\nfrom = h2\ncount = 2\nto = h1\n",
	  "t.ini:11: [bsg b] count: 2 but from lists 1 host;" },
	/* schedules, on/off, interval */
	{ HOSTS4 LSG "schedule = poison:500\n",
	  "t.ini:12: [lsg l] schedule: 'poison:500' is not a probe schedule; accepted: closed, fixed:RATE or poisson:RATE" },
	{ HOSTS4 BSG "schedule = closed\n",
	  "t.ini:12: [bsg b] schedule: applies to [lsg] sections only" },
	{ HOSTS4 LSG "schedule = poisson:500\nrate = 1M\n",
	  "t.ini:12: [lsg l] schedule: 'schedule' poisson and 'rate' both pace the LSG; keep one" },
	{ HOSTS4 LSG "schedule = poisson:500\npair_order = sequential\n",
	  "t.ini:12: [lsg l] schedule: 'schedule' poisson takes method rperf and a pair_order other than sequential" },
	{ HOSTS4 LSG "method = postpoll\nschedule = fixed:100\n",
	  "t.ini:13: [lsg l] schedule: 'schedule' fixed takes method rperf" },
	{ HOSTS4 BSG "max_p50 = 1ms\n",
	  "t.ini:12: [bsg b] max_p50: applies to [lsg] sections only" },
	{ HOSTS4 "[mesh m]\nmax_p999 = 1ms\n",
	  "t.ini:10: [mesh m] max_p999: an RTT limit judges an [lsg]'s own instances" },
	{ HOSTS4 BSG "on = 200ms\n",
	  "t.ini:12: [bsg b] on: 'on' and 'off' go together" },
	{ HOSTS4 BSG "off = 0\n", "t.ini:12: [bsg b] off:" },
	{ HOSTS4 LSG "on = 1s\n",
	  "t.ini:12: [lsg l] on: applies to [bsg] sections only" },
	{ HOSTS4 LSG "interval = 100us\n",
	  "t.ini:12: [lsg l] interval: 'interval' is not 0 (none) or 1 ms .. 1 day" },
	/* nothing to run */
	{ HOSTS4,
	  "t.ini: no [lsg NAME], [bsg NAME] or [mesh NAME] section: nothing to run" },
};

static void bad_jobs(void **state)
{
	char err[512];
	int fails = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct bad_case *c = &cases[i];
		struct rperf_job *job = (struct rperf_job *)1;
		int rc;

		err[0] = '\0';
		rc = rperf_job_parse(c->text, "t.ini", &job, err, sizeof(err));
		if (rc != EINVAL || job ||
		    strncmp(err, c->want, strlen(c->want)) ||
		    (c->also && !strstr(err, c->also)) || strchr(err, '\n')) {
			print_error("case %zu: rc %d\n got: %s\nwant: %s%s%s\n",
				    i, rc, err, c->want, c->also ? " ... " : "",
				    c->also ? c->also : "");
			fails++;
		}
	}
	assert_int_equal(fails, 0);
}

/* Small buffers truncate the message, never overflow; NULL is fine. */
static void small_buffers(void **state)
{
	struct rperf_job *job;
	char err[16];

	(void)state;
	memset(err, 'x', sizeof(err));
	assert_int_equal(rperf_job_parse("[hots a]\n", "t.ini", &job, err, 8),
			 EINVAL);
	assert_int_equal(strlen(err), 7);
	assert_int_equal(err[9], 'x');
	assert_int_equal(rperf_job_parse("[hots a]\n", "t.ini", &job, NULL, 0),
			 EINVAL);
	assert_null(job);
}

static void missing_file(void **state)
{
	struct rperf_job *job = (struct rperf_job *)1;
	char err[256];

	(void)state;
	assert_int_equal(rperf_job_load("/nonexistent/x.ini", &job, err,
					sizeof(err)),
			 ENOENT);
	assert_null(job);
	assert_non_null(strstr(err, "/nonexistent/x.ini"));
	assert_non_null(strstr(err, "No such file"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(bad_jobs),
		cmocka_unit_test(small_buffers),
		cmocka_unit_test(missing_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
