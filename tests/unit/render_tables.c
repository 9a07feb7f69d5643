// SPDX-License-Identifier: BSD-2-Clause
/*
 * Prints rperf lat and bw text reports built from known figures, for
 * tables.py (unit.tables), which reads them as a perftest user's script
 * does: every numeric column through Python's float(), the default table
 * within 120 columns. Usage: render_tables lat|lat-wide|lat-half|lat-cpu|
 * lat-pcts|bw|bw-wide|bw-cpu
 */
#include <stdio.h>
#include <string.h>

#include <rperf/hist.h>
#include <rperf/report.h>

static struct rperf_hist *hist(uint64_t n, int64_t base, int64_t step)
{
	struct rperf_hist *h = NULL;

	if (rperf_hist_create(RPERF_HIST_DEFAULT_BITS, &h))
		return NULL;
	for (uint64_t i = 0; i < n; i++)
		rperf_hist_record(h, base + (int64_t)(i % 997) * step);
	return h;
}

static int lat(const char *mode)
{
	static const double pcts[] = { 50, 90, 99, 99.9 };
	/* lab-like: ms-scale tails, a nonpositive RTT, few samples for the
	 * high percentiles in every row, a pingpong row without wire/loop */
	struct rperf_hist *rtt = hist(200, 60000, 900),
			  *big = hist(1264, 199170, 75000),
			  *wire = hist(200, 150000, 300),
			  *loop = hist(200, 82000, 300),
			  *pp = hist(20000, 5000, 7);
	struct rperf_lat_result l[] = {
		{ .method = "rperf",
		  .size = 2,
		  .samples = 200,
		  .rtt = rtt,
		  .wire = wire,
		  .loop = loop,
		  .cpu_pct = 99.1 },
		{ .method = "rperf",
		  .size = 8388608,
		  .samples = 1264,
		  .rtt = big,
		  .wire = wire,
		  .loop = loop,
		  .cpu_pct = 100 },
		{ .method = "pingpong",
		  .size = 4096,
		  .samples = 20000,
		  .rtt = pp,
		  .half = pp,
		  .cpu_pct = 3.5 },
	};
	struct rperf_report r = { .command = "lat -a", .lat = l, .nlat = 3 };
	int rc;

	if (!rtt || !big || !wire || !loop || !pp)
		return 1;
	rperf_hist_record(rtt, -7);
	r.wide = !strcmp(mode, "lat-wide");
	r.half_rtt = !strcmp(mode, "lat-half");
	r.cpu_util = !strcmp(mode, "lat-cpu");
	if (!strcmp(mode, "lat-pcts")) {
		r.percentiles = pcts;
		r.npercentiles = 4;
	}
	rc = rperf_report_text(stdout, &r);
	rperf_hist_destroy(rtt);
	rperf_hist_destroy(big);
	rperf_hist_destroy(wire);
	rperf_hist_destroy(loop);
	rperf_hist_destroy(pp);
	return rc;
}

static int bw(const char *mode)
{
	struct rperf_bw_result b[] = {
		{ .verb = "write_imm",
		  .size = 65536,
		  .qps = 1,
		  .messages = 4700,
		  .bytes = 4700ull * 65536,
		  .seconds = 10.0,
		  .gbps = 0.2464,
		  .peak_gbps = 0.2601,
		  .mpps = 0.00047,
		  .mtu = 1024,
		  .line_gbps = 10,
		  .wire_efficiency = 0.951,
		  .cpu_pct = 99.9,
		  .receiver_valid = true,
		  .rx_messages = 4700,
		  .rx_bytes = 4700ull * 65536,
		  .rx_seconds = 10.01,
		  .rx_gbps = 0.2461 },
		{ .verb = "send",
		  .size = 8388608,
		  .qps = 64,
		  .messages = 123456789,
		  .bytes = 123456789ull * 64,
		  .seconds = 1234.5,
		  .gbps = 398.76,
		  .peak_gbps = 399.5,
		  .mpps = 12.345678,
		  .mtu = 4096,
		  .line_gbps = 400,
		  .wire_efficiency = 0.99,
		  .cpu_pct = 100,
		  .receiver_valid = true,
		  .rx_messages = 123456789,
		  .rx_bytes = 123456789ull * 64,
		  .rx_seconds = 1234.5,
		  .rx_gbps = 398.7 },
		{ .verb = "write",
		  .size = 4096,
		  .qps = 1,
		  .messages = 1000,
		  .bytes = 4096000,
		  .seconds = 1,
		  .gbps = 0.032768,
		  .peak_gbps = 0.04,
		  .mpps = 0.001,
		  .mtu = 1024,
		  .wire_efficiency = 0.9,
		  .cpu_pct = 50,
		  .receiver_note = "plain RDMA WRITEs are invisible" },
	};
	struct rperf_report r = { .command = "bw", .bw = b, .nbw = 3 };

	r.wide = !strcmp(mode, "bw-wide");
	r.cpu_util = !strcmp(mode, "bw-cpu");
	return rperf_report_bw_text(stdout, &r);
}

int main(int argc, char **argv)
{
	if (argc != 2)
		return 2;
	return strncmp(argv[1], "lat", 3) ? bw(argv[1]) : lat(argv[1]);
}
