/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The controller of `rperf run` (iperf3's model: one poll() loop owns every
 * control socket, with timers). Phases:
 *   1. connect to every agent at once and authenticate both ways with
 *      TLS 1.3 (each bounded by the job's timeout; an agent that cannot
 *      prove the key or certificate fails here);
 *   2. setup, per agent as fast as it answers: HELLO, PLAN,
 *      ENDPOINTS; once all ENDPOINTS are in, CONNECT to each; ARMED;
 *      any failure here aborts the experiment (ERROR to the others);
 *   3. GO to all back-to-back (the barrier: each starts start_in_ns after
 *      receipt), then wait for the planned end or every source FINISHED;
 *      an agent that fails now is left out and the others run on, for at
 *      most one more timeout (so a run with a dead agent ends within
 *      2 x timeout of the death: this one plus the REPORT wait); an
 *      agent that announced HEARTBEATs and is silent for 2 x the interval
 *      (SIGSTOP, hung, cut off) is failed then, not at the planned end;
 *   4. STOP to every live agent, REPORTs gathered concurrently (each
 *      bounded by the timeout), BYE.
 * SIGINT (@stop) ends phase 2 (abort) at once, and phase 3 with HALT to
 * the agents whose sources still run, then STOP (halt_all).
 */
#include "run/run_ctl.h"
#include "run/run_hook.h"
#include "run/run_plan.h"

#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define POLL_SLICE_MS 100
#define DEFAULT_HEARTBEAT_NS 1000000000ull
/* planned end -> STOP: more than the engine's BSG tail */
#define DEFAULT_MARGIN_NS 1000000000ull
_Static_assert(DEFAULT_MARGIN_NS > RPERF_PROTO_BSG_TAIL_NS,
	       "BSGs must end their tail before the controller stops them");

struct run_agent *run_agent_of(struct run_ctl *c, const char *name)
{
	for (size_t i = 0; i < c->nag; i++)
		if (!strcmp(c->ag[i].host->name, name))
			return &c->ag[i];
	return NULL;
}

static bool live(const struct run_agent *a)
{
	return a->ph != AG_DONE && a->ph != AG_FAILED;
}

void run_fail(struct run_ctl *c, struct run_agent *a, const char *fmt, ...)
{
	char why[RPERF_RUN_WHY_LEN];
	va_list ap;

	if (a->ph == AG_FAILED || a->ph == AG_DONE)
		return;
	if (a->reported) {
		/* its results are in: a lost BYE is no failure */
		a->ph = AG_DONE;
		a->deadline = 0;
		run_conn_close(&a->conn);
		return;
	}
	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	if (a->ph < AG_RUNNING) {
		c->setup_failed = true;
	} else {
		/* the others run on, for at most one more timeout */
		uint64_t cap = rperf_mono_ns() + c->timeout_ns;

		if (c->t_end > cap) {
			c->t_end = cap;
			c->res->cut_short = true;
		}
	}
	if (!c->first_failure[0])
		snprintf(c->first_failure, sizeof(c->first_failure),
			 "host %s: %.180s", a->host->name, why);
	a->ph = AG_FAILED;
	a->deadline = 0;
	run_conn_close(&a->conn);
	rperf_run_results_host_failed(c->res, a->host->name, why);
}

/* Messages after which the controller waits for an answer. */
static bool expects_answer(enum rperf_ctrl_type t)
{
	return t == RPERF_CTRL_HELLO || t == RPERF_CTRL_PLAN ||
	       t == RPERF_CTRL_CONNECT || t == RPERF_CTRL_STOP ||
	       t == RPERF_CTRL_BYE || t == RPERF_CTRL_CLOCK;
}

int run_send(struct run_ctl *c, struct run_agent *a, enum rperf_ctrl_type t,
	     const json_t *payload)
{
	int ms = (int)(c->timeout_ns / 1000000ull);
	int rc;

	rc = rperf_proto_session_check(&a->sess, RPERF_CTRL_SEND, t);
	if (rc) {
		run_fail(c, a, "cannot send %s in state %s",
			 rperf_ctrl_type_name(t),
			 rperf_proto_state_name(a->sess.state));
		return rc;
	}
	{
		const struct rperf_ctrl_io io =
			run_conn_io(&a->conn, ms > 0 ? ms : 1);

		rc = rperf_ctrl_send_io(&io, t, payload);
	}
	if (rc) {
		run_fail(c, a, "sending %s: %s", rperf_ctrl_type_name(t),
			 rc == EPIPE || rc == ECONNRESET ? "connection closed" :
							   strerror(rc));
		return rc;
	}
	if (expects_answer(t))
		a->deadline = rperf_mono_ns() + c->timeout_ns;
	return 0;
}

static const char *awaited(enum run_phase ph)
{
	static const char *const names[] = {
		[AG_WELCOME] = "WELCOME", [AG_ENDPOINTS] = "ENDPOINTS",
		[AG_ARMING] = "ARMED",	  [AG_REPORTING] = "REPORT",
		[AG_BYE] = "BYE",
	};

	return ph < sizeof(names) / sizeof(names[0]) && names[ph] ? names[ph] :
								    "an answer";
}

/* When a running agent's silence fails it (0: not watched). */
static uint64_t heartbeat_due(const struct run_ctl *c,
			      const struct run_agent *a)
{
	if (a->ph != AG_RUNNING || !a->heartbeat || !c->heartbeat_ns)
		return 0;
	return a->heard_ns + 2 * c->heartbeat_ns;
}

/* Deadlines past: fail the agent (a missing BYE only closes). */
static void check_deadlines(struct run_ctl *c, uint64_t now)
{
	for (size_t i = 0; i < c->nag; i++) {
		struct run_agent *a = &c->ag[i];
		uint64_t hb = heartbeat_due(c, a);

		if (live(a) && hb && now >= hb) {
			run_fail(
				c, a,
				"no HEARTBEAT for %.3f s (2 x the %.3g s interval): the agent is stopped, hung or cut off",
				(double)(now - a->heard_ns) / 1e9,
				(double)c->heartbeat_ns / 1e9);
			continue;
		}
		if (!live(a) || !a->deadline || now < a->deadline)
			continue;
		run_fail(c, a, "no %s within %.3g s", awaited(a->ph),
			 (double)c->timeout_ns / 1e9);
	}
}

/* TLS bytes decrypted already: poll() does not see them. */
static bool pending(const struct run_agent *a)
{
	const struct rperf_ctrl_io io = run_conn_io(&a->conn, 0);

	return live(a) && a->conn.fd >= 0 && rperf_ctrl_io_pending(&io);
}

static void read_agent(struct run_ctl *c, struct run_agent *a)
{
	bool have;

	do {
		struct rperf_ctrl_msg m = { 0 };
		int rc = run_conn_read(&a->conn, &m, &have);

		if (rc) {
			run_fail(
				c, a, "%s",
				rc == EPIPE || rc == ECONNRESET ?
					"connection closed (agent died?)" :
				rc == EPROTONOSUPPORT && a->conn.perftest[0] ?
					a->conn.perftest :
				rc == EBADMSG ?
					"malformed message" :
				rc == EPROTO ?
					"a TLS record that does not decrypt (tampered?)" :
					strerror(rc));
			return;
		}
		if (have) {
			a->heard_ns = rperf_mono_ns();
			run_on_msg(c, a, &m);
		}
		rperf_ctrl_msg_release(&m);
	} while (have && pending(a));
}

/* @wait_ms, shortened to the nearest HEARTBEAT deadline, or 0 when TLS
 * holds bytes already. */
static int wait_for(const struct run_ctl *c, int wait_ms)
{
	uint64_t now = rperf_mono_ns();

	for (size_t i = 0; i < c->nag; i++) {
		uint64_t hb = heartbeat_due(c, &c->ag[i]);

		if (pending(&c->ag[i]))
			return 0;
		if (hb && live(&c->ag[i])) {
			uint64_t ms = hb > now ? (hb - now + 999999) / 1000000 :
						 0;

			if (ms < (uint64_t)wait_ms)
				wait_ms = (int)ms;
		}
	}
	return wait_ms;
}

/* Poll every live agent once, up to @wait_ms, and dispatch. */
static int poll_once(struct run_ctl *c, int wait_ms)
{
	struct pollfd *p = calloc(c->nag ? c->nag : 1, sizeof(*p));
	size_t i;
	int n;

	if (!p)
		return ENOMEM;
	for (i = 0; i < c->nag; i++) {
		p[i].fd = live(&c->ag[i]) ? c->ag[i].conn.fd : -1;
		p[i].events = POLLIN;
	}
	n = poll(p, c->nag, wait_for(c, wait_ms));
	for (i = 0; n >= 0 && i < c->nag; i++)
		if (p[i].fd >= 0 && live(&c->ag[i]) &&
		    c->ag[i].conn.fd == p[i].fd &&
		    (p[i].revents || pending(&c->ag[i])))
			read_agent(c, &c->ag[i]);
	free(p);
	check_deadlines(c, rperf_mono_ns());
	return 0;
}

/* Loop until @done(c), @until (monotonic ns, 0 = none) or the stop flag
 * (when @stoppable). */
static int loop(struct run_ctl *c, bool (*done)(struct run_ctl *),
		const uint64_t *until, bool stoppable)
{
	int rc = 0;

	while (!rc && !done(c)) {
		uint64_t now = rperf_mono_ns();
		int ms = POLL_SLICE_MS;

		if (stoppable && c->stop && *c->stop)
			return EINTR;
		if (until && *until && now >= *until)
			return ETIMEDOUT;
		if (until && *until && *until - now < 1000000ull * ms)
			ms = (int)((*until - now) / 1000000ull) + 1;
		rc = poll_once(c, ms);
	}
	return rc;
}

static bool all_armed(struct run_ctl *c)
{
	if (c->setup_failed)
		return true;
	for (size_t i = 0; i < c->nag; i++)
		if (c->ag[i].ph != AG_ARMED)
			return false;
	return true;
}

static bool sources_done(struct run_ctl *c)
{
	for (size_t i = 0; i < c->nag; i++)
		if (c->ag[i].has_sources && live(&c->ag[i]) &&
		    !c->ag[i].finished)
			return false;
	return true;
}

static bool all_closed(struct run_ctl *c)
{
	for (size_t i = 0; i < c->nag; i++)
		if (live(&c->ag[i]))
			return false;
	return true;
}

static void hello_all(struct run_ctl *c)
{
	struct rperf_ctrl_hello h = { .version = RPERF_CTRL_VERSION };
	json_t *p = NULL, *own = NULL;
	int rc;

	snprintf(h.command, sizeof(h.command), "run");
	rc = rperf_ctrl_hello_encode(&h, &p);
	if (!rc && c->opts->command) { /* rperf lat/bw's server */
		snprintf(h.command, sizeof(h.command), "%s", c->opts->command);
		rc = rperf_ctrl_hello_encode(&h, &own);
	}
	for (size_t i = 0; i < c->nag; i++) {
		struct run_agent *a = &c->ag[i];

		if (rc)
			run_fail(c, a, "cannot build HELLO: %s", strerror(rc));
		else if (live(a) && !run_send(c, a, RPERF_CTRL_HELLO,
					      own && !a->host->local ? own : p))
			a->ph = AG_WELCOME;
	}
	json_decref(p);
	json_decref(own);
}

/* Setup failed or was interrupted: ERROR to every live agent. */
static void abort_all(struct run_ctl *c)
{
	char reason[RPERF_CTRL_REASON_LEN];
	json_t *p = NULL;

	snprintf(reason, sizeof(reason), "experiment aborted: %.220s",
		 c->first_failure[0] ? c->first_failure : "interrupted");
	if (rperf_ctrl_reason_encode(reason, &p))
		p = NULL;
	for (size_t i = 0; i < c->nag; i++) {
		struct run_agent *a = &c->ag[i];

		if (!live(a))
			continue;
		if (p && a->conn.fd >= 0) {
			const struct rperf_ctrl_io io =
				run_conn_io(&a->conn, POLL_SLICE_MS);

			(void)rperf_ctrl_send_io(&io, RPERF_CTRL_ERROR, p);
		}
		a->ph = AG_DONE;
		run_conn_close(&a->conn);
	}
	json_decref(p);
	c->res->aborted = true;
	snprintf(c->res->abort_why, sizeof(c->res->abort_why), "%s",
		 c->first_failure[0] ? c->first_failure : "interrupted");
}

static void go_all(struct run_ctl *c)
{
	uint64_t margin = c->opts->margin_ns ? c->opts->margin_ns :
					       DEFAULT_MARGIN_NS;
	json_t *p = NULL, **gos;
	size_t i;

	if (run_go_encode(c, &p) ||
	    rperf_proto_go_set_round(p, (uint32_t)c->round)) {
		snprintf(c->first_failure, sizeof(c->first_failure),
			 "cannot build GO");
		c->setup_failed = true;
		return;
	}
	c->t_go = rperf_mono_ns();
	c->res->ready_seconds = (double)(c->t_go - c->t_start) / 1e9;
	c->t_end = c->t_go + c->start_in_ns + rperf_run_planned_ns(c->job) +
		   margin;
	/* every GO built first: the sending loop only sends */
	gos = calloc(c->nag ? c->nag : 1, sizeof(*gos));
	for (i = 0; gos && i < c->nag; i++)
		gos[i] = run_sync_go(c, &c->ag[i], p, c->t_go + c->start_in_ns);
	for (i = 0; i < c->nag; i++) {
		c->ag[i].ph = AG_RUNNING; /* a failure now leaves it out */
		c->ag[i].heard_ns = c->t_go;
	}
	for (i = 0; i < c->nag; i++) {
		if (gos && gos[i])
			(void)run_send(c, &c->ag[i], RPERF_CTRL_GO, gos[i]);
		else
			run_fail(c, &c->ag[i],
				 "cannot build GO: out of memory");
	}
	c->res->go_send_seconds = (double)(rperf_mono_ns() - c->t_go) / 1e9;
	for (i = 0; gos && i < c->nag; i++)
		json_decref(gos[i]);
	free(gos);
	json_decref(p);
}

static void stop_all(struct run_ctl *c)
{
	for (size_t i = 0; i < c->nag; i++) {
		struct run_agent *a = &c->ag[i];

		if (a->ph == AG_RUNNING &&
		    !run_send(c, a, RPERF_CTRL_STOP, NULL))
			a->ph = AG_REPORTING;
	}
}

/* Interrupted: HALT to every running agent whose sources still run (and
 * that can end them alone), then their FINISHED awaited, for at most one
 * timeout: no sink stops before a source it counts (engine/proto.h). */
static void halt_all(struct run_ctl *c)
{
	uint64_t until = rperf_mono_ns() + c->timeout_ns;
	bool any = false;

	for (size_t i = 0; i < c->nag; i++) {
		struct run_agent *a = &c->ag[i];

		if (a->ph == AG_RUNNING && a->halt && a->has_sources &&
		    !a->finished && !run_send(c, a, RPERF_CTRL_HALT, NULL))
			any = true;
	}
	if (any)
		(void)loop(c, sources_done, &until, false);
}

static void ctl_fini(struct run_ctl *c)
{
	for (size_t i = 0; i < c->nag; i++) {
		run_conn_close(&c->ag[i].conn);
		rperf_proto_eps_fini(&c->ag[i].eps);
	}
	free(c->ag);
	rperf_ctrl_tls_ctx_free(c->tls);
}

/* Every agent reported this round (waits for the next) or is closed. */
static bool round_closed(struct run_ctl *c)
{
	for (size_t i = 0; i < c->nag; i++)
		if (live(&c->ag[i]) && c->ag[i].ph != AG_REPORTED)
			return false;
	return true;
}

/* After a set-up step's loop (its @rc): interrupted or an agent failed,
 * every agent is told (ERROR) and true returned, *rc the experiment's. */
static bool setup_aborted(struct run_ctl *c, int *rc)
{
	if (*rc == EINTR)
		c->res->interrupted = true;
	if (!*rc && !c->setup_failed)
		return false;
	abort_all(c);
	if (*rc == EINTR)
		*rc = 0;
	return true;
}

/* One round: the start barrier, GO, the run, STOP and the REPORTs. 0, or
 * the loop's failure; *aborted when the round could not start. */
static int one_round(struct run_ctl *c, bool *aborted)
{
	struct run_hooks *hooks = NULL;
	uint64_t t_sync = rperf_mono_ns();
	int rc;

	/* the start barrier: every agent's clock offset */
	run_sync_start(c);
	rc = loop(c, run_synced, NULL, true);
	if ((*aborted = setup_aborted(c, &rc)))
		return rc;
	run_sync_finish(c);
	c->res->sync_seconds = (double)(rperf_mono_ns() - t_sync) / 1e9;
	go_all(c);
	if ((*aborted = setup_aborted(c, &rc)))
		return rc;
	if (c->opts->on_round)
		c->opts->on_round(c->opts->round_arg, c->round);
	/* a thread that did not start is reported per switch, not fatal */
	(void)run_hooks_start(c->res, c->t_go + c->start_in_ns, &hooks);
	rc = loop(c, sources_done, &c->t_end, true);
	run_hooks_stop(hooks);
	if (rc == EINTR) {
		c->res->interrupted = true;
		halt_all(c);
	}
	if (rc && rc != EINTR && rc != ETIMEDOUT)
		return rc;
	stop_all(c);
	/* each agent's REPORT (and BYE) are bounded by their own deadlines */
	rc = loop(c, round_closed, NULL, false);
	c->res->elapsed = (double)(rperf_mono_ns() - c->t_go) / 1e9;
	return rc;
}

/* Phases 2 to 4 (the agents are connected), once per round. */
static int experiment(struct run_ctl *c)
{
	bool aborted = false;
	int rc;

	hello_all(c);
	rc = loop(c, all_armed, NULL, true);
	if (setup_aborted(c, &rc))
		return rc;
	c->res->setup_seconds = (double)(rperf_mono_ns() - c->t_start) / 1e9;
	do
		rc = one_round(c, &aborted);
	while (!rc && !aborted && run_round_next(c));
	if (aborted)
		return rc;
	run_bye_all(c);
	rc = loop(c, all_closed, NULL, false);
	return rc;
}

int run_ctl_execute(const struct rperf_job *job,
		    struct rperf_run_results *const *rs, size_t nrounds,
		    const struct rperf_run_opts *opts,
		    const volatile sig_atomic_t *stop, size_t *nrun, char *err,
		    size_t errlen)
{
	struct rperf_run_opts eff = *opts;
	struct run_ctl c;
	int rc;

	if (opts->boot && opts->boot->key) { /* the launcher's key wins */
		memset(&eff.auth, 0, sizeof(eff.auth));
		eff.auth.psk = opts->boot->key;
		eff.auth.psklen = opts->boot->keylen;
	}
	memset(&c, 0, sizeof(c));
	c.job = job;
	c.rs = rs;
	c.nrounds = nrounds;
	c.res = rs[0];
	c.opts = &eff;
	c.stop = stop;
	c.timeout_ns = opts->timeout_ns ? opts->timeout_ns : job->timeout_ns;
	c.heartbeat_ns = opts->heartbeat_ns ? opts->heartbeat_ns :
					      DEFAULT_HEARTBEAT_NS;
	rc = run_conn_tls(&eff.auth, eff.insecure, &c.tls, err, errlen);
	if (rc)
		return rc;
	for (size_t k = 0; k < nrounds; k++) {
		rs[k]->timeout_ns = c.timeout_ns;
		rs[k]->insecure = c.tls == NULL;
		rs[k]->channel = !c.tls	      ? "plain" :
				 eff.auth.psk ? "tls-psk" :
						"tls-cert";
		rs[k]->heartbeat_seconds = (double)c.heartbeat_ns / 1e9;
	}
	rc = run_make_agents(&c);
	c.start_in_ns = opts->start_in_ns ?
				opts->start_in_ns :
				rperf_run_default_start_in_ns(c.nag);
	if (!rc)
		rc = run_dial_agents(&c);
	if (!rc && c.setup_failed)
		abort_all(&c);
	else if (!rc)
		rc = experiment(&c);
	ctl_fini(&c);
	*nrun = c.round + 1;
	if (rc)
		snprintf(err, errlen, "rperf run: %s", strerror(rc));
	return rc;
}

int rperf_run_execute(const struct rperf_job *job,
		      const struct rperf_run_opts *opts,
		      const volatile sig_atomic_t *stop,
		      struct rperf_run_results **out, char *err, size_t errlen)
{
	struct rperf_run_results *r = NULL;
	size_t nrun = 0;
	int rc;

	err[0] = '\0';
	rc = rperf_run_results_create(job, &r);

	if (!rc)
		rc = run_ctl_execute(job, &r, 1, opts, stop, &nrun, err,
				     errlen);
	if (!rc)
		rc = rperf_run_results_finish(r);
	if (rc) {
		if (!err[0])
			snprintf(err, errlen, "rperf run: %s", strerror(rc));
		rperf_run_results_free(r);
		return rc;
	}
	*out = r;
	return 0;
}
