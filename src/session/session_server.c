/* SPDX-License-Identifier: BSD-2-Clause */
/* The server half of the two-host session lifecycle (session_life.h). */
#include "session/session_life.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "session/session_ctrl.h"

struct served {
	struct rperf_session_chan ch;
	const struct rperf_session_server_ops *ops;
	void *arg;
	const struct rperf_session_log *log;
	char peer[96];
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
	rperf_session_send_reason(&sv->ch.s, &sv->ch.io, RPERF_CTRL_REFUSE,
				  why);
	rperf_err_set(e, RPERF_ERRC_USAGE, e->rc, "refused: %s", why);
	return failed(sv, e);
}

static int greet(struct served *sv, struct rperf_err *e)
{
	char why[RPERF_CTRL_REASON_LEN];
	int rc = rperf_session_greet(&sv->ch.s, &sv->ch.io, sv->ops->command,
				     RPERF_SERVER_MAX_SIZE, why, sizeof(why));

	if (rc == EPROTO)
		rperf_err_set(e, RPERF_ERRC_USAGE, rc, "refused: %s", why);
	else if (rc)
		rperf_err_set(e, RPERF_ERRC_RUNTIME, rc, "%s", why);
	return rc ? failed(sv, e) : 0;
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
		rc = sv->ops->params(sv->arg, &sv->ch, obj, e);
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

static int serve_one(struct served *sv, int fd, struct rperf_err *e)
{
	int rc;

	memset(e, 0, sizeof(*e));
	sv->arg = calloc(1, sv->ops->state_size);
	if (!sv->arg) {
		close(fd);
		rperf_err_set(e, RPERF_ERRC_INTERNAL, ENOMEM, "out of memory");
		return failed(sv, e);
	}
	sv->ch.io =
		(struct rperf_ctrl_io){ .fd = fd,
					.timeout_ms = RPERF_SESSION_TIMEOUT_MS,
					.stop = sv->ch.stop };
	rperf_ctrl_session_init(&sv->ch.s, RPERF_CTRL_SERVER);
	rc = greet(sv, e);
	if (!rc)
		rc = take_params(sv, e);
	if (!rc)
		rc = serve_run(sv, e);
	sv->ops->close(sv->arg);
	free(sv->arg);
	sv->arg = NULL;
	close(fd);
	return rc;
}

int rperf_session_listen(const struct rperf_cli_config *cfg, int *lfd,
			 struct rperf_err *e)
{
	int rc;

	memset(e, 0, sizeof(*e));
	rc = rperf_session_pin_cpu(cfg->cpu, e);
	if (rc)
		return rc;
	rc = rperf_ctrl_listen(cfg->bind, (uint16_t)cfg->tcp_port, lfd);
	if (rc)
		return rperf_err_set(
			e, RPERF_ERRC_RUNTIME, rc,
			"-p/--port: cannot listen on %s port %lld: %s; accepted: a free port and a local address",
			cfg->bind ? cfg->bind : "any address",
			(long long)cfg->tcp_port, strerror(rc));
	return 0;
}

int rperf_session_serve(const struct rperf_cli_config *cfg, int lfd,
			volatile sig_atomic_t *stop,
			const struct rperf_session_server_ops *ops,
			const struct rperf_session_log *log,
			struct rperf_err *e)
{
	struct served sv = { .ch = { .cfg = cfg, .stop = stop },
			     .ops = ops,
			     .log = log };
	int fd, rc;

	memset(e, 0, sizeof(*e));
	do {
		rc = rperf_ctrl_accept_ex(lfd, -1, stop, &fd, sv.peer,
					  sizeof(sv.peer));
		if (rc) {
			if (!*stop)
				rperf_err_set(e, RPERF_ERRC_RUNTIME, rc,
					      "accepting a client: %s",
					      strerror(rc));
			else
				rc = 0, memset(e, 0, sizeof(*e));
			break;
		}
		rc = serve_one(&sv, fd, e);
	} while (cfg->persistent && !*stop);
	close(lfd);
	return rc;
}
