// SPDX-License-Identifier: BSD-2-Clause
/*
 * The controller of `rperf run` against fake agents: small threads on
 * loopback TCP that speak src/engine/proto.h without RDMA (made-up
 * endpoints, made-up results). Covers the whole flow (endpoints relayed to
 * the other end, REPORTs merged), an agent dying mid-run (the others'
 * results kept, the host in failed_hosts, the run ends within 2 x timeout),
 * an agent silent in setup, hostile agents (a REPORT of another host,
 * garbage, a third party's GID, escape codes in a refusal) and an agent
 * that is not running (the fakes: fake_agent.h; TLS and HEARTBEATs: test_run_tls.c).
 */
#include "fake_agent.h"

static void *stopper(void *arg)
{
	(void)arg;
	usleep(300000);
	stop_flag = 1;
	return NULL;
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

/* SIGINT mid-run: everyone stopped, every REPORT gathered, at once. */
static void interrupted(void **state)
{
	struct rperf_job *j = job3();
	struct fake f[3] = { 0 };
	struct rperf_run_results *r;
	pthread_t t;
	double secs;

	(void)state;
	j->inst[0].duration_ns = j->inst[1].duration_ns = 30000 * MS;
	for (int i = 0; i < 3; i++)
		f[i].mode = FAKE_NO_FINISH;
	stop_flag = 0;
	assert_int_equal(pthread_create(&t, NULL, stopper, NULL), 0);
	r = run(j, f, NULL, &secs);
	pthread_join(t, NULL);
	stop_flag = 0;
	assert_true(r->interrupted);
	assert_false(r->aborted);
	assert_int_equal(rperf_run_results_nfailed(r), 0);
	assert_int_equal(r->inst[0].status, RPERF_RUN_ST_OK);
	assert_int_equal(r->inst[1].status, RPERF_RUN_ST_OK);
	assert_true(secs < 1.5);
	rperf_run_results_free(r);
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

/* A PLAN carries the addresses of its host and of the other ends. An
 * agent whose RoCE ENDPOINTS name a GID that is not its address is failed:
 * the controller relays no third party's endpoint (the others get ERROR,
 * nothing was measured). */
static void third_party_endpoints(void **state)
{
	struct rperf_job *j = job3();
	struct fake f[3] = { 0 };
	struct rperf_run_results *r;
	double secs;

	(void)state;
	r = run(j, f, NULL, &secs);
	assert_int_equal(f[0].plan_hosts, 2); /* h1 and h3 */
	assert_int_equal(f[2].plan_hosts, 3); /* h3, h1, h2 */
	assert_string_equal(f[0].plan_addr, "127.0.0.1");
	assert_false(r->aborted);
	rperf_run_results_free(r);
	memset(f, 0, sizeof(f));
	f[1].mode = FAKE_THIRD_PARTY;
	r = run(j, f, NULL, &secs);
	assert_true(r->aborted);
	assert_true(r->hosts[1].failed);
	if (!strstr(r->hosts[1].why, "GID 10.9.9.9, not this agent's address "
				     "127.0.0.1: not relayed"))
		fail_msg("h2 failed for '%s'", r->hosts[1].why);
	assert_false(f[0].peers_ok); /* no CONNECT reached the others */
	assert_false(f[2].peers_ok);
	rperf_run_results_free(r);
	fx_job_free(j);
}

/* A fake agent's REFUSE with escape codes and CR/LF reaches the terminal
 * of `rperf run` (the binary, RPERF_BIN) cleaned: no ESC, no CR, no line
 * of its own. */
static void escapes_stripped(void **state)
{
	const char *bin = getenv("RPERF_BIN");
	struct fake f[2] = { { .mode = FAKE_ESCAPES },
			     { .mode = FAKE_ESCAPES } };
	struct rperf_job_host h[2] = { { .name = "h1" }, { .name = "h2" } };
	char path[] = "/tmp/rperf-escXXXXXX", cmd[512], out[8192];
	size_t n;
	FILE *p;
	int fd;

	(void)state;
	if (!bin)
		skip();
	fake_start(&f[0], &h[0]);
	fake_start(&f[1], &h[1]);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	dprintf(fd,
		"[global]\ntimeout = 2s\n[host h1]\ncontrol = 127.0.0.1:%u\n"
		"[host h2]\ncontrol = 127.0.0.1:%u\n[lsg l]\nfrom = h1\nto = h2\n",
		f[0].port, f[1].port);
	close(fd);
	snprintf(cmd, sizeof(cmd), "%s run --insecure %s 2>&1", bin, path);
	p = popen(cmd, "r");
	assert_non_null(p);
	n = fread(out, 1, sizeof(out) - 1, p);
	out[n] = '\0';
	assert_int_equal(WEXITSTATUS(pclose(p)), 3);
	fake_join(&f[0]);
	fake_join(&f[1]);
	unlink(path);
	if (memchr(out, 0x1b, n) || memchr(out, '\r', n) ||
	    strstr(out, "\xc2\x9b") || strstr(out, "\nrperf run: all hosts ok"))
		fail_msg("raw peer bytes reached the terminal: %s", out);
	if (!strstr(out,
		    "refused: ?[2J?]0;owned?bad??rperf run: all hosts ok ??31m"))
		fail_msg("the refusal is not shown, cleaned: %s", out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(whole_flow),
		cmocka_unit_test(agent_dies),
		cmocka_unit_test(silent_agent),
		cmocka_unit_test(not_running),
		cmocka_unit_test(interrupted),
		cmocka_unit_test(hostile_agent),
		cmocka_unit_test(third_party_endpoints),
		cmocka_unit_test(escapes_stripped),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
