/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * RTTs from NIC completion timestamps (pure arithmetic, unit tested).
 *
 * Where the HCA stamps completions itself (IBV_WC_EX_WITH_COMPLETION_TIMESTAMP)
 * both completions of an RPerf sample come from the NIC's clock, while the
 * two posts are stamped on the CPU clock. Only differences within one clock
 * are used:
 *
 *   RTT = (T_W,nic - T_L,nic) - (T_P,wire - T_P,loop)
 *
 * The NIC counter may be narrower than 64 bits (the device's
 * completion_timestamp_mask, e.g. 48 bits) and wrap: a difference is taken
 * modulo the counter's width and read as the shortest signed distance.
 */
#ifndef RPERF_GEN_NIC_TS_H
#define RPERF_GEN_NIC_TS_H

#include <stdint.h>

#include <rperf/clock.h>

struct rperf_nic_clock {
	double hz; /* counter ticks per second (hca_core_clock kHz * 1000) */
	uint64_t mask; /* valid bits: 2^k - 1 (completion_timestamp_mask) */
};

/* b - a on a counter of @mask (2^k - 1, k >= 2): in (-2^(k-1), 2^(k-1)]. */
int64_t rperf_nic_delta(uint64_t mask, uint64_t a, uint64_t b);

/* RTT in ns from NIC completion stamps @tw, @tl and CPU post stamps. */
double rperf_nic_rtt_ns(const struct rperf_nic_clock *nic,
			const struct rperf_clock *cpu, uint64_t tw, uint64_t tl,
			uint64_t tp_wire, uint64_t tp_loop);

#endif
