/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The agent's event loop: the listening socket, the active controller, the
 * engine's "a source ended" fd and the connections being refused, all in
 * one poll(); deadlines from CLOCK_MONOTONIC.
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

int rperf_agent_create(const struct rperf_agent_cfg *cfg,
		       struct rperf_agent **out, char *err, size_t errlen)
{
	struct rperf_agent *a;
	size_t i;
	int rc;

	if (!cfg || !out || cfg->timeout_ms <= 0 || !cfg->clk ||
	    (cfg->key && !cfg->keylen))
		return EINVAL;
	a = calloc(1, sizeof(*a));
	if (!a)
		return ENOMEM;
	a->cfg = *cfg;
	a->engine = cfg->engine ? cfg->engine : &rperf_agent_real_engine;
	a->exp.fd = -1;
	a->lfd = -1;
	for (i = 0; i < AGENT_MAX_REFUSING; i++)
		a->refusing[i].fd = -1;
	rc = rperf_ctrl_listen(cfg->bind, cfg->port, &a->lfd);
	if (!rc)
		rc = rperf_ctrl_local_port(a->lfd, &a->port);
	if (rc) {
		snprintf(err, errlen, "cannot listen on %s port %u: %s",
			 cfg->bind ? cfg->bind : "any address", cfg->port,
			 rc == ENOENT ? "the address does not resolve" :
					strerror(rc));
		if (a->lfd >= 0)
			close(a->lfd);
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

uint64_t rperf_agent_served(const struct rperf_agent *a)
{
	return a->served;
}

static void refuse_close(struct agent_refusing *r)
{
	close(r->fd);
	r->fd = -1;
}

/* Busy: REFUSE at once, then let the peer read it before we close (a
 * close with its HELLO unread would reset the connection). */
static void refuse_busy(struct rperf_agent *a, int fd, const char *peer)
{
	char reason[RPERF_CTRL_REASON_LEN];
	json_t *o = NULL;
	size_t i;

	snprintf(reason, sizeof(reason),
		 "busy: running an experiment for %s since %s", a->exp.peer,
		 a->exp.since);
	if (!rperf_ctrl_reason_encode(reason, &o)) {
		(void)rperf_ctrl_send(fd, RPERF_CTRL_REFUSE, o, 1000);
		json_decref(o);
	}
	agent_log(a, "refused %s: %s", peer, reason);
	shutdown(fd, SHUT_WR);
	for (i = 0; i < AGENT_MAX_REFUSING; i++) {
		if (a->refusing[i].fd < 0) {
			a->refusing[i].fd = fd;
			a->refusing[i].deadline_ns =
				rperf_engine_now_ns() +
				AGENT_REFUSE_LINGER_MS * 1000000ull;
			return;
		}
	}
	close(fd);
}

static void on_accept(struct rperf_agent *a)
{
	char peer[64] = "?";
	int fd;

	if (rperf_ctrl_accept(a->lfd, 0, &fd, peer, sizeof(peer)))
		return; /* gone already */
	if (a->exp.fd >= 0)
		refuse_busy(a, fd, peer);
	else
		agent_exp_begin(a, fd, peer);
}

static void on_refusing(struct agent_refusing *r, short revents)
{
	char buf[512];
	ssize_t n;

	if (!(revents & (POLLIN | POLLHUP | POLLERR)))
		return;
	n = recv(r->fd, buf, sizeof(buf), MSG_DONTWAIT);
	if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR))
		refuse_close(r);
}

/* poll() timeout: @wait_ms, or less up to the nearest deadline. */
static int wait_for(const struct rperf_agent *a, int wait_ms)
{
	uint64_t now = rperf_engine_now_ns(), next = UINT64_MAX;
	size_t i;

	if (a->exp.fd >= 0)
		next = a->exp.deadline_ns;
	for (i = 0; i < AGENT_MAX_REFUSING; i++)
		if (a->refusing[i].fd >= 0 && a->refusing[i].deadline_ns < next)
			next = a->refusing[i].deadline_ns;
	if (next == UINT64_MAX)
		return wait_ms;
	if (next <= now)
		return 0;
	if ((next - now) / 1000000ull + 1 < (uint64_t)wait_ms)
		return (int)((next - now) / 1000000ull + 1);
	return wait_ms;
}

static void deadlines(struct rperf_agent *a)
{
	uint64_t now = rperf_engine_now_ns();
	size_t i;

	for (i = 0; i < AGENT_MAX_REFUSING; i++)
		if (a->refusing[i].fd >= 0 && now >= a->refusing[i].deadline_ns)
			refuse_close(&a->refusing[i]);
	if (a->exp.fd >= 0 && now >= a->exp.deadline_ns)
		agent_exp_on_deadline(a);
}

int rperf_agent_step(struct rperf_agent *a, int wait_ms, char *err,
		     size_t errlen)
{
	struct pollfd pf[3 + AGENT_MAX_REFUSING];
	int efd = a->exp.eng ? a->engine->fd(a->exp.eng) : -1;
	size_t i;
	int n;

	memset(pf, 0, sizeof(pf));
	pf[0] = (struct pollfd){ .fd = a->lfd, .events = POLLIN };
	pf[1] = (struct pollfd){ .fd = a->exp.fd, .events = POLLIN };
	pf[2] = (struct pollfd){ .fd = efd, .events = POLLIN };
	for (i = 0; i < AGENT_MAX_REFUSING; i++)
		pf[3 + i] = (struct pollfd){ .fd = a->refusing[i].fd,
					     .events = POLLIN };
	n = poll(pf, 3 + AGENT_MAX_REFUSING, wait_for(a, wait_ms));
	if (n < 0 && errno != EINTR) {
		snprintf(err, errlen, "poll: %s", strerror(errno));
		return errno;
	}
	if (n > 0) {
		if (pf[2].revents & POLLIN)
			agent_exp_on_engine(a);
		if (pf[1].revents && a->exp.fd == pf[1].fd)
			agent_exp_on_msg(a);
		for (i = 0; i < AGENT_MAX_REFUSING; i++)
			if (a->refusing[i].fd >= 0 &&
			    a->refusing[i].fd == pf[3 + i].fd)
				on_refusing(&a->refusing[i], pf[3 + i].revents);
		if (pf[0].revents & POLLIN)
			on_accept(a);
	}
	deadlines(a);
	return 0;
}

int rperf_agent_run(struct rperf_agent *a, const volatile sig_atomic_t *stop,
		    char *err, size_t errlen)
{
	int rc = 0;

	agent_log(a, "listening on %s port %u%s",
		  a->cfg.bind ? a->cfg.bind : "any address", a->port,
		  a->cfg.key ? " (key required)" : "");
	while (!rc && !(stop && *stop))
		rc = rperf_agent_step(a, 200, err, errlen);
	if (a->exp.fd >= 0)
		agent_exp_end(a, "the agent is stopping");
	return rc;
}

void rperf_agent_destroy(struct rperf_agent *a)
{
	size_t i;

	if (!a)
		return;
	if (a->exp.fd >= 0)
		agent_exp_end(a, "the agent is stopping");
	for (i = 0; i < AGENT_MAX_REFUSING; i++)
		if (a->refusing[i].fd >= 0)
			refuse_close(&a->refusing[i]);
	close(a->lfd);
	free(a);
}
