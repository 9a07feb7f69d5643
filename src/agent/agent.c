/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The agent on the server loop (src/serve/serve.h): the loop takes every
 * connection's HELLO without blocking and asks admit(); the active
 * controller's socket and the engine's "a source ended" fd join the same
 * poll() through fds()/events(); deadlines from CLOCK_MONOTONIC.
 */
#include "agent/agent.h"

#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "agent/agent_priv.h"
#include "ctrl/ctrl.h"

void agent_log(struct rperf_agent *a, const char *fmt, ...)
{
	char line[512];
	va_list ap;

	if (!a->cfg.log)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	a->cfg.log(a->cfg.log_arg, line);
}

static void loop_line(void *arg, const char *peer, const char *line)
{
	if (peer[0])
		agent_log(arg, "connection %s: %s", peer, line);
	else
		agent_log(arg, "%s", line);
}

/* A HELLO (through TLS: an authenticated controller): the controller if
 * idle, else busy in words. */
static enum rperf_serve_verdict
admit_tls(void *arg, int fd, struct rperf_ctrl_tls *tls, const char *peer,
	  const struct rperf_ctrl_msg *hello, char *reason, size_t len)
{
	struct rperf_agent *a = arg;
	const struct agent_exp *x = &a->exp;

	if (x->fd >= 0) {
		int64_t left =
			rperf_serve_left_s(x->go_end_ns, rperf_mono_ns());

		if (x->go_end_ns && !x->busy_end_ns) /* no timed generator */
			left = RPERF_SERVE_LEFT_ITERS;
		rperf_serve_busy_text(x->peer, x->since_t, left, reason, len);
		return RPERF_SERVE_REFUSE;
	}
	agent_exp_begin(a, fd, tls, peer);
	agent_exp_on_first(a, hello);
	return RPERF_SERVE_ADMIT;
}

/* --insecure: the plain channel. */
static enum rperf_serve_verdict admit(void *arg, int fd, const char *peer,
				      const struct rperf_ctrl_msg *hello,
				      char *reason, size_t len)
{
	return admit_tls(arg, fd, NULL, peer, hello, reason, len);
}

/* Frames TLS decrypted already: poll() would not wake up for them. */
static bool pending(const struct rperf_agent *a)
{
	const struct rperf_ctrl_io io = { .fd = a->exp.fd, .tls = a->exp.tls };

	return a->exp.fd >= 0 && rperf_ctrl_io_pending(&io);
}

static size_t fds(void *arg, struct pollfd *pf, uint64_t *deadline_ns)
{
	struct rperf_agent *a = arg;

	pf[0] = (struct pollfd){ .fd = a->exp.fd, .events = POLLIN };
	pf[1] = (struct pollfd){ .fd = a->exp.eng ? a->engine->fd(a->exp.eng) :
						    -1,
				 .events = POLLIN };
	*deadline_ns = pending(a) ? 0 : agent_exp_wake_ns(a);
	if (agent_ctr_wake_ns(a) < *deadline_ns)
		*deadline_ns = agent_ctr_wake_ns(a);
	return 2;
}

static void events(void *arg, const struct pollfd *pf, size_t n,
		   uint64_t now_ns)
{
	struct rperf_agent *a = arg;

	if (n < 2)
		return;
	if (pf[1].fd >= 0 && (pf[1].revents & POLLIN))
		agent_exp_on_engine(a);
	if ((pf[0].revents || pending(a)) && a->exp.fd >= 0 &&
	    a->exp.fd == pf[0].fd)
		agent_exp_on_msg(a);
	if (a->exp.fd >= 0)
		agent_exp_heartbeat(a, now_ns);
	if (a->exp.fd >= 0)
		agent_ctr_tick(a, now_ns);
	if (a->exp.fd >= 0 && now_ns >= a->exp.deadline_ns)
		agent_exp_on_deadline(a);
}

int rperf_agent_create(const struct rperf_agent_cfg *cfg,
		       struct rperf_agent **out, char *err, size_t errlen)
{
	struct rperf_serve_cfg sc = { .what = "rperf agent",
				      .owner = { .admit = admit,
						 .admit_tls = admit_tls,
						 .fds = fds,
						 .events = events },
				      .log = loop_line };
	struct rperf_agent *a;
	int rc, lfd = -1;

	if (!cfg || !out || cfg->timeout_ms <= 0 || !cfg->clk ||
	    cfg->handshake_ms < 0)
		return EINVAL;
	if (rperf_ctrl_auth_none(&cfg->auth) && !cfg->insecure) {
		snprintf(
			err, errlen,
			"no --key-file and no --cert/--key/--ca: anyone who reaches the port could run experiments here; give a key (chmod 600) or certificates, or --insecure to accept that");
		return EACCES;
	}
	a = calloc(1, sizeof(*a));
	if (!a)
		return ENOMEM;
	a->cfg = *cfg;
	if (cfg->what)
		sc.what = cfg->what;
	a->engine = cfg->engine ? cfg->engine : &rperf_agent_real_engine;
	a->exp.fd = -1;
	if (!rperf_ctrl_auth_none(&cfg->auth)) {
		rc = rperf_ctrl_tls_ctx_create(&cfg->auth, true, &a->tls, err,
					       errlen);
		if (rc) {
			free(a);
			return rc;
		}
	}
	sc.tls = a->tls;
	rc = rperf_ctrl_listen(cfg->bind, cfg->port, &lfd);
	if (!rc)
		rc = rperf_ctrl_local_port(lfd, &a->port);
	if (rc) {
		snprintf(err, errlen, "cannot listen on %s port %u: %s",
			 cfg->bind ? cfg->bind : "any address", cfg->port,
			 rc == ENOENT ? "the address does not resolve" :
					strerror(rc));
		if (lfd >= 0)
			close(lfd);
		rperf_ctrl_tls_ctx_free(a->tls);
		free(a);
		return rc;
	}
	sc.lfd = lfd;
	sc.handshake_ms = cfg->handshake_ms ? cfg->handshake_ms :
					      RPERF_SERVE_DEFAULT_HANDSHAKE_MS;
	sc.max_conns = cfg->max_conns ? cfg->max_conns :
					RPERF_SERVE_DEFAULT_MAX_CONNS;
	sc.owner.arg = a;
	sc.log_arg = a;
	rc = rperf_serve_create(&sc, &a->loop, err, errlen); /* owns lfd */
	if (rc) {
		rperf_ctrl_tls_ctx_free(a->tls);
		free(a);
		return rc;
	}
	*out = a;
	return 0;
}

uint16_t rperf_agent_port(const struct rperf_agent *a)
{
	return a->port;
}

bool rperf_agent_last_done(const struct rperf_agent *a)
{
	return a->last_done;
}

uint64_t rperf_agent_served(const struct rperf_agent *a)
{
	return a->served;
}

int rperf_agent_step(struct rperf_agent *a, int wait_ms, char *err,
		     size_t errlen)
{
	return rperf_serve_step(a->loop, wait_ms, err, errlen);
}

int rperf_agent_run(struct rperf_agent *a, const volatile sig_atomic_t *stop,
		    char *err, size_t errlen)
{
	int rc;

	agent_log(
		a, "listening on %s port %u (%s)",
		a->cfg.bind ? a->cfg.bind : "any address", a->port,
		a->cfg.auth.psk ?
			"TLS 1.3, pre-shared key required" :
		a->tls ?
			"TLS 1.3, a certificate of the --ca required" :
			"INSECURE: plain TCP, no authentication, no encryption");
	rc = rperf_serve_run(a->loop, stop, err, errlen);
	if (a->exp.fd >= 0)
		agent_exp_end(a, "the agent is stopping");
	return rc;
}

void rperf_agent_destroy(struct rperf_agent *a)
{
	if (!a)
		return;
	if (a->exp.fd >= 0)
		agent_exp_end(a, "the agent is stopping");
	rperf_serve_destroy(a->loop);
	rperf_ctrl_tls_ctx_free(a->tls);
	free(a);
}
