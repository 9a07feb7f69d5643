/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The one event loop under every rperf server: `rperf lat`, `rperf bw`
 * and `rperf agent`: the agent (src/agent). It owns the
 * listening socket and every connection until its first frame is in; one
 * poll() covers them and the owner's own fds (the connection of the test it
 * runs, an eventfd, an engine's fd), so no peer can stall the others.
 *
 *   accept -> pending (at most cfg.max_conns connections at once, pending
 *             and lingering together; one over the cap gets REFUSE "too
 *             many connections ..." and is closed at once)
 *   pending: the first frame is read NON-BLOCKING into the connection's
 *             own buffer: the 12-byte header is checked (magic, version,
 *             type, length) before any payload is buffered; the payload is
 *             bounded by RPERF_SERVE_MAX_FIRST. The whole frame must come
 *             within cfg.handshake_ms of the accept (--handshake-timeout):
 *             silence, half frames or slow bytes cost an fd and a slot until
 *             then, never the loop.
 *   classify: not rperf's magic -> closed with a log line (perftest's
 *             control exchange is recognised and named, see
 *             rperf_ctrl_perftest_peer()); another protocol version, another
 *             first message than HELLO, a HELLO over the bound or malformed
 *             -> REFUSE with the reason in words; a HELLO -> owner.admit().
 *   admit:   RPERF_SERVE_ADMIT: the owner takes the fd (the loop forgets
 *             it); RPERF_SERVE_REFUSE: the owner's reason (e.g. the busy
 *             text of rperf_serve_busy_text()) goes back as REFUSE.
 *   refused: REFUSE sent, our side shut down, the peer's bytes drained
 *             until it closes or RPERF_SERVE_LINGER_MS passes (so it reads
 *             the reason instead of a reset), then closed.
 *
 * With cfg.tls (`rperf agent` with a key or certificates) every accepted
 * connection first does its TLS 1.3 handshake here, without blocking
 * (ctrl_tls.h), in a pool of its own: at most RPERF_SERVE_MAX_HANDSHAKES
 * at once and RPERF_SERVE_MAX_HANDSHAKES_PER_SOURCE from one address; a
 * new connection over either bound evicts the OLDEST pending handshake
 * (of its own address, else of the address holding the most), so idle or
 * stalled strangers cost nothing but the slot they hold until the next
 * one comes; none of them counts against cfg.max_conns and none reaches
 * the owner. The handshake shares the HELLO's deadline (handshake_ms of
 * the accept). A handshake that fails (no key, wrong key, not TLS) is
 * closed with a log line; a peer that speaks the plain channel (its first
 * bytes are an rperf frame) gets a plain REFUSE saying TLS is required.
 * Only then does the connection take a slot of cfg.max_conns and read its
 * HELLO through TLS; the owner gets it with admit_tls().
 *
 * The owner's fds and deadline join the same poll(); its events() runs
 * every pass. Nothing here blocks: every socket the loop holds is
 * non-blocking. Single-threaded: call everything from the loop's thread
 * (an owner with a worker thread reports through an fd it polls). The
 * library never prints: lines go to cfg.log.
 *
 * Conventions: 0 or a positive errno with a message in @err.
 */
#ifndef RPERF_SERVE_H
#define RPERF_SERVE_H

#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "ctrl/ctrl.h"
#include "ctrl/ctrl_tls.h"
#include "util/mono.h"

#define RPERF_SERVE_MAX_FIRST 4096 /* payload bytes of a first frame */
#define RPERF_SERVE_LINGER_MS 1000 /* a refused peer's time to read */
#define RPERF_SERVE_DEFAULT_MAX_CONNS 64
#define RPERF_SERVE_DEFAULT_HANDSHAKE_MS 3000
#define RPERF_SERVE_MAX_OWNER_FDS 4
#define RPERF_SERVE_MAX_HANDSHAKES 64 /* pending TLS handshakes, in all */
#define RPERF_SERVE_MAX_HANDSHAKES_PER_SOURCE 8 /* from one address */

enum rperf_serve_verdict {
	RPERF_SERVE_ADMIT, /* the owner took the fd */
	RPERF_SERVE_REFUSE, /* send the owner's reason as REFUSE, close */
};

struct rperf_serve_owner {
	/*
	 * A pending connection's first frame is a HELLO of our version
	 * (@hello: payload valid only during the call; json_incref() it to
	 * keep it). @peer: "addr:port". Fill @reason for a refusal.
	 */
	enum rperf_serve_verdict (*admit)(void *arg, int fd, const char *peer,
					  const struct rperf_ctrl_msg *hello,
					  char *reason, size_t reasonlen);
	/* With cfg.tls, in place of admit: the owner takes @fd AND @tls,
	 * the authenticated session the HELLO came through. */
	enum rperf_serve_verdict (*admit_tls)(
		void *arg, int fd, struct rperf_ctrl_tls *tls, const char *peer,
		const struct rperf_ctrl_msg *hello, char *reason,
		size_t reasonlen);
	/* The owner's fds for this pass (at most RPERF_SERVE_MAX_OWNER_FDS;
	 * fd -1 ignored) and its nearest deadline (CLOCK_MONOTONIC ns,
	 * UINT64_MAX: none). Returns how many. May be NULL. */
	size_t (*fds)(void *arg, struct pollfd *pf, uint64_t *deadline_ns);
	/* After every poll(): @pf as fds() filled them, with revents. May be
	 * NULL. */
	void (*events)(void *arg, const struct pollfd *pf, size_t n,
		       uint64_t now_ns);
	void *arg;
};

struct rperf_serve_cfg {
	int lfd; /* listening socket: the loop owns it (closed at destroy) */
	unsigned int max_conns; /* 1..RPERF_SERVE_MAX_CONNS_LIMIT */
	int handshake_ms; /* > 0 */
	const char *what; /* "rperf lat server": in refusals' words (copied) */
	struct rperf_ctrl_tls_ctx *tls; /* NULL: plain; else TLS first
					   (the caller's; outlives the loop) */
	struct rperf_serve_owner owner;
	/* one line about @peer ("" for the loop itself); may be NULL */
	void (*log)(void *arg, const char *peer, const char *line);
	void *log_arg;
};
#define RPERF_SERVE_MAX_CONNS_LIMIT 4096

struct rperf_serve_stats {
	uint64_t accepted; /* connections accepted */
	uint64_t admitted; /* handed to the owner */
	uint64_t refused; /* REFUSE sent (busy, version, cap, malformed) */
	uint64_t dropped; /* closed without a word: silent, EOF, not rperf */
	uint64_t tls_failed; /* TLS handshakes failed (no key, wrong key) */
	uint64_t evicted; /* pending handshakes evicted by newer ones */
	unsigned int handshakes; /* TLS handshakes pending now */
	unsigned int open; /* connections held now (pending + lingering) */
};

struct rperf_serve;

/* The loop over @cfg->lfd (owned from here on, even on failure): 0,
 * EINVAL (a bad field, named in @err), ENOMEM. */
int rperf_serve_create(const struct rperf_serve_cfg *cfg,
		       struct rperf_serve **out, char *err, size_t errlen);
/* One pass: poll() at most @wait_ms (less up to the nearest deadline),
 * then every event and deadline. 0, or the errno of poll() with @err. */
int rperf_serve_step(struct rperf_serve *l, int wait_ms, char *err,
		     size_t errlen);
/* Passes until *stop (a signal flag) or rperf_serve_quit(): 0 or the
 * errno of a failed pass. */
int rperf_serve_run(struct rperf_serve *l, const volatile sig_atomic_t *stop,
		    char *err, size_t errlen);
/* From an owner callback: rperf_serve_run() returns after this pass. */
void rperf_serve_quit(struct rperf_serve *l);
void rperf_serve_get_stats(const struct rperf_serve *l,
			   struct rperf_serve_stats *out);
/* Close every connection the loop holds and the listening socket.
 * NULL-safe. */
void rperf_serve_destroy(struct rperf_serve *l);

/* What rperf_serve_busy_text() says after "(": the seconds left, or: */
#define RPERF_SERVE_LEFT_ITERS (-1) /* an iteration-count run: no end */
#define RPERF_SERVE_LEFT_UNKNOWN (-2) /* not started: length unknown yet */
#define RPERF_SERVE_LEFT_ENDLESS (-3) /* --run_infinitely: until stopped */
/*
 * The busy refusal, in these words:
 * "busy: running a test for ADDR since TIME (N s left)", TIME the UTC
 * wall-clock time @since; for @left_s RPERF_SERVE_LEFT_ITERS
 * "(an iteration-count run: no planned end)", RPERF_SERVE_LEFT_UNKNOWN
 * "(setting up: its length is not known yet)", RPERF_SERVE_LEFT_ENDLESS
 * "(an endless run: until its client stops it)".
 */
void rperf_serve_busy_text(const char *peer, time_t since, int64_t left_s,
			   char *buf, size_t len);
/* Seconds left of a run planned to end at @end_ns (monotonic; 0: not
 * known -> RPERF_SERVE_LEFT_UNKNOWN) at @now_ns, rounded up, >= 0. */
int64_t rperf_serve_left_s(uint64_t end_ns, uint64_t now_ns);

#endif
