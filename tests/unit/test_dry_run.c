/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rperf agent --dry-run end to end, in one process: three agents with the
 * dry-run engine (src/agent/agent_dry.c) on 127.0.0.1, the real controller
 * (src/run) against them. The run passes through every step, every host
 * reports, the results say dry run (JSON and text), the set-up time and
 * the GO receipt spread are there; and a launcher's addresses
 * (rperf_run_opts.boot, as rperf run --mpi gives them) replace the job's;
 * agents sharing one start timer (tests/bench/dry_starter.c, the scale
 * benchmark's) all report a start, never before its instant.
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "agent/agent.h"
#include "dry_starter.h"
#include "job/job.h"
#include "run/run.h"
#include "run/run_barrier.h"

#define NAG 3

struct dry {
	struct rperf_clock clk;
	struct rperf_agent *a[NAG];
	pthread_t t[NAG];
	volatile sig_atomic_t stop;
	struct dry_starter *starter; /* NULL: a timer each */
};

struct loop_arg {
	struct rperf_agent *a;
	volatile sig_atomic_t *stop;
};

static void *serve(void *arg)
{
	struct loop_arg *l = arg;
	char err[256];

	(void)rperf_agent_run(l->a, l->stop, err, sizeof(err));
	free(l);
	return NULL;
}

static void dry_start_with(struct dry *d, bool shared)
{
	char err[256];

	memset(d, 0, sizeof(*d));
	if (shared)
		assert_int_equal(dry_starter_create(NAG, &d->starter), 0);
	assert_int_equal(rperf_clock_init(&d->clk, RPERF_CLOCK_POSIX), 0);
	for (int i = 0; i < NAG; i++) {
		struct rperf_agent_cfg cfg = {
			.bind = "127.0.0.1",
			.timeout_ms = 5000,
			.clk = &d->clk,
			.engine = &rperf_agent_dry_engine,
			.insecure = true,
			.dry_starter = d->starter ? &dry_starter_ops : NULL,
			.dry_starter_arg = d->starter
		};
		struct loop_arg *l = calloc(1, sizeof(*l));

		assert_non_null(l);
		assert_int_equal(rperf_agent_create(&cfg, &d->a[i], err,
						    sizeof(err)),
				 0);
		l->a = d->a[i];
		l->stop = &d->stop;
		assert_int_equal(pthread_create(&d->t[i], NULL, serve, l), 0);
	}
}

static void dry_start(struct dry *d)
{
	dry_start_with(d, false);
}

static void dry_stop(struct dry *d)
{
	d->stop = 1;
	for (int i = 0; i < NAG; i++) {
		pthread_join(d->t[i], NULL);
		rperf_agent_destroy(d->a[i]);
	}
	dry_starter_destroy(d->starter);
}

/* h1 <- LSG from h2, BSG (2 QPs) from h3; controls from @port[] */
static struct rperf_job *job(const uint16_t port[NAG])
{
	struct rperf_job *j = NULL;
	char text[1024], err[256];

	snprintf(text, sizeof(text),
		 "[global]\nduration = 100ms\nwarmup = 50ms\ntimeout = 5s\n"
		 "[host h1]\ncontrol = 127.0.0.1:%u\n"
		 "[host h2]\ncontrol = 127.0.0.1:%u\n"
		 "[host h3]\ncontrol = 127.0.0.1:%u\n"
		 "[lsg p]\nfrom = h2\nto = h1\n"
		 "[bsg b]\nfrom = h3\nto = h1\nqps = 2\n",
		 port[0], port[1], port[2]);
	assert_int_equal(rperf_job_parse(text, "dry.ini", &j, err, sizeof(err)),
			 0);
	return j;
}

static void whole_protocol(void **state)
{
	struct rperf_run_opts o = { .insecure = true };
	struct rperf_run_results *r = NULL;
	struct rperf_job *j;
	struct dry d;
	uint16_t port[NAG];
	char err[256], *text = NULL;
	size_t len = 0;
	json_t *js = NULL;
	FILE *f;

	(void)state;
	dry_start(&d);
	for (int i = 0; i < NAG; i++)
		port[i] = rperf_agent_port(d.a[i]);
	j = job(port);
	assert_int_equal(rperf_run_execute(j, &o, NULL, &r, err, sizeof(err)),
			 0);
	assert_false(r->aborted);
	assert_int_equal(rperf_run_results_nfailed(r), 0);
	assert_int_equal(r->nerrors, 0);
	assert_true(r->dry_run);
	for (int i = 0; i < NAG; i++) {
		assert_true(r->hosts[i].reported);
		assert_true(r->hosts[i].dry_run);
		assert_true(r->hosts[i].has_go_rx);
	}
	assert_true(r->setup_seconds > 0 && r->setup_seconds < 5);
	assert_int_equal(r->inst[0].samples, 0); /* nothing measured */
	assert_int_equal(r->inst[1].bytes, 0);
	assert_int_equal(rperf_run_report_json(r, &js), 0);
	assert_true(json_is_true(json_object_get(js, "dry_run")));
	assert_true(json_is_true(json_object_get(
		json_object_get(js, "control_plane"), "go_rx_comparable")));
	assert_int_equal(
		json_array_size(json_object_get(
			json_object_get(js, "control_plane"), "go_rx")),
		NAG);
	json_decref(js);
	f = open_memstream(&text, &len);
	assert_non_null(f);
	assert_int_equal(rperf_run_report_text(f, r), 0);
	fclose(f);
	assert_non_null(strstr(text, "DRY RUN:"));
	assert_non_null(strstr(text, "NOT A MEASUREMENT"));
	assert_non_null(strstr(text, "GO receipt spread over 3 agent(s)"));
	free(text);
	rperf_run_results_free(r);
	rperf_job_free(j);
	dry_stop(&d);
}

/* The job's ports are wrong; the launcher's are right (and a host the
 * launcher did not start fails by name). */
static void launcher_addresses(void **state)
{
	struct rperf_run_boot_host bh[NAG];
	struct rperf_run_boot boot = { .hosts = bh, .n = NAG };
	struct rperf_run_opts o = { .boot = &boot, .insecure = true };
	struct rperf_run_results *r = NULL;
	const uint16_t wrong[NAG] = { 1, 2, 3 };
	struct rperf_job *j = job(wrong);
	struct dry d;
	char err[256];

	(void)state;
	dry_start(&d);
	memset(bh, 0, sizeof(bh));
	for (int i = 0; i < NAG; i++) {
		snprintf(bh[i].name, sizeof(bh[i].name), "h%d", i + 1);
		snprintf(bh[i].addr, sizeof(bh[i].addr), "127.0.0.1");
		bh[i].port = rperf_agent_port(d.a[i]);
	}
	assert_int_equal(rperf_run_execute(j, &o, NULL, &r, err, sizeof(err)),
			 0);
	assert_int_equal(rperf_run_results_nfailed(r), 0);
	assert_false(r->aborted);
	rperf_run_results_free(r);
	boot.n = NAG - 1; /* h3 not started by the launcher */
	assert_int_equal(rperf_run_execute(j, &o, NULL, &r, err, sizeof(err)),
			 0);
	assert_true(r->aborted);
	assert_true(r->hosts[2].failed);
	assert_non_null(strstr(r->hosts[2].why, "launcher started no agent"));
	rperf_run_results_free(r);
	rperf_job_free(j);
	dry_stop(&d);
}

/* One start timer for the three agents: each reports its start, on or
 * after its instant (the skew is >= 0 whatever the offsets' error: the
 * start and the instant are on the agent's clock), twice in a row (the
 * slots come back); a full starter refuses to arm (GO fails by name). */
static void shared_starter(void **state)
{
	struct rperf_run_opts o = { .insecure = true };
	struct rperf_run_results *r = NULL;
	struct rperf_job *j;
	struct dry d;
	uint16_t port[NAG];
	char err[256];
	int64_t k;

	(void)state;
	dry_start_with(&d, true);
	for (int i = 0; i < NAG; i++)
		port[i] = rperf_agent_port(d.a[i]);
	j = job(port);
	for (int run = 0; run < 2; run++) {
		assert_int_equal(rperf_run_execute(j, &o, NULL, &r, err,
						   sizeof(err)),
				 0);
		assert_false(r->aborted);
		for (int i = 0; i < NAG; i++) {
			assert_true(r->hosts[i].has_start);
			assert_true(run_barrier_skew(&r->hosts[i], &k));
			assert_true(k >= 0);
			assert_true(k < 1000000000); /* within the run */
		}
		rperf_run_results_free(r);
	}
	rperf_job_free(j);
	dry_stop(&d);
}

static void starter_full(void **state)
{
	struct dry_starter *s = NULL;
	struct rperf_run_opts o = { .insecure = true };
	struct rperf_run_results *r = NULL;
	struct rperf_agent *a[NAG];
	struct loop_arg *l;
	struct dry d;
	uint16_t port[NAG];
	pthread_t t[2];
	char err[256];

	(void)state;
	dry_start(&d); /* timers of their own */
	assert_int_equal(dry_starter_create(1, &s), 0);
	/* h1 through an agent on a starter with one slot, taken by h2 */
	for (int i = 0; i < NAG; i++)
		port[i] = rperf_agent_port(d.a[i]);
	{
		struct rperf_agent_cfg cfg = { .bind = "127.0.0.1",
					       .timeout_ms = 5000,
					       .clk = &d.clk,
					       .engine =
						       &rperf_agent_dry_engine,
					       .insecure = true,
					       .dry_starter = &dry_starter_ops,
					       .dry_starter_arg = s };

		for (int i = 0; i < 2; i++)
			assert_int_equal(rperf_agent_create(&cfg, &a[i], err,
							    sizeof(err)),
					 0);
	}
	for (int i = 0; i < 2; i++) {
		l = calloc(1, sizeof(*l));
		assert_non_null(l);
		l->a = a[i];
		l->stop = &d.stop;
		assert_int_equal(pthread_create(&t[i], NULL, serve, l), 0);
		port[i] = rperf_agent_port(a[i]);
	}
	{
		struct rperf_job *j = job(port);

		assert_int_equal(rperf_run_execute(j, &o, NULL, &r, err,
						   sizeof(err)),
				 0);
		/* one of h1, h2 got the slot, the other's GO failed */
		assert_true(rperf_run_results_nfailed(r) >= 1);
		assert_true(strstr(r->hosts[0].why, "shared start timer") ||
			    strstr(r->hosts[1].why, "shared start timer"));
		rperf_run_results_free(r);
		rperf_job_free(j);
	}
	dry_stop(&d); /* stops the two loops too (same flag) */
	for (int i = 0; i < 2; i++) {
		pthread_join(t[i], NULL);
		rperf_agent_destroy(a[i]);
	}
	dry_starter_destroy(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(whole_protocol),
		cmocka_unit_test(shared_starter),
		cmocka_unit_test(starter_full),
		cmocka_unit_test(launcher_addresses),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
