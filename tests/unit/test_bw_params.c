/* SPDX-License-Identifier: BSD-2-Clause */
/* PARAMS of rperf bw: the generator spec the client ships
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

static void bw_cfg(struct rperf_cli_config *cfg)
{
	rperf_cli_config_defaults(cfg);
	cfg->cmd = RPERF_CMD_BW;
	cfg->nsizes = 3;
	cfg->sizes[0] = 64;
	cfg->sizes[1] = 65536;
	cfg->sizes[2] = 4096;
	cfg->verb = RPERF_VERB_WRITE_IMM;
	cfg->qps = 4;
	cfg->post_list = 16;
	cfg->sl = 2;
	cfg->tclass = 96;
	cfg->mtu = 2048;
	cfg->events = true;
}

static json_t *encode(const struct rperf_cli_config *cfg)
{
	struct rperf_gen_spec s;
	json_t *o = NULL;

	rperf_session_spec(cfg, RPERF_GEN_BSG, &s);
	assert_int_equal(rperf_gen_spec_encode(&s, &o), 0);
	return o;
}

static json_t *encoded(void)
{
	struct rperf_cli_config cfg;

	bw_cfg(&cfg);
	return encode(&cfg);
}

static int decode(const json_t *o, uint64_t max, struct rperf_gen_spec *s,
		  char *why, size_t len)
{
	struct rperf_cli_config srv;
	uint64_t stall;

	rperf_cli_config_defaults(&srv);
	return rperf_session_params(&srv, o, max, s, &stall, why, len);
}

static void round_trip(void **state)
{
	struct rperf_gen_spec p;
	char why[256];
	json_t *obj = encoded();

	(void)state;
	assert_int_equal(decode(obj, 1 << 20, &p, why, sizeof(why)), 0);
	assert_int_equal(p.kind, RPERF_GEN_BSG);
	assert_int_equal(p.verb, RPERF_VERB_WRITE_IMM);
	assert_int_equal(p.size, 65536);
	assert_int_equal(p.qps, 4);
	assert_int_equal(p.post_list, 16);
	assert_int_equal(p.test.rx_depth, 512);
	assert_int_equal(p.path.mtu, 2048);
	assert_int_equal(p.path.sl, 2);
	assert_int_equal(p.path.tclass, 96);
	assert_int_equal(p.path.qp_timeout, 14);
	assert_int_equal(p.path.retry_count, 7);
	assert_int_equal(p.sink_completion, RPERF_COMPLETION_EVENT);
	assert_string_equal(rperf_verb_name(RPERF_VERB_WRITE), "write");
	assert_string_equal(rperf_verb_name(9), "?");
	json_decref(obj);
}

static void too_big(void **state)
{
	struct rperf_gen_spec p;
	char why[256];
	json_t *obj = encoded();

	(void)state;
	assert_int_equal(decode(obj, 4096, &p, why, sizeof(why)), EMSGSIZE);
	assert_non_null(strstr(why, "above what this server allows (4096 B)"));
	json_decref(obj);
}

/* Each key missing, of the wrong type or out of range: EBADMSG naming it. */
static void hostile(void **state)
{
	static const struct {
		const char *key;
		const char *json; /* the bad value */
		bool optional; /* absent is fine */
	} bad[] = {
		{ "verb", "\"readx\"", false },
		{ "verb", "3", false },
		{ "size", "0", false },
		{ "size", "-1", false },
		{ "qps", "0", false },
		{ "qps", "1025", false },
		{ "rx_depth", "65537", false },
		{ "post_list", "0", false },
		{ "mtu", "300", false },
		{ "mtu", "8192", false },
		{ "sl", "16", false },
		{ "tclass", "256", false },
		{ "qp_timeout", "32", false },
		{ "retry_count", "8", false },
		{ "sink_completion", "1", false },
		{ "qps", "\"4\"", false },
		{ "size", "1.5", false },
		{ "bidir", "1", true },
		{ "reversed", "\"yes\"", true },
		{ "infinite", "0", true },
	};
	struct rperf_gen_spec p;
	char why[256];

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		json_t *obj = encoded();

		json_object_set_new(obj, bad[i].key,
				    json_loads(bad[i].json, JSON_DECODE_ANY,
					       NULL));
		assert_int_equal(decode(obj, 1 << 20, &p, why, sizeof(why)),
				 EBADMSG);
		if (!strstr(why, bad[i].key))
			fail_msg("%s: '%s' does not name it", bad[i].key, why);
		json_object_del(obj, bad[i].key);
		assert_int_equal(decode(obj, 1 << 20, &p, why, sizeof(why)),
				 bad[i].optional ? 0 : EBADMSG);
		json_decref(obj);
	}
	assert_int_equal(decode(NULL, 1, &p, why, sizeof(why)), EINVAL);
}

/* -b and --reversed: the generator's keys (tx_depth up to bw's 16M, -n,
 * --run_infinitely) and the combinations a server refuses. */
static void bidir(void **state)
{
	struct rperf_cli_config cfg;
	struct rperf_gen_spec p;
	char why[256];
	json_t *obj = encoded();

	(void)state;
	assert_int_equal(decode(obj, 1 << 20, &p, why, sizeof(why)), 0);
	assert_false(p.test.bidir);
	assert_null(json_object_get(obj, "bidir"));
	json_decref(obj);
	bw_cfg(&cfg);
	cfg.verb = RPERF_VERB_SEND;
	cfg.nsizes = 1;
	cfg.sizes[0] = 4096;
	cfg.bidir = true;
	cfg.iters = 777;
	cfg.duration_ns = 0;
	cfg.tx_depth = 100000;
	cfg.cq_mod = 8;
	obj = encode(&cfg);
	assert_int_equal(decode(obj, 1 << 20, &p, why, sizeof(why)), 0);
	assert_true(p.test.bidir);
	assert_int_equal(p.test.iters, 777);
	assert_int_equal(p.tx_depth, 100000);
	assert_int_equal(p.cq_mod, 8);
	assert_int_equal(p.duration_ns, 0);
	assert_false(p.test.infinite);
	/* a PLAN keeps its own bounds: an agent refuses this spec */
	assert_int_equal(rperf_gen_spec_decode(obj, &p, why, sizeof(why)),
			 EBADMSG);
	json_object_set_new(obj, "reversed", json_true());
	assert_int_equal(decode(obj, 1 << 20, &p, why, sizeof(why)), EBADMSG);
	assert_non_null(strstr(why, "'reversed' and 'bidir'"));
	json_object_del(obj, "bidir");
	json_object_set_new(obj, "verb", json_string("read"));
	assert_int_equal(decode(obj, 1 << 20, &p, why, sizeof(why)), EBADMSG);
	assert_non_null(strstr(why, "'reversed' with verb read"));
	json_object_set_new(obj, "verb", json_string("send"));
	json_object_set_new(obj, "tx_depth", json_integer(8)); /* -l 16 */
	assert_int_equal(decode(obj, 1 << 20, &p, why, sizeof(why)), EBADMSG);
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
