/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Private to src/session: one served client of rperf lat / rperf bw, run
 * from its HELLO (received by the server loop, src/serve) to its end, in
 * the worker thread of session_serve.c while the loop answers everyone
 * else.
 */
#ifndef RPERF_SESSION_SERVE_H
#define RPERF_SESSION_SERVE_H

#include <stdatomic.h>

#include "session/session_life.h"

/* The client's planned run, for the loop's busy refusals. */
#define RPERF_SESSION_PLAN_UNKNOWN 0 /* PARAMS not in yet, or no plan */
#define RPERF_SESSION_PLAN_ITERS UINT64_MAX /* an iteration-count run */
#define RPERF_SESSION_PLAN_ENDLESS (UINT64_MAX - 1) /* --run_infinitely */
struct rperf_session_plan {
	/* CLOCK_MONOTONIC ns of the planned end, or one of the above;
	 * written by the worker, read by the loop */
	_Atomic uint64_t end_ns;
	/* set by the worker when it refuses its client (before the REFUSE
	 * goes out where it can): the worker ends at once, and a client
	 * that connects meanwhile is served, not told the server is busy */
	_Atomic bool refused;
};

struct rperf_session_client {
	const struct rperf_cli_config *cfg;
	volatile sig_atomic_t *stop;
	const struct rperf_session_server_ops *ops;
	const struct rperf_session_log *log;
	int fd; /* closed by rperf_session_serve_client() */
	char peer[64];
	struct rperf_ctrl_msg hello; /* owned; released there too */
	struct rperf_session_plan *plan;
	/* out: refused before the run (HELLO or PARAMS): such a client does
	 * not end a server without --persistent */
	bool refused;
};

/* Serve @c from its HELLO to BYE (or a failure, logged as it happens);
 * 0 or the errno of @e. */
int rperf_session_serve_client(struct rperf_session_client *c,
			       struct rperf_err *e);

#endif
