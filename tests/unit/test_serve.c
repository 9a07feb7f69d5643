// SPDX-License-Identifier: BSD-2-Clause
/*
 * Unit tests of the server loop (src/serve) with a fake owner over loopback
 * TCP: idle, half-frame and slow connections never delay a HELLO; the
 * handshake deadline; busy refusals in words; the connection cap; a wrong
 * protocol version, another first message, an oversized HELLO and
 * perftest's bytes; the busy text and perftest's recogniser themselves.
 */
#include <errno.h>
#include <poll.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cmocka.h>

#include "serve/serve.h"

struct fake {
	int admitted_fd[8];
	int nadmitted;
	bool busy;
	char log[16][256];
	int nlog;
};

static enum rperf_serve_verdict f_admit(void *arg, int fd, const char *peer,
					const struct rperf_ctrl_msg *hello,
					char *reason, size_t len)
{
	struct fake *f = arg;

	(void)hello;
	if (f->busy) {
		rperf_serve_busy_text(peer, 0, 7, reason, len);
		return RPERF_SERVE_REFUSE;
	}
	f->admitted_fd[f->nadmitted++] = fd;
	return RPERF_SERVE_ADMIT;
}

static void f_log(void *arg, const char *peer, const char *line)
{
	struct fake *f = arg;

	(void)peer;
	snprintf(f->log[f->nlog % 16], sizeof(f->log[0]), "%s", line);
	f->nlog++;
}

static struct rperf_serve *loop(struct fake *f, unsigned int max_conns,
				int handshake_ms, uint16_t *port)
{
	char what[32] = "rperf lat server";
	struct rperf_serve_cfg c = { .max_conns = max_conns,
				     .handshake_ms = handshake_ms,
				     .what = what,
				     .owner = { .admit = f_admit, .arg = f },
				     .log = f_log,
				     .log_arg = f };
	struct rperf_serve *l = NULL;
	char err[256];

	memset(f, 0, sizeof(*f));
	assert_int_equal(rperf_ctrl_listen("127.0.0.1", 0, &c.lfd), 0);
	assert_int_equal(rperf_ctrl_local_port(c.lfd, port), 0);
	assert_int_equal(rperf_serve_create(&c, &l, err, sizeof(err)), 0);
	/* the loop keeps its own copy: the caller's string may go away */
	memset(what, 'X', sizeof(what) - 1);
	return l;
}

static void steps(struct rperf_serve *l, int n)
{
	char err[128];

	for (int i = 0; i < n; i++)
		assert_int_equal(rperf_serve_step(l, 20, err, sizeof(err)), 0);
}

static int dial(uint16_t port)
{
	int fd = -1;

	assert_int_equal(rperf_ctrl_connect("127.0.0.1", port, NULL,
					    1000000000ull, &fd),
			 0);
	return fd;
}

static void raw(int fd, const void *b, size_t n)
{
	assert_int_equal(send(fd, b, n, MSG_NOSIGNAL), (ssize_t)n);
}

static void hello(int fd)
{
	struct rperf_ctrl_hello h = { RPERF_CTRL_VERSION, "lat", 0, { { 0 } } };
	json_t *o = NULL;

	assert_int_equal(rperf_ctrl_hello_encode(&h, &o), 0);
	assert_int_equal(rperf_ctrl_send(fd, RPERF_CTRL_HELLO, o, 1000), 0);
	json_decref(o);
}

/* The REFUSE the loop sent on @fd: its reason must hold @part; then EOF. */
static void refused(struct rperf_serve *l, int fd, const char *part)
{
	struct rperf_ctrl_msg m;
	char r[RPERF_CTRL_REASON_LEN];

	steps(l, 2);
	assert_int_equal(rperf_ctrl_recv(fd, 1000, &m), 0);
	assert_int_equal(m.type, RPERF_CTRL_REFUSE);
	assert_int_equal(rperf_ctrl_reason_decode(&m, r, sizeof(r)), 0);
	rperf_ctrl_msg_release(&m);
	if (!strstr(r, part))
		fail_msg("reason '%s' lacks '%s'", r, part);
	assert_int_equal(rperf_ctrl_recv(fd, 1000, &m), EPIPE);
	close(fd);
}

static void test_idle_half_slow(void **state)
{
	static const uint8_t half[] = { 'R', 'P', 'F', 'R', 0, 1 };
	struct rperf_serve_stats st;
	struct fake f;
	uint16_t port;
	struct rperf_serve *l = loop(&f, 8, 5000, &port);
	int idle = dial(port), part = dial(port), slow = dial(port), ok;

	(void)state;
	raw(part, half, sizeof(half));
	raw(slow, "R", 1);
	steps(l, 3);
	rperf_serve_get_stats(l, &st);
	assert_int_equal(st.open, 3);
	/* a real client meanwhile is admitted at once */
	ok = dial(port);
	hello(ok);
	steps(l, 3);
	assert_int_equal(f.nadmitted, 1);
	rperf_serve_get_stats(l, &st);
	assert_int_equal(st.open, 3);
	assert_int_equal(st.admitted, 1);
	/* the slow one completes its HELLO byte by byte: admitted too */
	{
		struct rperf_ctrl_hello h = {
			RPERF_CTRL_VERSION, "lat", 0, { { 0 } }
		};
		uint8_t *buf;
		size_t len;
		json_t *o = NULL;

		assert_int_equal(rperf_ctrl_hello_encode(&h, &o), 0);
		assert_int_equal(
			rperf_ctrl_encode(RPERF_CTRL_HELLO, o, &buf, &len), 0);
		json_decref(o);
		for (size_t i = 1; i < len; i++) {
			raw(slow, buf + i, 1);
			steps(l, 1);
		}
		free(buf);
	}
	assert_int_equal(f.nadmitted, 2);
	/* the idle and half ones go away: their slots come back */
	close(idle);
	close(part);
	steps(l, 2);
	rperf_serve_get_stats(l, &st);
	assert_int_equal(st.open, 0);
	assert_int_equal(st.dropped, 2);
	close(ok);
	close(slow);
	close(f.admitted_fd[0]);
	close(f.admitted_fd[1]);
	rperf_serve_destroy(l);
}

static void test_deadline(void **state)
{
	struct rperf_serve_stats st;
	struct fake f;
	uint16_t port;
	struct rperf_serve *l = loop(&f, 4, 100, &port);
	int fd = dial(port);

	(void)state;
	steps(l, 1);
	usleep(120000);
	refused(l, fd, "no whole HELLO within 100 ms");
	rperf_serve_get_stats(l, &st);
	assert_int_equal(st.open, 0);
	assert_int_equal(f.nadmitted, 0);
	rperf_serve_destroy(l);
}

static void test_busy(void **state)
{
	struct fake f;
	uint16_t port;
	struct rperf_serve *l = loop(&f, 4, 1000, &port);
	int fd = dial(port);

	(void)state;
	f.busy = true;
	hello(fd);
	refused(l, fd,
		"busy: running a test for 127.0.0.1:"); /* the fake's peer */
	assert_string_equal(
		f.log[0] + strlen(f.log[0]) -
			strlen("since 1970-01-01 00:00:00 UTC (7 s left)"),
		"since 1970-01-01 00:00:00 UTC (7 s left)");
	rperf_serve_destroy(l);
}

/* ulimit -n below --max-conns: poll() would refuse the table (EINVAL);
 * the loop holds fewer connections, says so, and keeps serving. */
static void test_nofile(void **state)
{
	struct rlimit old, low;
	struct rperf_serve *l;
	struct fake f;
	uint16_t port;
	int fd;

	(void)state;
	assert_int_equal(getrlimit(RLIMIT_NOFILE, &old), 0);
	low = old;
	low.rlim_cur = 48;
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &low), 0);
	l = loop(&f, 64, 3000, &port);
	assert_true(f.nlog >= 1);
	assert_non_null(strstr(f.log[0], "--max-conns 64 lowered to"));
	fd = dial(port);
	hello(fd);
	steps(l, 3);
	assert_int_equal(f.nadmitted, 1);
	close(fd);
	close(f.admitted_fd[0]);
	rperf_serve_destroy(l);
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &old), 0);
}

static void test_cap(void **state)
{
	struct rperf_serve_stats st;
	struct fake f;
	uint16_t port;
	struct rperf_serve *l = loop(&f, 2, 5000, &port);
	int a = dial(port), b = dial(port), c;

	(void)state;
	steps(l, 2);
	c = dial(port);
	refused(l, c,
		"too many connections: 2 held open already (--max-conns 2)");
	rperf_serve_get_stats(l, &st);
	assert_int_equal(st.open, 2);
	close(a);
	steps(l, 2);
	c = dial(port); /* a slot again */
	hello(c);
	steps(l, 2);
	assert_int_equal(f.nadmitted, 1);
	close(b);
	close(c);
	close(f.admitted_fd[0]);
	rperf_serve_destroy(l);
}

static void test_bad_first_frames(void **state)
{
	struct rperf_ctrl_hdr h = { RPERF_CTRL_MAGIC, 2, RPERF_CTRL_HELLO, 2 };
	uint8_t b[RPERF_CTRL_HDR_LEN + 3];
	struct fake f;
	uint16_t port;
	struct rperf_serve *l = loop(&f, 4, 1000, &port);
	int fd = dial(port);

	(void)state;
	rperf_ctrl_hdr_pack(&h, b);
	memcpy(b + RPERF_CTRL_HDR_LEN, "{}", 2);
	raw(fd, b, RPERF_CTRL_HDR_LEN + 2);
	refused(l, fd, "protocol version 2, this rperf lat server speaks 1");
	fd = dial(port);
	assert_int_equal(rperf_ctrl_send(fd, RPERF_CTRL_PARAMS, NULL, 1000), 0);
	refused(l, fd, "the first message must be HELLO, got PARAMS");
	fd = dial(port);
	h = (struct rperf_ctrl_hdr){ RPERF_CTRL_MAGIC, RPERF_CTRL_VERSION,
				     RPERF_CTRL_HELLO, 100000 };
	rperf_ctrl_hdr_pack(&h, b);
	raw(fd, b, RPERF_CTRL_HDR_LEN);
	refused(l, fd, "a HELLO of 100000 bytes is over the 4096-byte limit");
	fd = dial(port);
	h.length = 3;
	rperf_ctrl_hdr_pack(&h, b);
	memcpy(b + RPERF_CTRL_HDR_LEN, "{x}", 3);
	raw(fd, b, RPERF_CTRL_HDR_LEN + 3);
	refused(l, fd, "malformed HELLO");
	/* perftest's client: its version string; closed, named in the log */
	fd = dial(port);
	raw(fd, "6.21\0\0\0\0\0\0\0\0\0\0\0\0", 16);
	steps(l, 2);
	assert_non_null(strstr(f.log[(f.nlog - 2) % 16],
			       "the peer speaks perftest's protocol (6.21)"));
	{
		struct rperf_ctrl_msg m;

		assert_int_equal(rperf_ctrl_recv(fd, 1000, &m), EPIPE);
	}
	close(fd);
	assert_int_equal(f.nadmitted, 0);
	rperf_serve_destroy(l);
}

static void test_texts(void **state)
{
	char b[256];

	(void)state;
	rperf_serve_busy_text("10.0.0.2:5000", 86400, 12, b, sizeof(b));
	assert_string_equal(
		b,
		"busy: running a test for 10.0.0.2:5000 since 1970-01-02 00:00:00 UTC (12 s left)");
	rperf_serve_busy_text("h", 0, RPERF_SERVE_LEFT_ITERS, b, sizeof(b));
	assert_non_null(strstr(b, "(an iteration-count run: no planned end)"));
	rperf_serve_busy_text("h", 0, RPERF_SERVE_LEFT_UNKNOWN, b, sizeof(b));
	assert_non_null(strstr(b, "(setting up: its length is not known yet)"));
	rperf_serve_busy_text("h", 0, RPERF_SERVE_LEFT_ENDLESS, b, sizeof(b));
	assert_non_null(
		strstr(b, "(an endless run: until its client stops it)"));
	assert_int_equal(rperf_serve_left_s(0, 5), RPERF_SERVE_LEFT_UNKNOWN);
	assert_int_equal(rperf_serve_left_s(3000000001ull, 1), 3);
	assert_int_equal(rperf_serve_left_s(5, 10), 0);
	/* perftest's first bytes, and things that are not */
	assert_true(rperf_ctrl_perftest_peer(
		(const uint8_t *)"6.10\0\0\0\0\0\0\0\0", 12, b, sizeof(b)));
	assert_string_equal(
		b, "the peer speaks perftest's protocol (6.10), not rperf's");
	assert_true(rperf_ctrl_perftest_peer(
		(const uint8_t *)"0000:0001:000123", 16, NULL, 0));
	assert_false(rperf_ctrl_perftest_peer((const uint8_t *)"RPFR\0\1\0\1",
					      8, NULL, 0));
	assert_false(rperf_ctrl_perftest_peer((const uint8_t *)"6.1x\0\0", 6,
					      NULL, 0));
	assert_false(rperf_ctrl_perftest_peer((const uint8_t *)"61.\0\0\0", 6,
					      NULL, 0));
	assert_false(rperf_ctrl_perftest_peer((const uint8_t *)"GET / HTTP", 10,
					      NULL, 0));
	assert_false(rperf_ctrl_perftest_peer((const uint8_t *)"\0\0\0\0", 4,
					      NULL, 0));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_idle_half_slow),
		cmocka_unit_test(test_deadline),
		cmocka_unit_test(test_busy),
		cmocka_unit_test(test_cap),
		cmocka_unit_test(test_nofile),
		cmocka_unit_test(test_bad_first_frames),
		cmocka_unit_test(test_texts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
