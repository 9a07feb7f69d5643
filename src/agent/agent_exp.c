/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * One experiment of the agent (its controller authenticated by TLS
 * already): HELLO -> WELCOME -> PLAN -> ENDPOINTS -> CONNECT -> ARMED ->
 * GO -> [HEARTBEAT...] [HALT] [FINISHED] -> STOP -> REPORT -> BYE -> BYE.
 * Every message passes the agent's state machine first (rperf_proto_session);
 * anything out of order, malformed or failing ends the experiment with ERROR
 * and frees everything.
 */
#include "agent/agent.h"

#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "agent/agent_priv.h"
#include "ctrl/ctrl.h"

#define NS_MS 1000000ull

static uint64_t ms_ns(int ms)
{
	return (uint64_t)ms * NS_MS;
}

/*
 * After WELCOME the (authenticated) controller is trusted to pace the steps: it waits for
 * every agent in turn (each within its own timeout, which may be the job's
 * and longer than ours), so the next message may take several of our
 * timeouts; a controller that vanishes shows as EOF, or through TCP
 * keepalive when its host dies.
 */
#define STEP_TIMEOUTS 6

static void expect(struct rperf_agent *a, const char *what, uint64_t in_ns)
{
	a->exp.awaiting = what;
	a->exp.deadline_ns = rperf_mono_ns() + in_ns;
}

/* A controller whose host dies sends no FIN: TCP keepalive notices it
 * (~25 s) and the next read fails (best effort). */
static void keepalive(int fd)
{
	int on = 1, idle = 10, intvl = 5, cnt = 3;

	(void)setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &on, sizeof(on));
	(void)setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof(idle));
	(void)setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &intvl, sizeof(intvl));
	(void)setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &cnt, sizeof(cnt));
}

void agent_exp_begin(struct rperf_agent *a, int fd, struct rperf_ctrl_tls *tls,
		     const char *peer)
{
	struct agent_exp *x = &a->exp;
	time_t now = time(NULL);
	struct tm tm;

	memset(x, 0, sizeof(*x));
	a->last_done = false;
	x->fd = fd;
	x->tls = tls;
	snprintf(x->peer, sizeof(x->peer), "%s", peer);
	x->since_t = now;
	if (gmtime_r(&now, &tm))
		strftime(x->since, sizeof(x->since), "%Y-%m-%d %H:%M:%S UTC",
			 &tm);
	keepalive(fd);
	rperf_proto_session_init(&x->s, RPERF_PROTO_AGENT);
	expect(a, "HELLO", ms_ns(a->cfg.timeout_ms));
	agent_log(a, "controller %s: connected", peer);
}

void agent_exp_end(struct rperf_agent *a, const char *why)
{
	struct agent_exp *x = &a->exp;
	bool created = x->eng != NULL;
	bool quit = a->cfg.one_off && (created || !a->cfg.one_off_created);

	agent_ctr_fini(a);
	free(x->sinks);
	x->sinks = NULL;
	x->nsinks = 0;
	if (x->eng) {
		a->engine->destroy(x->eng); /* stops and joins every thread */
		x->eng = NULL;
	}
	rperf_ctrl_tls_free(x->tls); /* close_notify, best effort */
	x->tls = NULL;
	if (x->fd >= 0)
		close(x->fd);
	x->fd = -1;
	a->served++;
	agent_log(a, "controller %s: %s; %s, %s", x->peer, why,
		  created ? "every QP, MR and thread freed" :
			    "nothing was created",
		  quit ? "exiting (--one-off)" : "listening");
	if (quit)
		rperf_serve_quit(a->loop);
}

int agent_say(struct rperf_agent *a, enum rperf_ctrl_type t, const json_t *o)
{
	const struct rperf_ctrl_io io = { .fd = a->exp.fd,
					  .timeout_ms = a->cfg.timeout_ms,
					  .tls = a->exp.tls };
	int rc = rperf_proto_session_check(&a->exp.s, RPERF_CTRL_SEND, t);

	if (!rc)
		rc = rperf_ctrl_send_io(&io, t, o);
	return rc;
}

/* REFUSE or ERROR with @reason, then end (best effort). */
static void fail(struct rperf_agent *a, enum rperf_ctrl_type t,
		 const char *reason)
{
	json_t *o = NULL;
	char why[RPERF_CTRL_REASON_LEN + 32];

	if (!rperf_ctrl_reason_encode(reason, &o)) {
		if (t == RPERF_CTRL_REFUSE && agent_say(a, t, o))
			t = RPERF_CTRL_ERROR; /* REFUSE not allowed here */
		if (t == RPERF_CTRL_ERROR)
			(void)agent_say(a, t, o);
		json_decref(o);
	}
	snprintf(why, sizeof(why), "%s %s",
		 t == RPERF_CTRL_REFUSE ? "refused:" : "ended:", reason);
	agent_exp_end(a, why);
}

static int on_hello(struct rperf_agent *a, const struct rperf_ctrl_msg *m)
{
	struct rperf_ctrl_welcome w = { .version = RPERF_CTRL_VERSION,
					.max_size = RPERF_SPEC_MAX_SIZE };
	const char *const feat[] = {
		RPERF_PROTO_FEATURE_HEARTBEAT,
		RPERF_PROTO_FEATURE_CLOCK_SYNC,
		RPERF_PROTO_FEATURE_LIVE,
		RPERF_PROTO_FEATURE_SAMPLES,
		a->engine->round ? RPERF_PROTO_FEATURE_ROUNDS : NULL,
		a->engine->round ? RPERF_PROTO_FEATURE_ROUND_METHODS : NULL,
		a->engine->halt ? RPERF_PROTO_FEATURE_HALT : NULL,
	};
	const char *cmd = a->cfg.command ? a->cfg.command : "run";
	struct rperf_ctrl_hello h;
	json_t *o = NULL;
	int rc;

	if (rperf_ctrl_hello_decode(m, &h)) {
		fail(a, RPERF_CTRL_REFUSE, "malformed HELLO");
		return EBADMSG;
	}
	if (strcmp(h.command, cmd) != 0) {
		char why[128];

		snprintf(why, sizeof(why),
			 "this is %s: it serves 'rperf %s' only",
			 a->cfg.what ? a->cfg.what : "rperf agent", cmd);
		fail(a, RPERF_CTRL_REFUSE, why);
		return EPROTO;
	}
	_Static_assert(sizeof(feat) / sizeof(feat[0]) <=
			       RPERF_CTRL_MAX_FEATURES,
		       "WELCOME features");
	for (size_t i = 0; i < sizeof(feat) / sizeof(feat[0]); i++)
		if (feat[i])
			snprintf(w.features[w.nfeatures++],
				 sizeof(w.features[0]), "%s", feat[i]);
	rc = rperf_ctrl_welcome_encode(&w, &o);
	if (!rc)
		rc = agent_say(a, RPERF_CTRL_WELCOME, o);
	json_decref(o);
	if (!rc) {
		agent_log(a, "controller %s: %s", a->exp.peer,
			  a->exp.tls ?
				  "authenticated (TLS)" :
				  "accepted (INSECURE: no authentication)");
		expect(a, "PLAN", STEP_TIMEOUTS * ms_ns(a->cfg.timeout_ms));
	}
	return rc;
}

static int send_endpoints(struct rperf_agent *a)
{
	struct rperf_proto_eps eps;
	char err[256] = "";
	json_t *o = NULL;
	int rc;

	rc = a->engine->endpoints(a->exp.eng, &eps, err, sizeof(err));
	if (rc) {
		fail(a, RPERF_CTRL_ERROR, err[0] ? err : strerror(rc));
		return rc;
	}
	rc = rperf_proto_endpoints_encode(&eps, &o);
	rperf_proto_eps_fini(&eps);
	if (!rc && a->engine->link_layer &&
	    rperf_ctrl_set_str(o, "link_layer",
			       a->engine->link_layer(a->exp.eng)))
		rc = ENOMEM;
	if (!rc && a->engine->link_gbps &&
	    a->engine->link_gbps(a->exp.eng) > 0 &&
	    rperf_ctrl_set_double(o, "link_gbps",
				  a->engine->link_gbps(a->exp.eng)))
		rc = ENOMEM;
	if (!rc)
		rc = agent_say(a, RPERF_CTRL_ENDPOINTS, o);
	json_decref(o);
	return rc;
}

/* The experiment's planned end after the barrier on this host, sinks
 * included (a destination has no sources of its own): for the busy text. */
static uint64_t busy_end_ns(const struct rperf_proto_plan *p)
{
	uint64_t end = rperf_proto_plan_end_ns(p);

	for (size_t i = 0; i < p->nsinks; i++) {
		uint64_t e = rperf_spec_end_ns(&p->sinks[i]);

		end = e > end ? e : end;
	}
	return end;
}

static int on_plan(struct rperf_agent *a, const struct rperf_ctrl_msg *m)
{
	struct rperf_proto_plan p;
	char why[300] = "";
	int rc = rperf_proto_plan_decode(m, &p, why, sizeof(why));

	if (rc) {
		fail(a, RPERF_CTRL_ERROR, why[0] ? why : strerror(rc));
		return rc;
	}
	rc = rperf_engine_plan_admit(&a->cfg.limits, &p, why, sizeof(why));
	if (!rc && a->cfg.plan_check)
		rc = a->cfg.plan_check(a->cfg.plan_check_arg, m->payload, why,
				       sizeof(why));
	if (rc) {
		agent_log(a, "controller %s: PLAN '%s' refused: %s",
			  a->exp.peer, p.experiment, why);
		rperf_proto_plan_fini(&p);
		fail(a, RPERF_CTRL_ERROR, why);
		return rc;
	}
	agent_plan_local(a, &p);
	snprintf(a->exp.host, sizeof(a->exp.host), "%s", p.host);
	snprintf(a->exp.experiment, sizeof(a->exp.experiment), "%s",
		 p.experiment);
	a->exp.nsources = p.nsources;
	a->exp.rounds = p.rounds ? p.rounds : 1;
	a->exp.round = 0;
	agent_log(a,
		  "controller %s: PLAN '%s' for host %s: %zu source(s), "
		  "%zu sink(s) on %s",
		  a->exp.peer, p.experiment, p.host, p.nsources, p.nsinks,
		  p.device.device[0] ? p.device.device : "the first device");
	rc = a->engine->create_cfg ?
		     a->engine->create_cfg(&a->cfg, &p, &a->exp.eng, why,
					   sizeof(why)) :
		     a->engine->create(&p, a->cfg.clk, &a->exp.eng, why,
				       sizeof(why));
	if (!rc) {
		a->exp.run_end_ns = rperf_proto_plan_end_ns(&p);
		a->exp.busy_end_ns = busy_end_ns(&p);
		agent_ctr_plan(a, &p);
		if (a->cfg.log_sinks) { /* taken over */
			a->exp.sinks = p.sinks;
			a->exp.nsinks = p.nsinks;
			p.sinks = NULL;
			p.nsinks = 0;
		}
	}
	rperf_proto_plan_fini(&p);
	if (rc) {
		fail(a, RPERF_CTRL_ERROR, why[0] ? why : strerror(rc));
		return rc;
	}
	rc = send_endpoints(a);
	if (!rc)
		expect(a, "CONNECT", STEP_TIMEOUTS * ms_ns(a->cfg.timeout_ms));
	return rc;
}

static int on_connect(struct rperf_agent *a, const struct rperf_ctrl_msg *m)
{
	struct rperf_proto_eps peers;
	char why[300] = "";
	int rc = rperf_proto_connect_decode(m, &peers, why, sizeof(why));

	if (rc) {
		fail(a, RPERF_CTRL_ERROR, why[0] ? why : strerror(rc));
		return rc;
	}
	rc = a->engine->connect(a->exp.eng, &peers, why, sizeof(why));
	rperf_proto_eps_fini(&peers);
	if (rc == EACCES) /* an endpoint refused: the server log's words */
		agent_log(a, "controller %s: refused: %s", a->exp.peer,
			  strstr(why, "endpoint ") ? strstr(why, "endpoint ") :
						     why);
	if (rc) {
		fail(a, RPERF_CTRL_ERROR, why[0] ? why : strerror(rc));
		return rc;
	}
	rc = agent_say(a, RPERF_CTRL_ARMED, NULL);
	if (!rc) {
		agent_log(a, "controller %s: armed (QPs connected, sinks live)",
			  a->exp.peer);
		expect(a, "GO", STEP_TIMEOUTS * ms_ns(a->cfg.timeout_ms));
	}
	return rc;
}

/* One clock exchange of the start barrier: our clock at receipt and at
 * the answer (rperf_proto_clock_reply_encode()). */
static int on_clock(struct rperf_agent *a, const struct rperf_ctrl_msg *m)
{
	uint64_t rx = rperf_mono_ns();
	json_t *o = NULL;
	uint32_t seq;
	int rc;

	if (rperf_proto_clock_req_decode(m, &seq)) {
		fail(a, RPERF_CTRL_ERROR, "malformed CLOCK");
		return EBADMSG;
	}
	rc = rperf_proto_clock_reply_encode(seq, rx, rperf_mono_ns(), &o);
	if (!rc)
		rc = agent_say(a, RPERF_CTRL_CLOCK, o);
	json_decref(o);
	return rc;
}

static int on_go(struct rperf_agent *a, const struct rperf_ctrl_msg *m)
{
	uint64_t in_ns, hb_ns, at, now = rperf_mono_ns(), t0;
	char why[300] = "";
	int rc;

	if (rperf_proto_go_decode(m, &in_ns, &hb_ns)) {
		fail(a, RPERF_CTRL_ERROR, "malformed GO");
		return EBADMSG;
	}
	rc = agent_round_go(a, m, why, sizeof(why));
	if (rc) {
		fail(a, RPERF_CTRL_ERROR, why);
		return rc;
	}
	rc = rperf_proto_go_start_at(m, &at);
	if ((rc && rc != ENOENT) || agent_live_go(a, m)) {
		fail(a, RPERF_CTRL_ERROR,
		     rc && rc != ENOENT ? "malformed GO: start_at_ns" :
					  "malformed GO: live");
		return EBADMSG;
	}
	/* the controller's instant on our clock (start barrier), or
	 * receipt + start_in_ns */
	t0 = rc ? now + in_ns : at;
	in_ns = t0 > now ? t0 - now : 0;
	a->exp.hb_ns = hb_ns;
	a->exp.hb_next_ns = now + hb_ns;
	/* the busy refusal's "N s left": this round and the ones after */
	a->exp.go_end_ns =
		t0 + a->exp.busy_end_ns * (a->exp.rounds - a->exp.round);
	rc = a->engine->go(a->exp.eng, t0, why, sizeof(why));
	if (rc) {
		fail(a, RPERF_CTRL_ERROR, why[0] ? why : strerror(rc));
		return rc;
	}
	agent_ctr_go(a, t0);
	agent_log(a, "controller %s: GO: %zu source(s) start in %.3f s",
		  a->exp.peer, a->exp.nsources, (double)in_ns / 1e9);
	expect(a, "STOP",
	       in_ns + a->exp.run_end_ns +
		       STEP_TIMEOUTS * ms_ns(a->cfg.timeout_ms));
	if (!a->exp.nsources) /* nothing of ours to wait for */
		rc = agent_say(a, RPERF_CTRL_FINISHED, NULL);
	return rc;
}

/* HALT: the sources end now, their end brings FINISHED (agent_exp_on_engine)
 * and the sinks count on until STOP; after FINISHED (crossed) nothing to do */
static void on_halt(struct rperf_agent *a)
{
	if (a->exp.s.state != RPERF_PROTO_RUNNING || !a->engine->halt)
		return;
	a->engine->halt(a->exp.eng);
	agent_log(a, "controller %s: HALT: the sources end now", a->exp.peer);
}

static int on_stop(struct rperf_agent *a)
{
	char why[128] = "";
	size_t n = 0;
	int rc = agent_report(a, &n, why, sizeof(why));

	if (rc && why[0])
		fail(a, RPERF_CTRL_ERROR, why);
	if (rc)
		return rc;
	agent_log(a, "controller %s: STOP: REPORT sent (%zu results)",
		  a->exp.peer, n);
	a->exp.reported = true;
	expect(a,
	       a->exp.round + 1 < a->exp.rounds ? "BYE or the next round's GO" :
						  "BYE",
	       STEP_TIMEOUTS * ms_ns(a->cfg.timeout_ms));
	return 0;
}

static void on_error(struct rperf_agent *a, const struct rperf_ctrl_msg *m)
{
	char reason[RPERF_CTRL_REASON_LEN] = "?";
	char why[RPERF_CTRL_REASON_LEN + 32];

	(void)rperf_ctrl_reason_decode(m, reason, sizeof(reason));
	snprintf(why, sizeof(why), "ERROR from the controller: %s", reason);
	agent_exp_end(a, why);
}

static void on_bye(struct rperf_agent *a)
{
	(void)agent_say(a, RPERF_CTRL_BYE, NULL);
	a->last_done = true;
	agent_exp_end(a, "BYE: experiment done");
}

/* A message that passed the state machine. */
static void dispatch(struct rperf_agent *a, const struct rperf_ctrl_msg *m)
{
	int rc = 0;

	switch (m->type) {
	case RPERF_CTRL_HELLO:
		rc = on_hello(a, m);
		break;
	case RPERF_CTRL_PLAN:
		rc = on_plan(a, m);
		break;
	case RPERF_CTRL_CONNECT:
		rc = on_connect(a, m);
		break;
	case RPERF_CTRL_GO:
		rc = on_go(a, m);
		break;
	case RPERF_CTRL_CLOCK:
		rc = on_clock(a, m);
		break;
	case RPERF_CTRL_HALT:
		on_halt(a);
		break;
	case RPERF_CTRL_STOP:
		rc = on_stop(a);
		break;
	case RPERF_CTRL_BYE:
		on_bye(a);
		return;
	case RPERF_CTRL_ERROR:
		on_error(a, m);
		return;
	default:
		rc = EPROTO;
	}
	/* a step that failed without ending (sending its answer failed):
	 * the controller is gone or the channel broken */
	if (rc && a->exp.fd >= 0) {
		char why[128];

		snprintf(why, sizeof(why), "answering %s failed: %s",
			 rperf_ctrl_type_name(m->type), strerror(rc));
		agent_exp_end(a, why);
	}
}

static void recv_failed(struct rperf_agent *a, int rc,
			const struct rperf_ctrl_msg *m)
{
	char why[160];

	if (rc == EPIPE || rc == ECONNRESET) {
		snprintf(why, sizeof(why), "went away (awaiting %s)",
			 a->exp.awaiting);
		agent_exp_end(a, why);
	} else if (rc == EPROTONOSUPPORT) {
		snprintf(why, sizeof(why),
			 "protocol version %u; this agent speaks %d",
			 m->version, RPERF_CTRL_VERSION);
		fail(a, RPERF_CTRL_ERROR, why);
	} else {
		snprintf(why, sizeof(why), "bad message while awaiting %s: %s",
			 a->exp.awaiting, strerror(rc));
		fail(a, RPERF_CTRL_ERROR, why);
	}
}

void agent_exp_on_msg(struct rperf_agent *a)
{
	const struct rperf_ctrl_io io = { .fd = a->exp.fd,
					  .timeout_ms = a->cfg.timeout_ms,
					  .tls = a->exp.tls };
	struct rperf_ctrl_msg m = { 0 };
	char why[160];
	int rc = rperf_ctrl_recv_io(&io, &m);

	if (rc) {
		recv_failed(a, rc, &m);
		return;
	}
	rc = rperf_proto_session_check(&a->exp.s, RPERF_CTRL_RECV, m.type);
	if (rc) {
		snprintf(why, sizeof(why), "%s out of order (awaiting %s)",
			 rperf_ctrl_type_name(m.type), a->exp.awaiting);
		fail(a, RPERF_CTRL_ERROR, why);
	} else {
		dispatch(a, &m);
	}
	rperf_ctrl_msg_release(&m);
}

void agent_exp_on_first(struct rperf_agent *a, const struct rperf_ctrl_msg *m)
{
	if (rperf_proto_session_check(&a->exp.s, RPERF_CTRL_RECV, m->type))
		fail(a, RPERF_CTRL_REFUSE, "the first message must be HELLO");
	else
		dispatch(a, m);
}

/* A HEARTBEAT, with the live rows waiting when the controller asked for
 * them. 0 or errno. */
static int beat(struct rperf_agent *a)
{
	json_t *o = NULL;
	int rc = agent_live_payload(a, &o);

	if (!rc)
		rc = agent_say(a, RPERF_CTRL_HEARTBEAT, o);
	json_decref(o);
	return rc;
}

void agent_exp_on_engine(struct rperf_agent *a)
{
	if (!a->exp.eng || !a->engine->poll(a->exp.eng))
		return;
	if (a->exp.s.state != RPERF_PROTO_RUNNING)
		return; /* FINISHED sent already, or STOP came first */
	/* the sources' last rows go out before FINISHED brings STOP */
	if ((a->exp.live && a->exp.hb_ns && beat(a)) ||
	    agent_say(a, RPERF_CTRL_FINISHED, NULL))
		agent_exp_end(a, "the controller went away (FINISHED)");
	else
		agent_log(a, "controller %s: every source ended; FINISHED",
			  a->exp.peer);
	if (a->exp.fd >= 0 && a->cfg.failed_stop_ns && a->engine->failed &&
	    a->engine->failed(a->exp.eng))
		expect(a, "STOP after a source failed", a->cfg.failed_stop_ns);
}

static bool heartbeating(const struct rperf_agent *a)
{
	return a->exp.hb_ns && (a->exp.s.state == RPERF_PROTO_RUNNING ||
				a->exp.s.state == RPERF_PROTO_FINISHED);
}

uint64_t agent_exp_wake_ns(const struct rperf_agent *a)
{
	uint64_t t = a->exp.fd >= 0 ? a->exp.deadline_ns : UINT64_MAX;

	if (a->exp.fd >= 0 && heartbeating(a) && a->exp.hb_next_ns < t)
		t = a->exp.hb_next_ns;
	return t;
}

void agent_exp_heartbeat(struct rperf_agent *a, uint64_t now_ns)
{
	if (!heartbeating(a) || now_ns < a->exp.hb_next_ns)
		return;
	a->exp.hb_next_ns = now_ns + a->exp.hb_ns;
	if (beat(a))
		agent_exp_end(a, "the controller went away (HEARTBEAT)");
}

void agent_exp_on_deadline(struct rperf_agent *a)
{
	char why[160];

	snprintf(why, sizeof(why), "no %s within the deadline",
		 a->exp.awaiting);
	fail(a, RPERF_CTRL_ERROR, why);
}
