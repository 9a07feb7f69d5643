/* SPDX-License-Identifier: BSD-2-Clause */
/* PARAMS of rperf lat: the generator spec the client ships
 * (rperf_session_spec), what the server accepts (rperf_session_params). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "config/options.h"
#include "session/session.h"
#include "verbs/rate.h"

static json_t *encode(const struct rperf_cli_config *cfg)
{
	struct rperf_gen_spec s;
	json_t *o = NULL;

	rperf_session_spec(cfg, RPERF_GEN_LSG, &s);
	assert_int_equal(rperf_gen_spec_encode(&s, &o), 0);
	return o;
}

static int decode(const json_t *o, uint64_t max, struct rperf_gen_spec *s,
		  char *why, size_t len)
{
	struct rperf_cli_config srv;
	uint64_t stall;

	rperf_cli_config_defaults(&srv);
	return rperf_session_params(&srv, o, max, s, &stall, why, len);
}

static void lat_cfg(struct rperf_cli_config *cfg)
{
	rperf_cli_config_defaults(cfg);
	cfg->cmd = RPERF_CMD_LAT;
	cfg->nsizes = 2;
	cfg->sizes[0] = 64;
	cfg->sizes[1] = 4096;
	cfg->sl = 3;
	cfg->tclass = 96;
	cfg->mtu = 1024;
}

static void round_trip(void **state)
{
	struct rperf_cli_config cfg;
	struct rperf_gen_spec p;
	char why[256];
	json_t *obj;

	(void)state;
	lat_cfg(&cfg);
	cfg.method = RPERF_METHOD_PINGPONG;
	cfg.rdma_cm = true;
	obj = encode(&cfg);
	assert_int_equal(decode(obj, 1 << 20, &p, why, sizeof(why)), 0);
	assert_int_equal(p.kind, RPERF_GEN_LSG);
	assert_int_equal(p.test.method, RPERF_METHOD_PINGPONG);
	assert_true(p.test.rdma_cm);
	assert_int_equal(p.size, 4096);
	assert_int_equal(p.test.rx_depth, cfg.rx_depth);
	assert_int_equal(p.path.mtu, 1024);
	assert_int_equal(p.path.sl, 3);
	assert_int_equal(p.path.tclass, 96);
	assert_int_equal(p.path.qp_timeout, 14);
	assert_int_equal(p.path.retry_count, 7);
	assert_int_equal(p.verb, RPERF_VERB_SEND);
	/* a size above what the server allows is refused with the reason */
	assert_int_equal(decode(obj, 1024, &p, why, sizeof(why)), EMSGSIZE);
	assert_non_null(strstr(why, "above what this server allows (1024 B)"));
	json_decref(obj);
	/* the keys of a PLAN's spec stay out of a plain lat run's PARAMS */
	lat_cfg(&cfg);
	obj = encode(&cfg);
	assert_null(json_object_get(obj, "method"));
	assert_null(json_object_get(obj, "bidir"));
	json_decref(obj);
}

/* Read and atomics (postpoll), the atomic's operand, write_imm refused. */
static void verbs(void **state)
{
	struct rperf_cli_config cfg;
	struct rperf_gen_spec p;
	char why[256];
	json_t *obj;

	(void)state;
	lat_cfg(&cfg);
	cfg.verb = RPERF_VERB_ATOMIC;
	cfg.atomic_op = RPERF_ATOMIC_CMP_SWAP;
	cfg.nsizes = 1;
	cfg.sizes[0] = RPERF_ATOMIC_SIZE;
	obj = encode(&cfg);
	assert_int_equal(decode(obj, 1 << 20, &p, why, sizeof(why)), 0);
	assert_int_equal(p.verb, RPERF_VERB_ATOMIC);
	assert_int_equal(p.test.atomic_op, RPERF_ATOMIC_CMP_SWAP);
	json_object_set_new(obj, "size", json_integer(16));
	assert_int_equal(decode(obj, 1 << 20, &p, why, sizeof(why)), EBADMSG);
	assert_non_null(strstr(why, "whose operand is 8 B"));
	json_object_set_new(obj, "size", json_integer(8));
	json_object_set_new(obj, "atomic_op", json_string("swap"));
	assert_int_equal(decode(obj, 1 << 20, &p, why, sizeof(why)), EBADMSG);
	assert_non_null(strstr(why, "atomic_op"));
	json_object_set_new(obj, "verb", json_string("write_imm"));
	json_object_del(obj, "atomic_op");
	assert_int_equal(decode(obj, 1 << 20, &p, why, sizeof(why)), EBADMSG);
	assert_non_null(strstr(why, "'verb'"));
	json_decref(obj);
}

static void hostile(void **state)
{
	static const struct {
		const char *key;
		const char *json; /* the bad value */
	} bad[] = {
		{ "size", "0" },	 { "size", "-1" },
		{ "size", "\"64\"" },	 { "rx_depth", "0" },
		{ "rx_depth", "65537" }, { "mtu", "1000" },
		{ "sl", "16" },		 { "tclass", "256" },
		{ "qp_timeout", "32" },	 { "retry_count", "8" },
		{ "rdma_cm", "1" },	 { "iters", "-1" },
	};
	struct rperf_cli_config cfg;
	struct rperf_gen_spec p;
	char why[256];
	json_t *obj;

	(void)state;
	lat_cfg(&cfg);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		obj = encode(&cfg);
		json_object_set_new(obj, bad[i].key,
				    json_loads(bad[i].json, JSON_DECODE_ANY,
					       NULL));
		why[0] = '\0';
		assert_int_equal(decode(obj, 1 << 20, &p, why, sizeof(why)),
				 EBADMSG);
		if (!strstr(why, bad[i].key))
			fail_msg("%s: '%s' does not name it", bad[i].key, why);
		json_decref(obj);
	}
	obj = json_loads("[]", 0, NULL);
	assert_int_equal(decode(obj, 1 << 20, &p, why, sizeof(why)), EBADMSG);
	json_decref(obj);
	/* a method this server does not know: the refusal in words */
	obj = encode(&cfg);
	json_object_set_new(obj, "method", json_string("warp"));
	assert_int_equal(decode(obj, 1 << 20, &p, why, sizeof(why)), EBADMSG);
	assert_string_equal(
		why,
		"method warp is a feature this server lacks (it serves: rperf, pingpong, postpoll, all)");
	json_decref(obj);
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
		cmocka_unit_test(verbs),
		cmocka_unit_test(hostile),
		cmocka_unit_test(link_rates),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
