/* SPDX-License-Identifier: BSD-2-Clause */
#include "report/report_breakdown.h"

#include <rperf/hist.h>

static void row(FILE *f, const char *what, const struct rperf_hist *h)
{
	if (!h || !rperf_hist_count(h))
		return;
	fprintf(f, "    %-26s p50 %10.3f   p99.9 %10.3f\n", what,
		(double)rperf_hist_percentile(h, 50) / 1e3,
		(double)rperf_hist_percentile(h, 99.9) / 1e3);
}

void rperf_rpt_breakdown_rows(FILE *f, const struct rperf_rpt_breakdown *b)
{
	char loop[40];

	snprintf(loop, sizeof(loop), "post cost, loopback %s",
		 b->loop_op ? b->loop_op : "SEND");
	row(f, "post cost, wire", b->post_wire);
	row(f, loop, b->post_loop);
	row(f, "T_L - T_P (loopback)", b->loop);
	row(f, "T_W - T_P (wire)", b->wire);
	row(f, b->equation1 ? "RTT = wire - loopback" : "RTT = T_C - T_P",
	    b->rtt);
	row(f, "RTT/2 (perftest's figure)", b->half);
}
