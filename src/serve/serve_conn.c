/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * One pending connection of the loop (serve.h): its first frame read
 * without blocking, header first, then classified; refusals in words and
 * the linger that lets the peer read them.
 */
#include "serve/serve_priv.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define NS_MS 1000000ull

void serve_conn_close(struct rperf_serve *l, struct serve_conn *c)
{
	if (c->st == CONN_FREE)
		return;
	rperf_ctrl_tls_free(c->tls);
	if (c->fd >= 0)
		close(c->fd);
	free(c->frame);
	if (c->hs_slot)
		l->nhs--;
	else
		l->open--;
	memset(c, 0, sizeof(*c));
	c->fd = -1;
}

/* Forget @c without closing its fd (the owner has it now, and its TLS
 * session). */
static void conn_release(struct rperf_serve *l, struct serve_conn *c)
{
	c->fd = -1;
	c->tls = NULL;
	serve_conn_close(l, c);
}

/* Read and discard what the peer sent: 0 (more may come), or EOF/error. */
static int drain(int fd)
{
	char buf[512];
	ssize_t n;

	for (;;) {
		n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);
		if (n > 0)
			continue;
		if (n < 0 &&
		    (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
			return 0;
		return n == 0 ? EPIPE : errno;
	}
}

static void conn_drop(struct rperf_serve *l, struct serve_conn *c,
		      const char *why)
{
	serve_log(l, c->peer, "%s", why);
	l->stats.dropped++;
	(void)drain(c->fd); /* unread bytes would make our close a reset */
	serve_conn_close(l, c);
}

/* REFUSE with @reason (best effort: the connection closes after it). */
static void send_refuse(const struct serve_conn *c, const char *reason)
{
	struct rperf_ctrl_io io = { .fd = c->fd,
				    .timeout_ms = 0,
				    .tls = c->tls };
	json_t *o = NULL;

	if (!rperf_ctrl_reason_encode(reason, &o))
		(void)rperf_ctrl_send_io(&io, RPERF_CTRL_REFUSE, o);
	json_decref(o);
}

static void refuse_as(struct rperf_serve *l, struct serve_conn *c,
		      const char *reason)
{
	send_refuse(c, reason);
	serve_log(l, c->peer, "refused: %s", reason);
	l->stats.refused++;
	(void)shutdown(c->fd, SHUT_WR);
	free(c->frame);
	c->frame = NULL;
	c->st = CONN_LINGER;
	c->deadline_ns = rperf_mono_ns() + RPERF_SERVE_LINGER_MS * NS_MS;
}

void serve_conn_refuse_full(struct rperf_serve *l, struct serve_conn *c)
{
	char why[160];

	snprintf(
		why, sizeof(why),
		"too many connections: %u held open already (--max-conns %u); try again later",
		l->open, l->cfg.max_conns);
	refuse_as(l, c, why);
}

/* A whole header: the magic, then what rperf_ctrl_hdr_parse() checks. */
static int check_header(struct rperf_serve *l, struct serve_conn *c)
{
	struct rperf_ctrl_hdr h;
	char why[RPERF_CTRL_REASON_LEN];
	int rc = rperf_ctrl_hdr_parse(c->hdr, &h);

	if (h.magic != RPERF_CTRL_MAGIC) {
		if (rperf_ctrl_perftest_peer(c->hdr, c->have, why, sizeof(why)))
			serve_log(
				l, c->peer,
				"%s: use perftest's own server for it, or rperf on both hosts",
				why);
		conn_drop(
			l, c,
			"not rperf's control protocol (no \"RPFR\" magic): closed");
		return EBADMSG;
	}
	if (rc == EPROTONOSUPPORT)
		snprintf(why, sizeof(why),
			 "protocol version %u, this %s speaks %d",
			 (unsigned int)h.version, l->cfg.what,
			 RPERF_CTRL_VERSION);
	else if (rc == EBADMSG)
		snprintf(why, sizeof(why), "unknown message type %u",
			 (unsigned int)h.type);
	else if (!rc && h.type != RPERF_CTRL_HELLO)
		snprintf(why, sizeof(why),
			 "the first message must be HELLO, got %s",
			 rperf_ctrl_type_name(h.type));
	else if (rc == EMSGSIZE || h.length > RPERF_SERVE_MAX_FIRST)
		snprintf(why, sizeof(why),
			 "a HELLO of %u bytes is over the %d-byte limit",
			 (unsigned int)h.length, RPERF_SERVE_MAX_FIRST);
	else if (rc)
		snprintf(why, sizeof(why), "bad header: %s", strerror(rc));
	else
		why[0] = '\0';
	if (why[0]) {
		refuse_as(l, c, why);
		return EPROTO;
	}
	c->need = RPERF_CTRL_HDR_LEN + h.length;
	c->frame = malloc(c->need);
	if (!c->frame) {
		conn_drop(l, c, "out of memory: closed");
		return ENOMEM;
	}
	memcpy(c->frame, c->hdr, RPERF_CTRL_HDR_LEN);
	return 0;
}

/* The whole first frame is in: a HELLO for the owner. */
static void classify(struct rperf_serve *l, struct serve_conn *c)
{
	char reason[RPERF_CTRL_REASON_LEN] = "";
	struct rperf_ctrl_msg m = { 0 };
	enum rperf_serve_verdict v;
	int fl;

	if (rperf_ctrl_decode(c->frame, c->need, &m)) {
		refuse_as(l, c, "malformed HELLO (not one JSON object)");
		return;
	}
	if (c->tls) { /* TLS needs the socket non-blocking */
		fl = -1;
		v = l->cfg.owner.admit_tls(l->cfg.owner.arg, c->fd, c->tls,
					   c->peer, &m, reason, sizeof(reason));
	} else {
		fl = fcntl(c->fd, F_GETFL);
		if (fl >= 0)
			(void)fcntl(c->fd, F_SETFL, fl & ~O_NONBLOCK);
		v = l->cfg.owner.admit(l->cfg.owner.arg, c->fd, c->peer, &m,
				       reason, sizeof(reason));
	}
	rperf_ctrl_msg_release(&m);
	if (v == RPERF_SERVE_ADMIT) {
		l->stats.admitted++;
		conn_release(l, c);
		return;
	}
	if (fl >= 0)
		(void)fcntl(c->fd, F_SETFL, fl | O_NONBLOCK);
	refuse_as(l, c, reason[0] ? reason : "refused");
}

/* Read what is there of the first frame (never blocks). */
static void on_pending(struct rperf_serve *l, struct serve_conn *c)
{
	const struct rperf_ctrl_io io = { .fd = c->fd, .tls = c->tls };
	char why[96];
	size_t n;
	int rc;

	for (;;) {
		uint8_t *dst = c->frame ? c->frame + c->have : c->hdr + c->have;
		size_t want =
			(c->frame ? c->need : RPERF_CTRL_HDR_LEN) - c->have;

		rc = rperf_ctrl_read_some(&io, dst, want, &n);
		if (!rc && !n)
			return;
		if (rc) {
			snprintf(
				why, sizeof(why),
				rc != EPIPE ?
					"reset after %zu bytes of its HELLO" :
					"went away after %zu bytes of its HELLO",
				c->have);
			conn_drop(l, c, why);
			return;
		}
		c->have += n;
		if (!c->frame && c->have == RPERF_CTRL_HDR_LEN &&
		    check_header(l, c))
			return;
		if (c->frame && c->have == c->need) {
			classify(l, c);
			return;
		}
	}
}

/* A peer on the TLS port whose first bytes are an rperf frame: it speaks
 * the plain channel (no key, or an rperf from before TLS). */
static bool plain_peer(struct rperf_serve *l, struct serve_conn *c)
{
	uint8_t b[4] = { 0 };
	ssize_t n = recv(c->fd, b, sizeof(b), MSG_PEEK | MSG_DONTWAIT);

	if (n < 4 || b[0] != 'R' || b[1] != 'P' || b[2] != 'F' || b[3] != 'R')
		return false;
	rperf_ctrl_tls_free(c->tls);
	c->tls = NULL;
	refuse_as(
		l, c,
		"this rperf agent requires TLS: run the controller with --key-file (the agent's key) or --cert/--key/--ca");
	return true;
}

/* Authenticated: the connection leaves the handshake pool for one of
 * cfg.max_conns and its HELLO is read through TLS. */
static void tls_done(struct rperf_serve *l, struct serve_conn *c)
{
	char d[96];

	rperf_ctrl_tls_describe(c->tls, d, sizeof(d));
	serve_log(l, c->peer, "authenticated (%s)", d);
	if (l->open >= l->cfg.max_conns) {
		serve_conn_refuse_full(l, c);
		return;
	}
	c->hs_slot = false;
	l->nhs--;
	l->open++;
	c->st = CONN_PENDING;
	on_pending(l, c); /* the HELLO may be in already */
}

static void on_tls(struct rperf_serve *l, struct serve_conn *c)
{
	char why[RPERF_CTRL_REASON_LEN];
	int rc;

	if (plain_peer(l, c))
		return;
	rc = rperf_ctrl_tls_step(c->tls, &c->want, why, sizeof(why));
	if (rc == EAGAIN)
		return;
	if (!rc) {
		tls_done(l, c);
		return;
	}
	l->stats.tls_failed++;
	conn_drop(l, c, why);
}

void serve_conn_tls_start(struct rperf_serve *l, struct serve_conn *c)
{
	int rc = rperf_ctrl_tls_new(l->cfg.tls, c->fd, &c->tls);

	c->st = CONN_TLS;
	c->want = POLLIN; /* the ClientHello */
	if (rc)
		conn_drop(l, c, "out of memory for its TLS session: closed");
}

void serve_conn_on_input(struct rperf_serve *l, struct serve_conn *c)
{
	if (c->st == CONN_TLS)
		on_tls(l, c);
	else if (c->st == CONN_PENDING)
		on_pending(l, c);
	else if (c->st == CONN_LINGER && drain(c->fd))
		serve_conn_close(l, c);
}

void serve_conn_on_deadline(struct rperf_serve *l, struct serve_conn *c)
{
	char why[RPERF_CTRL_REASON_LEN];

	if (c->st == CONN_LINGER) {
		serve_conn_close(l, c);
		return;
	}
	if (c->st == CONN_TLS) { /* no channel to say it on */
		snprintf(
			why, sizeof(why),
			"no TLS handshake within %d ms of connecting (--handshake-timeout): closed",
			l->cfg.handshake_ms);
		conn_drop(l, c, why);
		return;
	}
	snprintf(
		why, sizeof(why),
		"no whole HELLO within %d ms of connecting (--handshake-timeout; %zu bytes came)",
		l->cfg.handshake_ms, c->have);
	send_refuse(c, why);
	serve_log(l, c->peer, "refused: %s", why);
	l->stats.refused++;
	(void)drain(c->fd);
	serve_conn_close(l, c);
}
