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
#include "ctrl/ctrl_tls.h"
#include "util/mono.h"

struct run_conn {
	int fd; /* -1 when closed */
	struct rperf_ctrl_tls *tls; /* its TLS session; NULL: --insecure */
	uint8_t *frame; /* header + payload being assembled */
	size_t need; /* bytes of the whole frame (header only: 12) */
	size_t got;
	/* a first frame that is not rperf's but perftest's: its words */
	char perftest[128];
};

void run_conn_init(struct run_conn *c);
void run_conn_close(struct run_conn *c);
/* The frame transport of @c (its TLS session, if any). */
struct rperf_ctrl_io run_conn_io(const struct run_conn *c, int timeout_ms);

/*
 * Read what the socket has (never blocks). *have = true with @out filled
 * when a whole frame arrived (one at a time: call again while the socket
 * stays readable or rperf_ctrl_io_pending()). Returns 0, EPIPE (closed
 * cleanly between frames),
 * ECONNRESET (closed inside a frame, or reset), EBADMSG/EPROTONOSUPPORT/
 * EMSGSIZE (bad header or payload), ENOMEM, or the recv errno.
 */
int run_conn_read(struct run_conn *c, struct rperf_ctrl_msg *out, bool *have);

/* The controller's TLS context from @auth (*out NULL: the plain channel,
 * only when @insecure; else EACCES). 0 or errno with @err. */
int run_conn_tls(const struct rperf_ctrl_auth *auth, bool insecure,
		 struct rperf_ctrl_tls_ctx **out, char *err, size_t errlen);

/* One host to connect to; the result lands in fd/tls/rc. */
struct run_dial {
	const char *addr;
	uint16_t port;
	uint64_t timeout_ns;
	const volatile sig_atomic_t *stop;
	struct rperf_ctrl_tls_ctx *tls_ctx; /* NULL: plain (--insecure) */
	int given; /* >= 0: connected by the caller already (no dial) */
	int fd; /* out: -1 on failure */
	struct rperf_ctrl_tls *tls; /* out: the authenticated session */
	int rc; /* out */
	char why[200]; /* out: the TLS handshake's failure */
};

/* Connect to every @d[i] in parallel (one thread each; connect and TLS
 * handshake together bounded by its timeout: an agent that cannot
 * authenticate itself fails here). 0, or ENOMEM / the pthread error when
 * threads cannot start. */
int run_dial_all(struct run_dial *d, size_t n);

/* A person's message for a failed dial: "cannot resolve NAME", ... */
void run_dial_why(const struct run_dial *d, char *buf, size_t len);

/* The peer address of connected socket @fd into @ss and, as people write
 * it (a v4-mapped IPv6 address as IPv4), into @buf. 0 or errno. */
struct sockaddr_storage;
int run_peer_addr(int fd, struct sockaddr_storage *ss, char *buf, size_t len);

#endif
