// SPDX-License-Identifier: BSD-2-Clause
/*
 * Unit tests of the control channel over real sockets: send/recv round trips
 * on a socketpair (large frames, session wrappers), timeouts, EOF at and
 * inside a frame, header rejection before the payload, the stop flag, no
 * SIGPIPE; listen/accept/connect on 127.0.0.1 with ephemeral ports, connect
 * retries (refused, then a late listener).
 */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "ctrl/ctrl.h"

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static void pair(int sv[2])
{
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
}

static void put(int fd, const void *p, size_t n)
{
	assert_int_equal(write(fd, p, n), (ssize_t)n);
}

static void put_hdr(int fd, uint32_t magic, uint16_t version, uint16_t type,
		    uint32_t length)
{
	struct rperf_ctrl_hdr h = { magic, version, type, length };
	uint8_t b[RPERF_CTRL_HDR_LEN];

	rperf_ctrl_hdr_pack(&h, b);
	put(fd, b, sizeof(b));
}

static void test_roundtrip(void **state)
{
	json_t *big = json_object(), *small = json_pack("{s:i}", "size", 64);
	struct rperf_ctrl_msg m;
	char *blob = malloc(900000);
	int sv[2], status;
	pid_t pid;

	(void)state;
	memset(blob, 'x', 899999);
	blob[899999] = '\0';
	json_object_set_new(big, "blob", json_string(blob));
	pair(sv);
	pid = fork(); /* the frame is larger than the socket buffer */
	assert_true(pid >= 0);
	if (pid == 0) {
		close(sv[0]);
		_exit(rperf_ctrl_send(sv[1], RPERF_CTRL_PARAMS, small, 1000) ||
		      rperf_ctrl_send(sv[1], RPERF_CTRL_RESULT, big, 5000) ||
		      rperf_ctrl_send(sv[1], RPERF_CTRL_BYE, NULL, 1000));
	}
	close(sv[1]);
	assert_int_equal(rperf_ctrl_recv(sv[0], 5000, &m), 0);
	assert_int_equal(m.type, RPERF_CTRL_PARAMS);
	assert_true(json_equal(m.payload, small));
	rperf_ctrl_msg_release(&m);
	assert_int_equal(rperf_ctrl_recv(sv[0], 5000, &m), 0);
	assert_int_equal(m.type, RPERF_CTRL_RESULT);
	assert_true(json_equal(m.payload, big));
	rperf_ctrl_msg_release(&m);
	assert_int_equal(rperf_ctrl_recv(sv[0], 5000, &m), 0);
	assert_int_equal(m.type, RPERF_CTRL_BYE);
	assert_int_equal(json_object_size(m.payload), 0);
	rperf_ctrl_msg_release(&m);
	/* Clean close at a frame boundary. */
	assert_int_equal(rperf_ctrl_recv(sv[0], 5000, &m), EPIPE);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	close(sv[0]);
	json_decref(big);
	json_decref(small);
	free(blob);
}

static void test_timeouts(void **state)
{
	struct rperf_ctrl_msg m;
	json_t *big = json_object();
	char *blob = malloc(RPERF_CTRL_MAX_PAYLOAD - 100);
	uint64_t t0;
	int sv[2];

	(void)state;
	pair(sv);
	t0 = now_ms();
	assert_int_equal(rperf_ctrl_recv(sv[0], 150, &m), ETIMEDOUT);
	assert_in_range(now_ms() - t0, 140, 1000);
	assert_int_equal(rperf_ctrl_recv(sv[0], 0, &m), ETIMEDOUT);
	/* The timeout bounds the whole frame: a header alone is not enough. */
	put_hdr(sv[1], RPERF_CTRL_MAGIC, 1, RPERF_CTRL_BYE, 2);
	t0 = now_ms();
	assert_int_equal(rperf_ctrl_recv(sv[0], 150, &m), ETIMEDOUT);
	assert_in_range(now_ms() - t0, 140, 1000);
	/* Nobody reads: the send times out too. */
	memset(blob, 'y', RPERF_CTRL_MAX_PAYLOAD - 101);
	blob[RPERF_CTRL_MAX_PAYLOAD - 101] = '\0';
	json_object_set_new(big, "b", json_string(blob));
	t0 = now_ms();
	assert_int_equal(rperf_ctrl_send(sv[1], RPERF_CTRL_RESULT, big, 150),
			 ETIMEDOUT);
	assert_in_range(now_ms() - t0, 140, 1000);
	/* Too big to send at all. */
	json_object_set_new(big, "c", json_string(blob));
	assert_int_equal(rperf_ctrl_send(sv[1], RPERF_CTRL_RESULT, big, 150),
			 EMSGSIZE);
	close(sv[0]);
	close(sv[1]);
	json_decref(big);
	free(blob);
}

static void test_eof_and_bad_headers(void **state)
{
	struct rperf_ctrl_msg m;
	int sv[2];

	(void)state;
	pair(sv); /* EOF inside the header */
	put(sv[1], "RPFR\0", 5);
	close(sv[1]);
	assert_int_equal(rperf_ctrl_recv(sv[0], 1000, &m), ECONNRESET);
	close(sv[0]);
	pair(sv); /* EOF inside the payload */
	put_hdr(sv[1], RPERF_CTRL_MAGIC, 1, RPERF_CTRL_BYE, 2);
	put(sv[1], "{", 1);
	close(sv[1]);
	assert_int_equal(rperf_ctrl_recv(sv[0], 1000, &m), ECONNRESET);
	close(sv[0]);

	pair(sv); /* header checks come before reading the payload */
	put_hdr(sv[1], 0x48545450, 1, RPERF_CTRL_BYE, 2);
	assert_int_equal(rperf_ctrl_recv(sv[0], 1000, &m), EBADMSG);
	put_hdr(sv[1], RPERF_CTRL_MAGIC, 7, RPERF_CTRL_HELLO, 2);
	assert_int_equal(rperf_ctrl_recv(sv[0], 1000, &m), EPROTONOSUPPORT);
	assert_int_equal(m.version, 7);
	assert_int_equal(m.type, RPERF_CTRL_HELLO);
	put_hdr(sv[1], RPERF_CTRL_MAGIC, 1, 99, 2);
	assert_int_equal(rperf_ctrl_recv(sv[0], 1000, &m), EBADMSG);
	put_hdr(sv[1], RPERF_CTRL_MAGIC, 1, RPERF_CTRL_BYE, 1u << 30);
	assert_int_equal(rperf_ctrl_recv(sv[0], 1000, &m), EMSGSIZE);
	put_hdr(sv[1], RPERF_CTRL_MAGIC, 1, RPERF_CTRL_BYE, 2);
	put(sv[1], "[]", 2);
	assert_int_equal(rperf_ctrl_recv(sv[0], 1000, &m), EBADMSG);
	assert_null(m.payload);
	/* No SIGPIPE when the peer is gone (the test would die). */
	close(sv[0]);
	assert_int_equal(rperf_ctrl_send(sv[1], RPERF_CTRL_BYE, NULL, 100),
			 EPIPE);
	close(sv[1]);
}

static volatile sig_atomic_t stop_flag;

static void on_alarm(int sig)
{
	(void)sig;
	stop_flag = 1;
}

static void test_stop_flag(void **state)
{
	struct sigaction sa = { .sa_handler = on_alarm }, old;
	struct itimerval it = { .it_value = { 0, 100000 } };
	struct rperf_ctrl_msg m;
	struct rperf_ctrl_io io = { .timeout_ms = 5000, .stop = &stop_flag };
	uint64_t t0;
	int sv[2], fd = -1;

	(void)state;
	pair(sv);
	io.fd = sv[0];
	stop_flag = 1;
	assert_int_equal(rperf_ctrl_recv_io(&io, &m), EINTR);
	stop_flag = 0;
	/* A handler that only sets the flag, as rperf's does (SA_RESTART). */
	sa.sa_flags = SA_RESTART;
	assert_int_equal(sigaction(SIGALRM, &sa, &old), 0);
	assert_int_equal(setitimer(ITIMER_REAL, &it, NULL), 0);
	t0 = now_ms();
	assert_int_equal(rperf_ctrl_recv_io(&io, &m), EINTR);
	assert_in_range(now_ms() - t0, 90, 1000);
	stop_flag = 0;
	assert_int_equal(setitimer(ITIMER_REAL, &it, NULL), 0);
	t0 = now_ms();
	assert_int_equal(rperf_ctrl_accept_ex(sv[0], 5000, &stop_flag, &fd,
					      NULL, 0),
			 EINTR);
	assert_in_range(now_ms() - t0, 90, 1000);
	assert_int_equal(sigaction(SIGALRM, &old, NULL), 0);
	close(sv[0]);
	close(sv[1]);
}

/* A port nobody listens on (bound then closed). */
static uint16_t free_port(void)
{
	uint16_t port = 0;
	int fd;

	assert_int_equal(rperf_ctrl_listen("127.0.0.1", 0, &fd), 0);
	assert_int_equal(rperf_ctrl_local_port(fd, &port), 0);
	assert_int_not_equal(port, 0);
	close(fd);
	return port;
}

static void exchange(int a, int b)
{
	struct rperf_ctrl_msg m;

	assert_int_equal(rperf_ctrl_send(a, RPERF_CTRL_HELLO, NULL, 1000), 0);
	assert_int_equal(rperf_ctrl_recv(b, 1000, &m), 0);
	assert_int_equal(m.type, RPERF_CTRL_HELLO);
	rperf_ctrl_msg_release(&m);
}

static void test_listen_connect(void **state)
{
	const char *binds[] = { "127.0.0.1", NULL };
	char peer[64];
	uint16_t port;
	size_t i;
	int lfd, cfd, sfd;

	(void)state;
	for (i = 0; i < 2; i++) {
		assert_int_equal(rperf_ctrl_listen(binds[i], 0, &lfd), 0);
		assert_int_equal(rperf_ctrl_local_port(lfd, &port), 0);
		assert_int_not_equal(port, 0);
		assert_int_equal(rperf_ctrl_connect("127.0.0.1", port,
						    "127.0.0.1", 1000000000u,
						    &cfd),
				 0);
		assert_int_equal(rperf_ctrl_accept(lfd, 1000, &sfd, peer,
						   sizeof(peer)),
				 0);
		assert_memory_equal(peer, "127.0.0.1:", 10);
		exchange(cfd, sfd);
		exchange(sfd, cfd);
		close(cfd);
		close(sfd);
		/* Nobody else: accept times out. */
		assert_int_equal(rperf_ctrl_accept(lfd, 100, &sfd, NULL, 0),
				 ETIMEDOUT);
		close(lfd);
	}
	/* SO_REUSEADDR: the port can be listened on again at once. */
	assert_int_equal(rperf_ctrl_listen("127.0.0.1", port, &lfd), 0);
	close(lfd);
	assert_int_equal(rperf_ctrl_listen("127.0.0.1", 0, NULL), EINVAL);
}

static void test_connect_refused(void **state)
{
	uint16_t port = free_port();
	uint64_t t0 = now_ms();
	int fd;

	(void)state;
	assert_int_equal(rperf_ctrl_connect("127.0.0.1", port, NULL, 300000000u,
					    &fd),
			 ECONNREFUSED);
	/* It kept trying until the timeout, and not much longer. */
	assert_in_range(now_ms() - t0, 280, 1000);
	t0 = now_ms();
	assert_int_equal(rperf_ctrl_connect("127.0.0.1", port, NULL, 0, &fd),
			 ECONNREFUSED);
	assert_in_range(now_ms() - t0, 0, 100);
}

/* The server starts listening 300 ms after the client began connecting. */
static void test_connect_late_listener(void **state)
{
	uint16_t port = free_port();
	struct rperf_ctrl_msg m;
	int fd, status;
	pid_t pid;

	(void)state;
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int lfd, sfd;

		usleep(300000);
		if (rperf_ctrl_listen("127.0.0.1", port, &lfd) ||
		    rperf_ctrl_accept(lfd, 5000, &sfd, NULL, 0))
			_exit(1);
		_exit(rperf_ctrl_send(sfd, RPERF_CTRL_WELCOME, NULL, 1000) ? 2 :
									     0);
	}
	assert_int_equal(rperf_ctrl_connect("localhost", port, NULL,
					    5000000000u, &fd),
			 0);
	assert_int_equal(rperf_ctrl_recv(fd, 5000, &m), 0);
	assert_int_equal(m.type, RPERF_CTRL_WELCOME);
	rperf_ctrl_msg_release(&m);
	close(fd);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_timeouts),
		cmocka_unit_test(test_eof_and_bad_headers),
		cmocka_unit_test(test_stop_flag),
		cmocka_unit_test(test_listen_connect),
		cmocka_unit_test(test_connect_refused),
		cmocka_unit_test(test_connect_late_listener),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
