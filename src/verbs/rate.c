/* SPDX-License-Identifier: BSD-2-Clause */
#include "verbs/rate.h"

#include <stdio.h>
#include <string.h>

double rperf_ib_rate_gbps(uint8_t active_speed, uint8_t active_width)
{
	double lane, lanes;

	/* Per-lane data rates after encoding. */
	switch (active_speed) {
	case 1:
		lane = 2.5 * 8 / 10;
		break; /* SDR */
	case 2:
		lane = 5.0 * 8 / 10;
		break; /* DDR */
	case 4:
		lane = 10.0 * 8 / 10;
		break; /* QDR */
	case 8:
		lane = 10.3125 * 64 / 66;
		break; /* FDR10 */
	case 16:
		lane = 14.0625 * 64 / 66;
		break; /* FDR */
	case 32:
		lane = 25.78125 * 64 / 66;
		break; /* EDR */
	case 64:
		lane = 50.0;
		break; /* HDR (PAM4, after FEC) */
	case 128:
		lane = 100.0;
		break; /* NDR */
	default:
		return 0;
	}
	switch (active_width) {
	case 1:
		lanes = 1;
		break;
	case 2:
		lanes = 4;
		break;
	case 4:
		lanes = 8;
		break;
	case 8:
		lanes = 12;
		break;
	case 16:
		lanes = 2;
		break;
	default:
		return 0;
	}
	return lane * lanes;
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
