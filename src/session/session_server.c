/* SPDX-License-Identifier: BSD-2-Clause */
/* The server half of the two-host session lifecycle (session_life.h). */
#include "session/session_life.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "serve/serve.h"
#include "session/session_ctrl.h"
#include "session/session_parity.h"
#include "session/session_serve.h"

struct served {
	struct rperf_session_chan ch;
	const struct rperf_session_server_ops *ops;
	void *arg;
	const struct rperf_session_log *log;
	char peer[96];
	struct rperf_session_plan *plan;
	bool refused; /* before the run: see rperf_session_client */
};

static void say(const struct served *sv, const char *msg)
{
	if (sv->log && sv->log->line)
		sv->log->line(sv->log->arg, sv->peer, msg);
}

/* @e set by the step that failed: log it as it happens. */
static int failed(const struct served *sv, const struct rperf_err *e)
{
	say(sv, e->msg);
	return e->rc;
}

static int refuse(struct served *sv, struct rperf_err *e)
{
	char why[RPERF_ERR_MSG_LEN];

	snprintf(why, sizeof(why), "%s", e->msg);
	if (sv->plan)
		atomic_store(&sv->plan->refused, true);
	rperf_session_send_reason(&sv->ch.s, &sv->ch.io, RPERF_CTRL_REFUSE,
				  why);
	sv->refused = true;
	rperf_err_set(e, RPERF_ERRC_USAGE, e->rc, "refused: %s", why);
	return failed(sv, e);
}

static int greet(struct served *sv, const struct rperf_ctrl_msg *hello,
		 struct rperf_err *e)
{
	char why[RPERF_CTRL_REASON_LEN];
	int rc = rperf_ctrl_session_check(&sv->ch.s, RPERF_CTRL_RECV,
					  RPERF_CTRL_HELLO);

	if (!rc)
		rc = rperf_session_greet_hello(&sv->ch.s, &sv->ch.io, hello,
					       sv->ops->command,
					       RPERF_SERVER_MAX_SIZE, why,
					       sizeof(why));
	if (rc == EPROTO) {
		if (sv->plan)
			atomic_store(&sv->plan->refused, true);
		sv->refused = true;
		rperf_err_set(e, RPERF_ERRC_USAGE, rc, "refused: %s", why);
	} else if (rc)
		rperf_err_set(e, RPERF_ERRC_RUNTIME, rc, "%s", why);
	return rc ? failed(sv, e) : 0;
}

/* PARAMS' "planned_ns" (the client's whole run; 0: iteration count) and
 * "endless" (--run_infinitely) for the busy refusals of others meanwhile. */
static void note_plan(struct served *sv, const json_t *obj)
{
	bool endless = false;
	uint64_t ns = 0;

	if (sv->plan && !rperf_ctrl_get_bool(obj, "endless", &endless) &&
	    endless) {
		atomic_store(&sv->plan->end_ns, RPERF_SESSION_PLAN_ENDLESS);
		return;
	}
	if (!sv->plan ||
	    rperf_ctrl_get_u64(obj, "planned_ns", 0, UINT64_MAX / 2, &ns))
		return;
	atomic_store(&sv->plan->end_ns,
		     ns ? rperf_mono_ns() + ns : RPERF_SESSION_PLAN_ITERS);
}

/* The client's generator from PARAMS @obj: the same flags on both sides,
 * a spec within what this server serves and its limits, then the
 * command's setup. 0 or errno with @e (the client is refused). */
static int take_spec(struct served *sv, const json_t *obj, struct rperf_err *e)
{
	char why[RPERF_CTRL_REASON_LEN];
	struct rperf_gen_spec s;
	uint64_t stall_ns = 0;
	int rc;

	if (rperf_parity_check(sv->ch.cfg, obj, e)) /* same flags both sides */
		return e->rc;
	rc = rperf_session_params(sv->ch.cfg, obj, RPERF_SERVER_MAX_SIZE, &s,
				  &stall_ns, why, sizeof(why));
	if (rc)
		return rperf_err_set(e, RPERF_ERRC_USAGE, rc, "%s", why);
	return sv->ops->params(sv->arg, &sv->ch, &s, stall_ns, e);
}

/* PARAMS in (a bad one or a setup failure refuses), endpoints, READY. */
static int take_params(struct served *sv, struct rperf_err *e)
{
	char why[RPERF_CTRL_REASON_LEN];
	struct rperf_ctrl_msg m;
	const json_t *obj;
	int rc;

	rc = rperf_session_expect(&sv->ch.s, &sv->ch.io, RPERF_CTRL_PARAMS, &m,
				  why, sizeof(why));
	if (rc) {
		rperf_err_set(e, RPERF_ERRC_RUNTIME, rc, "%s", why);
		return failed(sv, e);
	}
	rc = rperf_ctrl_params_decode(&m, &obj);
	if (rc)
		rperf_err_set(e, RPERF_ERRC_USAGE, rc, "malformed PARAMS");
	else
		note_plan(sv, obj);
	if (!rc)
		rc = take_spec(sv, obj, e);
	rperf_ctrl_msg_release(&m);
	if (rc)
		return refuse(sv, e);
	rc = sv->ops->endpoints(sv->arg, &sv->ch, e);
	if (rc)
		return failed(sv, e);
	rc = rperf_ctrl_session_send(&sv->ch.s, &sv->ch.io, RPERF_CTRL_READY,
				     NULL);
	if (rc) {
		rperf_err_set(e, RPERF_ERRC_RUNTIME, rc,
			      "connecting the QPs: %s", strerror(rc));
		return failed(sv, e);
	}
	return 0;
}

/* One round: the command's loop, DONE in, RESULT out. */
static int round_once(struct served *sv, struct rperf_err *e)
{
	char why[RPERF_CTRL_REASON_LEN], line[256] = "";
	struct rperf_ctrl_msg m;
	uint64_t samples = 0;
	json_t *res = NULL;
	int rc = sv->ops->round(sv->arg, &sv->ch, e);

	if (rc)
		return failed(sv, e);
	rc = rperf_session_expect(&sv->ch.s, &sv->ch.io, RPERF_CTRL_DONE, &m,
				  why, sizeof(why));
	if (rc) {
		rperf_err_set(e, RPERF_ERRC_RUNTIME, rc,
			      "went away mid-run after %llu messages (%s)",
			      (unsigned long long)sv->ops->received(sv->arg),
			      why);
		return failed(sv, e);
	}
	rperf_ctrl_done_decode(&m, &samples, NULL);
	rperf_ctrl_msg_release(&m);
	rc = sv->ops->result(sv->arg, samples, &res, line, sizeof(line), e);
	if (rc)
		return failed(sv, e);
	rc = rperf_ctrl_session_send(&sv->ch.s, &sv->ch.io, RPERF_CTRL_RESULT,
				     res);
	json_decref(res);
	if (line[0])
		say(sv, line);
	if (rc) {
		rperf_err_set(e, RPERF_ERRC_RUNTIME, rc, "sending RESULT: %s",
			      strerror(rc));
		return failed(sv, e);
	}
	return 0;
}

static int on_start(struct served *sv, const struct rperf_ctrl_msg *m,
		    struct rperf_err *e)
{
	int rc = sv->ops->start(sv->arg, &sv->ch, m, e);

	if (!rc)
		return 0;
	rperf_session_send_reason(&sv->ch.s, &sv->ch.io, RPERF_CTRL_ERROR,
				  e->msg);
	return failed(sv, e);
}

/* START ... RESULT, as many rounds as the client asks; BYE. */
static int serve_run(struct served *sv, struct rperf_err *e)
{
	struct rperf_ctrl_msg m;
	enum rperf_ctrl_type t;
	int rc;

	for (;;) {
		rc = rperf_ctrl_session_recv(&sv->ch.s, &sv->ch.io, &m);
		if (rc) {
			rperf_err_set(e, RPERF_ERRC_RUNTIME, rc,
				      "waiting for START or BYE: %s",
				      rc == EPROTO ? "out of order" :
						     strerror(rc));
			return failed(sv, e);
		}
		t = m.type;
		rc = t == RPERF_CTRL_START ? on_start(sv, &m, e) : 0;
		rperf_ctrl_msg_release(&m);
		if (t == RPERF_CTRL_BYE) {
			rperf_ctrl_session_send(&sv->ch.s, &sv->ch.io,
						RPERF_CTRL_BYE, NULL);
			return 0;
		}
		if (t != RPERF_CTRL_START) {
			rperf_err_set(e, RPERF_ERRC_RUNTIME, EPROTO,
				      "the client ended the run: %s",
				      rperf_ctrl_type_name((int)t));
			return failed(sv, e);
		}
		if (!rc)
			rc = round_once(sv, e);
		if (rc)
			return rc;
	}
}

int rperf_session_serve_client(struct rperf_session_client *c,
			       struct rperf_err *e)
{
	struct served sv = { .ch = { .cfg = c->cfg, .stop = c->stop },
			     .ops = c->ops,
			     .log = c->log,
			     .plan = c->plan };
	int rc;

	memset(e, 0, sizeof(*e));
	snprintf(sv.peer, sizeof(sv.peer), "%s", c->peer);
	sv.arg = calloc(1, sv.ops->state_size);
	if (!sv.arg) {
		rperf_err_set(e, RPERF_ERRC_INTERNAL, ENOMEM, "out of memory");
		rc = failed(&sv, e);
		goto close_fd;
	}
	sv.ch.io =
		(struct rperf_ctrl_io){ .fd = c->fd,
					.timeout_ms = RPERF_SESSION_TIMEOUT_MS,
					.stop = sv.ch.stop };
	rperf_ctrl_session_init(&sv.ch.s, RPERF_CTRL_SERVER);
	rc = greet(&sv, &c->hello, e);
	if (!rc)
		rc = take_params(&sv, e);
	if (!rc)
		rc = serve_run(&sv, e);
	sv.ops->close(sv.arg);
	free(sv.arg);
	c->refused = sv.refused;
close_fd:
	close(c->fd);
	c->fd = -1;
	rperf_ctrl_msg_release(&c->hello);
	return rc;
}
