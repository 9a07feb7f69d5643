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
};

/* Take the receive completions of every QP, post as many receives again;
 * *got: completions taken. 0, EIO (a failed completion or verb: @err) */
int rperf_bw_rx_drain(struct rperf_bw_conn *c, struct rperf_bw_rxc *x, int *got,
		      char *err, size_t errlen);

/* First to last receive completion, seconds (0 if fewer than two). */
double rperf_bw_rx_seconds(const struct rperf_bw_rxc *x);

/* Drain until @fd is readable: 0; EINTR (*stop), ETIMEDOUT (nothing
 * arrived on either for @timeout_ms) or a drain error (@err). */
int rperf_bw_rx_until(struct rperf_bw_conn *c, struct rperf_bw_rxc *x, int fd,
		      const volatile sig_atomic_t *stop, int timeout_ms,
		      char *err, size_t errlen);

/* Drain until @want messages arrived or 1 s passed (the last completions
 * may trail the sender's): 0 or a drain error. */
int rperf_bw_rx_catch_up(struct rperf_bw_conn *c, struct rperf_bw_rxc *x,
			 uint64_t want, char *err, size_t errlen);

#endif
