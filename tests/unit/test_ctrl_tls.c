// SPDX-License-Identifier: BSD-2-Clause
/*
 * The TLS transport of the control channel (src/ctrl/ctrl_tls.h) on a
 * socketpair: PSK handshakes with the right key and a wrong one (each end
 * refuses the other), a plain peer, certificates of the CA and of another
 * CA in both directions, the key-file checks, frames both ways (a 512 KiB
 * one: partial records, decrypted bytes pending), and the deadlines: a
 * stalled peer in the handshake and inside a frame, and the stop flag.
 * Certificates: tests/unit/fixtures/tls (test-only, made with
 *   openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1
 * and signed for 100 years by ca.crt or other-ca.crt).
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "ctrl/ctrl.h"
#include "ctrl/ctrl_tls.h"

struct end {
	struct rperf_ctrl_tls_ctx *ctx;
	struct rperf_ctrl_tls *tls;
	int fd, rc;
	char err[256];
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static struct rperf_ctrl_auth psk(const char *key)
{
	return (struct rperf_ctrl_auth){ .psk = (const uint8_t *)key,
					 .psklen = strlen(key) };
}

static void ctx(struct end *e, struct rperf_ctrl_auth a, bool server)
{
	char err[256] = "";

	if (rperf_ctrl_tls_ctx_create(&a, server, &e->ctx, err, sizeof(err)))
		fail_msg("context: %s", err);
}

/* A connected pair: c the client (controller), s the server (agent). */
static void pair(struct end *c, struct end *s)
{
	int sv[2];

	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	c->fd = sv[0];
	s->fd = sv[1];
	assert_int_equal(rperf_ctrl_tls_new(c->ctx, c->fd, &c->tls), 0);
	assert_int_equal(rperf_ctrl_tls_new(s->ctx, s->fd, &s->tls), 0);
}

/* Both handshakes, stepped in turn until neither waits. */
static void handshake(struct end *c, struct end *s)
{
	c->rc = s->rc = EAGAIN;
	for (int i = 0; i < 50 && (c->rc == EAGAIN || s->rc == EAGAIN); i++) {
		short ev;

		if (c->rc == EAGAIN)
			c->rc = rperf_ctrl_tls_step(c->tls, &ev, c->err,
						    sizeof(c->err));
		if (s->rc == EAGAIN)
			s->rc = rperf_ctrl_tls_step(s->tls, &ev, s->err,
						    sizeof(s->err));
	}
}

static void done(struct end *e)
{
	rperf_ctrl_tls_free(e->tls);
	rperf_ctrl_tls_ctx_free(e->ctx);
	if (e->fd >= 0)
		close(e->fd);
	memset(e, 0, sizeof(*e));
	e->fd = -1;
}

static struct rperf_ctrl_io io(const struct end *e, int ms)
{
	return (struct rperf_ctrl_io){ .fd = e->fd,
				       .timeout_ms = ms,
				       .tls = e->tls };
}

struct sender {
	struct rperf_ctrl_io io;
	json_t *o;
	int rc;
};

static void *send_main(void *arg)
{
	struct sender *x = arg;

	x->rc = rperf_ctrl_send_io(&x->io, RPERF_CTRL_PARAMS, x->o);
	return NULL;
}

/* A frame each way; the client's is @big bytes of payload. */
static void exchange(struct end *c, struct end *s, size_t big)
{
	const struct rperf_ctrl_io ci = io(c, 2000), si = io(s, 2000);
	char *text = malloc(big + 1);
	struct rperf_ctrl_msg m;
	json_t *o;

	assert_non_null(text);
	memset(text, 'x', big);
	text[big] = '\0';
	o = json_pack("{s:s}", "blob", text);
	{ /* the writer fills the socket buffer: send from a thread */
		struct sender x = { .io = ci, .o = o };
		pthread_t t;

		assert_int_equal(pthread_create(&t, NULL, send_main, &x), 0);
		assert_int_equal(rperf_ctrl_recv_io(&si, &m), 0);
		pthread_join(t, NULL);
		assert_int_equal(x.rc, 0);
	}
	assert_int_equal(m.type, RPERF_CTRL_PARAMS);
	assert_int_equal(
		strlen(json_string_value(json_object_get(m.payload, "blob"))),
		big);
	rperf_ctrl_msg_release(&m);
	json_decref(o);
	free(text);
	assert_int_equal(rperf_ctrl_send_io(&si, RPERF_CTRL_BYE, NULL), 0);
	assert_int_equal(rperf_ctrl_recv_io(&ci, &m), 0);
	assert_int_equal(m.type, RPERF_CTRL_BYE);
	rperf_ctrl_msg_release(&m);
}

static void psk_right(void **state)
{
	struct end c = { .fd = -1 }, s = { .fd = -1 };
	char d[96];

	(void)state;
	ctx(&c, psk("the key\n"), false);
	ctx(&s, psk("the key\n"), true);
	pair(&c, &s);
	handshake(&c, &s);
	if (c.rc || s.rc)
		fail_msg("client %d %s; server %d %s", c.rc, c.err, s.rc,
			 s.err);
	rperf_ctrl_tls_describe(c.tls, d, sizeof(d));
	assert_non_null(strstr(d, "TLS 1.3 PSK"));
	exchange(&c, &s, 512 * 1024);
	done(&c);
	done(&s);
}

/* A wrong key either way round: both ends refuse, with EACCES on at least
 * one side and nothing decrypted. */
static void psk_wrong(void **state)
{
	static const char *const keys[][2] = { { "right", "wrong" },
					       { "wrong", "right" } };

	(void)state;
	for (int k = 0; k < 2; k++) {
		struct end c = { .fd = -1 }, s = { .fd = -1 };

		ctx(&c, psk(keys[k][0]), false);
		ctx(&s, psk(keys[k][1]), true);
		pair(&c, &s);
		handshake(&c, &s);
		assert_int_not_equal(c.rc, 0);
		assert_int_not_equal(s.rc, 0);
		assert_true(c.rc == EACCES || s.rc == EACCES);
		assert_non_null(strstr(s.rc == EACCES ? s.err : c.err,
				       "TLS authentication failed"));
		done(&c);
		done(&s);
	}
}

/* A peer that speaks the plain channel: EPROTO or a closed connection. */
static void plain_peer(void **state)
{
	struct end c = { .fd = -1 };
	struct rperf_ctrl_hello h = { RPERF_CTRL_VERSION, "run", 0, { { 0 } } };
	json_t *o = NULL;
	int sv[2];

	(void)state;
	ctx(&c, psk("k"), false);
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	c.fd = sv[0];
	assert_int_equal(rperf_ctrl_tls_new(c.ctx, c.fd, &c.tls), 0);
	assert_int_equal(rperf_ctrl_hello_encode(&h, &o), 0);
	assert_int_equal(rperf_ctrl_send(sv[1], RPERF_CTRL_WELCOME, o, 100), 0);
	json_decref(o);
	c.rc = rperf_ctrl_tls_handshake(c.tls, 1000, NULL, c.err,
					sizeof(c.err));
	assert_int_equal(c.rc, EPROTO);
	assert_non_null(strstr(c.err, "does not speak rperf's TLS"));
	close(sv[1]);
	done(&c);
}

static char dir[64];

/* tests/unit/fixtures/tls/NAME, private keys copied with mode 600. */
static const char *fx(const char *name, char *buf, size_t len)
{
	const char *src = getenv("RPERF_SRC");
	char from[4096], cmd[8400];

	snprintf(from, sizeof(from), "%s/tests/unit/fixtures/tls/%s",
		 src ? src : ".", name);
	if (!strstr(name, ".key")) {
		snprintf(buf, len, "%s", from);
		return buf;
	}
	snprintf(buf, len, "%s/%s", dir, name);
	snprintf(cmd, sizeof(cmd), "cp '%s' '%s' && chmod 600 '%s'", from, buf,
		 buf);
	assert_int_equal(system(cmd), 0);
	return buf;
}

static struct rperf_ctrl_auth certs(const char *who, char (*b)[4096])
{
	char crt[64], key[64];

	snprintf(crt, sizeof(crt), "%s.crt", who);
	snprintf(key, sizeof(key), "%s.key", who);
	return (struct rperf_ctrl_auth){ .cert = fx(crt, b[0], sizeof(b[0])),
					 .key = fx(key, b[1], sizeof(b[1])),
					 .ca = fx("ca.crt", b[2],
						  sizeof(b[2])) };
}

/* Certificates of the CA both ways; a stranger's (another CA) refused by
 * the agent as a client and by the controller as a server. */
static void cert_modes(void **state)
{
	static const char *const who[][2] = { { "controller", "agent" },
					      { "stranger", "agent" },
					      { "controller", "stranger" } };
	char bc[3][4096], bs[3][4096];

	(void)state;
	for (int k = 0; k < 3; k++) {
		struct end c = { .fd = -1 }, s = { .fd = -1 };

		ctx(&c, certs(who[k][0], bc), false);
		ctx(&s, certs(who[k][1], bs), true);
		pair(&c, &s);
		handshake(&c, &s);
		if (k == 0) {
			if (c.rc || s.rc)
				fail_msg("client %d %s; server %d %s", c.rc,
					 c.err, s.rc, s.err);
			exchange(&c, &s, 100);
		} else if (k == 1) {
			/* TLS 1.3: the client is done before the server
			 * checks its certificate; its first read gets the
			 * server's alert */
			struct rperf_ctrl_io ci = io(&c, 1000);
			struct rperf_ctrl_msg m;

			assert_int_equal(s.rc, EACCES);
			assert_int_equal(rperf_ctrl_recv_io(&ci, &m), EACCES);
		} else {
			assert_int_equal(c.rc, EACCES);
			assert_non_null(strstr(c.err, "certificate verify"));
		}
		done(&c);
		done(&s);
	}
}

static void bad_config(void **state)
{
	char b[3][4096], err[256] = "";
	struct rperf_ctrl_tls_ctx *c = NULL;
	struct rperf_ctrl_auth a = certs("agent", b), none = { 0 };

	(void)state;
	chmod(a.key, 0644);
	assert_int_equal(rperf_ctrl_tls_ctx_create(&a, true, &c, err,
						   sizeof(err)),
			 EACCES);
	assert_non_null(strstr(err, "chmod 600"));
	a.ca = NULL;
	assert_int_equal(rperf_ctrl_tls_ctx_create(&a, true, &c, err,
						   sizeof(err)),
			 EINVAL);
	assert_non_null(strstr(err, "missing --ca"));
	a = certs("agent", b);
	a.psk = (const uint8_t *)"k";
	a.psklen = 1;
	assert_int_equal(rperf_ctrl_tls_ctx_create(&a, true, &c, err,
						   sizeof(err)),
			 EINVAL);
	assert_int_equal(rperf_ctrl_tls_ctx_create(&none, true, &c, err,
						   sizeof(err)),
			 EINVAL);
	a = certs("agent", b);
	a.cert = "/dev/null"; /* not a regular file: refused before open */
	assert_int_equal(rperf_ctrl_tls_ctx_create(&a, true, &c, err,
						   sizeof(err)),
			 EACCES);
	assert_true(rperf_ctrl_auth_none(&none));
}

/* A peer that stalls: in the handshake (the deadline), inside a frame (the
 * frame's deadline), and the stop flag. */
static void stalled_peer(void **state)
{
	struct end c = { .fd = -1 }, s = { .fd = -1 };
	static volatile sig_atomic_t stop = 1;
	struct rperf_ctrl_msg m;
	struct rperf_ctrl_io ci;
	double t0;
	int rc;

	(void)state;
	ctx(&c, psk("k"), false);
	ctx(&s, psk("k"), true);
	pair(&c, &s);
	t0 = now_s();
	rc = rperf_ctrl_tls_handshake(c.tls, 200, NULL, c.err, sizeof(c.err));
	assert_int_equal(rc, ETIMEDOUT);
	assert_true(now_s() - t0 >= 0.19 && now_s() - t0 < 0.6);
	assert_non_null(strstr(c.err, "no TLS handshake within 200 ms"));
	assert_int_equal(rperf_ctrl_tls_handshake(c.tls, 200, &stop, c.err,
						  sizeof(c.err)),
			 EINTR);
	done(&c);
	done(&s);
	/* authenticated, then half a frame: the frame's deadline */
	ctx(&c, psk("k"), false);
	ctx(&s, psk("k"), true);
	pair(&c, &s);
	handshake(&c, &s);
	assert_int_equal(c.rc, 0);
	{
		short want;
		uint8_t hdr[RPERF_CTRL_HDR_LEN];
		struct rperf_ctrl_hdr h = { RPERF_CTRL_MAGIC,
					    RPERF_CTRL_VERSION,
					    RPERF_CTRL_REPORT, 100 };

		rperf_ctrl_hdr_pack(&h, hdr);
		assert_int_equal(rperf_ctrl_tls_send(s.tls, hdr, sizeof(hdr),
						     &want),
				 (long)sizeof(hdr));
	}
	ci = io(&c, 200);
	t0 = now_s();
	assert_int_equal(rperf_ctrl_recv_io(&ci, &m), ETIMEDOUT);
	assert_true(now_s() - t0 >= 0.19 && now_s() - t0 < 0.6);
	ci.stop = &stop;
	assert_int_equal(rperf_ctrl_recv_io(&ci, &m), EINTR);
	/* the peer goes away (between frames: that header was consumed) */
	done(&s);
	ci.stop = NULL;
	assert_int_equal(rperf_ctrl_recv_io(&ci, &m), EPIPE);
	done(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(psk_right),  cmocka_unit_test(psk_wrong),
		cmocka_unit_test(plain_peer), cmocka_unit_test(cert_modes),
		cmocka_unit_test(bad_config), cmocka_unit_test(stalled_peer),
	};
	int rc;

	signal(SIGPIPE, SIG_IGN); /* as the CLI: OpenSSL writes with write() */
	snprintf(dir, sizeof(dir), "/tmp/rperf-tls-XXXXXX");
	assert_non_null(mkdtemp(dir));
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	{
		char cmd[128];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		(void)!system(cmd);
	}
	return rc;
}
