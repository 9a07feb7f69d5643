/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Controller side of one agent connection (private to src/run): connecting
 * to every agent at once, and reading frames without blocking so that one
 * poll() loop can serve all agents (a slow or silent agent never holds the
 * others up).
 */
#ifndef RPERF_RUN_CONN_H
#define RPERF_RUN_CONN_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ctrl/ctrl.h"

struct run_conn {
	int fd; /* -1 when closed */
	uint8_t *frame; /* header + payload being assembled */
	size_t need; /* bytes of the whole frame (header only: 12) */
	size_t got;
};

void run_conn_init(struct run_conn *c);
void run_conn_close(struct run_conn *c);

/*
 * Read what the socket has (never blocks). *have = true with @out filled
 * when a whole frame arrived (one at a time: call again while the socket
 * stays readable). Returns 0, EPIPE (closed cleanly between frames),
 * ECONNRESET (closed inside a frame, or reset), EBADMSG/EPROTONOSUPPORT/
 * EMSGSIZE (bad header or payload), ENOMEM, or the recv errno.
 */
int run_conn_read(struct run_conn *c, struct rperf_ctrl_msg *out, bool *have);

/* One host to connect to; the result lands in fd/rc. */
struct run_dial {
	const char *addr;
	uint16_t port;
	uint64_t timeout_ns;
	const volatile sig_atomic_t *stop;
	int fd; /* out: -1 on failure */
	int rc; /* out */
};

/* Connect to every @d[i] in parallel (one thread each; each bounded by its
 * timeout). 0, or ENOMEM / the pthread error when threads cannot start. */
int run_dial_all(struct run_dial *d, size_t n);

/* A person's message for a failed dial: "cannot resolve NAME", ... */
void run_dial_why(const struct run_dial *d, char *buf, size_t len);

/* The peer address of connected socket @fd into @ss and, as people write
 * it (a v4-mapped IPv6 address as IPv4), into @buf. 0 or errno. */
struct sockaddr_storage;
int run_peer_addr(int fd, struct sockaddr_storage *ss, char *buf, size_t len);

/* Monotonic clock in ns. */
uint64_t run_now_ns(void);

#endif
