/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The one two-host session lifecycle under rperf lat and rperf bw. A
 * command plugs its generator in through a small ops table; the lifecycle
 * owns the control channel and the order of the steps:
 *
 *   client: setup (device, QPs) -> connect -> HELLO/WELCOME -> PARAMS ->
 *           endpoints (the command's exchange, QPs connected) -> READY ->
 *           rounds (START ... DONE/RESULT each) -> BYE, or ERROR on failure
 *   server: HELLO/WELCOME (the server's limit) -> PARAMS decoded with the
 *           server's limits (a failure is a REFUSE) -> endpoints -> READY ->
 *           START, round, DONE, RESULT ... until BYE
 *
 * Nothing here prints: errors are values (struct rperf_err); a server's
 * per-client lines go to the caller's log callback.
 */
#ifndef RPERF_SESSION_LIFE_H
#define RPERF_SESSION_LIFE_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

#include "ctrl/ctrl.h"
#include "session/session.h"
#include "session/session_err.h"

/* The control channel of one client or one served client. */
struct rperf_session_chan {
	const struct rperf_cli_config *cfg;
	volatile sig_atomic_t *stop;
	struct rperf_ctrl_session s;
	struct rperf_ctrl_io io;
};

struct rperf_session_client_ops {
	const char *command; /* "lat", "bw": HELLO's command */
	/* the device and QPs for messages up to @max_size, before the
	 * control channel: 0 or errno with @err (ENODEV, ERANGE, ENOTSUP:
	 * the user's choice cannot work here) */
	int (*setup)(void *arg, uint64_t max_size, char *err, size_t errlen);
	/* the address of our RDMA device (RoCE) that the control connection
	 * binds to unless --bind (the server checks that our GIDs are its
	 * peer address): 0 with @buf, or an errno (unbound); NULL: unbound */
	int (*source)(void *arg, char *buf, size_t len);
	/* the generator: PARAMS is the spec of it (rperf_session_spec) */
	enum rperf_gen_kind kind;
	/* after PARAMS: the endpoint exchange, QPs connected */
	int (*endpoints)(void *arg, struct rperf_session_chan *ch,
			 struct rperf_err *e);
	/* after READY: every round; the lifecycle says BYE or ERROR after */
	int (*rounds)(void *arg, struct rperf_session_chan *ch,
		      struct rperf_err *e);
	bool rounds_ignore_stop; /* after SIGINT a round still closes */
	/* measurements of -D each per message size (NULL: 1): PARAMS'
	 * "planned_ns" = -D x sizes x this, for the server's busy refusals
	 * of other clients meanwhile ("N s left"); 0 with -n; with
	 * --run_infinitely "endless": true as well */
	size_t (*runs_per_size)(const struct rperf_cli_config *cfg);
};

/* The whole client run; 0 or the errno of @e. */
int rperf_session_client_run(const struct rperf_cli_config *cfg,
			     volatile sig_atomic_t *stop,
			     const struct rperf_session_client_ops *ops,
			     void *arg, struct rperf_err *e);

/* Client rounds: START with @payload (may be NULL; not consumed). */
int rperf_session_start(struct rperf_session_chan *ch, json_t *payload,
			struct rperf_err *e);
/* Client rounds: DONE {"samples"} out. */
int rperf_session_done(struct rperf_session_chan *ch, uint64_t samples,
		       struct rperf_err *e);
/* Client rounds: RESULT in (@m released by the caller). */
int rperf_session_result(struct rperf_session_chan *ch,
			 struct rperf_ctrl_msg *m, struct rperf_err *e);

struct rperf_session_server_ops {
	const char *command;
	size_t state_size; /* @arg of every op: zeroed for each client */
	/* PARAMS (the client's generator @s, decoded, within this server's
	 * limits: @stall_ns its stall limit here): the device and QPs set
	 * up; a failure refuses the client with e->msg */
	int (*params)(void *arg, struct rperf_session_chan *ch,
		      const struct rperf_gen_spec *s, uint64_t stall_ns,
		      struct rperf_err *e);
	/* our ENDPOINT out, the client's in, QPs connected */
	int (*endpoints)(void *arg, struct rperf_session_chan *ch,
			 struct rperf_err *e);
	/* START's payload: what this round does */
	int (*start)(void *arg, struct rperf_session_chan *ch,
		     const struct rperf_ctrl_msg *m, struct rperf_err *e);
	/* the round until the control socket speaks (DONE) */
	int (*round)(void *arg, struct rperf_session_chan *ch,
		     struct rperf_err *e);
	/* messages received so far this round (for "went away" lines) */
	uint64_t (*received)(void *arg);
	/* after DONE (@samples: what the client sent): catch up, RESULT
	 * payload in *out (new reference), a log line in @line */
	int (*result)(void *arg, uint64_t samples, json_t **out, char *line,
		      size_t linelen, struct rperf_err *e);
	/* free what the client's run created (also after a failed params) */
	void (*close)(void *arg);
};

/* One line about a served client (@peer) for the command layer. */
struct rperf_session_log {
	void (*line)(void *arg, const char *peer, const char *msg);
	void *arg;
};

/* Server: open and close the device (-d, -i, -x) it would serve on, before
 * listening, so a bad -d never listens: 0, or errno with @e (class usage,
 * the message names the option). */
int rperf_session_check_device(const struct rperf_cli_config *cfg,
			       struct rperf_err *e);
/* Server: pin (--cpu) and listen on --bind/-p; 0 or errno with @e. */
int rperf_session_listen(const struct rperf_cli_config *cfg, int *lfd,
			 struct rperf_err *e);
/* Server: serve one client on @lfd, or with --persistent one after
 * another until a signal, each with a fresh ops->state_size state; every
 * failure of a client is logged as it happens. @e: the last client's
 * outcome, and 0 returned; or the loop's own failure (not logged: the
 * caller says it), its errno returned. Closes @lfd.
 * Every connection goes through the server loop (src/serve/serve.h): its
 * HELLO within --handshake-timeout, at most --max-conns held; an admitted
 * client runs in a worker thread while the loop refuses others with
 * "busy: running a test for ADDR since TIME (N s left)" (N from the
 * running client's PARAMS "planned_ns"). */
int rperf_session_serve(const struct rperf_cli_config *cfg, int lfd,
			volatile sig_atomic_t *stop,
			const struct rperf_session_server_ops *ops,
			const struct rperf_session_log *log,
			struct rperf_err *e);

#endif
