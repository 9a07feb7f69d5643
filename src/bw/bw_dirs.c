/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The directions of a bw run: -b's sum of both directions for the text table
 * (perftest's -b; --report-both shows them separately, and the JSON always
 * has both: "reverse").
 */
#include "bw/bw.h"

#include <string.h>

void rperf_bw_sum_directions(const struct rperf_bw_run *run,
			     struct rperf_bw_result *out)
{
	for (size_t i = 0; i < run->nres; i++) {
		const struct rperf_bw_result *f = &run->res[i], *r = f->reverse;
		struct rperf_bw_result *o = &out[i];

		*o = *f;
		o->reverse = NULL;
		if (!r)
			continue;
		o->messages += r->messages;
		o->bytes += r->bytes;
		o->seconds = r->seconds > o->seconds ? r->seconds : o->seconds;
		o->gbps += r->gbps; /* both directions at once: rates add */
		o->mpps += r->mpps;
		o->post_calls += r->post_calls;
		o->offered_gbps = 0; /* per direction; not summed */
		o->offered_mpps = 0;
		o->rx_cpu_pct = -1; /* two processes' shares: not one figure */
		if (!(f->receiver_valid && r->receiver_valid)) {
			o->receiver_valid = false;
			o->receiver_note = f->receiver_note ? f->receiver_note :
							      r->receiver_note;
			continue;
		}
		o->rx_messages += r->rx_messages;
		o->rx_bytes += r->rx_bytes;
		o->rx_seconds = r->rx_seconds > o->rx_seconds ? r->rx_seconds :
								o->rx_seconds;
		o->rx_gbps += r->rx_gbps;
	}
}
