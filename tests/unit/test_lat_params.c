/* SPDX-License-Identifier: BSD-2-Clause */
/* PARAMS of rperf lat: what the client ships, what the server accepts. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "config/options.h"
#include "lat/lat_params.h"
#include "verbs/rate.h"

static void round_trip(void **state)
{
	struct rperf_cli_config cfg;
	struct rperf_lat_params p;
	char why[256];
	json_t *obj;

	(void)state;
	rperf_cli_config_defaults(&cfg);
	cfg.cmd = RPERF_CMD_LAT;
	cfg.nsizes = 2;
	cfg.sizes[0] = 64;
	cfg.sizes[1] = 4096;
	cfg.sl = 3;
	cfg.tclass = 96;
	cfg.mtu = 1024;
	obj = rperf_lat_params_encode(&cfg);
	assert_non_null(obj);
	assert_int_equal(
		rperf_lat_params_decode(obj, 1 << 20, &p, why, sizeof(why)), 0);
	assert_string_equal(p.method, "rperf");
	assert_int_equal(p.max_size, 4096);
	assert_int_equal(p.rx_depth, cfg.rx_depth);
	assert_int_equal(p.path.mtu, 1024);
	assert_int_equal(p.path.sl, 3);
	assert_int_equal(p.path.tclass, 96);
	assert_int_equal(p.path.qp_timeout, 14);
	assert_int_equal(p.path.retry_count, 7);
	/* a size above what the server allows is refused with the reason */
	assert_int_equal(rperf_lat_params_decode(obj, 1024, &p, why,
						 sizeof(why)),
			 EMSGSIZE);
	assert_non_null(strstr(why, "above what this server allows"));
	json_decref(obj);
}

static void hostile(void **state)
{
	static const char *const bad[] = {
		"[]",
		"{}",
		"{\"method\":\"warp\",\"max_size\":64}",
		"{\"method\":\"rperf\"}",
		"{\"method\":\"rperf\",\"max_size\":0,\"rx_depth\":1,\"mtu\":0,\"sl\":0,\"tclass\":0,\"qp_timeout\":14,\"retry_count\":7}",
		"{\"method\":\"rperf\",\"max_size\":64,\"rx_depth\":0,\"mtu\":0,\"sl\":0,\"tclass\":0,\"qp_timeout\":14,\"retry_count\":7}",
		"{\"method\":\"rperf\",\"max_size\":64,\"rx_depth\":1,\"mtu\":1000,\"sl\":0,\"tclass\":0,\"qp_timeout\":14,\"retry_count\":7}",
		"{\"method\":\"rperf\",\"max_size\":64,\"rx_depth\":1,\"mtu\":0,\"sl\":16,\"tclass\":0,\"qp_timeout\":14,\"retry_count\":7}",
		"{\"method\":\"rperf\",\"max_size\":64,\"rx_depth\":1,\"mtu\":0,\"sl\":0,\"tclass\":256,\"qp_timeout\":14,\"retry_count\":7}",
		"{\"method\":\"rperf\",\"max_size\":64,\"rx_depth\":1,\"mtu\":0,\"sl\":0,\"tclass\":0,\"qp_timeout\":32,\"retry_count\":7}",
		"{\"method\":\"rperf\",\"max_size\":64,\"rx_depth\":1,\"mtu\":0,\"sl\":0,\"tclass\":0,\"qp_timeout\":14,\"retry_count\":8}",
		"{\"method\":\"rperf\",\"max_size\":\"64\",\"rx_depth\":1,\"mtu\":0,\"sl\":0,\"tclass\":0,\"qp_timeout\":14,\"retry_count\":7}",
		"{\"method\":\"rperf\",\"max_size\":-1,\"rx_depth\":1,\"mtu\":0,\"sl\":0,\"tclass\":0,\"qp_timeout\":14,\"retry_count\":7}",
	};
	struct rperf_lat_params p;
	char why[256];

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		json_t *obj = json_loads(bad[i], 0, NULL);

		assert_non_null(obj);
		why[0] = '\0';
		assert_int_not_equal(rperf_lat_params_decode(obj, 1 << 20, &p,
							     why, sizeof(why)),
				     0);
		assert_true(why[0] != '\0');
		json_decref(obj);
	}
}

static void link_rates(void **state)
{
	(void)state;
	/* 4x FDR: 14.0625 Gb/s per lane, 64b/66b */
	assert_true(rperf_ib_rate_gbps(16, 2) > 54.5 &&
		    rperf_ib_rate_gbps(16, 2) < 54.6);
	/* 4x QDR: 10 Gb/s per lane, 8b/10b */
	assert_true(rperf_ib_rate_gbps(4, 2) == 32.0);
	/* 4x EDR = 100 Gb/s of data */
	assert_true(rperf_ib_rate_gbps(32, 2) == 100.0);
	assert_true(rperf_ib_rate_gbps(3, 2) == 0);
	assert_true(rperf_ib_rate_gbps(16, 3) == 0);
	assert_int_equal(rperf_vl_count(4), 8);
	assert_int_equal(rperf_vl_count(5), 15);
	assert_int_equal(rperf_vl_count(9), 0);
	assert_true(rperf_netdev_gbps("../etc") == 0);
	assert_true(rperf_netdev_gbps("no-such-netdev0") == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(round_trip),
		cmocka_unit_test(hostile),
		cmocka_unit_test(link_rates),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
