// SPDX-License-Identifier: BSD-2-Clause
/*
 * The controller of `rperf run` against hostile fake agents (issue 19): an
 * agent whose RoCE endpoints name a third party's GID is not relayed, a
 * REFUSE full of escape codes reaches the terminal cleaned, and --raw's
 * SAMPLES out of order or missing fail their agent (an LSG's only).
 */
#include "fake_agent.h"

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

/* --raw: every sample of h1's LSG comes in SAMPLES before its REPORT and
 * is kept; an agent that sends them out of order, or cannot send them,
 * fails. */
static void raw_samples(void **state)
{
	struct rperf_job *j = job3();
	struct fake f[3] = { { .samples = true },
			     { .samples = true },
			     { .samples = true } };
	struct rperf_run_results *r;
	double secs;

	(void)state;
	run_raw = true;
	r = run(j, f, NULL, &secs);
	assert_false(r->hosts[0].failed);
	assert_int_equal(r->inst[0].nraw, 3);
	assert_int_equal(r->inst[0].raw[2].rtt_ns, 2200);
	assert_int_equal(r->inst[0].raw[0].size, 64); /* the spec's */
	rperf_run_results_free(r);
	memset(f, 0, sizeof(f));
	f[0] = (struct fake){ .samples = true, .samples_first = 5 };
	f[1].samples = f[2].samples = true;
	r = run(j, f, NULL, &secs);
	assert_true(r->hosts[0].failed);
	if (!strstr(r->hosts[0].why, "out of order"))
		fail_msg("h1 failed for '%s'", r->hosts[0].why);
	rperf_run_results_free(r);
	/* only an LSG's agent must send samples: h2 (a BSG) and h3 (sinks)
	 * without the feature are fine */
	memset(f, 0, sizeof(f));
	f[0].samples = true;
	r = run(j, f, NULL, &secs);
	assert_false(r->hosts[1].failed);
	assert_false(r->hosts[2].failed);
	assert_int_equal(r->inst[0].nraw, 3);
	rperf_run_results_free(r);
	memset(f, 0, sizeof(f)); /* h1 cannot send them: refused at WELCOME */
	r = run(j, f, NULL, &secs);
	assert_true(r->hosts[0].failed);
	if (!strstr(r->hosts[0].why, "cannot send every sample"))
		fail_msg("h1 failed for '%s'", r->hosts[0].why);
	rperf_run_results_free(r);
	run_raw = false;
	fx_job_free(j);
}

/* A perftest server on an agent's port: named, as rperf lat names it. */
static void perftest_peer(void **state)
{
	struct rperf_job *j = job3();
	struct fake f[3] = { { 0 } };
	struct rperf_run_results *r;
	double secs;

	(void)state;
	f[2].mode = FAKE_PERFTEST;
	r = run(j, f, NULL, &secs);
	assert_true(r->hosts[2].failed);
	if (!strstr(r->hosts[2].why,
		    "the peer speaks perftest's protocol (6.21), not rperf's"))
		fail_msg("h3 failed for '%s'", r->hosts[2].why);
	rperf_run_results_free(r);
	fx_job_free(j);
}

/* rperf lat's controller: h3's connection made by the caller (dialled),
 * every agent greeted with HELLO "lat", the PLANs carry the options. */
static void lat_controller(void **state)
{
	struct rperf_job *j = job3();
	struct fake f[3] = { { 0 } };
	struct rperf_run_boot_host h3 = { .fd = -1 };
	const struct rperf_run_boot dialled = { .hosts = &h3, .n = 1 };
	json_t *opts = json_pack("{s:i}", "size", 64);
	struct rperf_run_opts o = { .start_in_ns = 20 * MS,
				    .margin_ns = 200 * MS,
				    .insecure = true,
				    .command = "lat",
				    .dialled = &dialled,
				    .plan_options = opts };
	struct rperf_run_results *r = NULL;
	char err[256] = "";

	(void)state;
	for (size_t i = 0; i < 3; i++)
		fake_start(&f[i], &j->hosts[i]);
	snprintf(h3.name, sizeof(h3.name), "h3");
	/* h3's agent is dialled here; the job's port for it is a wrong one */
	assert_int_equal(rperf_ctrl_connect("127.0.0.1", f[2].port, NULL,
					    1000000000ull, &h3.fd),
			 0);
	j->hosts[2].control_port = 1;
	assert_int_equal(
		rperf_run_execute(j, &o, &stop_flag, &r, err, sizeof(err)), 0);
	for (size_t i = 0; i < 3; i++)
		fake_join(&f[i]);
	assert_int_equal(rperf_run_results_nfailed(r), 0);
	for (size_t i = 0; i < 3; i++) {
		assert_string_equal(f[i].hello_cmd, "lat");
		assert_true(f[i].plan_options);
	}
	rperf_run_results_free(r);
	json_decref(opts);
	fx_job_free(j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(perftest_peer),
		cmocka_unit_test(lat_controller),
		cmocka_unit_test(third_party_endpoints),
		cmocka_unit_test(escapes_stripped),
		cmocka_unit_test(raw_samples),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
