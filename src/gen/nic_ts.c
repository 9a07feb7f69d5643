/* SPDX-License-Identifier: BSD-2-Clause */
#include "gen/nic_ts.h"

int64_t rperf_nic_delta(uint64_t mask, uint64_t a, uint64_t b)
{
	uint64_t d = (b - a) & mask;

	if (mask == UINT64_MAX)
		return (int64_t)d;
	/* above half the range: b is behind a */
	if (d > mask / 2 + 1)
		return (int64_t)d - (int64_t)mask - 1;
	return (int64_t)d;
}

double rperf_nic_rtt_ns(const struct rperf_nic_clock *nic,
			const struct rperf_clock *cpu, uint64_t tw, uint64_t tl,
			uint64_t tp_wire, uint64_t tp_loop)
{
	double nic_ns =
		(double)rperf_nic_delta(nic->mask, tl, tw) * 1e9 / nic->hz;
	double post_ns =
		rperf_clock_ticks_to_ns(cpu, (int64_t)(tp_wire - tp_loop));

	return nic_ns - post_ns;
}
