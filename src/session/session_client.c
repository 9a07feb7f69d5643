/* SPDX-License-Identifier: BSD-2-Clause */
/* The client half of the two-host session lifecycle (session_life.h). */
#include "session/session_life.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "session/session_ctrl.h"
#include "session/session_parity.h"

static int hello(struct rperf_session_chan *ch, const char *command,
		 struct rperf_err *e)
{
	char why[RPERF_CTRL_REASON_LEN];
	int rc =
		rperf_session_hello(&ch->s, &ch->io, command, why, sizeof(why));

	/* busy is the server's state, not the user's input: exit 3 */
	if (rc == EPROTO && ch->s.state == RPERF_CTRL_CLOSED)
		return rperf_err_set(e,
				     strncmp(why, "busy:", 5) ?
					     RPERF_ERRC_USAGE :
					     RPERF_ERRC_RUNTIME,
				     rc, "%s refused the run: %s",
				     ch->cfg->host, why);
	return rc ? rperf_err_set(e, RPERF_ERRC_RUNTIME, rc, "%s: %s",
				  ch->cfg->host, why) :
		    0;
}

/* The whole run's planned length (-D x sizes x runs per size; 0: -n). */
static uint64_t planned_ns(const struct rperf_cli_config *cfg,
			   const struct rperf_session_client_ops *ops)
{
	uint64_t runs = cfg->nsizes ? cfg->nsizes : 1;

	if (ops->runs_per_size)
		runs *= ops->runs_per_size(cfg);
	if (!cfg->duration_ns || runs > UINT64_MAX / 4 / cfg->duration_ns)
		return 0;
	return cfg->duration_ns * runs;
}

static int send_params(struct rperf_session_chan *ch,
		       const struct rperf_session_client_ops *ops,
		       struct rperf_err *e)
{
	struct rperf_gen_spec spec;
	json_t *p = NULL;
	int rc;

	rperf_session_spec(ch->cfg, ops->kind, &spec);
	rc = rperf_gen_spec_encode(&spec, &p);
	if (rc == EINVAL)
		return rperf_err_set(e, RPERF_ERRC_INTERNAL, rc,
				     "the run's PARAMS are out of range");
	if (p &&
	    (rperf_ctrl_set_u64(p, "planned_ns", planned_ns(ch->cfg, ops)) ||
	     (ch->cfg->run_infinitely &&
	      rperf_ctrl_set_bool(p, "endless", true)) ||
	     rperf_parity_ship(ch->cfg, p))) {
		json_decref(p);
		p = NULL;
	}
	if (!p)
		return rperf_err_set(e, RPERF_ERRC_INTERNAL, ENOMEM,
				     "out of memory");
	rc = rperf_ctrl_session_send(&ch->s, &ch->io, RPERF_CTRL_PARAMS, p);
	json_decref(p);
	return rc ? rperf_err_set(e, RPERF_ERRC_RUNTIME, rc,
				  "%s: sending PARAMS: %s", ch->cfg->host,
				  strerror(rc)) :
		    0;
}

static int ready(struct rperf_session_chan *ch, struct rperf_err *e)
{
	char why[RPERF_CTRL_REASON_LEN];
	struct rperf_ctrl_msg m;
	int rc = rperf_session_expect(&ch->s, &ch->io, RPERF_CTRL_READY, &m,
				      why, sizeof(why));

	if (rc == EPROTO && ch->s.state == RPERF_CTRL_CLOSED)
		return rperf_err_set(e, RPERF_ERRC_USAGE, rc,
				     "%s refused the run: %s", ch->cfg->host,
				     why);
	if (rc)
		return rperf_err_set(e, RPERF_ERRC_RUNTIME, rc, "%s: %s",
				     ch->cfg->host, why);
	rperf_ctrl_msg_release(&m);
	return 0;
}

/* Up to READY: the control channel, HELLO, PARAMS, endpoints. */
static int open_run(struct rperf_session_chan *ch,
		    const struct rperf_session_client_ops *ops, void *arg,
		    struct rperf_err *e)
{
	const struct rperf_cli_config *cfg = ch->cfg;
	char err[256] = "", src[64];
	uint64_t max = 0;
	int rc;

	for (size_t i = 0; i < cfg->nsizes; i++)
		max = cfg->sizes[i] > max ? cfg->sizes[i] : max;
	rc = ops->setup(arg, max, err, sizeof(err));
	if (rc)
		return rperf_err_set(e,
				     rc == ENODEV || rc == ERANGE ||
						     rc == ENOTSUP ?
					     RPERF_ERRC_USAGE :
					     RPERF_ERRC_RUNTIME,
				     rc, "%s", err[0] ? err : strerror(rc));
	if (cfg->bind || !ops->source || ops->source(arg, src, sizeof(src)))
		src[0] = '\0';
	rc = rperf_session_connect(ch->cfg, src[0] ? src : cfg->bind, ch->stop,
				   ops->command, &ch->io.fd, err, sizeof(err));
	if (rc) /* a name that does not resolve is the user's input */
		return rperf_err_set(
			e, rc == ENOENT ? RPERF_ERRC_USAGE : RPERF_ERRC_RUNTIME,
			rc, "%s", err);
	rc = hello(ch, ops->command, e);
	if (!rc)
		rc = send_params(ch, ops, e);
	if (!rc)
		rc = ops->endpoints(arg, ch, e);
	return rc ? rc : ready(ch, e);
}

int rperf_session_client_run(const struct rperf_cli_config *cfg,
			     volatile sig_atomic_t *stop,
			     const struct rperf_session_client_ops *ops,
			     void *arg, struct rperf_err *e)
{
	struct rperf_session_chan ch = { .cfg = cfg, .stop = stop };
	int rc;

	memset(e, 0, sizeof(*e));
	ch.io = (struct rperf_ctrl_io){ .fd = -1,
					.timeout_ms = RPERF_SESSION_TIMEOUT_MS,
					.stop = stop };
	rperf_ctrl_session_init(&ch.s, RPERF_CTRL_CLIENT);
	rc = open_run(&ch, ops, arg, e);
	if (!rc) {
		if (ops->rounds_ignore_stop)
			ch.io.stop = NULL;
		rc = ops->rounds(arg, &ch, e);
		if (!rc)
			rperf_session_bye(&ch.s, &ch.io);
		else
			rperf_session_send_reason(&ch.s, &ch.io,
						  RPERF_CTRL_ERROR, e->msg);
	}
	if (ch.io.fd >= 0)
		close(ch.io.fd);
	return rc;
}

int rperf_session_start(struct rperf_session_chan *ch, json_t *payload,
			struct rperf_err *e)
{
	int rc = rperf_ctrl_session_send(&ch->s, &ch->io, RPERF_CTRL_START,
					 payload);

	return rc ? rperf_err_set(e, RPERF_ERRC_RUNTIME, rc,
				  "%s: sending START: %s", ch->cfg->host,
				  strerror(rc)) :
		    0;
}

int rperf_session_done(struct rperf_session_chan *ch, uint64_t samples,
		       struct rperf_err *e)
{
	json_t *done = json_object();
	int rc = done ? rperf_ctrl_set_u64(done, "samples", samples) : ENOMEM;

	if (!rc)
		rc = rperf_ctrl_session_send(&ch->s, &ch->io, RPERF_CTRL_DONE,
					     done);
	json_decref(done);
	return rc ? rperf_err_set(e, RPERF_ERRC_RUNTIME, rc,
				  "%s: closing the round: %s", ch->cfg->host,
				  strerror(rc)) :
		    0;
}

int rperf_session_result(struct rperf_session_chan *ch,
			 struct rperf_ctrl_msg *m, struct rperf_err *e)
{
	char why[RPERF_CTRL_REASON_LEN];
	int rc = rperf_session_expect(&ch->s, &ch->io, RPERF_CTRL_RESULT, m,
				      why, sizeof(why));

	return rc ? rperf_err_set(e, RPERF_ERRC_RUNTIME, rc,
				  "%s: closing the round: %s", ch->cfg->host,
				  rc == EPROTO ? why : strerror(rc)) :
		    0;
}
