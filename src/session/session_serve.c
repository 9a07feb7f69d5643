/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rperf lat / rperf bw servers on the one server loop (src/serve): the
 * loop takes every connection's HELLO without blocking; an admitted client
 * runs the blocking session steps (session_server.c) in a worker thread,
 * which reports its end through an eventfd polled by the same loop, so
 * pending connections and busy refusals are answered during a run.
 */
#include "session/session_serve.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "config/config.h"
#include "serve/serve.h"
#include "session/session_ctrl.h"
#include "verbs/verbs.h"

struct owner {
	const struct rperf_cli_config *cfg;
	volatile sig_atomic_t *stop;
	const struct rperf_session_server_ops *ops;
	const struct rperf_session_log *log;
	struct rperf_serve *loop;
	int efd; /* the worker's "I am done" */
	bool active;
	pthread_t th;
	struct rperf_session_client client;
	struct rperf_session_plan plan;
	time_t since;
	struct rperf_err worker_e; /* the worker's outcome */
	struct rperf_err last; /* the last client's, for the exit status */
	uint64_t served;
};

static void *worker(void *arg)
{
	struct owner *o = arg;
	uint64_t one = 1;

	rperf_session_serve_client(&o->client, &o->worker_e);
	if (write(o->efd, &one, sizeof(one)) != sizeof(one))
		o->worker_e.rc = o->worker_e.rc ? o->worker_e.rc : EIO;
	return NULL;
}

static int64_t left_s(struct owner *o)
{
	uint64_t end = atomic_load(&o->plan.end_ns);

	if (end == RPERF_SESSION_PLAN_ITERS)
		return RPERF_SERVE_LEFT_ITERS;
	if (end == RPERF_SESSION_PLAN_ENDLESS)
		return RPERF_SERVE_LEFT_ENDLESS;
	return rperf_serve_left_s(end, rperf_mono_ns());
}

static void join(struct owner *o);

/* The worker is ending after a refusal (nothing ran), or has ended on a
 * --persistent server: either way the next client may be served, though
 * the loop has not seen the worker's eventfd yet. */
static bool worker_ending(const struct owner *o)
{
	struct pollfd pf = { .fd = o->efd, .events = POLLIN };

	return atomic_load(&o->plan.refused) ||
	       (o->cfg->persistent && poll(&pf, 1, 0) == 1);
}

/* A newcomer while the client being served is still setting up (no plan
 * yet): that client is often one that is already going (it reset or closed
 * its connection, and its worker is tearing down). Wait up to
 * SETUP_GRACE_MS, while it is still setting up, for its worker to end,
 * rather than refuse the newcomer busy for a client that has gone. Bounded,
 * and only in set-up: a running client's newcomers are refused at once. */
#define SETUP_GRACE_MS 1000

static void wait_setup(struct owner *o)
{
	struct pollfd pf = { .fd = o->efd, .events = POLLIN };

	for (int ms = 0; ms < SETUP_GRACE_MS; ms += 10) {
		if (atomic_load(&o->plan.end_ns) !=
			    RPERF_SESSION_PLAN_UNKNOWN ||
		    atomic_load(&o->plan.refused) || poll(&pf, 1, 10) == 1)
			return;
	}
}

static enum rperf_serve_verdict admit(void *arg, int fd, const char *peer,
				      const struct rperf_ctrl_msg *hello,
				      char *reason, size_t len)
{
	struct owner *o = arg;

	/* a client refused a moment ago may come back at once (the same
	 * command line, corrected): its refusal does not make it wait */
	if (o->active && !worker_ending(o))
		wait_setup(o);
	if (o->active && worker_ending(o))
		join(o);
	if (o->active) {
		rperf_serve_busy_text(o->client.peer, o->since, left_s(o),
				      reason, len);
		return RPERF_SERVE_REFUSE;
	}
	o->client = (struct rperf_session_client){ .cfg = o->cfg,
						   .stop = o->stop,
						   .ops = o->ops,
						   .log = o->log,
						   .fd = fd,
						   .hello = *hello,
						   .plan = &o->plan };
	snprintf(o->client.peer, sizeof(o->client.peer), "%s", peer);
	json_incref(o->client.hello.payload);
	atomic_store(&o->plan.end_ns, RPERF_SESSION_PLAN_UNKNOWN);
	atomic_store(&o->plan.refused, false);
	o->since = time(NULL);
	if (pthread_create(&o->th, NULL, worker, o)) {
		rperf_ctrl_msg_release(&o->client.hello);
		snprintf(reason, len, "the server cannot start a thread now");
		return RPERF_SERVE_REFUSE;
	}
	o->active = true;
	return RPERF_SERVE_ADMIT;
}

static size_t fds(void *arg, struct pollfd *pf, uint64_t *deadline_ns)
{
	struct owner *o = arg;

	*deadline_ns = UINT64_MAX;
	pf[0] = (struct pollfd){ .fd = o->active ? o->efd : -1,
				 .events = POLLIN };
	return 1;
}

static void join(struct owner *o)
{
	uint64_t v;

	pthread_join(o->th, NULL);
	(void)read(o->efd, &v, sizeof(v));
	o->active = false;
	o->last = o->worker_e;
	o->served++;
}

static void events(void *arg, const struct pollfd *pf, size_t n,
		   uint64_t now_ns)
{
	struct owner *o = arg;

	(void)now_ns;
	if (!o->active || n < 1 || !(pf[0].revents & POLLIN))
		return;
	join(o);
	/* a refused client (nothing ran) is not the one client a server
	 * without --persistent serves: it waits for the next */
	if (!o->cfg->persistent && !o->client.refused)
		rperf_serve_quit(o->loop);
}

static void loop_line(void *arg, const char *peer, const char *line)
{
	const struct owner *o = arg;

	if (o->log && o->log->line)
		o->log->line(o->log->arg, peer[0] ? peer : "-", line);
}

int rperf_session_check_device(const struct rperf_cli_config *cfg,
			       struct rperf_err *e)
{
	struct rperf_verbs_cfg v = { .dev_name = cfg->ib_dev,
				     .ib_port = (int)cfg->ib_port,
				     .gid_index = (int)cfg->gid_index,
				     .ipv6 = cfg->ipv6 };
	struct rperf_dev *d = NULL;
	char err[256] = "";
	int rc = rperf_dev_open(&v, &d, err, sizeof(err));

	if (rc)
		return rperf_err_set(e, RPERF_ERRC_USAGE, rc, "%s",
				     err[0] ? err : strerror(rc));
	rperf_dev_close(d);
	return 0;
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

static int make_loop(struct owner *o, int lfd, struct rperf_err *e)
{
	char what[48], err[256] = "";
	struct rperf_serve_cfg sc = {
		.lfd = lfd,
		.max_conns = (unsigned int)o->cfg->max_conns,
		.handshake_ms =
			(int)(o->cfg->handshake_timeout_ns / 1000000ull),
		.what = what,
		.owner = { .admit = admit,
			   .fds = fds,
			   .events = events,
			   .arg = o },
		.log = loop_line,
		.log_arg = o,
	};
	int rc;

	snprintf(what, sizeof(what), "rperf %s server", o->ops->command);
	o->efd = eventfd(0, EFD_CLOEXEC);
	if (o->efd < 0) {
		rc = errno;
		close(lfd);
		return rperf_err_set(e, RPERF_ERRC_RUNTIME, rc, "eventfd: %s",
				     strerror(rc));
	}
	rc = rperf_serve_create(&sc, &o->loop, err, sizeof(err));
	if (rc) {
		close(o->efd);
		return rperf_err_set(e, RPERF_ERRC_RUNTIME, rc, "%s", err);
	}
	return 0;
}

int rperf_session_serve(const struct rperf_cli_config *cfg, int lfd,
			volatile sig_atomic_t *stop,
			const struct rperf_session_server_ops *ops,
			const struct rperf_session_log *log,
			struct rperf_err *e)
{
	struct owner o = {
		.cfg = cfg, .stop = stop, .ops = ops, .log = log, .efd = -1
	};
	char err[256] = "";
	int rc;

	memset(e, 0, sizeof(*e));
	rc = make_loop(&o, lfd, e);
	if (rc)
		return rc;
	rc = rperf_serve_run(o.loop, stop, err, sizeof(err));
	if (o.active) /* stopped mid-run: the worker sees the flag too */
		join(&o);
	rperf_serve_destroy(o.loop);
	close(o.efd);
	if (rc)
		return rperf_err_set(e, RPERF_ERRC_RUNTIME, rc,
				     "server loop: %s", err);
	*e = o.last;
	return 0;
}
