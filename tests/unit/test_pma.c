/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The IB PMA reader on scripted MAD replies (as test_vl.c does for SL->VL):
 * PortCounters (0x0012) and PortCountersExtended (0x001D) GetResp MADs
 * laid out as IBTA Vol 1 16.1.3.5 / 16.1.4.11 give them, a 32-bit
 * PortXmitWait that wraps between two readings, the 64-bit extended
 * counters, malformed and refused replies, and the one-line skip on RoCE.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "counters/counters.h"
#include "counters/counters_hook.h"
#include "verbs/pma.h"

static void be16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void be32(uint8_t *p, uint32_t v)
{
	be16(p, (uint16_t)(v >> 16));
	be16(p + 2, (uint16_t)v);
}

static void be64(uint8_t *p, uint64_t v)
{
	be32(p, (uint32_t)(v >> 32));
	be32(p + 4, (uint32_t)v);
}

/* A GetResp of the PerfMgt class for @attr, port @port. */
static void reply(uint8_t *mad, uint16_t attr, uint8_t port)
{
	memset(mad, 0, 256);
	mad[0] = 1; /* base version */
	mad[1] = 0x04; /* PerfMgt */
	mad[2] = 1; /* class version */
	mad[3] = 0x81; /* GetResp */
	be32(mad + 12, 0x12345678); /* TID */
	be16(mad + 16, attr);
	mad[64 + 1] = port; /* PortSelect */
}

/* PortCounters with the given PortXmitWait and data words. */
static void port_counters(uint8_t *mad, uint8_t port, uint32_t wait,
			  uint32_t xmit_words)
{
	uint8_t *d = mad + 64;

	reply(mad, 0x0012, port);
	be16(d + 14, 3); /* PortXmitDiscards */
	be32(d + 24, xmit_words); /* PortXmitData */
	be32(d + 28, 1000); /* PortRcvData */
	be32(d + 32, 50); /* PortXmitPkts */
	be32(d + 36, 60); /* PortRcvPkts */
	be32(d + 40, wait); /* PortXmitWait */
}

static void decode_port_counters(void **state)
{
	struct rperf_pma_counters c;
	uint8_t mad[256];
	char msg[160];

	(void)state;
	memset(&c, 0, sizeof(c));
	port_counters(mad, 7, 0xfffffff0u, 0x80000000u);
	assert_int_equal(rperf_pma_decode(mad, sizeof(mad), 0x0012, 7, &c, msg,
					  sizeof(msg)),
			 0);
	assert_int_equal(c.port, 7);
	assert_int_equal(c.xmit_wait, 0xfffffff0u);
	assert_int_equal(c.xmit_data, 0x80000000u);
	assert_int_equal(c.rcv_data, 1000);
	assert_int_equal(c.xmit_pkts, 50);
	assert_int_equal(c.rcv_pkts, 60);
	assert_int_equal(c.xmit_discards, 3);
	assert_false(c.has_ext);
}

static void decode_extended(void **state)
{
	struct rperf_pma_counters c;
	uint8_t mad[256], *d = mad + 64;
	char msg[160];

	(void)state;
	memset(&c, 0, sizeof(c));
	reply(mad, 0x001d, 7);
	be64(d + 8, 0x0000000500000001ull); /* PortXmitData, above 2^32 */
	be64(d + 16, 0x123456789abcdefull); /* PortRcvData */
	be64(d + 24, 1ull << 40); /* PortXmitPkts */
	be64(d + 32, 42); /* PortRcvPkts */
	assert_int_equal(rperf_pma_decode(mad, sizeof(mad), 0x001d, 7, &c, msg,
					  sizeof(msg)),
			 0);
	assert_true(c.has_ext);
	assert_true(c.ext_xmit_data == 0x0000000500000001ull);
	assert_true(c.ext_rcv_data == 0x123456789abcdefull);
	assert_true(c.ext_xmit_pkts == 1ull << 40);
	assert_true(c.ext_rcv_pkts == 42);
}

static void refused(void **state)
{
	struct rperf_pma_counters c;
	uint8_t mad[256];
	char msg[160];

	(void)state;
	port_counters(mad, 7, 1, 1);
	assert_int_equal(rperf_pma_decode(mad, 100, 0x0012, 7, &c, msg,
					  sizeof(msg)),
			 EINVAL);
	assert_non_null(strstr(msg, "short MAD"));
	assert_int_equal(rperf_pma_decode(mad, sizeof(mad), 0x0012, 8, &c, msg,
					  sizeof(msg)),
			 EINVAL);
	assert_non_null(strstr(msg, "PortSelect 7"));
	assert_int_equal(rperf_pma_decode(mad, sizeof(mad), 0x001d, 7, &c, msg,
					  sizeof(msg)),
			 EINVAL);
	mad[1] = 0x81; /* an SMP */
	assert_int_equal(rperf_pma_decode(mad, sizeof(mad), 0x0012, 7, &c, msg,
					  sizeof(msg)),
			 EINVAL);
	assert_non_null(strstr(msg, "not a PerfMgt GetResp"));
	mad[1] = 0x04;
	be16(mad + 4, 0x0008); /* unsupported attribute */
	assert_int_equal(rperf_pma_decode(mad, sizeof(mad), 0x0012, 7, &c, msg,
					  sizeof(msg)),
			 EIO);
	assert_non_null(strstr(msg, "not supported"));
}

/* Two readings: PortXmitWait wrapped from 0xfffffff0 to 0x10 (0x20 ticks);
 * the series shows 0x20, not a reset. The extended data counter is used
 * in bytes (4 x words). */
static void wrap_in_series(void **state)
{
	struct rperf_pma_wide wide[6];
	struct rperf_pma_counters c;
	struct rperf_ctr_reading *r = calloc(1, sizeof(*r));
	struct rperf_ctr_series s = { 0 };
	uint8_t mad[256];
	char msg[160];

	(void)state;
	assert_non_null(r);
	memset(wide, 0, sizeof(wide));
	memset(&c, 0, sizeof(c));
	port_counters(mad, 3, 0xfffffff0u, 0xfffffff0u);
	assert_int_equal(rperf_pma_decode(mad, sizeof(mad), 0x0012, 3, &c, msg,
					  sizeof(msg)),
			 0);
	assert_int_equal(rperf_pma_to_reading(&c, wide, "sw1/3/", r), 0);
	assert_int_equal(r->n, 6);
	assert_string_equal(r->e[0].name, "sw1/3/PortXmitWait");
	assert_int_equal(rperf_ctr_series_sample(&s, 0, r), 0);
	port_counters(mad, 3, 0x10, 0x10);
	assert_int_equal(rperf_pma_decode(mad, sizeof(mad), 0x0012, 3, &c, msg,
					  sizeof(msg)),
			 0);
	r->n = 0;
	assert_int_equal(rperf_pma_to_reading(&c, wide, "sw1/3/", r), 0);
	assert_int_equal(rperf_ctr_series_sample(&s, 500, r), 0);
	assert_int_equal(s.nrows, 1);
	assert_int_equal(s.v[0], 0x20); /* PortXmitWait */
	assert_int_equal(s.v[1], 4 * 0x20); /* PortXmitData in bytes */
	assert_false(wide[0].saturated);
	assert_int_equal(rperf_pma_widen(&wide[0], UINT32_MAX),
			 0x100000010ull + (UINT32_MAX - 0x10u));
	assert_true(wide[0].saturated);
	rperf_ctr_series_fini(&s);
	free(r);
}

static void roce_skipped(void **state)
{
	char buf[300];

	(void)state;
	assert_true(
		rperf_pma_skip_why("rxe_h1", 1, "ethernet", buf, sizeof(buf)));
	assert_non_null(strstr(buf, "rxe_h1 port 1 is RoCE"));
	assert_null(strchr(buf, '\n'));
	assert_false(rperf_pma_skip_why("mlx5_0", 1, "infiniband", buf,
					sizeof(buf)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(decode_port_counters),
		cmocka_unit_test(decode_extended),
		cmocka_unit_test(refused),
		cmocka_unit_test(wrap_in_series),
		cmocka_unit_test(roce_skipped),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
