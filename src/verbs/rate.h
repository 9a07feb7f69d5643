/* SPDX-License-Identifier: BSD-2-Clause */
/* Link data rates (pure functions, unit tested). */
#ifndef RPERF_VERBS_RATE_H
#define RPERF_VERBS_RATE_H

#include <stdint.h>

/* One InfiniBand lane speed: the ibv_port_attr active_speed code and rates. */
struct rperf_ib_speed {
	uint32_t code; /* active_speed (XDR: 256, only in active_speed_ex) */
	const char *name; /* "SDR" ... "XDR" */
	double signal_gbps; /* per-lane signalling rate */
	const char *encoding; /* "8b/10b", "64b/66b", "PAM4/FEC" */
	double lane_gbps; /* per-lane data rate after the encoding */
};

/* The speed entry for an active_speed code, NULL when unknown. */
const struct rperf_ib_speed *rperf_ib_speed_find(uint32_t code);
/* Lanes of an active_width code (1 -> 1x, 2 -> 4x, 4 -> 8x, 8 -> 12x,
 * 16 -> 2x); 0 when unknown. */
int rperf_ib_width_lanes(uint32_t width);

/*
 * IB data rate in Gb/s from ibv_port_attr active_speed and active_width,
 * after the link encoding (8b/10b up to QDR, 64b/66b from FDR10 to EDR,
 * PAM4 with FEC from HDR): e.g. 4x FDR = 54.55, 4x EDR = 100. 0 if unknown.
 */
double rperf_ib_rate_gbps(uint32_t active_speed, uint32_t active_width);
/* Number of data VLs from the port attribute encoding (1..5 -> 1,2,4,8,15). */
int rperf_vl_count(uint8_t max_vl_num);
/* RoCE: the netdev's speed from sysfs in Gb/s, 0 if unknown. */
double rperf_netdev_gbps(const char *netdev);

#endif
