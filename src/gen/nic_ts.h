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
 *
 * Which stamps a run uses (--timestamps of rperf lat, the job key
 * timestamps of an LSG): rperf_nic_stamps_choose() below, for both.
 */
#ifndef RPERF_GEN_NIC_TS_H
#define RPERF_GEN_NIC_TS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rperf/clock.h>

#include "verbs/verbs.h"

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

/* Beyond this, a NIC clock measured against CLOCK_MONOTONIC_RAW is too far
 * from its hca_core_clock for its stamps to be taken at that rate. */
#define RPERF_NIC_CLOCK_MAX_PPM 1000.0
/* A NIC clock of @hz (hca_core_clock) measured at @measured_hz (0: not
 * measured), @ppm apart: beyond RPERF_NIC_CLOCK_MAX_PPM the warning's words
 * in @buf ("the NIC clock runs at ...") and true; else false. */
bool rperf_nic_clock_warning(double hz, double measured_hz, double ppm,
			     char *buf, size_t len);

/* The completion stamps of a run of the rperf method. */
struct rperf_nic_stamps {
	bool nic; /* the send CQs of wire and loop_tx carry NIC stamps */
	struct rperf_dev_ts ts; /* with nic */
	char note[200]; /* auto fell back to CPU stamps: why; "" if not */
};

/*
 * @want (enum rperf_timestamps) on device @d: cpu: none; nic: the NIC's
 * (on a device without them ENOTSUP with @err "@key nic: WHY; accepted:
 * cpu or auto"); auto: the NIC's where the device has them, else CPU
 * stamps and @s->note says why. 0 or errno.
 */
int rperf_nic_stamps_choose(struct rperf_dev *d, int want, const char *key,
			    struct rperf_nic_stamps *s, char *err,
			    size_t errlen);
/* Creating a QP whose send CQ has NIC stamps failed with @rc on device
 * @dev: with auto, CPU stamps from now on, @s->note saying why, and true
 * (create it again without); false otherwise (the failure stands). */
bool rperf_nic_stamps_drop(struct rperf_nic_stamps *s, int want,
			   const char *dev, int rc);

#endif
