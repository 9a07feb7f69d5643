/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rperf lat server, pingpong with RDMA WRITE (perftest's ib_write_lat): the
 * client WRITEs each sample so that it ends at the last byte of our
 * buffer, that byte carrying a sequence number (1..255, then 1 again); our
 * software polls the byte and, when it turns to the next number, WRITEs
 * the same bytes back to the end of the client's buffer, where the client
 * polls its last byte (the responder: gen/echo.h, an agent's sink's too).
 * No receive is consumed either way.
 */
#ifndef RPERF_LAT_WECHO_H
#define RPERF_LAT_WECHO_H

#include <signal.h>
#include <stdint.h>

#include "ctrl/ctrl.h"
#include "lat/lat_conn.h"
#include "session/session_err.h"

struct rperf_lat_wecho {
	struct rperf_ctrl_endpoint peer; /* the client's buffer (checked) */
	uint64_t size; /* this round's (START) */
	uint8_t seq; /* the last sequence byte answered, kept across rounds */
};

/* Answer until @fd is readable (DONE, or the client gone): 0; the stop
 * flag, a failed post or reply completion: an error in @e. *@answered
 * counts the WRITEs answered. */
int rperf_lat_wecho_loop(struct rperf_lat_conn *c, struct rperf_lat_wecho *w,
			 int fd, volatile sig_atomic_t *stop,
			 uint64_t *answered, struct rperf_err *e);

#endif
