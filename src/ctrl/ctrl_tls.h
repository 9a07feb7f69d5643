/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * TLS 1.3 (OpenSSL) under the control frames of `rperf run` <-> `rperf
 * agent`: a transport, not a protocol. The frames (ctrl.h: 12-byte header
 * checked before the payload, 1 MiB bound, one JSON object) travel inside
 * it unchanged; struct rperf_ctrl_io carries the session (io.tls) and
 * every send/recv/peek of ctrl_io.c goes through it, with the same
 * whole-frame deadlines and stop flag (SSL_read/SSL_write on a
 * non-blocking socket; WANT_READ/WANT_WRITE waited for with poll()).
 *
 * Authentication, on BOTH sides, one of:
 *   - a pre-shared key (the bytes of --key-file): TLS 1.3 external PSK,
 *     identity "rperf-agent-v1", the PSK = SHA-256("rperf control PSK v1"
 *     || key bytes), suites of SHA-256 (TLS_AES_128_GCM_SHA256 or
 *     TLS_CHACHA20_POLY1305_SHA256), (EC)DHE on top
 *     (psk_dhe_ke: forward secrecy). A peer without the key cannot finish
 *     the handshake in either direction (its binder or its Finished does
 *     not verify), and no certificate is offered as a fallback;
 *   - certificates (--cert/--key/--ca, PEM): each side presents its chain
 *     and requires one from the other that the CA file verifies. Names are
 *     not checked: any certificate of the fleet's CA is a member.
 * TLS 1.3 only; no session tickets (each connection is a full handshake
 * with fresh keys: replays of recorded traffic fail).
 *
 * Callers ignore SIGPIPE (OpenSSL writes with write(2)); the CLI does.
 * Conventions: 0 or a positive errno with a one-line message in @err.
 */
#ifndef RPERF_CTRL_TLS_H
#define RPERF_CTRL_TLS_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RPERF_CTRL_PSK_IDENTITY "rperf-agent-v1"

/* What authenticates this end: a PSK, or a certificate chain, its private
 * key and the CA that signs the peers' (all three). */
struct rperf_ctrl_auth {
	const uint8_t *psk;
	size_t psklen;
	const char *cert, *key, *ca;
};

/* Neither a PSK nor certificates: the plain channel. */
bool rperf_ctrl_auth_none(const struct rperf_ctrl_auth *a);

struct rperf_ctrl_tls_ctx;
struct rperf_ctrl_tls;

/*
 * The context of one end (@server: the agent). EINVAL when @auth has both
 * or neither, or only part of the certificate trio; EACCES when the
 * private key file is readable by group or others or is not a regular
 * file; EIO when OpenSSL refuses a file (named in @err).
 */
int rperf_ctrl_tls_ctx_create(const struct rperf_ctrl_auth *auth, bool server,
			      struct rperf_ctrl_tls_ctx **out, char *err,
			      size_t errlen);
void rperf_ctrl_tls_ctx_free(struct rperf_ctrl_tls_ctx *c); /* NULL-safe */

/* A session over the connected socket @fd (made non-blocking; the fd
 * stays the caller's). 0 or ENOMEM. */
int rperf_ctrl_tls_new(struct rperf_ctrl_tls_ctx *c, int fd,
		       struct rperf_ctrl_tls **out);
void rperf_ctrl_tls_free(struct rperf_ctrl_tls *t); /* NULL-safe */

/*
 * One step of the handshake without blocking: 0 (done: authenticated),
 * EAGAIN (wait for *events, POLLIN or POLLOUT, then call again), EACCES
 * (the peer failed to authenticate, or refused us), EPIPE/ECONNRESET (the
 * peer went away), EPROTO (not TLS 1.3 / not rperf's TLS).
 */
int rperf_ctrl_tls_step(struct rperf_ctrl_tls *t, short *events, char *err,
			size_t errlen);
/* The whole handshake within @timeout_ms (ETIMEDOUT), @stop (EINTR). */
int rperf_ctrl_tls_handshake(struct rperf_ctrl_tls *t, int timeout_ms,
			     const volatile sig_atomic_t *stop, char *err,
			     size_t errlen);

/* Transport operations (ctrl_io.c): > 0 bytes moved; 0 at EOF (recv);
 * -1 with errno (EAGAIN: wait for *want; EACCES: the peer's alert, it
 * refused our credentials after the handshake, as TLS 1.3 lets a server
 * do with a client's certificate; EPROTO: a record that does not
 * decrypt). */
long rperf_ctrl_tls_recv(struct rperf_ctrl_tls *t, void *buf, size_t n,
			 short *want);
long rperf_ctrl_tls_send(struct rperf_ctrl_tls *t, const void *buf, size_t n,
			 short *want);
/* Decrypted bytes waiting that poll() on the socket cannot see. */
bool rperf_ctrl_tls_pending(const struct rperf_ctrl_tls *t);
/* "TLS 1.3 PSK TLS_AES_128_GCM_SHA256" or "TLS 1.3 certificate ...". */
void rperf_ctrl_tls_describe(const struct rperf_ctrl_tls *t, char *buf,
			     size_t len);

#endif
