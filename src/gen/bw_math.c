/* SPDX-License-Identifier: BSD-2-Clause */
#include "gen/bw_math.h"

#include <rperf/report.h>

#include "gen/gen.h"

double rperf_bw_limit_msgs(double limit, int units, uint64_t size)
{
	if (limit <= 0 || !size)
		return 0;
	switch (units) {
	case RPERF_RATE_MBPS:
		return limit * 1048576.0 / (double)size;
	case RPERF_RATE_GBPS:
		return limit * 1e9 / 8.0 / (double)size;
	case RPERF_RATE_PPS:
		return limit;
	default:
		return 0;
	}
}

double rperf_bw_limit_gbps(double limit, int units, uint64_t size)
{
	return rperf_bw_limit_msgs(limit, units, size) * (double)size * 8.0 /
	       1e9;
}

uint64_t rperf_bw_packets(uint64_t size, int mtu)
{
	if (mtu <= 0 || !size)
		return 1;
	return (size + (uint64_t)mtu - 1) / (uint64_t)mtu;
}

/* Bytes on the wire of one packet carrying @payload (+ @ext headers). */
static double packet_bytes(uint64_t payload, double ext, bool roce, bool grh)
{
	double p = (double)((payload + 3) / 4 * 4) + ext;

	if (roce) {
		double frame = 14 + 20 + 8 + 12 + p + 4 + 4;

		return (frame < 64 ? 64 : frame) + 8 + 12;
	}
	return 8 + (grh ? 40 : 0) + 12 + p + 4 + 2;
}

double rperf_bw_wire_efficiency(uint64_t size, int mtu, bool roce, bool grh,
				int verb, uint64_t post_list)
{
	uint64_t n = rperf_bw_packets(size, mtu), last;
	double wire, reth = verb == RPERF_VERB_SEND ? 0 : 16, imm = 0;

	if (mtu <= 0 || !size)
		return 0;
	if (verb == RPERF_VERB_ATOMIC)
		return (double)size / packet_bytes(0, 4 + 8, roce, grh);
	if (verb == RPERF_VERB_READ) /* AETH on the first and the last */
		reth = imm = n == 1 ? 2 : 4;
	if (verb == RPERF_VERB_WRITE_IMM)
		imm = 4.0 / (double)(post_list ? post_list : 1);
	last = size - (n - 1) * (uint64_t)mtu;
	if (n == 1)
		return (double)size / packet_bytes(size, reth + imm, roce, grh);
	wire = packet_bytes((uint64_t)mtu, reth, roce, grh) +
	       (double)(n - 2) * packet_bytes((uint64_t)mtu, 0, roce, grh) +
	       packet_bytes(last, imm, roce, grh);
	return (double)size / wire;
}

double rperf_bw_gbps(uint64_t bytes, double seconds)
{
	return seconds > 0 ? (double)bytes * 8.0 / seconds / 1e9 : 0;
}

double rperf_bw_mpps(uint64_t messages, double seconds)
{
	return seconds > 0 ? (double)messages / seconds / 1e6 : 0;
}

uint64_t rperf_bw_peak_min_bytes(uint64_t size, uint64_t qps, uint64_t cq_mod)
{
	uint64_t f[] = { RPERF_BW_PEAK_MIN_SIGNALS, qps ? qps : 1,
			 cq_mod ? cq_mod : 1, size };
	uint64_t v = 1;

	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		if (v > UINT64_MAX / f[i])
			return UINT64_MAX;
		v *= f[i];
	}
	return v;
}
