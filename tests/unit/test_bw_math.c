/* SPDX-License-Identifier: BSD-2-Clause */
/* rperf bw arithmetic: token bucket, rate limits, wire efficiency. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "job/cmdline.h"
#include "gen/bw_math.h"
#include "gen/bsg.h"

#define NEAR(a, b, eps) assert_true(fabs((double)(a) - (double)(b)) <= (eps))

static void bucket(void **state)
{
	struct rperf_tbucket tb;
	uint64_t t = 1000, sent = 0;

	(void)state;
	rperf_tbucket_init(&tb, 1000.0, 4, t); /* 1000 msgs/s, burst 4 */
	assert_int_equal(rperf_tbucket_take(&tb, 4, t), 0);
	/* empty: the next token comes in 1 ms */
	NEAR(rperf_tbucket_take(&tb, 1, t), 1000000, 2);
	assert_int_equal(rperf_tbucket_take(&tb, 1, t + 1000000), 0);
	/* never more than the burst after a long idle time */
	assert_int_equal(rperf_tbucket_take(&tb, 4, t + 10000000000ull), 0);
	assert_true(rperf_tbucket_take(&tb, 1, t + 10000000000ull) > 0);
	/* over 10 s of 100 us steps, lists of 2: 10,000 +- the burst */
	t += 10000000000ull;
	for (uint64_t now = t; now < t + 10000000000ull; now += 100000)
		if (!rperf_tbucket_take(&tb, 2, now))
			sent += 2;
	assert_true(sent >= 9990 && sent <= 10004);
	/* a request above the capacity is capped to it */
	rperf_tbucket_init(&tb, 10.0, 1, 0);
	assert_int_equal(rperf_tbucket_take(&tb, 5, 0), 0);
}

static void limits(void **state)
{
	(void)state;
	/* perftest: M = 2^20 B/s, g = 10^9 bit/s, p = messages/s */
	NEAR(rperf_bw_limit_msgs(1, RPERF_RATE_MBPS, 1024), 1024, 1e-9);
	NEAR(rperf_bw_limit_msgs(0.01, RPERF_RATE_GBPS, 65536), 1e7 / 8 / 65536,
	     1e-9);
	NEAR(rperf_bw_limit_msgs(500, RPERF_RATE_PPS, 64), 500, 1e-9);
	NEAR(rperf_bw_limit_gbps(0.01, RPERF_RATE_GBPS, 4096), 0.01, 1e-12);
	NEAR(rperf_bw_limit_gbps(500, RPERF_RATE_PPS, 1000), 0.004, 1e-12);
	assert_true(rperf_bw_limit_msgs(0, RPERF_RATE_GBPS, 64) == 0);
	assert_true(rperf_bw_limit_msgs(1, 7, 64) == 0);
	NEAR(rperf_bw_gbps(125000000, 1.0), 1.0, 1e-12);
	NEAR(rperf_bw_mpps(2000000, 2.0), 1.0, 1e-12);
	assert_true(rperf_bw_gbps(1, 0) == 0);
}

static void wire(void **state)
{
	(void)state;
	assert_int_equal(rperf_bw_packets(4096, 1024), 4);
	assert_int_equal(rperf_bw_packets(4097, 1024), 5);
	assert_int_equal(rperf_bw_packets(1, 1024), 1);
	/* RoCE v2, 64 B SEND: 64 / (64 + 82) */
	NEAR(rperf_bw_wire_efficiency(64, 1024, true, true, RPERF_VERB_SEND, 1),
	     64.0 / 146, 1e-12);
	/* 4096 B SEND at 1024: 4 full packets */
	NEAR(rperf_bw_wire_efficiency(4096, 1024, true, true, RPERF_VERB_SEND,
				      1),
	     4096.0 / (4 * (1024 + 82)), 1e-12);
	/* WRITE: + RETH 16 on the first packet */
	NEAR(rperf_bw_wire_efficiency(4096, 1024, true, true, RPERF_VERB_WRITE,
				      1),
	     4096.0 / (4 * (1024 + 82) + 16), 1e-12);
	/* write_imm with lists of 4: ImmDt 4 once per list */
	NEAR(rperf_bw_wire_efficiency(64, 4096, true, true,
				      RPERF_VERB_WRITE_IMM, 4),
	     64.0 / (64 + 82 + 16 + 1), 1e-12);
	/* tiny payloads: padded to 4 B (a 66 B frame, above the 64 B minimum) */
	NEAR(rperf_bw_wire_efficiency(2, 1024, true, true, RPERF_VERB_SEND, 1),
	     2.0 / (66 + 20), 1e-12);
	/* InfiniBand with GRH: 26 + 40 per packet */
	NEAR(rperf_bw_wire_efficiency(2048, 2048, false, true, RPERF_VERB_SEND,
				      1),
	     2048.0 / (2048 + 66), 1e-12);
	NEAR(rperf_bw_wire_efficiency(2048, 2048, false, false, RPERF_VERB_SEND,
				      1),
	     2048.0 / (2048 + 26), 1e-12);
	assert_true(rperf_bw_wire_efficiency(64, 0, true, true, 0, 1) == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(bucket),
		cmocka_unit_test(limits),
		cmocka_unit_test(wire),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
