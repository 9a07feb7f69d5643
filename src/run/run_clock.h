/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The start barrier's clock offsets (pure; the exchanges are CLOCK
 * messages, src/engine/proto.h). One exchange: the controller sends at t1
 * (its CLOCK_MONOTONIC), the agent receives at t2 and answers at t3 (its
 * own), the controller receives at t4. NTP's estimate of the agent's
 * offset (agent clock - controller clock) is ((t2 - t1) + (t3 - t4)) / 2,
 * exact when both directions take as long; with delays d1 (there) and d2
 * (back) it is off by (d1 - d2) / 2, never more than half the exchange's
 * round trip (t4 - t1) - (t3 - t2): that half is the uncertainty. The
 * exchange with the least round trip is kept (queueing only adds delay, so
 * a sample slowed by a busy sender or receiver is not chosen); exchanges
 * whose stamps contradict themselves (t4 < t1, t3 < t2, a negative round
 * trip) are rejected and counted.
 */
#ifndef RPERF_RUN_CLOCK_H
#define RPERF_RUN_CLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RUN_CLOCK_EXCHANGES 8 /* per agent, one after another */

struct run_clock_xchg {
	uint64_t t1, t4; /* controller: sent, answer received */
	uint64_t t2, t3; /* agent: received, answered */
};

struct run_clock_offset {
	bool valid; /* an exchange was kept */
	int64_t offset_ns; /* agent clock - controller clock */
	uint64_t rtt_ns; /* the kept exchange's round trip (network only) */
	uint64_t uncertainty_ns; /* rtt_ns / 2 (rounded up) */
	size_t used; /* exchanges considered */
	size_t rejected; /* exchanges with contradictory stamps */
};

/* Estimate from @n exchanges; 0, or ENODATA when none is usable (then
 * @out->valid is false). */
int run_clock_estimate(const struct run_clock_xchg *x, size_t n,
		       struct run_clock_offset *out);
/* A controller instant on the agent's clock, and back. */
uint64_t run_clock_to_agent(const struct run_clock_offset *o, uint64_t ctrl_ns);
uint64_t run_clock_to_ctrl(const struct run_clock_offset *o, uint64_t agent_ns);

#endif
