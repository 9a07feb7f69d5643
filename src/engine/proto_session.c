/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Experiment conversation state machine (agent and controller ends): one
 * table of allowed transitions per end; anything else is EPROTO. ERROR is
 * allowed both ways from every state but CLOSED and closes.
 */
#include "engine/proto.h"

#include <errno.h>

#define P(x) RPERF_PROTO_##x
#define T(x) RPERF_CTRL_##x
#define SEND RPERF_CTRL_SEND
#define RECV RPERF_CTRL_RECV

static const struct rperf_ctrl_transition agent_table[] = {
	{ P(AWAIT_HELLO), RECV, T(HELLO), P(HELLO_RCVD) },
	{ P(AWAIT_HELLO), SEND, T(REFUSE), P(CLOSED) },
	{ P(HELLO_RCVD), SEND, T(WELCOME), P(AWAIT_PLAN) },
	{ P(HELLO_RCVD), SEND, T(REFUSE), P(CLOSED) },
	{ P(AWAIT_PLAN), RECV, T(PLAN), P(PLAN_RCVD) },
	{ P(AWAIT_PLAN), RECV, T(BYE), P(BYE_RCVD) },
	{ P(PLAN_RCVD), SEND, T(ENDPOINTS), P(AWAIT_CONNECT) },
	{ P(AWAIT_CONNECT), RECV, T(CONNECT), P(CONNECT_RCVD) },
	{ P(CONNECT_RCVD), SEND, T(ARMED), P(AWAIT_GO) },
	{ P(AWAIT_GO), RECV, T(GO), P(RUNNING) },
	{ P(AWAIT_GO), RECV, T(CLOCK), P(CLOCK_RCVD) },
	{ P(CLOCK_RCVD), SEND, T(CLOCK), P(AWAIT_GO) },
	{ P(RUNNING), SEND, T(FINISHED), P(FINISHED) },
	{ P(RUNNING), SEND, T(HEARTBEAT), P(RUNNING) },
	{ P(FINISHED), SEND, T(HEARTBEAT), P(FINISHED) },
	{ P(RUNNING), RECV, T(STOP), P(STOP_RCVD) },
	{ P(FINISHED), RECV, T(STOP), P(STOP_RCVD) },
	/* "halt": the sources end now; FINISHED follows (or crossed it) */
	{ P(RUNNING), RECV, T(HALT), P(RUNNING) },
	{ P(FINISHED), RECV, T(HALT), P(FINISHED) },
	{ P(STOP_RCVD), SEND, T(SAMPLES), P(STOP_RCVD) }, /* "raw" LSGs */
	{ P(STOP_RCVD), SEND, T(REPORT), P(AWAIT_BYE) },
	{ P(AWAIT_BYE), RECV, T(BYE), P(BYE_RCVD) },
	/* the next round on the same QPs (PLAN "rounds") */
	{ P(AWAIT_BYE), RECV, T(GO), P(RUNNING) },
	{ P(AWAIT_BYE), RECV, T(CLOCK), P(CLOCK_RCVD) },
	{ P(BYE_RCVD), SEND, T(BYE), P(CLOSED) },
};

static const struct rperf_ctrl_transition controller_table[] = {
	{ P(C_INIT), SEND, T(HELLO), P(C_AWAIT_WELCOME) },
	{ P(C_AWAIT_WELCOME), RECV, T(WELCOME), P(C_WELCOMED) },
	{ P(C_AWAIT_WELCOME), RECV, T(REFUSE), P(CLOSED) },
	{ P(C_WELCOMED), SEND, T(PLAN), P(C_AWAIT_ENDPOINTS) },
	{ P(C_WELCOMED), SEND, T(BYE), P(C_AWAIT_BYE) },
	{ P(C_AWAIT_ENDPOINTS), RECV, T(ENDPOINTS), P(C_ENDPOINTS_RCVD) },
	{ P(C_ENDPOINTS_RCVD), SEND, T(CONNECT), P(C_AWAIT_ARMED) },
	{ P(C_AWAIT_ARMED), RECV, T(ARMED), P(C_ARMED) },
	{ P(C_ARMED), SEND, T(GO), P(C_RUNNING) },
	{ P(C_ARMED), SEND, T(CLOCK), P(C_AWAIT_CLOCK) },
	{ P(C_AWAIT_CLOCK), RECV, T(CLOCK), P(C_ARMED) },
	{ P(C_RUNNING), RECV, T(FINISHED), P(C_FINISHED) },
	{ P(C_RUNNING), RECV, T(HEARTBEAT), P(C_RUNNING) },
	{ P(C_FINISHED), RECV, T(HEARTBEAT), P(C_FINISHED) },
	{ P(C_AWAIT_REPORT), RECV, T(HEARTBEAT), P(C_AWAIT_REPORT) },
	{ P(C_RUNNING), SEND, T(STOP), P(C_AWAIT_REPORT) },
	{ P(C_FINISHED), SEND, T(STOP), P(C_AWAIT_REPORT) },
	{ P(C_RUNNING), SEND, T(HALT), P(C_RUNNING) },
	/* FINISHED may cross STOP on the wire */
	{ P(C_AWAIT_REPORT), RECV, T(FINISHED), P(C_AWAIT_REPORT) },
	{ P(C_AWAIT_REPORT), RECV, T(SAMPLES), P(C_AWAIT_REPORT) },
	{ P(C_AWAIT_REPORT), RECV, T(REPORT), P(C_REPORT_RCVD) },
	{ P(C_REPORT_RCVD), SEND, T(BYE), P(C_AWAIT_BYE) },
	{ P(C_REPORT_RCVD), SEND, T(GO), P(C_RUNNING) }, /* next round */
	{ P(C_REPORT_RCVD), SEND, T(CLOCK), P(C_AWAIT_CLOCK) },
	{ P(C_AWAIT_BYE), RECV, T(BYE), P(CLOSED) },
};

static const char *const state_names[RPERF_PROTO_STATE_COUNT] = {
	[P(AWAIT_HELLO)] = "agent:await-hello",
	[P(HELLO_RCVD)] = "agent:hello-received",
	[P(AWAIT_PLAN)] = "agent:await-plan",
	[P(PLAN_RCVD)] = "agent:plan-received",
	[P(AWAIT_CONNECT)] = "agent:await-connect",
	[P(CONNECT_RCVD)] = "agent:connect-received",
	[P(AWAIT_GO)] = "agent:await-go",
	[P(RUNNING)] = "agent:running",
	[P(FINISHED)] = "agent:finished",
	[P(STOP_RCVD)] = "agent:stop-received",
	[P(AWAIT_BYE)] = "agent:await-bye",
	[P(BYE_RCVD)] = "agent:bye-received",
	[P(C_INIT)] = "controller:init",
	[P(C_AWAIT_WELCOME)] = "controller:await-welcome",
	[P(C_WELCOMED)] = "controller:welcomed",
	[P(C_AWAIT_ENDPOINTS)] = "controller:await-endpoints",
	[P(C_ENDPOINTS_RCVD)] = "controller:endpoints-received",
	[P(C_AWAIT_ARMED)] = "controller:await-armed",
	[P(C_ARMED)] = "controller:armed",
	[P(C_RUNNING)] = "controller:running",
	[P(C_FINISHED)] = "controller:finished",
	[P(C_AWAIT_REPORT)] = "controller:await-report",
	[P(C_REPORT_RCVD)] = "controller:report-received",
	[P(C_AWAIT_BYE)] = "controller:await-bye",
	[P(CLOCK_RCVD)] = "agent:clock-received",
	[P(C_AWAIT_CLOCK)] = "controller:await-clock",
	[P(CLOSED)] = "closed",
};

const char *rperf_proto_state_name(enum rperf_proto_state st)
{
	if ((unsigned int)st >= RPERF_PROTO_STATE_COUNT)
		return "?";
	return state_names[st];
}

void rperf_proto_session_init(struct rperf_proto_session *s,
			      enum rperf_proto_role_end end)
{
	s->end = end;
	s->state = end == RPERF_PROTO_AGENT ? P(AWAIT_HELLO) : P(C_INIT);
}

int rperf_proto_session_check(struct rperf_proto_session *s,
			      enum rperf_ctrl_dir dir, enum rperf_ctrl_type t)
{
	const struct rperf_ctrl_transition *tab;
	int st, rc;
	size_t n;

	if (!s || (unsigned int)s->state >= RPERF_PROTO_STATE_COUNT)
		return EINVAL;
	if (s->end == RPERF_PROTO_AGENT) {
		tab = agent_table;
		n = sizeof(agent_table) / sizeof(agent_table[0]);
	} else if (s->end == RPERF_PROTO_CONTROLLER) {
		tab = controller_table;
		n = sizeof(controller_table) / sizeof(controller_table[0]);
	} else {
		return EINVAL;
	}
	st = (int)s->state;
	rc = rperf_ctrl_transition_step(tab, n, P(CLOSED), &st, dir, t);
	if (!rc)
		s->state = (enum rperf_proto_state)st;
	return rc;
}
