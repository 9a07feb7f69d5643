// SPDX-License-Identifier: BSD-2-Clause
/*
 * Control session state machine: one table of allowed transitions per role;
 * anything not in the table is a protocol error (EPROTO). ERROR is allowed
 * in both directions from every state but CLOSED and closes the session.
 */
#include <errno.h>
#include <stddef.h>

#include "ctrl/ctrl.h"

#define S(x) RPERF_CTRL_S_##x
#define C(x) RPERF_CTRL_C_##x
#define T(x) RPERF_CTRL_##x
#define SEND RPERF_CTRL_SEND
#define RECV RPERF_CTRL_RECV
#define CLOSED RPERF_CTRL_CLOSED

static const struct rperf_ctrl_transition server_table[] = {
	{ S(AWAIT_HELLO), RECV, T(HELLO), S(HELLO_RCVD) },
	/* a first frame refused before it is a HELLO (wrong version, too
	 * long, another type, the server busy): REFUSE says why */
	{ S(AWAIT_HELLO), SEND, T(REFUSE), CLOSED },
	{ S(HELLO_RCVD), SEND, T(WELCOME), S(AWAIT_PARAMS) },
	{ S(HELLO_RCVD), SEND, T(REFUSE), CLOSED },
	{ S(AWAIT_PARAMS), RECV, T(PARAMS), S(PARAMS_RCVD) },
	{ S(AWAIT_PARAMS), RECV, T(REFUSE), CLOSED },
	{ S(PARAMS_RCVD), SEND, T(ENDPOINT), S(AWAIT_ENDPOINT) },
	{ S(PARAMS_RCVD), SEND, T(REFUSE), CLOSED },
	{ S(AWAIT_ENDPOINT), RECV, T(ENDPOINT), S(ENDPOINT_RCVD) },
	{ S(ENDPOINT_RCVD), SEND, T(READY), S(AWAIT_START) },
	{ S(AWAIT_START), RECV, T(START), S(RUNNING) },
	{ S(RUNNING), RECV, T(DONE), S(DONE_RCVD) },
	{ S(DONE_RCVD), SEND, T(RESULT), S(AWAIT_BYE) },
	{ S(AWAIT_BYE), RECV, T(BYE), S(BYE_RCVD) },
	{ S(AWAIT_BYE), RECV, T(START), S(RUNNING) },
	{ S(BYE_RCVD), SEND, T(BYE), CLOSED },
};

static const struct rperf_ctrl_transition client_table[] = {
	{ C(INIT), SEND, T(HELLO), C(AWAIT_WELCOME) },
	{ C(AWAIT_WELCOME), RECV, T(WELCOME), C(WELCOMED) },
	{ C(AWAIT_WELCOME), RECV, T(REFUSE), CLOSED },
	{ C(WELCOMED), SEND, T(PARAMS), C(AWAIT_ENDPOINT) },
	{ C(WELCOMED), SEND, T(REFUSE), CLOSED },
	{ C(AWAIT_ENDPOINT), RECV, T(ENDPOINT), C(ENDPOINT_RCVD) },
	{ C(AWAIT_ENDPOINT), RECV, T(REFUSE), CLOSED },
	{ C(ENDPOINT_RCVD), SEND, T(ENDPOINT), C(AWAIT_READY) },
	{ C(AWAIT_READY), RECV, T(READY), C(READY) },
	{ C(READY), SEND, T(START), C(RUNNING) },
	{ C(RUNNING), SEND, T(DONE), C(AWAIT_RESULT) },
	{ C(AWAIT_RESULT), RECV, T(RESULT), C(RESULT_RCVD) },
	{ C(RESULT_RCVD), SEND, T(BYE), C(AWAIT_BYE) },
	{ C(RESULT_RCVD), SEND, T(START), C(RUNNING) },
	{ C(AWAIT_BYE), RECV, T(BYE), CLOSED },
};

static const char *const state_names[RPERF_CTRL_STATE_COUNT] = {
	[S(AWAIT_HELLO)] = "server:await-hello",
	[S(HELLO_RCVD)] = "server:hello-received",
	[S(AWAIT_PARAMS)] = "server:await-params",
	[S(PARAMS_RCVD)] = "server:params-received",
	[S(AWAIT_ENDPOINT)] = "server:await-endpoint",
	[S(ENDPOINT_RCVD)] = "server:endpoint-received",
	[S(AWAIT_START)] = "server:await-start",
	[S(RUNNING)] = "server:running",
	[S(DONE_RCVD)] = "server:done-received",
	[S(AWAIT_BYE)] = "server:await-bye",
	[S(BYE_RCVD)] = "server:bye-received",
	[C(INIT)] = "client:init",
	[C(AWAIT_WELCOME)] = "client:await-welcome",
	[C(WELCOMED)] = "client:welcomed",
	[C(AWAIT_ENDPOINT)] = "client:await-endpoint",
	[C(ENDPOINT_RCVD)] = "client:endpoint-received",
	[C(AWAIT_READY)] = "client:await-ready",
	[C(READY)] = "client:ready",
	[C(RUNNING)] = "client:running",
	[C(AWAIT_RESULT)] = "client:await-result",
	[C(RESULT_RCVD)] = "client:result-received",
	[C(AWAIT_BYE)] = "client:await-bye",
	[CLOSED] = "closed",
};

const char *rperf_ctrl_state_name(enum rperf_ctrl_state st)
{
	if ((unsigned int)st >= RPERF_CTRL_STATE_COUNT)
		return "?";
	return state_names[st];
}

void rperf_ctrl_session_init(struct rperf_ctrl_session *s,
			     enum rperf_ctrl_role role)
{
	s->role = role;
	s->state = role == RPERF_CTRL_SERVER ? S(AWAIT_HELLO) : C(INIT);
}

int rperf_ctrl_transition_step(const struct rperf_ctrl_transition *tab,
			       size_t n, int closed, int *state,
			       enum rperf_ctrl_dir dir, enum rperf_ctrl_type t)
{
	size_t i;

	if (!tab || !state || (dir != SEND && dir != RECV) ||
	    (int)t < RPERF_CTRL_TYPE_MIN || (int)t > RPERF_CTRL_TYPE_MAX)
		return EINVAL;
	if (*state == closed)
		return EPROTO;
	if (t == T(ERROR)) {
		*state = closed;
		return 0;
	}
	for (i = 0; i < n; i++) {
		if (tab[i].from == *state && tab[i].dir == dir &&
		    tab[i].type == t) {
			*state = tab[i].to;
			return 0;
		}
	}
	return EPROTO;
}

int rperf_ctrl_session_check(struct rperf_ctrl_session *s,
			     enum rperf_ctrl_dir dir, enum rperf_ctrl_type t)
{
	const struct rperf_ctrl_transition *tab;
	int st, rc;
	size_t n;

	if (!s || (unsigned int)s->state >= RPERF_CTRL_STATE_COUNT)
		return EINVAL;
	if (s->role == RPERF_CTRL_SERVER) {
		tab = server_table;
		n = sizeof(server_table) / sizeof(server_table[0]);
	} else if (s->role == RPERF_CTRL_CLIENT) {
		tab = client_table;
		n = sizeof(client_table) / sizeof(client_table[0]);
	} else {
		return EINVAL;
	}
	st = (int)s->state;
	rc = rperf_ctrl_transition_step(tab, n, CLOSED, &st, dir, t);
	if (!rc)
		s->state = (enum rperf_ctrl_state)st;
	return rc;
}
