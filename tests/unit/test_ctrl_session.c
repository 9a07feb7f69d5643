// SPDX-License-Identifier: BSD-2-Clause
/*
 * Unit tests of the control session state machine: every (state, direction,
 * message type) of both roles against the protocol documented in ctrl.h,
 * written down here independently, and the whole conversation end to end.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "ctrl/ctrl.h"

/* The protocol as documented in ctrl.h, written down independently. */
struct edge {
	enum rperf_ctrl_state from;
	enum rperf_ctrl_dir dir;
	enum rperf_ctrl_type type;
	enum rperf_ctrl_state to;
};

#define SS(x) RPERF_CTRL_S_##x
#define CS(x) RPERF_CTRL_C_##x
#define TT(x) RPERF_CTRL_##x
#define TX RPERF_CTRL_SEND
#define RX RPERF_CTRL_RECV

static const struct edge server_edges[] = {
	{ SS(AWAIT_HELLO), RX, TT(HELLO), SS(HELLO_RCVD) },
	{ SS(AWAIT_HELLO), TX, TT(REFUSE), RPERF_CTRL_CLOSED },
	{ SS(HELLO_RCVD), TX, TT(WELCOME), SS(AWAIT_PARAMS) },
	{ SS(HELLO_RCVD), TX, TT(REFUSE), RPERF_CTRL_CLOSED },
	{ SS(AWAIT_PARAMS), RX, TT(PARAMS), SS(PARAMS_RCVD) },
	{ SS(AWAIT_PARAMS), RX, TT(REFUSE), RPERF_CTRL_CLOSED },
	{ SS(PARAMS_RCVD), TX, TT(ENDPOINT), SS(AWAIT_ENDPOINT) },
	{ SS(PARAMS_RCVD), TX, TT(REFUSE), RPERF_CTRL_CLOSED },
	{ SS(AWAIT_ENDPOINT), RX, TT(ENDPOINT), SS(ENDPOINT_RCVD) },
	{ SS(ENDPOINT_RCVD), TX, TT(READY), SS(AWAIT_START) },
	{ SS(AWAIT_START), RX, TT(START), SS(RUNNING) },
	{ SS(RUNNING), RX, TT(DONE), SS(DONE_RCVD) },
	{ SS(DONE_RCVD), TX, TT(RESULT), SS(AWAIT_BYE) },
	{ SS(AWAIT_BYE), RX, TT(BYE), SS(BYE_RCVD) },
	{ SS(AWAIT_BYE), RX, TT(START), SS(RUNNING) },
	{ SS(BYE_RCVD), TX, TT(BYE), RPERF_CTRL_CLOSED },
};

static const struct edge client_edges[] = {
	{ CS(INIT), TX, TT(HELLO), CS(AWAIT_WELCOME) },
	{ CS(AWAIT_WELCOME), RX, TT(WELCOME), CS(WELCOMED) },
	{ CS(AWAIT_WELCOME), RX, TT(REFUSE), RPERF_CTRL_CLOSED },
	{ CS(WELCOMED), TX, TT(PARAMS), CS(AWAIT_ENDPOINT) },
	{ CS(WELCOMED), TX, TT(REFUSE), RPERF_CTRL_CLOSED },
	{ CS(AWAIT_ENDPOINT), RX, TT(ENDPOINT), CS(ENDPOINT_RCVD) },
	{ CS(AWAIT_ENDPOINT), RX, TT(REFUSE), RPERF_CTRL_CLOSED },
	{ CS(ENDPOINT_RCVD), TX, TT(ENDPOINT), CS(AWAIT_READY) },
	{ CS(AWAIT_READY), RX, TT(READY), CS(READY) },
	{ CS(READY), TX, TT(START), CS(RUNNING) },
	{ CS(RUNNING), TX, TT(DONE), CS(AWAIT_RESULT) },
	{ CS(AWAIT_RESULT), RX, TT(RESULT), CS(RESULT_RCVD) },
	{ CS(RESULT_RCVD), TX, TT(BYE), CS(AWAIT_BYE) },
	{ CS(RESULT_RCVD), TX, TT(START), CS(RUNNING) },
	{ CS(AWAIT_BYE), RX, TT(BYE), RPERF_CTRL_CLOSED },
};

static const struct edge *find_edge(const struct edge *e, size_t n,
				    enum rperf_ctrl_state st,
				    enum rperf_ctrl_dir dir,
				    enum rperf_ctrl_type t)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (e[i].from == st && e[i].dir == dir && e[i].type == t)
			return &e[i];
	return NULL;
}

/* Every (state, direction, type) of a role: allowed iff listed (or ERROR). */
static void check_role(enum rperf_ctrl_role role, const struct edge *e,
		       size_t n)
{
	int st, dir, t, allowed = 0;

	for (st = 0; st < RPERF_CTRL_STATE_COUNT; st++) {
		for (dir = TX; dir <= RX; dir++) {
			for (t = RPERF_CTRL_TYPE_MIN; t <= RPERF_CTRL_TYPE_MAX;
			     t++) {
				const struct edge *x =
					find_edge(e, n, st, dir, t);
				struct rperf_ctrl_session s = { role, st };
				int ret = rperf_ctrl_session_check(&s, dir, t);

				if (x) {
					assert_int_equal(ret, 0);
					assert_int_equal(s.state, x->to);
					allowed++;
				} else if (t == TT(ERROR) &&
					   st != RPERF_CTRL_CLOSED) {
					assert_int_equal(ret, 0);
					assert_int_equal(s.state,
							 RPERF_CTRL_CLOSED);
				} else {
					if (ret != EPROTO)
						fail_msg(
							"%s %s %s: %d",
							rperf_ctrl_state_name(
								st),
							dir == TX ? "send" :
								    "recv",
							rperf_ctrl_type_name(t),
							ret);
					assert_int_equal(s.state, st);
				}
			}
		}
	}
	assert_int_equal(allowed, n);
}

static void test_session_table(void **state)
{
	struct rperf_ctrl_session s;
	int st;

	(void)state;
	check_role(RPERF_CTRL_SERVER, server_edges,
		   sizeof(server_edges) / sizeof(server_edges[0]));
	check_role(RPERF_CTRL_CLIENT, client_edges,
		   sizeof(client_edges) / sizeof(client_edges[0]));
	rperf_ctrl_session_init(&s, RPERF_CTRL_SERVER);
	assert_int_equal(s.state, SS(AWAIT_HELLO));
	assert_int_equal(rperf_ctrl_session_check(&s, RX, 0), EINVAL);
	assert_int_equal(rperf_ctrl_session_check(&s, RX,
						  RPERF_CTRL_TYPE_MAX + 1),
			 EINVAL);
	assert_int_equal(rperf_ctrl_session_check(&s, 2, TT(HELLO)), EINVAL);
	assert_int_equal(rperf_ctrl_session_check(NULL, RX, TT(HELLO)), EINVAL);
	s.state = RPERF_CTRL_STATE_COUNT;
	assert_int_equal(rperf_ctrl_session_check(&s, RX, TT(HELLO)), EINVAL);
	rperf_ctrl_session_init(&s, RPERF_CTRL_CLIENT);
	assert_int_equal(s.state, CS(INIT));
	for (st = 0; st < RPERF_CTRL_STATE_COUNT; st++)
		assert_string_not_equal(rperf_ctrl_state_name(st), "?");
	assert_string_equal(rperf_ctrl_state_name(RPERF_CTRL_STATE_COUNT), "?");
}

/* The documented conversation, two rounds, driven through both sides. */
static void test_session_flow(void **state)
{
	static const struct {
		bool from_client;
		enum rperf_ctrl_type t;
	} flow[] = {
		{ true, TT(HELLO) },	{ false, TT(WELCOME) },
		{ true, TT(PARAMS) },	{ false, TT(ENDPOINT) },
		{ true, TT(ENDPOINT) }, { false, TT(READY) },
		{ true, TT(START) },	{ true, TT(DONE) },
		{ false, TT(RESULT) },	{ true, TT(START) },
		{ true, TT(DONE) },	{ false, TT(RESULT) },
		{ true, TT(BYE) },	{ false, TT(BYE) },
	};
	struct rperf_ctrl_session c, s;
	size_t i;

	(void)state;
	rperf_ctrl_session_init(&c, RPERF_CTRL_CLIENT);
	rperf_ctrl_session_init(&s, RPERF_CTRL_SERVER);
	for (i = 0; i < sizeof(flow) / sizeof(flow[0]); i++) {
		struct rperf_ctrl_session *tx = flow[i].from_client ? &c : &s;
		struct rperf_ctrl_session *rx = flow[i].from_client ? &s : &c;

		assert_int_equal(rperf_ctrl_session_check(tx, TX, flow[i].t),
				 0);
		assert_int_equal(rperf_ctrl_session_check(rx, RX, flow[i].t),
				 0);
	}
	assert_int_equal(c.state, RPERF_CTRL_CLOSED);
	assert_int_equal(s.state, RPERF_CTRL_CLOSED);
	assert_int_equal(rperf_ctrl_session_check(&s, TX, TT(ERROR)), EPROTO);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_session_table),
		cmocka_unit_test(test_session_flow),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
