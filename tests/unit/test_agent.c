// SPDX-License-Identifier: BSD-2-Clause
/*
 * The agent without RDMA (agent_fixture.h): the whole conversation over
 * TLS-PSK, out-of-order messages, the busy refusal, the deadline and a
 * controller that vanishes mid-experiment (everything destroyed). The
 * wrong key, no key and HEARTBEATs: test_agent_tls.c.
 */
#include "agent_fixture.h"

static void test_full_run(void **state)
{
	struct rperf_agent *a = agent(true, 2000);
	struct rperf_proto_report rep;
	struct rperf_proto_eps eps;
	struct rperf_ctrl_msg m;
	char why[256];
	json_t *o = NULL;
	uint64_t one = 1;
	int fd = dial(a);

	(void)state;
	greet(a, fd);
	ask(a, fd, RPERF_CTRL_PLAN, plan(""), RPERF_CTRL_ENDPOINTS, &m);
	assert_int_equal(fake.created, 1);
	/* the agent's --stall-limit reaches the engine with the plan */
	assert_int_equal(fake.stall_limit_ns, 2000000000ull);
	assert_true(logged("authenticated (TLS)"));
	assert_int_equal(
		rperf_proto_endpoints_decode(&m, &eps, why, sizeof(why)), 0);
	assert_string_equal(
		json_string_value(json_object_get(m.payload, "link_layer")),
		"ethernet");
	rperf_ctrl_msg_release(&m);
	assert_int_equal(rperf_proto_connect_encode(&eps, &o), 0);
	rperf_proto_eps_fini(&eps);
	ask(a, fd, RPERF_CTRL_CONNECT, o, RPERF_CTRL_ARMED, &m);
	assert_int_equal(fake.connected, 1);
	rperf_ctrl_msg_release(&m);
	assert_int_equal(rperf_proto_go_encode(1000, 0, &o), 0);
	tx(fd, RPERF_CTRL_GO, o);
	step(a);
	assert_int_equal(fake.went, 1);
	/* the source ends: FINISHED */
	assert_int_equal(write(fake.eng->efd, &one, sizeof(one)), 8);
	step(a);
	assert_int_equal(rx(fd, &m), 0);
	assert_int_equal(m.type, RPERF_CTRL_FINISHED);
	rperf_ctrl_msg_release(&m);
	ask(a, fd, RPERF_CTRL_STOP, NULL, RPERF_CTRL_REPORT, &m);
	assert_int_equal(fake.stopped, 1);
	assert_int_equal(rperf_proto_report_decode(&m, &rep, why, sizeof(why)),
			 0);
	assert_string_equal(rep.host, "h1");
	assert_int_equal(rep.res[0].messages, 5);
	assert_non_null(json_object_get(m.payload, "clock"));
	rperf_proto_report_fini(&rep);
	rperf_ctrl_msg_release(&m);
	ask(a, fd, RPERF_CTRL_BYE, NULL, RPERF_CTRL_BYE, &m);
	rperf_ctrl_msg_release(&m);
	assert_int_equal(fake.destroyed, 1);
	assert_int_equal(rperf_agent_served(a), 1);
	assert_int_equal(rx(fd, &m), EPIPE);
	hang_up(fd);
	/* and it serves the next controller */
	fd = dial(a);
	greet(a, fd);
	hang_up(fd);
	step(a);
	assert_int_equal(rperf_agent_served(a), 2);
	rperf_agent_destroy(a);
}

static void test_out_of_order(void **state)
{
	struct rperf_agent *a = agent(false, 2000);
	struct rperf_ctrl_msg m;
	int fd;

	(void)state;
	/* PLAN before HELLO: the server loop refuses the first frame */
	fd = dial(a);
	tx(fd, RPERF_CTRL_PLAN, plan(""));
	expect_end(a, fd, RPERF_CTRL_REFUSE, "must be HELLO, got PLAN");
	/* CONNECT before PLAN */
	fd = dial(a);
	greet(a, fd);
	tx(fd, RPERF_CTRL_CONNECT, json_object());
	expect_end(a, fd, RPERF_CTRL_ERROR, "awaiting PLAN");
	/* GO before CONNECT; the engine is destroyed */
	fd = dial(a);
	greet(a, fd);
	ask(a, fd, RPERF_CTRL_PLAN, plan(""), RPERF_CTRL_ENDPOINTS, &m);
	rperf_ctrl_msg_release(&m);
	tx(fd, RPERF_CTRL_GO, json_object());
	expect_end(a, fd, RPERF_CTRL_ERROR, "GO out of order");
	assert_int_equal(fake.created, 1);
	assert_int_equal(fake.destroyed, 1);
	assert_int_equal(fake.went, 0);
	/* a HELLO for another command */
	fd = dial(a);
	{
		struct rperf_ctrl_hello h = {
			RPERF_CTRL_VERSION, "lat", 0, { { 0 } }
		};
		json_t *o = NULL;

		assert_int_equal(rperf_ctrl_hello_encode(&h, &o), 0);
		tx(fd, RPERF_CTRL_HELLO, o);
	}
	expect_end(a, fd, RPERF_CTRL_REFUSE, "rperf run");
	/* a device that fails: ERROR with its reason */
	fd = dial(a);
	greet(a, fd);
	tx(fd, RPERF_CTRL_PLAN, plan("broken"));
	expect_end(a, fd, RPERF_CTRL_ERROR, "no such device");
	rperf_agent_destroy(a);
	/* the agent's -d fills in a device the job left open */
	local = (struct rperf_host_sel){ "broken", 1, -1, -1, -1, -1, 0 };
	a = agent(false, 2000);
	local = (struct rperf_host_sel){ "", 0, -1, -1, -1, -1, 0 };
	fd = dial(a);
	greet(a, fd);
	tx(fd, RPERF_CTRL_PLAN, plan(""));
	expect_end(a, fd, RPERF_CTRL_ERROR, "no such device 'broken'");
	rperf_agent_destroy(a);
}

static void test_busy_deadline_eof(void **state)
{
	struct rperf_agent *a = agent(false, 300);
	struct rperf_ctrl_msg m;
	char r[RPERF_CTRL_REASON_LEN];
	int fd = dial(a), fd2;

	(void)state;
	greet(a, fd);
	/* another controller meanwhile: REFUSE busy at once */
	fd2 = dial(a);
	tx(fd2, RPERF_CTRL_HELLO, hello());
	step(a);
	assert_int_equal(rx(fd2, &m), 0);
	assert_int_equal(m.type, RPERF_CTRL_REFUSE);
	assert_int_equal(rperf_ctrl_reason_decode(&m, r, sizeof(r)), 0);
	assert_non_null(strstr(r, "busy: running a test for 127.0.0.1"));
	rperf_ctrl_msg_release(&m);
	hang_up(fd2);
	/* no PLAN within the deadline (6 x 300 ms): ERROR, closed */
	usleep(1850000);
	expect_end(a, fd, RPERF_CTRL_ERROR, "no PLAN within the deadline");
	/* a controller that vanishes after PLAN: the engine is destroyed */
	fd = dial(a);
	greet(a, fd);
	ask(a, fd, RPERF_CTRL_PLAN, plan(""), RPERF_CTRL_ENDPOINTS, &m);
	rperf_ctrl_msg_release(&m);
	hang_up(fd);
	step(a);
	assert_int_equal(fake.created, 1);
	assert_int_equal(fake.destroyed, 1);
	assert_non_null(strstr(fake.log[fake.nlog - 1], "went away"));
	rperf_agent_destroy(a);
}

/* An agent serving "lat" (rperf lat's server): a HELLO of another command
 * is refused in its words, "lat" is welcomed; a header of another version
 * names the server in the serve loop's refusal. */
static void test_lat_server(void **state)
{
	struct rperf_agent_cfg c = { .bind = "127.0.0.1",
				     .timeout_ms = 1000,
				     .clk = &clk,
				     .engine = &fake_engine,
				     .log = on_log,
				     .insecure = true,
				     .command = "lat",
				     .what = "rperf lat server" };
	struct rperf_ctrl_hello h = { RPERF_CTRL_VERSION, "lat", 0, { { 0 } } };
	const uint8_t v2[] = { 'R', 'P', 'F', 'R', 0, 2,   0,
			       1,   0,	 0,   0,   2, '{', '}' };
	char r[RPERF_CTRL_REASON_LEN], err[256];
	struct rperf_agent *a = NULL;
	struct rperf_ctrl_msg m;
	json_t *o = NULL;
	int fd;

	(void)state;
	memset(&fake, 0, sizeof(fake));
	assert_int_equal(rperf_agent_create(&c, &a, err, sizeof(err)), 0);
	client(NULL);
	fd = dial(a);
	ask(a, fd, RPERF_CTRL_HELLO, hello(), RPERF_CTRL_REFUSE, &m);
	assert_int_equal(rperf_ctrl_reason_decode(&m, r, sizeof(r)), 0);
	assert_string_equal(
		r, "this is rperf lat server: it serves 'rperf lat' only");
	rperf_ctrl_msg_release(&m);
	hang_up(fd);
	step(a);
	fd = dial(a);
	assert_int_equal(rperf_ctrl_hello_encode(&h, &o), 0);
	ask(a, fd, RPERF_CTRL_HELLO, o, RPERF_CTRL_WELCOME, &m);
	rperf_ctrl_msg_release(&m);
	hang_up(fd);
	step(a);
	fd = dial(a);
	assert_int_equal(write(fd, v2, sizeof(v2)), (ssize_t)sizeof(v2));
	step(a);
	assert_int_equal(rx(fd, &m), 0);
	assert_int_equal(m.type, RPERF_CTRL_REFUSE);
	assert_int_equal(rperf_ctrl_reason_decode(&m, r, sizeof(r)), 0);
	assert_non_null(strstr(
		r, "protocol version 2, this rperf lat server speaks 1"));
	rperf_ctrl_msg_release(&m);
	hang_up(fd);
	rperf_agent_destroy(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_full_run),
		cmocka_unit_test(test_out_of_order),
		cmocka_unit_test(test_busy_deadline_eof),
		cmocka_unit_test(test_lat_server),
	};
	int rc;

	signal(SIGPIPE, SIG_IGN); /* as the CLI: OpenSSL writes with write() */
	assert_int_equal(rperf_clock_init(&clk, RPERF_CLOCK_POSIX), 0);
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	client(NULL);
	return rc;
}
