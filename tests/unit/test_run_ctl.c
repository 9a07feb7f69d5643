// SPDX-License-Identifier: BSD-2-Clause
/*
 * The controller of `rperf run` against fake agents: small threads on
 * loopback TCP that speak src/engine/proto.h without RDMA (made-up
 * endpoints, made-up results). Covers the whole flow (endpoints relayed to
 * the other end, REPORTs merged), an agent dying mid-run (the others'
 * results kept, the host in failed_hosts, the run ends within 2 x timeout),
 * an agent silent in setup, hostile agents (a REPORT of another host,
 * garbage; more in test_run_hostile.c) and an agent that is not running (the fakes: fake_agent.h; TLS and HEARTBEATs: test_run_tls.c).
 */
#include "fake_agent.h"

#include <inttypes.h>

static void *stopper(void *arg)
{
	(void)arg;
	usleep(300000);
	stop_flag = 1;
	return NULL;
}

/* --hist of @r: the LSG's CDF, its 1000 samples in rows that add up, the
 * BSG has none. */
static void hist_file(const struct rperf_run_results *r)
{
	char path[] = "/tmp/rperf-hist-XXXXXX", line[256];
	uint64_t count, cum = 0, sum = 0;
	int fd = mkstemp(path), rows = 0;
	FILE *f;

	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(rperf_run_write_hist(path, r), 0);
	f = fopen(path, "r");
	assert_non_null(f);
	assert_non_null(fgets(line, sizeof(line), f));
	assert_string_equal(
		line,
		"generator,from,to,size,lo_ns,hi_ns,value_ns,count,cumulative,fraction\n");
	while (fgets(line, sizeof(line), f)) {
		assert_int_equal(strncmp(line, "lat,h1,h3,64,", 13), 0);
		assert_int_equal(sscanf(line,
					"lat,h1,h3,64,%*d,%*d,%*d,%" SCNu64
					",%" SCNu64,
					&count, &cum),
				 2);
		sum += count;
		rows++;
	}
	fclose(f);
	unlink(path);
	assert_true(rows >= 1);
	assert_int_equal(sum, 1000);
	assert_int_equal(cum, 1000);
}

static void whole_flow(void **state)
{
	struct rperf_job *j = job3();
	struct fake f[3] = { 0 };
	struct rperf_run_results *r;
	double secs;

	(void)state;
	r = run(j, f, NULL, &secs);
	for (int i = 0; i < 3; i++) {
		assert_string_equal(f[i].fail, "");
		assert_true(f[i].peers_ok);
	}
	assert_false(r->aborted);
	assert_int_equal(rperf_run_results_nfailed(r), 0);
	assert_int_equal(r->inst[0].status, RPERF_RUN_ST_OK);
	assert_int_equal(r->inst[1].status, RPERF_RUN_ST_OK);
	assert_int_equal(rperf_hist_count(r->inst[0].rtt), 1000);
	assert_int_equal(rperf_hist_min(r->inst[0].rtt), 2000);
	assert_float_equal(r->inst[1].gbps, 10.0, 1e-9);
	assert_float_equal(r->inst[1].receiver_gbps, 8.0, 1e-9);
	assert_true(r->inst[0].have_sink);
	assert_string_equal(r->hosts[0].link_layer, "infiniband");
	assert_non_null(r->hosts[0].clock);
	assert_true(secs < 2.0);
	hist_file(r);
	rperf_run_results_free(r);
	fx_job_free(j);
}

/* h2 dies right after GO: its host fails, the others are reported. */
static void agent_dies(void **state)
{
	struct rperf_job *j = job3();
	struct fake f[3] = { 0 };
	struct rperf_run_results *r;
	double secs;

	(void)state;
	f[1].mode = FAKE_DIE_AFTER_GO;
	r = run(j, f, NULL, &secs);
	assert_false(r->aborted);
	assert_int_equal(rperf_run_results_nfailed(r), 1);
	assert_true(r->hosts[1].failed);
	assert_non_null(strstr(r->hosts[1].why, "connection closed"));
	assert_int_equal(r->inst[0].status, RPERF_RUN_ST_OK);
	assert_int_equal(rperf_hist_count(r->inst[0].rtt), 1000);
	assert_int_equal(r->inst[1].status, RPERF_RUN_ST_FAILED);
	assert_true(r->inst[1].have_sink); /* h3 still counted what came */
	assert_true(secs < 2.0 * (double)j->timeout_ns / 1e9);
	rperf_run_results_free(r);
	fx_job_free(j);
}

/* An agent that stops answering during setup: aborted within timeout, the
 * others told (ERROR) and nothing measured. */
static void silent_agent(void **state)
{
	struct rperf_job *j = job3();
	struct fake f[3] = { 0 };
	struct rperf_run_results *r;
	double secs;

	(void)state;
	j->timeout_ns = 500 * MS;
	f[2].mode = FAKE_SILENT_AFTER_PLAN;
	r = run(j, f, NULL, &secs);
	assert_true(r->aborted);
	assert_true(r->hosts[2].failed);
	assert_non_null(strstr(r->hosts[2].why, "no ENDPOINTS within"));
	assert_non_null(strstr(r->abort_why, "h3"));
	assert_true(secs < 1.5);
	rperf_run_results_free(r);
	fx_job_free(j);
}

static void not_running(void **state)
{
	struct rperf_job *j = job3();
	struct rperf_run_results *r = NULL;
	struct rperf_run_opts o = { .insecure = true };
	char err[256];
	int lfd;
	uint16_t port;
	double t0;

	(void)state;
	j->timeout_ns = 300 * MS;
	/* a port nobody listens on */
	assert_int_equal(rperf_ctrl_listen("127.0.0.1", 0, &lfd), 0);
	assert_int_equal(rperf_ctrl_local_port(lfd, &port), 0);
	close(lfd);
	for (int i = 0; i < 3; i++)
		j->hosts[i].control_port = port;
	t0 = now_s();
	assert_int_equal(rperf_run_execute(j, &o, NULL, &r, err, sizeof(err)),
			 0);
	assert_true(now_s() - t0 < 1.0);
	assert_true(r->aborted);
	assert_int_equal(rperf_run_results_nfailed(r), 3);
	assert_non_null(strstr(r->hosts[0].why, "refused"));
	rperf_run_results_free(r);
	fx_job_free(j);
}

/* job3 with fakes @f whose sources run until STOP (or HALT, when they
 * announce it: @halts), SIGINT 300 ms in: interrupted, no host failed, both
 * sources' results in. */
static struct rperf_run_results *sigint_run(struct rperf_job *j, struct fake *f,
					    bool halts, double *secs)
{
	struct rperf_run_results *r;
	pthread_t t;

	j->inst[0].duration_ns = j->inst[1].duration_ns = 30000 * MS;
	for (int i = 0; i < 3; i++) {
		f[i].mode = FAKE_NO_FINISH;
		f[i].halts = halts;
	}
	stop_flag = 0;
	assert_int_equal(pthread_create(&t, NULL, stopper, NULL), 0);
	r = run(j, f, NULL, secs);
	pthread_join(t, NULL);
	stop_flag = 0;
	assert_true(r->interrupted);
	assert_false(r->aborted);
	assert_int_equal(rperf_run_results_nfailed(r), 0);
	assert_int_equal(r->inst[0].status, RPERF_RUN_ST_OK);
	assert_int_equal(r->inst[1].status, RPERF_RUN_ST_OK);
	return r;
}

/* SIGINT mid-run: everyone stopped, every REPORT gathered, at once. */
static void interrupted(void **state)
{
	struct rperf_job *j = job3();
	struct fake f[3] = { 0 };
	double secs;

	(void)state;
	rperf_run_results_free(sigint_run(j, f, false, &secs));
	assert_false(f[0].halted || f[1].halted || f[2].halted);
	assert_true(secs < 1.5);
	fx_job_free(j);
}

/* SIGINT mid-run with agents that announce "halt": the sources' agents
 * (h1, h2) get HALT, the sink's (h3) does not; no STOP goes out before
 * every source FINISHED, so a sink never stops before a source it counts. */
static void interrupted_halt(void **state)
{
	struct rperf_job *j = job3();
	struct fake f[3] = { 0 };
	double secs;

	(void)state;
	rperf_run_results_free(sigint_run(j, f, true, &secs));
	assert_true(f[0].halted && f[1].halted);
	assert_false(f[2].halted);
	assert_true(f[0].finished_ns && f[1].finished_ns);
	for (int i = 0; i < 3; i++) {
		assert_string_equal(f[i].fail, "");
		assert_true(f[i].stop_ns >= f[0].finished_ns);
		assert_true(f[i].stop_ns >= f[1].finished_ns);
	}
	assert_true(secs < 1.5);
	fx_job_free(j);
}

/* A halted agent that never says FINISHED: STOP one timeout after HALT,
 * and its results still count. */
static void halt_unanswered(void **state)
{
	struct rperf_job *j = job3();
	struct fake f[3] = { 0 };
	double secs;

	(void)state;
	j->timeout_ns = 600 * MS;
	f[1].halt_ignored = true;
	rperf_run_results_free(sigint_run(j, f, true, &secs));
	assert_true(f[1].halted);
	assert_int_equal(f[1].finished_ns, 0);
	assert_true(f[2].stop_ns >= f[0].finished_ns + 400 * MS);
	assert_true(secs >= 0.8 && secs < 3.0);
	fx_job_free(j);
}

/* Hostile agents: h2 names an instance of h1 in its REPORT, or sends
 * garbage mid-run. Each fails alone; the others' results stand. */
static void hostile_agent(void **state)
{
	static const enum fake_mode modes[] = { FAKE_BAD_REPORT, FAKE_GARBAGE };
	static const char *const why[] = { "bad REPORT", "malformed" };

	(void)state;
	for (size_t k = 0; k < 2; k++) {
		struct rperf_job *j = job3();
		struct fake f[3] = { 0 };
		struct rperf_run_results *r;
		double secs;

		f[1].mode = modes[k];
		r = run(j, f, NULL, &secs);
		assert_false(r->aborted);
		assert_int_equal(rperf_run_results_nfailed(r), 1);
		assert_true(r->hosts[1].failed);
		if (!strstr(r->hosts[1].why, why[k]))
			fail_msg("h2 failed for '%s', expected '%s'",
				 r->hosts[1].why, why[k]);
		assert_int_equal(r->inst[0].status, RPERF_RUN_ST_OK);
		assert_int_equal(rperf_hist_count(r->inst[0].rtt), 1000);
		assert_int_equal(r->inst[1].status, RPERF_RUN_ST_FAILED);
		assert_string_equal(r->cls[0].name, "SL 0"); /* infiniband */
		rperf_run_results_free(r);
		fx_job_free(j);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(whole_flow),
		cmocka_unit_test(agent_dies),
		cmocka_unit_test(silent_agent),
		cmocka_unit_test(not_running),
		cmocka_unit_test(interrupted),
		cmocka_unit_test(interrupted_halt),
		cmocka_unit_test(halt_unanswered),
		cmocka_unit_test(hostile_agent),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
