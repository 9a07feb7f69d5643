// SPDX-License-Identifier: BSD-2-Clause
/*
 * The server loop with TLS (`rperf agent` with a key), over loopback: the
 * handshake pool. 64 idle connections, stalled partial ClientHellos and a
 * plain HELLO held open from the same address as the real controller do
 * not count against --max-conns, never reach the owner, are evicted oldest
 * first (at most 8 per address) and do not delay the authenticated client
 * (admitted within 1 s: in practice a few ms); the handshake deadline
 * closes a staller; a plain HELLO gets a plain REFUSE saying TLS is
 * required.
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "ctrl/ctrl.h"
#include "ctrl/ctrl_tls.h"
#include "serve/serve.h"

static const struct rperf_ctrl_auth key = { .psk = (const uint8_t *)"k3y",
					    .psklen = 3 };

struct owner {
	int nadmitted;
	int fd;
	struct rperf_ctrl_tls *tls;
};

static enum rperf_serve_verdict
admit_tls(void *arg, int fd, struct rperf_ctrl_tls *tls, const char *peer,
	  const struct rperf_ctrl_msg *hello, char *reason, size_t len)
{
	struct owner *o = arg;

	(void)peer;
	(void)hello;
	(void)reason;
	(void)len;
	o->nadmitted++;
	o->fd = fd;
	o->tls = tls;
	return RPERF_SERVE_ADMIT;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int dial(uint16_t port)
{
	int fd = -1;

	assert_int_equal(rperf_ctrl_connect("127.0.0.1", port, NULL,
					    1000000000ull, &fd),
			 0);
	return fd;
}

/* The authenticated controller, on a thread while the loop runs. */
struct ctl {
	uint16_t port;
	struct rperf_ctrl_tls_ctx *ctx;
	double t0, t_hs; /* connect; handshake done */
	int rc;
	char err[256];
};

static void *ctl_main(void *arg)
{
	struct ctl *c = arg;
	struct rperf_ctrl_hello h = { RPERF_CTRL_VERSION, "run", 0, { { 0 } } };
	struct rperf_ctrl_tls *t = NULL;
	json_t *o = NULL;
	int fd;

	c->t0 = now_s();
	fd = dial(c->port);
	c->rc = rperf_ctrl_tls_new(c->ctx, fd, &t);
	if (!c->rc)
		c->rc = rperf_ctrl_tls_handshake(t, 5000, NULL, c->err,
						 sizeof(c->err));
	c->t_hs = now_s();
	if (!c->rc) {
		struct rperf_ctrl_io io = { .fd = fd,
					    .timeout_ms = 2000,
					    .tls = t };

		rperf_ctrl_hello_encode(&h, &o);
		c->rc = rperf_ctrl_send_io(&io, RPERF_CTRL_HELLO, o);
		json_decref(o);
	}
	usleep(300000); /* until the loop has admitted us */
	rperf_ctrl_tls_free(t);
	close(fd);
	return NULL;
}

/* A TLS loop (server PSK) on 127.0.0.1: *port, *sctx (free it after). */
static struct rperf_serve *tls_loop(struct owner *own, int handshake_ms,
				    struct rperf_ctrl_tls_ctx **sctx,
				    uint16_t *port)
{
	struct rperf_serve_cfg cfg = { .max_conns = 4,
				       .handshake_ms = handshake_ms,
				       .what = "rperf agent",
				       .owner = { .admit_tls = admit_tls,
						  .arg = own } };
	struct rperf_serve *l = NULL;
	char err[256];

	assert_int_equal(rperf_ctrl_tls_ctx_create(&key, true, sctx, err,
						   sizeof(err)),
			 0);
	cfg.tls = *sctx;
	assert_int_equal(rperf_ctrl_listen("127.0.0.1", 0, &cfg.lfd), 0);
	assert_int_equal(rperf_ctrl_local_port(cfg.lfd, port), 0);
	assert_int_equal(rperf_serve_create(&cfg, &l, err, sizeof(err)), 0);
	return l;
}

/* A plain HELLO on @fd. */
static void plain_hello(int fd)
{
	struct rperf_ctrl_hello h = { RPERF_CTRL_VERSION, "run", 0, { { 0 } } };
	json_t *o = NULL;

	assert_int_equal(rperf_ctrl_hello_encode(&h, &o), 0);
	assert_int_equal(rperf_ctrl_send(fd, RPERF_CTRL_HELLO, o, 100), 0);
	json_decref(o);
}

static void strangers_do_not_delay(void **state)
{
	struct owner own = { .fd = -1 };
	struct rperf_ctrl_tls_ctx *sctx = NULL;
	struct rperf_serve_stats st;
	struct rperf_serve *l;
	struct ctl c = { 0 };
	int idle[64], stall[4], plain;
	char err[256];
	uint16_t port;
	pthread_t t;
	double admitted = 0;

	(void)state;
	l = tls_loop(&own, 3000, &sctx, &port);
	assert_int_equal(rperf_ctrl_tls_ctx_create(&key, false, &c.ctx, err,
						   sizeof(err)),
			 0);
	/* strangers: 64 idle, 4 partial ClientHellos, a plain HELLO */
	for (int i = 0; i < 64; i++) {
		idle[i] = dial(port);
		assert_int_equal(rperf_serve_step(l, 0, err, sizeof(err)), 0);
	}
	for (int i = 0; i < 4; i++) {
		static const uint8_t part[] = { 0x16, 0x03, 0x01, 0x02, 0x00,
						0x01, 0x00, 0x01, 0xfc };

		stall[i] = dial(port);
		assert_int_equal(send(stall[i], part, sizeof(part), 0),
				 (ssize_t)sizeof(part));
	}
	plain = dial(port);
	{
		struct rperf_ctrl_hello h = {
			RPERF_CTRL_VERSION, "run", 0, { { 0 } }
		};
		json_t *o = NULL;

		rperf_ctrl_hello_encode(&h, &o);
		assert_int_equal(
			rperf_ctrl_send(plain, RPERF_CTRL_HELLO, o, 100), 0);
		json_decref(o);
	}
	for (int i = 0; i < 10; i++)
		assert_int_equal(rperf_serve_step(l, 10, err, sizeof(err)), 0);
	rperf_serve_get_stats(l, &st);
	assert_true(st.handshakes <= RPERF_SERVE_MAX_HANDSHAKES_PER_SOURCE);
	assert_true(st.evicted >= 64 + 4 + 1 - 8);
	assert_int_equal(own.nadmitted, 0);
	/* the real controller meanwhile */
	c.port = port;
	assert_int_equal(pthread_create(&t, NULL, ctl_main, &c), 0);
	for (int i = 0; i < 200 && !own.nadmitted; i++)
		assert_int_equal(rperf_serve_step(l, 10, err, sizeof(err)), 0);
	admitted = now_s();
	pthread_join(t, NULL);
	if (c.rc)
		fail_msg("controller: %s (%d)", c.err, c.rc);
	assert_int_equal(own.nadmitted, 1);
	print_message(
		"authenticated controller admitted %.1f ms after its connect (TLS handshake %.1f ms) with 69 strangers around\n",
		(admitted - c.t0) * 1e3, (c.t_hs - c.t0) * 1e3);
	assert_true(admitted - c.t0 < 1.0);
	rperf_serve_get_stats(l, &st);
	assert_true(st.open <= 1); /* strangers never held --max-conns */
	assert_int_equal(st.admitted, 1);
	rperf_ctrl_tls_free(own.tls);
	close(own.fd);
	for (int i = 0; i < 64; i++)
		close(idle[i]);
	for (int i = 0; i < 4; i++)
		close(stall[i]);
	close(plain);
	rperf_serve_destroy(l);
	rperf_ctrl_tls_ctx_free(sctx);
	rperf_ctrl_tls_ctx_free(c.ctx);
}

/* A lone staller: closed at the handshake deadline; a plain HELLO: REFUSE
 * "requires TLS" in plain words. */
static void deadline_and_plain(void **state)
{
	struct owner own = { .fd = -1 };
	struct rperf_ctrl_tls_ctx *sctx = NULL;
	struct rperf_serve_stats st;
	struct rperf_serve *l;
	struct rperf_ctrl_msg m;
	char err[256], r[RPERF_CTRL_REASON_LEN];
	uint16_t port;
	int fd, plain;
	double t0;

	(void)state;
	l = tls_loop(&own, 200, &sctx, &port);
	fd = dial(port);
	plain = dial(port);
	plain_hello(plain);
	t0 = now_s();
	for (int i = 0; i < 40; i++)
		assert_int_equal(rperf_serve_step(l, 10, err, sizeof(err)), 0);
	assert_int_equal(rperf_ctrl_recv(plain, 1000, &m), 0);
	assert_int_equal(m.type, RPERF_CTRL_REFUSE);
	assert_int_equal(rperf_ctrl_reason_decode(&m, r, sizeof(r)), 0);
	assert_non_null(strstr(r, "requires TLS"));
	rperf_ctrl_msg_release(&m);
	rperf_serve_get_stats(l, &st);
	assert_true(now_s() - t0 >= 0.2);
	assert_int_equal(st.dropped, 1); /* the staller, at its deadline */
	assert_int_equal(rperf_ctrl_recv(fd, 100, &m), EPIPE);
	assert_int_equal(own.nadmitted, 0);
	close(fd);
	close(plain);
	rperf_serve_destroy(l);
	rperf_ctrl_tls_ctx_free(sctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(strangers_do_not_delay),
		cmocka_unit_test(deadline_and_plain),
	};

	signal(SIGPIPE, SIG_IGN); /* as the CLI: OpenSSL writes with write() */
	return cmocka_run_group_tests(tests, NULL, NULL);
}
