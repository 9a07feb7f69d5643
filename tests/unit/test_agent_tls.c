// SPDX-License-Identifier: BSD-2-Clause
/*
 * The agent's authenticated channel (issue 19), agent_fixture.h: a wrong
 * key and no key (TLS refused or a plain REFUSE; nothing created, the
 * experiment slot never taken; the right key gets in right after), and
 * HEARTBEATs from GO to REPORT.
 */
#include "agent_fixture.h"

/* TLS handshake refused: the connection closed, nothing created, the
 * slot not taken (a right controller gets in at once). */
static void refused_tls(struct rperf_agent *a, const char *key)
{
	int rc = 0, fd;

	client(key);
	fd = dial_rc(a, &rc);
	assert_true(rc == EACCES || rc == EPIPE || rc == ECONNRESET);
	step(a);
	hang_up(fd);
}

static void test_wrong_key(void **state)
{
	struct rperf_agent *a = agent(true, 2000);
	struct rperf_ctrl_msg m;
	char r[RPERF_CTRL_REASON_LEN];
	int fd;

	(void)state;
	refused_tls(a, "secreT"); /* wrong key */
	assert_true(logged("TLS authentication failed"));
	/* no key: the plain channel gets a plain REFUSE saying why */
	client(NULL);
	fd = dial(a);
	tx(fd, RPERF_CTRL_HELLO, hello());
	step(a);
	assert_int_equal(rx(fd, &m), 0);
	assert_int_equal(m.type, RPERF_CTRL_REFUSE);
	assert_int_equal(rperf_ctrl_reason_decode(&m, r, sizeof(r)), 0);
	assert_non_null(strstr(r, "requires TLS"));
	rperf_ctrl_msg_release(&m);
	hang_up(fd);
	assert_int_equal(fake.created, 0); /* nothing was created */
	assert_int_equal(rperf_agent_served(a), 0); /* nor the slot taken */
	/* the right key right after */
	client((const char *)the_key);
	fd = dial(a);
	greet(a, fd);
	hang_up(fd);
	step(a);
	assert_int_equal(rperf_agent_served(a), 1);
	rperf_agent_destroy(a);
}

/* After GO: @n steps of the agent's loop 25 ms apart, one more, then
 * STOP and the step that answers it. */
static void run_then_stop(struct rperf_agent *a, int fd, int n)
{
	for (int i = 0; i < n; i++) {
		step(a);
		usleep(25000);
	}
	step(a);
	tx(fd, RPERF_CTRL_STOP, NULL);
	step(a);
}

/* From GO to REPORT a HEARTBEAT every GO heartbeat_ns. */
static void test_heartbeat(void **state)
{
	struct rperf_agent *a = agent(false, 2000);
	struct rperf_ctrl_msg m;
	json_t *o = NULL;
	int fd, beats = 0;

	(void)state;
	fd = armed(a, plan(""));
	assert_int_equal(rperf_proto_go_encode(1000, 20000000ull, &o), 0);
	tx(fd, RPERF_CTRL_GO, o);
	run_then_stop(a, fd, 6); /* 6 x 50 ms: >= 5 beats of 20 ms */
	for (;;) {
		assert_int_equal(rx(fd, &m), 0);
		if (m.type != RPERF_CTRL_HEARTBEAT)
			break;
		beats++;
		rperf_ctrl_msg_release(&m);
	}
	assert_int_equal(m.type, RPERF_CTRL_REPORT);
	rperf_ctrl_msg_release(&m);
	if (beats < 5)
		fail_msg("%d HEARTBEATs in >= 150 ms at 20 ms", beats);
	hang_up(fd);
	step(a);
	rperf_agent_destroy(a);
}

/* GO with "live": the HEARTBEATs carry the engine's rows (once each) and
 * the count it skipped; without it the engine keeps none and the
 * HEARTBEATs carry nothing. */
static void live_run(bool live)
{
	struct rperf_agent *a = agent(false, 2000);
	struct rperf_proto_live l;
	struct rperf_ctrl_msg m;
	char why[256];
	json_t *o = NULL;
	size_t rows = 0;
	uint64_t skipped = 0;
	int fd;

	memset(&fake, 0, sizeof(fake));
	fd = armed(a, plan(""));
	assert_int_equal(rperf_proto_go_encode(1000, 20000000ull, &o), 0);
	if (live)
		assert_int_equal(rperf_proto_go_set_live(o), 0);
	tx(fd, RPERF_CTRL_GO, o);
	run_then_stop(a, fd, 4);
	for (;;) {
		assert_int_equal(rx(fd, &m), 0);
		if (m.type != RPERF_CTRL_HEARTBEAT)
			break;
		assert_int_equal(
			rperf_proto_live_decode(&m, &l, why, sizeof(why)), 0);
		if (live && l.n) {
			assert_int_equal(l.rows[0].id, 3);
			assert_int_equal(l.rows[0].kind, RPERF_GEN_BSG);
			assert_int_equal(l.rows[0].messages, 7);
		}
		rows += l.n;
		skipped += l.skipped;
		rperf_proto_live_fini(&l);
		rperf_ctrl_msg_release(&m);
	}
	assert_int_equal(m.type, RPERF_CTRL_REPORT);
	rperf_ctrl_msg_release(&m);
	assert_int_equal(rows, live ? 1 : 0);
	assert_int_equal(skipped, live ? 2 : 0);
	assert_int_equal(fake.live_on, live ? 1 : 0);
	hang_up(fd);
	step(a);
	rperf_agent_destroy(a);
}

static void test_live(void **state)
{
	(void)state;
	live_run(true);
	live_run(false);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wrong_key),
		cmocka_unit_test(test_heartbeat),
		cmocka_unit_test(test_live),
	};
	int rc;

	signal(SIGPIPE, SIG_IGN); /* as the CLI: OpenSSL writes with write() */
	assert_int_equal(rperf_clock_init(&clk, RPERF_CLOCK_POSIX), 0);
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	client(NULL);
	return rc;
}
