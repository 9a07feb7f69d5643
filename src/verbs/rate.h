/* SPDX-License-Identifier: BSD-2-Clause */
/* Link data rates (pure functions, unit tested). */
#ifndef RPERF_VERBS_RATE_H
#define RPERF_VERBS_RATE_H

#include <stdint.h>

/*
 * IB data rate in Gb/s from ibv_port_attr active_speed and active_width,
 * after the link encoding (8b/10b up to QDR, 64b/66b from FDR10): e.g.
 * 4x FDR = 54.55, 4x EDR = 100. 0 when unknown.
 */
double rperf_ib_rate_gbps(uint8_t active_speed, uint8_t active_width);
/* Number of data VLs from the port attribute encoding (1..5 -> 1,2,4,8,15). */
int rperf_vl_count(uint8_t max_vl_num);
/* RoCE: the netdev's speed from sysfs in Gb/s, 0 if unknown. */
double rperf_netdev_gbps(const char *netdev);

#endif
