/* SPDX-License-Identifier: BSD-2-Clause */
/* Option parsing of valid and invalid command lines (src/cli). */
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
#include "job/job.h"
#include "twohost/twohost_bw.h"
#include "twohost/twohost_lat.h"
#include "cli_fixture.h"

static void expect_error(const char *needle, struct result *r)
{
	assert_int_not_equal(r->rc, 0);
	if (!strstr(r->err, needle))
		fail_msg("error '%s' lacks '%s'", r->err, needle);
	assert_null(strchr(r->err, '\n'));
	assert_non_null(strstr(r->err, "accepted"));
}

static void lat_defaults(void **state)
{
	static struct result r;

	(void)state;
	parse(&r, "lat", "10.0.0.1", NULL);
	assert_int_equal(r.rc, 0);
	assert_int_equal(r.act, RPERF_ACT_RUN);
	assert_int_equal(r.cfg.cmd, RPERF_CMD_LAT);
	assert_string_equal(r.cfg.host, "10.0.0.1");
	assert_int_equal(r.cfg.nsizes, 1);
	assert_int_equal(r.cfg.sizes[0], 64);
	assert_int_equal(r.cfg.spec.test.iters, 10000);
	assert_int_equal(r.cfg.spec.warmup_samples, 1000);
	assert_int_equal(r.cfg.tcp_port, RPERF_DEFAULT_TCP_PORT);
	assert_int_equal(r.cfg.sel.gid_index, -1);
	assert_int_equal(r.cfg.npercentiles, 4);
	assert_true(r.cfg.percentiles[2] == 99.9);
}

/* The warm-up scales with -n unless --warmup is given (README, man page):
 * a tenth of -n within [10 (or -n), 1000]; 1000 with -D. */
static void warmup_scales(void **state)
{
	static struct result r;
	static const struct {
		const char *n;
		uint64_t warmup;
	} want[] = { { "200", 20 },
		     { "5", 5 },
		     { "50", 10 },
		     { "2000", 200 },
		     { "100000", 1000 } };

	(void)state;
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		parse(&r, "lat", "-a", "-n", want[i].n, "h", NULL);
		assert_int_equal(r.rc, 0);
		assert_int_equal(r.cfg.spec.warmup_samples, want[i].warmup);
	}
	parse(&r, "lat", "-D", "3", "h", NULL);
	assert_int_equal(r.cfg.spec.warmup_samples, 1000);
	parse(&r, "lat", "--warmup", "7", "-n", "200", "h", NULL);
	assert_int_equal(r.cfg.spec.warmup_samples, 7);
	parse(&r, "lat", "-n", "200", "--warmup", "0", "h", NULL);
	assert_int_equal(r.cfg.spec.warmup_samples, 0);
}

/* A size above what every rperf server accepts (16 MiB) is refused by the
 * client before it connects, naming the option and the bound. */
static void size_above_server_max(void **state)
{
	static struct result r;

	(void)state;
	parse(&r, "lat", "-s", "32M", "h", NULL);
	expect_error("-s/--size: 33554432 B is above the largest message an "
		     "rperf server accepts, 16777216 B",
		     &r);
	parse(&r, "bw", "--sizes", "64,17M", "h", NULL);
	expect_error("--sizes: 17825792 B", &r);
	parse(&r, "lat", "-s", "16M", "h", NULL);
	assert_int_equal(r.rc, 0);
	parse(&r, "lat", "-s", "32M", NULL); /* a server: no client sizes */
	assert_int_equal(r.rc, 0);
}

static void lat_options(void **state)
{
	static struct result r;

	(void)state;
	parse(&r, "lat", "-d", "rxe_h2", "-i", "1", "-x", "3", "-s", "4K", "-S",
	      "15", "--tclass", "96", "-p", "20000", "--method", "all",
	      "--pair-order", "sequential", "-D", "1.5s", "--percentiles",
	      "50,99.9", "--out_json_file", "o.json", "-m", "1024", "h1", NULL);
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.cfg.sel.device, "rxe_h2");
	assert_int_equal(r.cfg.sel.gid_index, 3);
	assert_int_equal(r.cfg.sizes[0], 4096);
	assert_int_equal(r.cfg.spec.path.sl, 15);
	assert_int_equal(r.cfg.spec.path.tclass, 96);
	assert_int_equal(r.cfg.tcp_port, 20000);
	assert_int_equal(r.cfg.spec.test.method, RPERF_METHOD_ALL);
	assert_int_equal(r.cfg.spec.pair_order, RPERF_PAIR_SEQUENTIAL);
	assert_int_equal(r.cfg.global.duration_ns, 1500000000ull);
	assert_int_equal(r.cfg.spec.test.iters, 0);
	assert_int_equal(r.cfg.npercentiles, 2);
	assert_true(r.cfg.out_json); /* implied by --out_json_file */
	assert_string_equal(r.cfg.out_json_file, "o.json");
	assert_int_equal(r.cfg.spec.path.mtu, 1024);
	assert_string_equal(r.cfg.host, "h1");
	assert_int_equal(r.cfg.spec.timestamps,
			 RPERF_TS_AUTO); /* the default */
	parse(&r, "lat", "--timestamps", "nic", "h1", NULL);
	assert_int_equal(r.rc, 0);
	assert_int_equal(r.cfg.spec.timestamps, RPERF_TS_NIC);
	parse(&r, "lat", "--timestamps", "cpu", "h1", NULL);
	assert_int_equal(r.cfg.spec.timestamps, RPERF_TS_CPU);
	parse(&r, "lat", "--timestamps", "hca", "h1", NULL);
	expect_error("--timestamps", &r);
	/* one name table: the job file's spelling works here too, and a
	 * refusal lists the command line's */
	parse(&r, "lat", "--pair-order", "wire_first", "h1", NULL);
	assert_int_equal(r.rc, 0);
	assert_int_equal(r.cfg.spec.pair_order, RPERF_PAIR_WIRE_FIRST);
	parse(&r, "bw", "--verb", "atomic", "-A", "cmp_and_swap", "h1", NULL);
	assert_int_equal(r.rc, 0);
	assert_int_equal(r.cfg.spec.test.atomic_op, RPERF_ATOMIC_CMP_SWAP);
	parse(&r, "lat", "--pair-order", "wirefirst", "h1", NULL);
	expect_error("alternate, wire-first, loop-first, sequential", &r);
	parse(&r, "bw", "--timestamps", "nic", "h1", NULL);
	assert_int_not_equal(r.rc, 0); /* lat only */
}

static void sizes_all_and_list(void **state)
{
	static struct result r;

	(void)state;
	parse(&r, "lat", "-a", "h", NULL);
	assert_int_equal(r.rc, 0);
	assert_int_equal(r.cfg.nsizes, 23);
	assert_int_equal(r.cfg.sizes[0], 2);
	assert_int_equal(r.cfg.sizes[22], 8u << 20);
	parse(&r, "lat", "--sizes", "64,4K,64KiB", "h", NULL);
	assert_int_equal(r.rc, 0);
	assert_int_equal(r.cfg.nsizes, 3);
	assert_int_equal(r.cfg.sizes[2], 65536);
	parse(&r, "lat", "--sizes", "64,,4K", "h", NULL);
	expect_error("--sizes", &r);
	parse(&r, "lat", "--sizes", "64,", "h", NULL);
	expect_error("empty item", &r);
	parse(&r, "lat", "-a", "-s", "64", "h", NULL);
	expect_error("-a/--all", &r);
}

static void invalid_values(void **state)
{
	static struct result r;

	(void)state;
	parse(&r, "lat", "-s", "abc", "h", NULL);
	expect_error("-s/--size: 'abc' is not a size", &r);
	parse(&r, "lat", "-n", "-5", "h", NULL);
	expect_error("-n/--iters", &r);
	parse(&r, "lat", "-S", "16", "h", NULL);
	expect_error("-S/--sl: '16' is out of range", &r);
	parse(&r, "lat", "--tclass", "256", "h", NULL);
	expect_error("--tclass", &r);
	parse(&r, "lat", "-m", "1000", "h", NULL);
	expect_error("power of two", &r);
	parse(&r, "lat", "--method", "fast", "h", NULL);
	expect_error("rperf, pingpong, postpoll, all", &r);
	parse(&r, "lat", "-D", "5h", "h", NULL);
	expect_error("-D/--duration", &r);
	parse(&r, "lat", "--percentiles", "101", "h", NULL);
	expect_error("--percentiles", &r);
	parse(&r, "lat", "-n", "10", "-D", "1s", "h", NULL);
	assert_int_equal(r.rc, 0); /* -D wins, with a warning (perftest) */
	assert_int_equal(r.cfg.spec.test.iters, 0);
	parse(&r, "lat", "-p", "0", "h", NULL);
	expect_error("-p/--port", &r);
	parse(&r, "lat", "--rate", "10x", "h", NULL);
	expect_error("--rate", &r);
}

static void unknown_and_missing(void **state)
{
	static struct result r;

	(void)state;
	parse(&r, "--bogus", NULL);
	expect_error("--bogus: unknown option", &r);
	parse(&r, "lat", "--bogus", NULL);
	expect_error("--bogus: unknown option of 'rperf lat'", &r);
	parse(&r, "lat", "-Z", NULL);
	expect_error("-Z: unknown option", &r);
	parse(&r, "lat", "-s", NULL);
	expect_error("-s: missing value", &r);
	parse(&r, "info", "-s", "64", NULL);
	expect_error("-s: unknown option of 'rperf info'", &r);
	parse(&r, "frobnicate", NULL);
	expect_error("frobnicate: unknown command", &r);
	parse(&r, NULL);
	expect_error("missing command", &r);
	parse(&r, "lat", "a", "b", NULL);
	expect_error("b: unexpected argument", &r);
	parse(&r, "info", "x", NULL);
	expect_error("x: unexpected argument", &r);
	parse(&r, "run", NULL);
	expect_error("missing job file", &r);
}

static void server_side(void **state)
{
	static struct result r;

	(void)state;
	parse(&r, "lat", "-d", "rxe_h1", "-p", "20000", "--persistent",
	      "--bind", "10.0.0.1", "--cpu", "1", NULL);
	assert_int_equal(r.rc, 0);
	assert_null(r.cfg.host);
	assert_true(r.cfg.persistent);
	/* same flags on both sides: the server takes the client's run flags
	 * (and checks them against the client's: test_parity.c) */
	parse(&r, "lat", "-s", "64", NULL);
	assert_int_equal(r.rc, 0);
	assert_int_equal(r.cfg.sizes[0], 64);
}

static void help_and_version(void **state)
{
	static struct result r;

	(void)state;
	parse(&r, "--help", NULL);
	assert_int_equal(r.rc, 0);
	assert_int_equal(r.act, RPERF_ACT_HELP);
	assert_int_equal(r.cfg.cmd, RPERF_CMD_NONE);
	parse(&r, "lat", "--help", NULL);
	assert_int_equal(r.rc, 0);
	assert_int_equal(r.act, RPERF_ACT_HELP);
	assert_int_equal(r.cfg.cmd, RPERF_CMD_LAT);
	parse(&r, "-V", NULL);
	assert_int_equal(r.act, RPERF_ACT_VERSION);
	parse(&r, "info", "--json", "--clock", "posix", NULL);
	assert_int_equal(r.rc, 0);
	assert_true(r.cfg.json);
	assert_int_equal(r.cfg.clock, 3);
}

/* rperf --help: every command's summary starts in the same column (the
 * 'compare' row once did not). */
static void help_commands_aligned(void **state)
{
	char buf[8192] = "", *p, *e;
	FILE *f = fmemopen(buf, sizeof(buf) - 1, "w");
	int col = -1, rows = 0;

	(void)state;
	assert_non_null(f);
	rperf_cli_help(f, RPERF_CMD_NONE);
	fclose(f);
	p = strstr(buf, "\nCommands:\n");
	assert_non_null(p);
	for (p = strchr(p + 1, '\n') + 1; *p == ' '; p = e + 1, rows++) {
		const char *s = p + 2 + strcspn(p + 2, " ");
		int c;

		e = strchr(p, '\n');
		assert_non_null(e);
		s += strspn(s, " ");
		c = (int)(s - p);
		assert_true(col < 0 || c == col);
		col = c;
	}
	assert_true(rows >= 6);
}

/* Every option is documented in --help, in the markdown list, and unique. */
static void table_consistency(void **state)
{
	char *buf = NULL, *md = NULL;
	size_t len = 0, mdlen = 0;
	FILE *f;

	(void)state;
	assert_true(rperf_opt_count() <= RPERF_MAX_OPTIONS);
	f = open_memstream(&md, &mdlen);
	rperf_cli_markdown(f);
	fclose(f);
	for (size_t i = 0, n = rperf_opt_count(); i < n; i++) {
		const struct rperf_opt *o = rperf_opt_at(i);
		char needle[64];

		assert_non_null(o->help);
		assert_int_equal(rperf_opt_index(o), i);
		for (size_t j = i + 1; j < n; j++) {
			assert_string_not_equal(o->name, rperf_opt_at(j)->name);
			if (o->letter)
				assert_int_not_equal(o->letter,
						     rperf_opt_at(j)->letter);
		}
		snprintf(needle, sizeof(needle), "--%s", o->name);
		for (unsigned c = 1; c <= RPERF_CMD_INFO; c <<= 1) {
			if (!(o->cmds & c))
				continue;
			f = open_memstream(&buf, &len);
			rperf_cli_help(f, (enum rperf_cmd)c);
			fclose(f);
			if (!strstr(buf, needle))
				fail_msg("%s missing from help of command %u",
					 needle, c);
			free(buf);
			buf = NULL;
		}
	}
	free(md);
}

/* --cpu-node, --mem-node, --use_hugepages[=SIZE], --vl (issue 12) */
static void placement_options(void **state)
{
	static struct result r;

	(void)state;
	parse(&r, "lat", "10.0.0.1", NULL);
	assert_int_equal(r.cfg.sel.cpu_node, -1);
	assert_int_equal(r.cfg.sel.mem_node, -1);
	assert_int_equal(r.cfg.vl, -1);
	assert_int_equal(r.cfg.sel.hugepages, RPERF_HUGEPAGES_NONE);
	parse(&r, "bw", "--cpu-node", "1", "--mem-node", "0", "--use_hugepages",
	      "--vl", "2", "10.0.0.1", NULL);
	assert_int_equal(r.rc, 0);
	assert_int_equal(r.cfg.sel.cpu_node, 1);
	assert_int_equal(r.cfg.sel.mem_node, 0);
	assert_int_equal(r.cfg.sel.hugepages, RPERF_HUGEPAGES_2M);
	assert_int_equal(r.cfg.vl, 2);
	assert_string_equal(r.cfg.host, "10.0.0.1");
	parse(&r, "lat", "--use_hugepages=1G", "10.0.0.1", NULL);
	assert_int_equal(r.rc, 0);
	assert_int_equal(r.cfg.sel.hugepages, RPERF_HUGEPAGES_1G);
	parse(&r, "lat", "--use_hugepages=4K", "10.0.0.1", NULL);
	expect_error("--use_hugepages: '4K' is not a choice", &r);
	parse(&r, "lat", "--vl", "15", "10.0.0.1", NULL);
	expect_error("--vl", &r);
	parse(&r, "lat", "--vl", "1", "-S", "3", "10.0.0.1", NULL);
	expect_error("--vl: given with -S/--sl", &r);
	parse(&r, "lat", "--cpu-node", "-1", "10.0.0.1", NULL);
	expect_error("--cpu-node", &r);
	/* each side its own placement: the server takes it too */
	parse(&r, "lat", "--mem-node", "0", NULL);
	assert_int_equal(r.rc, 0);
	assert_int_equal(r.cfg.sel.mem_node, 0);
}

/* --schedule (issue 20): the spellings, and what an open one refuses */
static void schedule_option(void **state)
{
	static struct result r;

	(void)state;
	parse(&r, "lat", "10.0.0.1", NULL);
	assert_int_equal(r.cfg.spec.schedule.kind, RPERF_SCHED_CLOSED);
	parse(&r, "lat", "--schedule", "poisson:500", "10.0.0.1", NULL);
	assert_int_equal(r.rc, 0);
	assert_int_equal(r.cfg.spec.schedule.kind, RPERF_SCHED_POISSON);
	assert_true(r.cfg.spec.schedule.rate == 500);
	parse(&r, "lat", "--schedule", "fixed:2k", "10.0.0.1", NULL);
	assert_int_equal(r.cfg.spec.schedule.kind, RPERF_SCHED_FIXED);
	assert_true(r.cfg.spec.schedule.rate == 2000);
	parse(&r, "lat", "--schedule", "closed", "--pair-order", "sequential",
	      "10.0.0.1", NULL);
	assert_int_equal(r.rc, 0);
	parse(&r, "lat", "--schedule", "poisson", "10.0.0.1", NULL);
	expect_error("--schedule: 'poisson' is not a probe schedule", &r);
	parse(&r, "lat", "--schedule", "poisson:500", "--rate", "100",
	      "10.0.0.1", NULL);
	expect_error("--schedule: poisson:500 given with --rate", &r);
	parse(&r, "lat", "--schedule", "fixed:10", "--pair-order", "sequential",
	      "10.0.0.1", NULL);
	expect_error("--schedule: fixed:10 takes --method rperf", &r);
	parse(&r, "lat", "--schedule", "fixed:10", "--method", "pingpong",
	      "10.0.0.1", NULL);
	expect_error("--schedule: fixed:10 takes --method rperf", &r);
}

/* --poll yield reaches the LSG: its source completion "event", which the
 * engine's LSG turns into sched_yield() between empty polls (gen_lsg.c) */
static enum rperf_completion lat_poll(const char *mode)
{
	static struct result r;
	struct rperf_job *job = NULL;
	enum rperf_completion c;
	char err[128] = "";

	parse(&r, "lat", "--poll", mode, "10.0.0.1", NULL);
	assert_int_equal(r.rc, 0);
	assert_int_equal(rperf_lat_ctl_job(&r.cfg, &job, err, sizeof(err)), 0);
	c = job->inst[0].completion;
	rperf_job_free(job);
	return c;
}

static void poll_option(void **state)
{
	static struct result r;

	(void)state;
	assert_int_equal(lat_poll("busy"), RPERF_COMPLETION_POLL);
	assert_int_equal(lat_poll("yield"), RPERF_COMPLETION_EVENT);
	parse(&r, "lat", "--poll", "spin", "10.0.0.1", NULL);
	expect_error("--poll", &r);
}

/* rperf lat/bw's options reach their job where each key's job half points
 * (cmdline.h): the generator spec and the client's [host]. */
static void options_in_the_job(void **state)
{
	static struct result r;
	struct rperf_job *job = NULL;
	const struct rperf_gen_spec *s;
	const struct rperf_host_sel *h;
	char err[128] = "";

	(void)state;
	parse(&r, "lat", "-d", "rxe_h2", "-i", "2", "-x", "3", "--cpu", "1",
	      "--mem-node", "0", "-S", "5", "--qp-timeout", "20",
	      "--retry-count", "3", "-m", "2048", "-I", "64", "-r", "32", "-n",
	      "500", "--warmup", "7", "--pair-order", "sequential",
	      "--timestamps", "cpu", "--latency_gap", "2ms", "--breakdown",
	      "--verb", "write", "--interval", "500ms", "-e", "h1", NULL);
	assert_int_equal(r.rc, 0);
	assert_int_equal(rperf_lat_ctl_job(&r.cfg, &job, err, sizeof(err)), 0);
	s = &job->inst[0];
	h = &job->hosts[0].sel;
	assert_string_equal(h->device, "rxe_h2");
	assert_int_equal(h->port, 2);
	assert_int_equal(h->gid_index, 3);
	assert_int_equal(h->cpu, 1);
	assert_int_equal(h->cpu_node, -1); /* not given: the NIC's node */
	assert_int_equal(h->mem_node, 0);
	assert_int_equal(s->path.sl, 5);
	assert_int_equal(s->path.qp_timeout, 20);
	assert_int_equal(s->path.retry_count, 3);
	assert_int_equal(s->path.mtu, 2048);
	assert_int_equal(s->inline_size, 64);
	assert_int_equal(s->test.rx_depth, 32);
	assert_int_equal(s->test.iters, 500);
	assert_int_equal(s->warmup_samples, 7);
	assert_int_equal(s->pair_order, RPERF_PAIR_SEQUENTIAL);
	assert_int_equal(s->timestamps, RPERF_TS_CPU);
	assert_int_equal(s->latency_gap_ns, 2000000);
	assert_true(s->breakdown);
	assert_int_equal(s->verb, RPERF_VERB_WRITE);
	assert_int_equal(s->interval_ns, 500000000);
	assert_int_equal(s->completion, RPERF_COMPLETION_EVENT);
	assert_int_equal(s->sink_completion, RPERF_COMPLETION_EVENT);
	rperf_job_free(job);
	parse(&r, "bw", "-t", "64", "-Q", "4", "-l", "2", "-q", "3",
	      "--burst_size", "8", "--rate_limit", "1", "--verb", "atomic",
	      "-A", "cmp_and_swap", "h1", NULL);
	assert_int_equal(r.rc, 0);
	assert_int_equal(rperf_bw_ctl_job(&r.cfg, &job, err, sizeof(err)), 0);
	s = &job->inst[0];
	assert_int_equal(s->tx_depth, 64);
	assert_int_equal(s->cq_mod, 4);
	assert_int_equal(s->post_list, 2);
	assert_int_equal(s->qps, 3);
	assert_int_equal(s->burst_size, 8);
	assert_int_equal(s->verb, RPERF_VERB_ATOMIC);
	assert_int_equal(s->test.atomic_op, RPERF_ATOMIC_CMP_SWAP);
	assert_int_equal(s->completion, RPERF_COMPLETION_POLL);
	assert_int_equal(job->hosts[0].sel.port, 1); /* the default */
	rperf_job_free(job);
}

/* -d goes into a [host]'s device name: one that does not fit is refused
 * at parsing, naming the option, for a client, a server and an agent. */
static void device_name_fits(void **state)
{
	static struct result r;
	char name[RPERF_NAME_LEN + 1];

	(void)state;
	memset(name, 'm', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	parse(&r, "lat", "-d", name, "10.0.0.1", NULL);
	expect_error("-d/--ib-dev: '", &r);
	expect_error("is too long", &r);
	parse(&r, "bw", "-d", name, NULL);
	expect_error("-d/--ib-dev", &r);
	parse(&r, "agent", "-d", name, NULL);
	expect_error("-d/--ib-dev", &r);
	name[RPERF_NAME_LEN - 1] = '\0'; /* 63 characters: fits */
	parse(&r, "lat", "-d", name, "10.0.0.1", NULL);
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.cfg.sel.device, name);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(lat_defaults),
		cmocka_unit_test(lat_options),
		cmocka_unit_test(warmup_scales),
		cmocka_unit_test(size_above_server_max),
		cmocka_unit_test(help_commands_aligned),
		cmocka_unit_test(sizes_all_and_list),
		cmocka_unit_test(invalid_values),
		cmocka_unit_test(unknown_and_missing),
		cmocka_unit_test(server_side),
		cmocka_unit_test(help_and_version),
		cmocka_unit_test(table_consistency),
		cmocka_unit_test(placement_options),
		cmocka_unit_test(schedule_option),
		cmocka_unit_test(poll_option),
		cmocka_unit_test(options_in_the_job),
		cmocka_unit_test(device_name_fits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
