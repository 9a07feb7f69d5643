/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The breakdown of an LSG's RTT into its measured components, p50 and
 * p99.9 in microseconds, one renderer for rperf lat --breakdown and an
 * [lsg] section's breakdown (rperf run). Every time is one-way from a post
 * (T_P) to a completion, except the RTT rows.
 */
#ifndef RPERF_REPORT_BREAKDOWN_H
#define RPERF_REPORT_BREAKDOWN_H

#include <stdbool.h>
#include <stdio.h>

struct rperf_hist;

struct rperf_rpt_breakdown {
	bool equation1; /* the rperf method: RTT = wire - loopback */
	const char *loop_op; /* "SEND" or "WRITE": the loopback operation */
	/* ns; NULL or empty: that row is left out */
	const struct rperf_hist *post_wire, *post_loop; /* ibv_post_send */
	const struct rperf_hist *loop, *wire; /* T_L - T_P, T_W - T_P */
	const struct rperf_hist *rtt, *half; /* half: pingpong's RTT/2 */
};

/* The rows of @b, each indented by 4 spaces. */
void rperf_rpt_breakdown_rows(FILE *f, const struct rperf_rpt_breakdown *b);

#endif
