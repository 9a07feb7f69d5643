/* SPDX-License-Identifier: BSD-2-Clause */
#include "verbs/rate.h"

#include <stdio.h>
#include <string.h>

/*
 * Per-lane rates (IBTA Vol 2 and the speed codes of rdma-core's
 * ibv_port_attr). From HDR the lanes are PAM4 with Reed-Solomon FEC: the
 * data rate is the nominal 50/100/200 Gb/s, not signal * 64/66.
 */
static const struct rperf_ib_speed ib_speeds[] = {
	{ 1, "SDR", 2.5, "8b/10b", 2.5 * 8 / 10 },
	{ 2, "DDR", 5.0, "8b/10b", 5.0 * 8 / 10 },
	{ 4, "QDR", 10.0, "8b/10b", 10.0 * 8 / 10 },
	{ 8, "FDR10", 10.3125, "64b/66b", 10.3125 * 64 / 66 },
	{ 16, "FDR", 14.0625, "64b/66b", 14.0625 * 64 / 66 },
	{ 32, "EDR", 25.78125, "64b/66b", 25.78125 * 64 / 66 },
	{ 64, "HDR", 53.125, "PAM4/FEC", 50.0 },
	{ 128, "NDR", 106.25, "PAM4/FEC", 100.0 },
	{ 256, "XDR", 212.5, "PAM4/FEC", 200.0 },
};

const struct rperf_ib_speed *rperf_ib_speed_find(uint32_t code)
{
	for (size_t i = 0; i < sizeof(ib_speeds) / sizeof(ib_speeds[0]); i++)
		if (ib_speeds[i].code == code)
			return &ib_speeds[i];
	return NULL;
}

int rperf_ib_width_lanes(uint32_t width)
{
	switch (width) {
	case 1:
		return 1;
	case 2:
		return 4;
	case 4:
		return 8;
	case 8:
		return 12;
	case 16:
		return 2;
	default:
		return 0;
	}
}

double rperf_ib_rate_gbps(uint32_t active_speed, uint32_t active_width)
{
	const struct rperf_ib_speed *s = rperf_ib_speed_find(active_speed);

	return s ? s->lane_gbps * rperf_ib_width_lanes(active_width) : 0;
}

int rperf_vl_count(uint8_t max_vl_num)
{
	static const int vls[] = { 0, 1, 2, 4, 8, 15 };

	return max_vl_num < sizeof(vls) / sizeof(vls[0]) ? vls[max_vl_num] : 0;
}

double rperf_netdev_gbps(const char *netdev)
{
	char path[128];
	FILE *f;
	long mbps = 0;

	if (!netdev || !*netdev || strchr(netdev, '/'))
		return 0;
	snprintf(path, sizeof(path), "/sys/class/net/%s/speed", netdev);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (fscanf(f, "%ld", &mbps) != 1 || mbps < 0)
		mbps = 0;
	fclose(f);
	return (double)mbps / 1000.0;
}
