/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Link rates (every IB speed x width), SL->VL and VL arbitration decoding
 * of captured SMP responses, and the --vl choice against scripted tables.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "verbs/rate.h"
#include "verbs/vl.h"

#define NEAR(a, b, eps) assert_true(fabs((a) - (b)) < (eps))

static void rate_table(void **state)
{
	/* speed code, name, encoding, per-lane data Gb/s */
	static const struct {
		uint32_t code;
		const char *name, *enc;
		double lane;
	} want[] = {
		{ 1, "SDR", "8b/10b", 2.0 },
		{ 2, "DDR", "8b/10b", 4.0 },
		{ 4, "QDR", "8b/10b", 8.0 },
		{ 8, "FDR10", "64b/66b", 10.0 },
		{ 16, "FDR", "64b/66b", 13.636363636 },
		{ 32, "EDR", "64b/66b", 25.0 },
		{ 64, "HDR", "PAM4/FEC", 50.0 },
		{ 128, "NDR", "PAM4/FEC", 100.0 },
		{ 256, "XDR", "PAM4/FEC", 200.0 },
	};
	/* active_width code -> lanes: 1x, 2x, 4x, 8x, 12x */
	static const uint32_t widths[] = { 1, 16, 2, 4, 8 };
	static const int lanes[] = { 1, 2, 4, 8, 12 };

	(void)state;
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const struct rperf_ib_speed *s =
			rperf_ib_speed_find(want[i].code);

		assert_non_null(s);
		assert_string_equal(s->name, want[i].name);
		assert_string_equal(s->encoding, want[i].enc);
		NEAR(s->lane_gbps, want[i].lane, 1e-6);
		for (size_t w = 0; w < 5; w++) {
			assert_int_equal(rperf_ib_width_lanes(widths[w]),
					 lanes[w]);
			NEAR(rperf_ib_rate_gbps(want[i].code, widths[w]),
			     want[i].lane * lanes[w], 1e-6);
		}
	}
	/* the well-known figures */
	NEAR(rperf_ib_rate_gbps(16, 2), 54.545454, 1e-4); /* 4x FDR */
	NEAR(rperf_ib_rate_gbps(64, 2), 200.0, 1e-9); /* 4x HDR */
	NEAR(rperf_ib_rate_gbps(128, 2), 400.0, 1e-9); /* 4x NDR */
	NEAR(rperf_ib_rate_gbps(256, 2), 800.0, 1e-9); /* 4x XDR */
	NEAR(rperf_ib_rate_gbps(1, 8), 24.0, 1e-9); /* 12x SDR */
	/* unknown codes */
	assert_null(rperf_ib_speed_find(0));
	assert_null(rperf_ib_speed_find(3));
	assert_null(rperf_ib_speed_find(512));
	assert_int_equal(rperf_ib_width_lanes(3), 0);
	assert_int_equal(rperf_ib_width_lanes(32), 0);
	assert_true(rperf_ib_rate_gbps(3, 2) == 0);
	assert_true(rperf_ib_rate_gbps(16, 0) == 0);
}

/* A SubnGet(SLtoVLMappingTable) response as smpquery sl2vl receives it. */
static void captured_sl2vl(uint8_t *mad)
{
	/* SL0..15 -> 0,1,2,3, 0,1,2,3, 4,4,4,4, 7,7, 15,15 */
	static const uint8_t tab[8] = { 0x01, 0x23, 0x01, 0x23,
					0x44, 0x44, 0x77, 0xff };

	memset(mad, 0, RPERF_MAD_SIZE);
	mad[0] = 1; /* base version */
	mad[1] = 0x01; /* SubnMgmt, LID routed */
	mad[2] = 1; /* class version */
	mad[3] = 0x81; /* GetResp */
	mad[16] = 0x00; /* attribute id 0x0017, big endian */
	mad[17] = 0x17;
	mad[23] = 0x00; /* modifier: in port 0 / out port 0 */
	memcpy(mad + 64, tab, sizeof(tab));
}

static void sl2vl_decode(void **state)
{
	static const uint8_t expect[16] = { 0, 1, 2, 3, 0, 1, 2,  3,
					    4, 4, 4, 4, 7, 7, 15, 15 };
	uint8_t mad[RPERF_MAD_SIZE];
	const uint8_t *data = NULL;
	struct rperf_sl2vl t;
	char msg[160], buf[128];

	(void)state;
	captured_sl2vl(mad);
	assert_int_equal(rperf_smp_data(mad, sizeof(mad), RPERF_ATTR_SL2VL,
					&data, msg, sizeof(msg)),
			 0);
	assert_ptr_equal(data, mad + 64);
	assert_int_equal(rperf_sl2vl_decode(data, RPERF_SMP_DATA_LEN, &t), 0);
	assert_memory_equal(t.vl, expect, 16);
	rperf_sl2vl_format(&t, buf, sizeof(buf));
	assert_string_equal(
		buf,
		"0:0 1:1 2:2 3:3 4:0 5:1 6:2 7:3 8:4 9:4 10:4 11:4 12:7 13:7 14:15 15:15");
	/* directed route responses carry the data at the same offset */
	mad[1] = 0x81;
	mad[4] = 0x80; /* D bit (direction) is not an error */
	assert_int_equal(rperf_smp_data(mad, sizeof(mad), RPERF_ATTR_SL2VL,
					&data, msg, sizeof(msg)),
			 0);
	/* hostile or failed captures */
	assert_int_equal(rperf_smp_data(mad, 100, RPERF_ATTR_SL2VL, &data, msg,
					sizeof(msg)),
			 EINVAL);
	assert_int_equal(rperf_smp_data(mad, sizeof(mad), RPERF_ATTR_VLARB,
					&data, msg, sizeof(msg)),
			 EINVAL);
	assert_non_null(strstr(msg, "0x0017"));
	mad[5] = 0x0c; /* status: unsupported attribute */
	assert_int_equal(rperf_smp_data(mad, sizeof(mad), RPERF_ATTR_SL2VL,
					&data, msg, sizeof(msg)),
			 EIO);
	mad[5] = 0;
	mad[3] = 0x01; /* a Get, not a response */
	assert_int_equal(rperf_smp_data(mad, sizeof(mad), RPERF_ATTR_SL2VL,
					&data, msg, sizeof(msg)),
			 EINVAL);
	assert_int_equal(rperf_sl2vl_decode(data, 7, &t), EINVAL);
}

static void vlarb_decode(void **state)
{
	uint8_t mad[RPERF_MAD_SIZE] = { 1, 0x01, 1, 0x81 };
	struct rperf_vlarb_block b;
	const uint8_t *data;
	char msg[160];

	(void)state;
	mad[16] = 0x00;
	mad[17] = 0x18;
	mad[23] = 1; /* low-priority entries 0..31 */
	/* VL0 weight 64, VL1 weight 32, upper reserved nibble set (ignored) */
	mad[64] = 0x00;
	mad[65] = 64;
	mad[66] = 0xf1;
	mad[67] = 32;
	assert_int_equal(rperf_smp_data(mad, sizeof(mad), RPERF_ATTR_VLARB,
					&data, msg, sizeof(msg)),
			 0);
	assert_int_equal(rperf_vlarb_decode(data, RPERF_SMP_DATA_LEN, &b), 0);
	assert_int_equal(b.e[0].vl, 0);
	assert_int_equal(b.e[0].weight, 64);
	assert_int_equal(b.e[1].vl, 1);
	assert_int_equal(b.e[1].weight, 32);
	assert_int_equal(b.e[2].weight, 0);
	assert_int_equal(rperf_vlarb_decode(data, 63, &b), EINVAL);
}

static void vl_choice(void **state)
{
	uint8_t mad[RPERF_MAD_SIZE];
	struct rperf_sl2vl t;
	char msg[256];
	int sl = -1;

	(void)state;
	captured_sl2vl(mad);
	assert_int_equal(rperf_sl2vl_decode(mad + 64, 8, &t), 0);
	/* lowest SL that maps to the VL */
	assert_int_equal(
		rperf_vl_pick_sl(&t, 0, NULL, 3, &sl, msg, sizeof(msg)), 0);
	assert_int_equal(sl, 3);
	assert_int_equal(
		rperf_vl_pick_sl(&t, 0, NULL, 4, &sl, msg, sizeof(msg)), 0);
	assert_int_equal(sl, 8);
	assert_int_equal(
		rperf_vl_pick_sl(&t, 0, NULL, 7, &sl, msg, sizeof(msg)), 0);
	assert_int_equal(sl, 12);
	/* no SL maps to VL 5: the error shows the table */
	sl = -1;
	assert_int_equal(rperf_vl_pick_sl(&t, 0, NULL, 5, &sl, msg,
					  sizeof(msg)),
			 ENOENT);
	assert_int_equal(sl, -1);
	assert_non_null(strstr(msg, "VL 5"));
	assert_non_null(strstr(msg, "12:7"));
	/* VL15 is management only, even though SL14 maps there */
	assert_int_equal(rperf_vl_pick_sl(&t, 0, NULL, 15, &sl, msg,
					  sizeof(msg)),
			 EINVAL);
	assert_int_equal(rperf_vl_pick_sl(&t, 0, NULL, -1, &sl, msg,
					  sizeof(msg)),
			 EINVAL);
	/* the table cannot be read */
	assert_int_equal(
		rperf_vl_pick_sl(NULL, EACCES,
				 "/dev/infiniband/umad0: permission denied", 0,
				 &sl, msg, sizeof(msg)),
		EACCES);
	assert_non_null(strstr(msg, "umad0"));
	assert_int_equal(rperf_vl_pick_sl(NULL, 0, NULL, 0, &sl, msg,
					  sizeof(msg)),
			 ENODATA);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rate_table),
		cmocka_unit_test(sl2vl_decode),
		cmocka_unit_test(vlarb_decode),
		cmocka_unit_test(vl_choice),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
