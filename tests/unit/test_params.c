/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * PARAMS of rperf lat and rperf bw: the generator spec the client ships
 * (rperf_session_spec, rperf_gen_spec_encode), what the server accepts
 * (rperf_session_params: the spec with the test keys, the server's size
 * and limits): round trips, the verbs (READ, atomics, write_imm), -b and
 * --reversed, hostile values.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "config/options.h"
#include "session/session.h"

static json_t *encode_kind(const struct rperf_cli_config *cfg,
			   enum rperf_gen_kind kind)
{
	struct rperf_gen_spec s;
	json_t *o = NULL;

	rperf_session_spec(cfg, kind, &s);
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

/* ---- rperf lat ---- */

static json_t *encode(const struct rperf_cli_config *cfg)
{
	return encode_kind(cfg, RPERF_GEN_LSG);
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

static void lat_round_trip(void **state)
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
	/* the test keys at their defaults stay out of the PARAMS */
	lat_cfg(&cfg);
	obj = encode(&cfg);
	assert_null(json_object_get(obj, "method"));
	assert_null(json_object_get(obj, "bidir"));
	json_decref(obj);
}

/* Read and atomics (postpoll), the atomic's operand, write_imm refused. */
static void lat_verbs(void **state)
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

static void lat_hostile(void **state)
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

/* ---- rperf bw ---- */

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
	cfg->inline_size = 220;
}

static json_t *encoded(void)
{
	struct rperf_cli_config cfg;

	bw_cfg(&cfg);
	return encode_kind(&cfg, RPERF_GEN_BSG);
}

static void bw_round_trip(void **state)
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
	assert_int_equal(p.inline_size, 220); /* -I: the spec says it too */
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

static void bw_too_big(void **state)
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
static void bw_hostile(void **state)
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
static void bw_bidir(void **state)
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
	obj = encode_kind(&cfg, RPERF_GEN_BSG);
	assert_int_equal(decode(obj, 1 << 20, &p, why, sizeof(why)), 0);
	assert_true(p.test.bidir);
	assert_int_equal(p.test.iters, 777);
	assert_int_equal(p.tx_depth, 100000);
	assert_int_equal(p.cq_mod, 8);
	assert_int_equal(p.duration_ns, 0);
	assert_false(p.test.infinite);
	/* a PLAN always has a window: an agent refuses this spec */
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

static void bw_config(struct rperf_cli_config *cfg, int verb, uint64_t size)
{
	rperf_cli_config_defaults(cfg);
	cfg->cmd = RPERF_CMD_BW;
	cfg->nsizes = 1;
	cfg->sizes[0] = size;
	cfg->verb = verb;
}

static void bw_verbs(void **state)
{
	struct rperf_cli_config cfg;
	struct rperf_gen_spec p;
	char why[256];
	json_t *o;

	(void)state;
	bw_config(&cfg, RPERF_VERB_ATOMIC, 8);
	cfg.atomic_op = RPERF_ATOMIC_CMP_SWAP;
	o = encode_kind(&cfg, RPERF_GEN_BSG);
	assert_int_equal(decode(o, 1 << 20, &p, why, sizeof(why)), 0);
	assert_int_equal(p.verb, RPERF_VERB_ATOMIC);
	assert_int_equal(p.test.atomic_op, RPERF_ATOMIC_CMP_SWAP);
	/* hostile: an atomic of 64 B, an unknown operation */
	json_object_set_new(o, "size", json_integer(64));
	assert_int_equal(decode(o, 1 << 20, &p, why, sizeof(why)), EBADMSG);
	assert_non_null(strstr(why, "'size'"));
	json_object_set_new(o, "size", json_integer(8));
	json_object_set_new(o, "atomic_op", json_string("swap_all"));
	assert_int_equal(decode(o, 1 << 20, &p, why, sizeof(why)), EBADMSG);
	json_decref(o);

	bw_config(&cfg, RPERF_VERB_SEND, 4096);
	cfg.reversed = true;
	cfg.iters = 77;
	o = encode_kind(&cfg, RPERF_GEN_BSG);
	assert_int_equal(decode(o, 1 << 20, &p, why, sizeof(why)), 0);
	assert_true(p.test.reversed);
	assert_false(p.test.bidir);
	assert_int_equal(p.test.iters, 77); /* the server generates */
	json_object_set_new(o, "bidir", json_true());
	assert_int_equal(decode(o, 1 << 20, &p, why, sizeof(why)), EBADMSG);
	json_object_set_new(o, "bidir", json_false());
	json_object_set_new(o, "verb", json_string("read"));
	assert_int_equal(decode(o, 1 << 20, &p, why, sizeof(why)), EBADMSG);
	json_object_set_new(o, "verb", json_string("send"));
	json_object_del(o, "tx_depth"); /* reversed needs the generator */
	assert_int_equal(decode(o, 1 << 20, &p, why, sizeof(why)), EBADMSG);
	json_decref(o);

	bw_config(&cfg, RPERF_VERB_READ, 65536); /* no new keys for READ */
	o = encode_kind(&cfg, RPERF_GEN_BSG);
	assert_null(json_object_get(o, "reversed"));
	assert_null(json_object_get(o, "atomic_op"));
	assert_int_equal(decode(o, 1 << 20, &p, why, sizeof(why)), 0);
	assert_int_equal(p.verb, RPERF_VERB_READ);
	json_decref(o);
}

static void lat_verbs_older(void **state)
{
	struct rperf_cli_config cfg;
	struct rperf_gen_spec p;
	char why[256];
	json_t *o;

	(void)state;
	rperf_cli_config_defaults(&cfg);
	cfg.cmd = RPERF_CMD_LAT;
	cfg.nsizes = 1;
	cfg.sizes[0] = 64;
	o = encode_kind(&cfg, RPERF_GEN_LSG);
	assert_int_equal(decode(o, 1 << 20, &p, why, sizeof(why)), 0);
	assert_int_equal(p.verb, RPERF_VERB_SEND);
	json_decref(o);
	cfg.verb = RPERF_VERB_WRITE;
	o = encode_kind(&cfg, RPERF_GEN_LSG);
	assert_int_equal(decode(o, 1 << 20, &p, why, sizeof(why)), 0);
	assert_int_equal(p.verb, RPERF_VERB_WRITE);
	json_object_set_new(o, "verb", json_string("write_imm"));
	assert_int_equal(decode(o, 1 << 20, &p, why, sizeof(why)), EBADMSG);
	json_object_set_new(o, "verb", json_integer(1));
	assert_int_equal(decode(o, 1 << 20, &p, why, sizeof(why)), EBADMSG);
	json_object_set_new(o, "verb", json_string("atomic")); /* 64 B */
	json_object_set_new(o, "atomic_op", json_string("fetch_and_add"));
	assert_int_equal(decode(o, 1 << 20, &p, why, sizeof(why)), EBADMSG);
	assert_non_null(strstr(why, "'size'"));
	json_object_set_new(o, "size", json_integer(8));
	assert_int_equal(decode(o, 1 << 20, &p, why, sizeof(why)), 0);
	assert_int_equal(p.verb, RPERF_VERB_ATOMIC);
	json_decref(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(lat_round_trip),
		cmocka_unit_test(lat_verbs),
		cmocka_unit_test(lat_hostile),
		cmocka_unit_test(lat_verbs_older),
		cmocka_unit_test(bw_round_trip),
		cmocka_unit_test(bw_too_big),
		cmocka_unit_test(bw_hostile),
		cmocka_unit_test(bw_bidir),
		cmocka_unit_test(bw_verbs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
