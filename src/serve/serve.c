/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The server loop (serve.h): one poll() over the listening socket, the
 * pending and lingering connections and the owner's fds; deadlines from
 * CLOCK_MONOTONIC.
 */
#include "serve/serve_priv.h"
#include "util/mono.h"
#include "util/err.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#define NS_MS 1000000ull

void serve_log(struct rperf_serve *l, const char *peer, const char *fmt, ...)
{
	char line[512];
	va_list ap;

	if (!l->cfg.log)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	l->cfg.log(l->cfg.log_arg, peer, line);
}

int64_t rperf_serve_left_s(uint64_t end_ns, uint64_t now_ns)
{
	if (!end_ns)
		return RPERF_SERVE_LEFT_UNKNOWN;
	if (end_ns <= now_ns)
		return 0;
	return (int64_t)((end_ns - now_ns + 999999999ull) / 1000000000ull);
}

void rperf_serve_busy_text(const char *peer, time_t since, int64_t left_s,
			   char *buf, size_t len)
{
	char when[32] = "?", left[64];
	struct tm tm;

	if (gmtime_r(&since, &tm))
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", &tm);
	if (left_s == RPERF_SERVE_LEFT_ITERS)
		snprintf(left, sizeof(left),
			 "an iteration-count run: no planned end");
	else if (left_s == RPERF_SERVE_LEFT_ENDLESS)
		snprintf(left, sizeof(left),
			 "an endless run: until its client stops it");
	else if (left_s < 0)
		snprintf(left, sizeof(left),
			 "setting up: its length is not known yet");
	else
		snprintf(left, sizeof(left), "%lld s left", (long long)left_s);
	snprintf(buf, len, "busy: running a test for %s since %s (%s)", peer,
		 when, left);
}

/*
 * poll() refuses more entries than RLIMIT_NOFILE (EINVAL), and a run needs
 * fds of its own (device, completion channel, eventfd): the connections
 * held at once stay below the open-file limit minus this reserve.
 */
#define SERVE_FD_RESERVE 16

static unsigned int fit_conns(unsigned int want, unsigned long *limit)
{
	const unsigned long fixed =
		1 + RPERF_SERVE_MAX_OWNER_FDS + SERVE_FD_RESERVE;
	struct rlimit rl;

	*limit = 0;
	if (getrlimit(RLIMIT_NOFILE, &rl) || rl.rlim_cur == RLIM_INFINITY ||
	    rl.rlim_cur >= fixed + want)
		return want;
	*limit = (unsigned long)rl.rlim_cur;
	return rl.rlim_cur > fixed ? (unsigned int)(rl.rlim_cur - fixed) : 1;
}

int rperf_serve_create(const struct rperf_serve_cfg *cfg,
		       struct rperf_serve **out, char *err, size_t errlen)
{
	struct rperf_serve *l;
	unsigned long nofile;
	unsigned int i, fit;

	if (!cfg || !out ||
	    (cfg->tls ? !cfg->owner.admit_tls : !cfg->owner.admit) ||
	    cfg->lfd < 0 || cfg->max_conns < 1 ||
	    cfg->max_conns > RPERF_SERVE_MAX_CONNS_LIMIT ||
	    cfg->handshake_ms <= 0) {
		snprintf(
			err, errlen,
			"server loop: bad configuration (max_conns 1..%d, handshake > 0 ms, an admit callback: admit_tls with tls)",
			RPERF_SERVE_MAX_CONNS_LIMIT);
		if (cfg && cfg->lfd >= 0)
			close(cfg->lfd);
		return EINVAL;
	}
	l = calloc(1, sizeof(*l));
	if (l) {
		l->nconns = cfg->max_conns +
			    (cfg->tls ? RPERF_SERVE_MAX_HANDSHAKES : 0);
		l->conns = calloc(l->nconns, sizeof(*l->conns));
		l->pf = calloc(1 + l->nconns + RPERF_SERVE_MAX_OWNER_FDS,
			       sizeof(*l->pf));
	}
	if (!l || !l->conns || !l->pf) {
		if (l) {
			free(l->conns);
			free(l->pf);
		}
		free(l);
		close(cfg->lfd);
		return rperf_fail(err, errlen, ENOMEM,
				  "server loop: out of memory");
	}
	l->cfg = *cfg;
	snprintf(l->what, sizeof(l->what), "%s",
		 cfg->what ? cfg->what : "server");
	l->cfg.what = l->what;
	fit = fit_conns(l->nconns, &nofile);
	if (fit < l->nconns && cfg->tls) /* the fds left, shared */
		l->max_hs = fit / 2 ? fit / 2 : 1;
	else
		l->max_hs = cfg->tls ? RPERF_SERVE_MAX_HANDSHAKES : 0;
	l->cfg.max_conns = fit > l->max_hs + 1 ? fit - l->max_hs : 1;
	if (l->cfg.max_conns > cfg->max_conns)
		l->cfg.max_conns = cfg->max_conns;
	l->nconns = l->cfg.max_conns + l->max_hs;
	if (l->cfg.max_conns < cfg->max_conns)
		serve_log(
			l, "",
			"--max-conns %u lowered to %u: the open-file limit (ulimit -n) is %lu",
			cfg->max_conns, l->cfg.max_conns, nofile);
	for (i = 0; i < l->nconns; i++)
		l->conns[i].fd = -1;
	/* accept() must never block the loop */
	(void)fcntl(cfg->lfd, F_SETFL, fcntl(cfg->lfd, F_GETFL) | O_NONBLOCK);
	*out = l;
	return 0;
}

static struct serve_conn *free_slot(struct rperf_serve *l, bool hs)
{
	if (hs ? l->nhs >= l->max_hs : l->open >= l->cfg.max_conns)
		return NULL;
	for (unsigned int i = 0; i < l->nconns; i++)
		if (l->conns[i].st == CONN_FREE)
			return &l->conns[i];
	return NULL;
}

/* "10.0.0.1:5000" -> "10.0.0.1", "[::1]:5000" -> "[::1]" */
static void peer_addr(const char *peer, char *addr, size_t len)
{
	const char *colon = strrchr(peer, ':');
	size_t n = colon ? (size_t)(colon - peer) : strlen(peer);

	snprintf(addr, len, "%.*s", (int)n, peer);
}

/* Pending handshakes from @addr (NULL: all); *oldest the first accepted. */
static unsigned int handshakes_of(struct rperf_serve *l, const char *addr,
				  struct serve_conn **oldest)
{
	unsigned int n = 0;

	*oldest = NULL;
	for (unsigned int i = 0; i < l->nconns; i++) {
		struct serve_conn *c = &l->conns[i];

		if (!c->st || !c->hs_slot || (addr && strcmp(c->addr, addr)))
			continue;
		n++;
		if (!*oldest || c->born_ns < (*oldest)->born_ns)
			*oldest = c;
	}
	return n;
}

static void evict(struct rperf_serve *l, struct serve_conn *c, const char *why)
{
	serve_log(l, c->peer,
		  "TLS handshake not done after %.3f s, evicted: %s",
		  (double)(rperf_mono_ns() - c->born_ns) / 1e9, why);
	l->stats.evicted++;
	serve_conn_close(l, c);
}

/* Room in the handshake pool for one more from @addr: the oldest of the
 * same address goes first, else the oldest of the busiest address. */
static void make_hs_room(struct rperf_serve *l, const char *addr)
{
	struct serve_conn *old, *busiest = NULL;
	unsigned int most = 0;

	if (handshakes_of(l, addr, &old) >=
	    RPERF_SERVE_MAX_HANDSHAKES_PER_SOURCE)
		evict(l, old, "too many from one address");
	if (l->nhs < l->max_hs)
		return;
	for (unsigned int i = 0; i < l->nconns; i++) {
		struct serve_conn *c = &l->conns[i];
		unsigned int n;

		if (!c->st || !c->hs_slot)
			continue;
		n = handshakes_of(l, c->addr, &old);
		if (n > most) {
			most = n;
			busiest = old;
		}
	}
	if (busiest)
		evict(l, busiest, "too many handshakes pending");
}

/* Over the cap: REFUSE in words and close at once (no slot to linger). */
static void refuse_over_cap(struct rperf_serve *l, int fd, const char *peer)
{
	struct serve_conn tmp = { .st = CONN_PENDING, .fd = fd };

	snprintf(tmp.peer, sizeof(tmp.peer), "%s", peer);
	serve_conn_refuse_full(l, &tmp);
	l->open++; /* serve_conn_close() takes it back */
	serve_conn_close(l, &tmp);
}

static void on_accept(struct rperf_serve *l, uint64_t now)
{
	char peer[SERVE_PEER_LEN] = "?";
	struct serve_conn *c;
	int fd, rc;

	for (int k = 0; k < 16; k++) { /* a burst, not a flood, per pass */
		rc = rperf_ctrl_accept(l->cfg.lfd, 0, &fd, peer, sizeof(peer));
		if (rc == EMFILE || rc == ENFILE || rc == ENOBUFS ||
		    rc == ENOMEM) {
			serve_log(l, "",
				  "accepting: %s; pausing accepts for %d ms",
				  strerror(rc), SERVE_EMFILE_PAUSE_MS);
			l->accept_pause_until_ns =
				now + SERVE_EMFILE_PAUSE_MS * NS_MS;
			return;
		}
		if (rc)
			return; /* nothing more waiting */
		l->stats.accepted++;
		(void)fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
		if (l->cfg.tls) {
			char addr[SERVE_PEER_LEN];

			peer_addr(peer, addr, sizeof(addr));
			make_hs_room(l, addr);
		}
		c = free_slot(l, l->cfg.tls != NULL);
		if (!c) {
			refuse_over_cap(l, fd, peer);
			continue;
		}
		c->st = CONN_PENDING;
		c->fd = fd;
		snprintf(c->peer, sizeof(c->peer), "%s", peer);
		peer_addr(peer, c->addr, sizeof(c->addr));
		c->born_ns = now;
		c->deadline_ns = now + (uint64_t)l->cfg.handshake_ms * NS_MS;
		if (l->cfg.tls) {
			c->hs_slot = true;
			l->nhs++;
			serve_conn_tls_start(l, c);
		} else {
			l->open++;
		}
	}
}

/* Fill l->pf: [0] lfd, [1 + i] conn i, then the owner's. */
static size_t build_poll(struct rperf_serve *l, uint64_t now, size_t *nown,
			 uint64_t *next)
{
	size_t n = 1 + l->nconns, k;
	uint64_t od = UINT64_MAX;

	*next = l->accept_pause_until_ns > now ? l->accept_pause_until_ns :
						 UINT64_MAX;
	l->pf[0] = (struct pollfd){ .fd = *next == UINT64_MAX ? l->cfg.lfd : -1,
				    .events = POLLIN };
	for (unsigned int i = 0; i < l->nconns; i++) {
		const struct serve_conn *c = &l->conns[i];

		l->pf[1 + i] = (struct pollfd){ .fd = c->st ? c->fd : -1,
						.events = c->st == CONN_TLS ?
								  c->want :
								  POLLIN };
		if (c->st && c->deadline_ns < *next)
			*next = c->deadline_ns;
	}
	*nown = 0;
	if (l->cfg.owner.fds) {
		memset(&l->pf[n], 0,
		       RPERF_SERVE_MAX_OWNER_FDS * sizeof(*l->pf));
		k = l->cfg.owner.fds(l->cfg.owner.arg, &l->pf[n], &od);
		*nown = k > RPERF_SERVE_MAX_OWNER_FDS ?
				RPERF_SERVE_MAX_OWNER_FDS :
				k;
		if (od < *next)
			*next = od;
	}
	return n + *nown;
}

static int wait_ms(uint64_t now, uint64_t next, int wait)
{
	uint64_t ms;

	if (next == UINT64_MAX)
		return wait;
	if (next <= now)
		return 0;
	ms = (next - now + NS_MS - 1) / NS_MS;
	return wait >= 0 && ms > (uint64_t)wait ? wait : (int)ms;
}

int rperf_serve_step(struct rperf_serve *l, int wait, char *err, size_t errlen)
{
	uint64_t now = rperf_mono_ns(), next;
	size_t nown, n = build_poll(l, now, &nown, &next);
	size_t base = 1 + l->nconns;
	int rc = poll(l->pf, n, wait_ms(now, next, wait));

	if (rc < 0 && errno != EINTR) {
		rc = errno;
		return rperf_fail(err, errlen, rc, "poll: %s", strerror(rc));
	}
	now = rperf_mono_ns();
	/* the owner first: a run that ended frees the active slot */
	if (l->cfg.owner.events)
		l->cfg.owner.events(l->cfg.owner.arg, &l->pf[base], nown, now);
	for (unsigned int i = 0; i < l->nconns; i++) {
		struct serve_conn *c = &l->conns[i];

		if (c->st && c->fd == l->pf[1 + i].fd && l->pf[1 + i].revents)
			serve_conn_on_input(l, c);
		if (c->st && now >= c->deadline_ns)
			serve_conn_on_deadline(l, c);
	}
	if (l->pf[0].fd >= 0 && (l->pf[0].revents & POLLIN))
		on_accept(l, now);
	return 0;
}

int rperf_serve_run(struct rperf_serve *l, const volatile sig_atomic_t *stop,
		    char *err, size_t errlen)
{
	int rc = 0;

	l->quit = false;
	while (!rc && !l->quit && !(stop && *stop))
		rc = rperf_serve_step(l, 200, err, errlen);
	return rc;
}

void rperf_serve_quit(struct rperf_serve *l)
{
	l->quit = true;
}

void rperf_serve_get_stats(const struct rperf_serve *l,
			   struct rperf_serve_stats *out)
{
	*out = l->stats;
	out->open = l->open;
	out->handshakes = l->nhs;
}

void rperf_serve_destroy(struct rperf_serve *l)
{
	if (!l)
		return;
	for (unsigned int i = 0; i < l->nconns; i++)
		serve_conn_close(l, &l->conns[i]);
	close(l->cfg.lfd);
	free(l->conns);
	free(l->pf);
	free(l);
}
