/* SPDX-License-Identifier: BSD-2-Clause */
/* The receive side of an rperf bw connection: count what arrives, refill. */
#ifndef RPERF_BW_RX_H
#define RPERF_BW_RX_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "bw/bw_conn.h"

/* What arrived in one round (SENDs; WRITE_WITH_IMM, whose immediate
 * carries how many WRITEs its list held). */
struct rperf_bw_rxc {
	uint64_t messages, bytes;
	uint64_t first_ns, last_ns; /* first and last receive completion */
	uint64_t sleeps; /* times the wait slept on completion events */
};

/* Take the receive completions of every QP, post as many receives again;
 * *got: completions taken. 0, EIO (a failed completion or verb: @err) */
int rperf_bw_rx_drain(struct rperf_bw_conn *c, struct rperf_bw_rxc *x, int *got,
		      char *err, size_t errlen);

/* First to last receive completion, seconds (0 if fewer than two). */
double rperf_bw_rx_seconds(const struct rperf_bw_rxc *x);

/* How rperf_bw_rx_wait waits. */
struct rperf_bw_rx_wait {
	int fd; /* the control socket: readable (a message, EOF) ends it */
	const volatile sig_atomic_t *stop; /* NULL: none */
	/* busy-poll while completions come; after this long without one,
	 * sleep on the connection's completion channel (woken by a
	 * completion or @fd). 0: sleep whenever nothing is there (-e) */
	uint64_t spin_ns;
	uint64_t idle_ns; /* nothing arrived for this long: ETIMEDOUT; 0 never */
};

/* Drain until @w->fd is readable: 0; EINTR (*stop), ETIMEDOUT (idle_ns)
 * or a drain/verbs error (@err). Without a channel (or receives) it never
 * busy-polls past spin_ns either: it then polls @fd every 200 ms. */
int rperf_bw_rx_wait(struct rperf_bw_conn *c, struct rperf_bw_rxc *x,
		     const struct rperf_bw_rx_wait *w, char *err,
		     size_t errlen);

/* rperf_bw_rx_wait with spin_ns the default stall limit and idle_ns
 * @timeout_ms: EINTR, ETIMEDOUT (nothing arrived on either for
 * @timeout_ms) or a drain error (@err). */
int rperf_bw_rx_until(struct rperf_bw_conn *c, struct rperf_bw_rxc *x, int fd,
		      const volatile sig_atomic_t *stop, int timeout_ms,
		      char *err, size_t errlen);

/* Drain until @want messages arrived or 1 s passed (the last completions
 * may trail the sender's): 0 or a drain error. */
int rperf_bw_rx_catch_up(struct rperf_bw_conn *c, struct rperf_bw_rxc *x,
			 uint64_t want, char *err, size_t errlen);

#endif
