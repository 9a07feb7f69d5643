/* SPDX-License-Identifier: BSD-2-Clause */
/* rperf bw --reversed: the receiving client's round (bw_reversed.c). */
#ifndef RPERF_BW_REVERSED_H
#define RPERF_BW_REVERSED_H

#include "gen/rx.h"
#include "gen/bsg.h"

/*
 * Receive into @x what the server sends for @b's duration (-D), until
 * *b->stop (--run_infinitely: g->stopped), or not at all (iteration mode:
 * the server's generator ends the round); --interval lines from the
 * receive counts. @g gets no messages (this side sends none) and the
 * seconds spent. 0, or EIO with g->error (a failed receive).
 */
int rperf_bw_reversed_run(struct rperf_gen_conn *c,
			  const struct rperf_bsg_cfg *b,
			  struct rperf_rx_count *x, struct rperf_bsg_res *g);

#endif
