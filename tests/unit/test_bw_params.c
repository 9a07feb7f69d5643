/* SPDX-License-Identifier: BSD-2-Clause */
/* PARAMS of rperf bw: what the client ships, what the server accepts. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "bw/bw_params.h"
#include "config/options.h"

static json_t *encoded(void)
{
	struct rperf_cli_config cfg;

	rperf_cli_config_defaults(&cfg);
	cfg.cmd = RPERF_CMD_BW;
	cfg.nsizes = 3;
	cfg.sizes[0] = 64;
	cfg.sizes[1] = 65536;
	cfg.sizes[2] = 4096;
	cfg.verb = RPERF_VERB_WRITE_IMM;
	cfg.qps = 4;
	cfg.post_list = 16;
	cfg.sl = 2;
	cfg.tclass = 96;
	cfg.mtu = 2048;
	cfg.events = true;
	return rperf_bw_params_encode(&cfg);
}

static void round_trip(void **state)
{
	struct rperf_bw_params p;
	char why[256];
	json_t *obj = encoded();

	(void)state;
	assert_non_null(obj);
	assert_int_equal(
		rperf_bw_params_decode(obj, 1 << 20, &p, why, sizeof(why)), 0);
	assert_int_equal(p.verb, RPERF_VERB_WRITE_IMM);
	assert_int_equal(p.max_size, 65536);
	assert_int_equal(p.qps, 4);
	assert_int_equal(p.post_list, 16);
	assert_int_equal(p.rx_depth, 512);
	assert_int_equal(p.path.mtu, 2048);
	assert_int_equal(p.path.sl, 2);
	assert_int_equal(p.path.tclass, 96);
	assert_int_equal(p.path.qp_timeout, 14);
	assert_int_equal(p.path.retry_count, 7);
	assert_true(p.events);
	assert_string_equal(rperf_verb_name(RPERF_VERB_WRITE), "write");
	assert_string_equal(rperf_verb_name(9), "?");
	json_decref(obj);
}

static void too_big(void **state)
{
	struct rperf_bw_params p;
	char why[256];
	json_t *obj = encoded();

	(void)state;
	assert_int_equal(rperf_bw_params_decode(obj, 4096, &p, why,
						sizeof(why)),
			 EMSGSIZE);
	assert_non_null(strstr(why, "above what this server allows (4096 B)"));
	json_decref(obj);
}

/* Each key missing, of the wrong type or out of range: EBADMSG naming it. */
static void hostile(void **state)
{
	static const struct {
		const char *key;
		const char *json; /* the bad value */
	} bad[] = {
		{ "verb", "\"readx\"" }, { "verb", "3" },
		{ "max_size", "0" },	 { "max_size", "-1" },
		{ "qps", "0" },		 { "qps", "1025" },
		{ "rx_depth", "65537" }, { "post_list", "0" },
		{ "mtu", "300" },	 { "mtu", "8192" },
		{ "sl", "16" },		 { "tclass", "256" },
		{ "qp_timeout", "32" },	 { "retry_count", "8" },
		{ "events", "1" },	 { "qps", "\"4\"" },
		{ "max_size", "1.5" },
	};
	struct rperf_bw_params p;
	char why[256];

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		json_t *obj = encoded();

		json_object_set_new(obj, bad[i].key,
				    json_loads(bad[i].json, JSON_DECODE_ANY,
					       NULL));
		assert_int_equal(rperf_bw_params_decode(obj, 1 << 20, &p, why,
							sizeof(why)),
				 EBADMSG);
		assert_non_null(strstr(why, bad[i].key));
		json_object_del(obj, bad[i].key);
		assert_int_equal(rperf_bw_params_decode(obj, 1 << 20, &p, why,
							sizeof(why)),
				 EBADMSG);
		json_decref(obj);
	}
	assert_int_equal(rperf_bw_params_decode(NULL, 1, &p, why, sizeof(why)),
			 EBADMSG);
}

/* -b: "bidir" is optional (older clients); when true the generator's keys
 * are required and checked. */
static void bidir(void **state)
{
	static const struct {
		const char *key;
		const char *json;
	} bad[] = {
		{ "bidir", "1" },	    { "tx_depth", "0" },
		{ "cq_mod", "65537" },	    { "iters", "-1" },
		{ "duration_ns", "\"1\"" }, { "infinite", "0" },
	};
	struct rperf_cli_config cfg;
	struct rperf_bw_params p;
	char why[256];
	json_t *obj = encoded();

	(void)state;
	assert_int_equal(
		rperf_bw_params_decode(obj, 1 << 20, &p, why, sizeof(why)), 0);
	assert_false(p.bidir);
	assert_null(json_object_get(obj, "bidir"));
	json_decref(obj);
	rperf_cli_config_defaults(&cfg);
	cfg.cmd = RPERF_CMD_BW;
	cfg.nsizes = 1;
	cfg.sizes[0] = 4096;
	cfg.bidir = true;
	cfg.iters = 777;
	cfg.tx_depth = 64;
	cfg.cq_mod = 8;
	obj = rperf_bw_params_encode(&cfg);
	assert_non_null(obj);
	assert_int_equal(
		rperf_bw_params_decode(obj, 1 << 20, &p, why, sizeof(why)), 0);
	assert_true(p.bidir);
	assert_int_equal(p.iters, 777);
	assert_int_equal(p.tx_depth, 64);
	assert_int_equal(p.cq_mod, 8);
	assert_int_equal(p.duration_ns, 0);
	assert_false(p.infinite);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		json_t *o = json_deep_copy(obj);

		json_object_set_new(o, bad[i].key,
				    json_loads(bad[i].json, JSON_DECODE_ANY,
					       NULL));
		assert_int_equal(rperf_bw_params_decode(o, 1 << 20, &p, why,
							sizeof(why)),
				 EBADMSG);
		assert_non_null(strstr(why, bad[i].key));
		json_decref(o);
	}
	json_object_set_new(obj, "post_list", json_integer(65));
	assert_int_equal(rperf_bw_params_decode(obj, 1 << 20, &p, why,
						sizeof(why)),
			 EBADMSG);
	assert_non_null(strstr(why, "tx_depth"));
	json_decref(obj);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(round_trip),
		cmocka_unit_test(too_big),
		cmocka_unit_test(hostile),
		cmocka_unit_test(bidir),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
