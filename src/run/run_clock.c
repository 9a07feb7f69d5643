/* SPDX-License-Identifier: BSD-2-Clause */
/* The clock offset estimator of the start barrier (run_clock.h). */
#include "run/run_clock.h"

#include <errno.h>
#include <string.h>

/* The difference b - a of two stamps as a signed value (clocks of two
 * hosts may be far apart, never 2^63 ns). */
static int64_t diff(uint64_t b, uint64_t a)
{
	return (int64_t)(b - a);
}

int run_clock_estimate(const struct run_clock_xchg *x, size_t n,
		       struct run_clock_offset *out)
{
	uint64_t best = UINT64_MAX;

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < n; i++) {
		int64_t total = diff(x[i].t4, x[i].t1);
		int64_t hold = diff(x[i].t3, x[i].t2);
		int64_t rtt = total - hold;

		out->used++;
		if (total < 0 || hold < 0 || rtt < 0) {
			out->rejected++;
			continue;
		}
		if ((uint64_t)rtt >= best)
			continue;
		best = (uint64_t)rtt;
		/* ((t2 - t1) + (t3 - t4)) / 2: each term within 2^62 */
		out->offset_ns =
			(diff(x[i].t2, x[i].t1) + diff(x[i].t3, x[i].t4)) / 2;
		out->rtt_ns = best;
		out->uncertainty_ns = (best + 1) / 2;
		out->valid = true;
	}
	return out->valid ? 0 : ENODATA;
}

uint64_t run_clock_to_agent(const struct run_clock_offset *o, uint64_t ctrl_ns)
{
	return ctrl_ns + (uint64_t)o->offset_ns;
}

uint64_t run_clock_to_ctrl(const struct run_clock_offset *o, uint64_t agent_ns)
{
	return agent_ns - (uint64_t)o->offset_ns;
}
