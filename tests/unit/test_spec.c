// SPDX-License-Identifier: BSD-2-Clause
/*
 * Generator spec codec: defaults, names, round trip, and the decoder's
 * rejection of every key missing or bad (with the key named in @why).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "engine/spec.h"

static void sample(struct rperf_gen_spec *s, enum rperf_gen_kind k)
{
	rperf_gen_spec_defaults(s, k);
	s->id = 7;
	snprintf(s->name, sizeof(s->name), "bg");
	snprintf(s->from, sizeof(s->from), "h1");
	snprintf(s->to, sizeof(s->to), "h2");
}

static void test_defaults_names(void **state)
{
	struct rperf_gen_spec s;
	enum rperf_completion c;
	enum rperf_gen_kind k;
	int v;

	(void)state;
	rperf_gen_spec_defaults(&s, RPERF_GEN_LSG);
	assert_int_equal(s.size, 64);
	assert_int_equal(s.path.qp_timeout, 14);
	assert_int_equal(s.path.retry_count, 7);
	assert_int_equal(s.sink_completion, RPERF_COMPLETION_EVENT);
	assert_int_equal(s.completion, RPERF_COMPLETION_POLL);
	rperf_gen_spec_defaults(&s, RPERF_GEN_BSG);
	assert_int_equal(s.size, 65536);
	assert_int_equal(s.tx_depth, 128);
	assert_int_equal(s.qps, 1);
	assert_string_equal(rperf_gen_kind_name(RPERF_GEN_LSG), "lsg");
	assert_string_equal(rperf_gen_kind_name(RPERF_GEN_BSG), "bsg");
	assert_string_equal(rperf_gen_kind_name(0), "?");
	assert_string_equal(rperf_completion_name(RPERF_COMPLETION_EVENT),
			    "event");
	assert_string_equal(rperf_completion_name(9), "?");
	assert_string_equal(rperf_pair_order_name(3), "sequential");
	assert_string_equal(rperf_verb_name(2), "write_imm");
	assert_string_equal(rperf_verb_name(-1), "?");
	assert_int_equal(rperf_gen_kind_parse("bsg", &k), 0);
	assert_int_equal(k, RPERF_GEN_BSG);
	assert_int_equal(rperf_completion_parse("poll", &c), 0);
	assert_int_equal(c, RPERF_COMPLETION_POLL);
	assert_int_equal(rperf_pair_order_parse("wire_first", &v), 0);
	assert_int_equal(v, 1);
	assert_int_equal(rperf_verb_parse("write", &v), 0);
	assert_int_equal(v, 1);
	/* a PLAN's BSG sends every verb rperf bw does */
	assert_int_equal(rperf_verb_parse("read", &v), 0);
	assert_int_equal(v, RPERF_VERB_READ);
	assert_int_equal(rperf_verb_parse("atomic", &v), 0);
	assert_int_equal(v, RPERF_VERB_ATOMIC);
	assert_int_equal(rperf_verb_parse("reads", &v), EINVAL);
	assert_int_equal(rperf_pair_order_parse("Loop-First", &v), 0);
	assert_int_equal(v, RPERF_PAIR_LOOP_FIRST);
	assert_int_equal(rperf_pair_order_parse("wirefirst", &v), EINVAL);
	assert_int_equal(rperf_gen_kind_parse(NULL, &k), EINVAL);
}

/* The kind table (engine/gen_kinds.c): every row's name both ways, a
 * source, one family; nothing before the first row or after the last. */
static void test_kinds(void **state)
{
	enum rperf_gen_kind k, back;

	(void)state;
	assert_true(rperf_gen_latency(RPERF_GEN_LSG));
	assert_false(rperf_gen_bandwidth(RPERF_GEN_LSG));
	assert_true(rperf_gen_bandwidth(RPERF_GEN_BSG));
	assert_false(rperf_gen_latency(RPERF_GEN_BSG));
	assert_null(rperf_gen_kind_at(0));
	assert_false(rperf_gen_latency(0) || rperf_gen_bandwidth(0));
	for (k = RPERF_GEN_LSG; rperf_gen_kind_at(k); k++) {
		assert_int_equal(
			rperf_gen_kind_parse(rperf_gen_kind_name(k), &back), 0);
		assert_int_equal(back, k);
		assert_non_null(rperf_gen_kind_at(k)->source);
		assert_true(rperf_gen_latency(k) != rperf_gen_bandwidth(k));
		assert_true(rperf_gen_kind_at(k)->default_size >= 1);
	}
	assert_true(k > RPERF_GEN_BSG);
	assert_false(rperf_gen_latency(k) || rperf_gen_bandwidth(k));
	assert_string_equal(rperf_gen_kind_name(k), "?");
	assert_int_equal(rperf_gen_kind_parse("LSG", &back), EINVAL);
	assert_int_equal(rperf_gen_kind_parse("incast", &back), EINVAL);
}

/* gen/gen.h's one name table per enum: both spellings, nothing else. */
static void test_names(void **state)
{
	int v = -1;

	(void)state;
	assert_string_equal(rperf_verb_name(RPERF_VERB_ATOMIC), "atomic");
	assert_string_equal(rperf_verb_name(5), "?");
	assert_string_equal(rperf_method_name(RPERF_METHOD_POSTPOLL),
			    "postpoll");
	assert_string_equal(rperf_atomic_name(RPERF_ATOMIC_CMP_SWAP),
			    "cmp_and_swap");
	assert_string_equal(rperf_name_cli(rperf_atomic_names,
					   RPERF_ATOMIC_CMP_SWAP),
			    "CMP_AND_SWAP");
	assert_string_equal(rperf_name_cli(rperf_pair_order_names,
					   RPERF_PAIR_WIRE_FIRST),
			    "wire-first");
	assert_string_equal(rperf_name_cli(rperf_verb_names, RPERF_VERB_SEND),
			    "send");
	assert_int_equal(rperf_name_find(rperf_atomic_names, SIZE_MAX,
					 "FETCH_AND_ADD", &v),
			 0);
	assert_int_equal(v, RPERF_ATOMIC_FETCH_ADD);
	/* the first n rows only */
	assert_int_equal(rperf_name_find(rperf_verb_names, 2, "write_imm", &v),
			 EINVAL);
	assert_int_equal(rperf_name_find(rperf_verb_names, 3, "write_imm", &v),
			 0);
	assert_int_equal(v, RPERF_VERB_WRITE_IMM);
	assert_int_equal(rperf_name_find(rperf_verb_names, SIZE_MAX, "writ",
					 &v),
			 EINVAL);
	assert_int_equal(rperf_name_find(rperf_verb_names, SIZE_MAX, "writes",
					 &v),
			 EINVAL);
	assert_int_equal(rperf_name_find(rperf_verb_names, SIZE_MAX, NULL, &v),
			 EINVAL);
	assert_true(rperf_name_same("write_imm", "WRITE-IMM"));
	assert_false(rperf_name_same("write", "write_"));
}

static void test_round_trip(void **state)
{
	struct rperf_gen_spec s, t;
	char why[256];
	json_t *o = NULL;

	(void)state;
	sample(&s, RPERF_GEN_BSG);
	s.path.mtu = 1024;
	s.path.sl = 3;
	s.path.tclass = 96;
	s.path.qp_timeout = 20;
	s.path.retry_count = 2;
	s.size = 4096;
	s.start_ns = 5;
	s.warmup_ns = 123456789;
	s.duration_ns = 3000000000ull;
	s.completion = RPERF_COMPLETION_EVENT;
	s.sink_completion = RPERF_COMPLETION_POLL;
	s.pair_order = 3;
	s.verb = 2;
	s.tx_depth = 64;
	s.cq_mod = 16;
	s.post_list = 4;
	s.qps = 8;
	s.inline_size = 220;
	s.rate_bps = 2.5e9;
	assert_int_equal(rperf_gen_spec_encode(&s, &o), 0);
	memset(&t, 0xa5, sizeof(t));
	assert_int_equal(rperf_gen_spec_decode(o, &t, why, sizeof(why)), 0);
	assert_int_equal(t.kind, s.kind);
	assert_int_equal(t.id, 7);
	assert_string_equal(t.name, "bg");
	assert_string_equal(t.from, "h1");
	assert_string_equal(t.to, "h2");
	assert_memory_equal(&t.path, &s.path, sizeof(s.path));
	assert_int_equal(t.size, 4096);
	assert_int_equal(t.start_ns, 5);
	assert_int_equal(t.warmup_ns, 123456789);
	assert_int_equal(t.duration_ns, 3000000000ull);
	assert_int_equal(t.completion, RPERF_COMPLETION_EVENT);
	assert_int_equal(t.sink_completion, RPERF_COMPLETION_POLL);
	assert_int_equal(t.pair_order, 3);
	assert_int_equal(t.verb, 2);
	assert_int_equal(t.tx_depth, 64);
	assert_int_equal(t.cq_mod, 16);
	assert_int_equal(t.post_list, 4);
	assert_int_equal(t.qps, 8);
	assert_int_equal(t.inline_size, 220);
	assert_true(t.rate_bps == 2.5e9);
	/* unknown keys are ignored */
	json_object_set_new(o, "future", json_true());
	assert_int_equal(rperf_gen_spec_decode(o, &t, why, sizeof(why)), 0);
	json_decref(o);
	/* LSG defaults too */
	sample(&s, RPERF_GEN_LSG);
	assert_int_equal(rperf_gen_spec_encode(&s, &o), 0);
	assert_int_equal(rperf_gen_spec_decode(o, &t, why, sizeof(why)), 0);
	assert_int_equal(t.kind, RPERF_GEN_LSG);
	assert_int_equal(t.size, 64);
	json_decref(o);
}

struct bad {
	const char *key;
	const char *json; /* NULL: remove the key */
};

static const struct bad bads[] = {
	{ "kind", "\"xsg\"" },
	{ "kind", "1" },
	{ "id", "-1" },
	{ "id", "4294967296" },
	{ "name", "\"\"" },
	{ "name", "7" },
	{ "from", "\"h2\"" },
	{ "to", "null" },
	{ "mtu", "1000" },
	{ "mtu", "8192" },
	{ "sl", "16" },
	{ "tclass", "256" },
	{ "qp_timeout", "32" },
	{ "retry_count", "8" },
	{ "size", "0" },
	{ "size", "1.5" },
	{ "start_ns", "-5" },
	{ "warmup_ns", "\"1\"" },
	{ "duration_ns", "0" },
	{ "completion", "\"spin\"" },
	{ "sink_completion", "true" },
	{ "pair_order", "\"random\"" },
	{ "verb", "\"reads\"" },
	{ "tx_depth", "0" },
	{ "cq_mod", "0" },
	{ "post_list", "0" },
	{ "post_list", "129" },
	{ "qps", "0" },
	{ "qps", "100000" },
	{ "rate_bps", "-1" },
	{ "rate_bps", "\"fast\"" },
	{ "rate_bps", "1e20" },
	{ "inline", "65537" },
	{ "inline", "\"64\"" },
};

static const char *const all_keys[] = {
	"kind",	      "id",	     "name",	   "from",
	"to",	      "mtu",	     "sl",	   "tclass",
	"qp_timeout", "retry_count", "size",	   "start_ns",
	"warmup_ns",  "duration_ns", "completion", "sink_completion",
	"pair_order", "verb",	     "tx_depth",   "cq_mod",
	"post_list",  "qps",	     "rate_bps",
};

static void expect_bad(json_t *o, const char *key)
{
	struct rperf_gen_spec t;
	char why[256] = "";

	memset(&t, 0, sizeof(t));
	assert_int_equal(rperf_gen_spec_decode(o, &t, why, sizeof(why)),
			 EBADMSG);
	if (!strstr(why, key))
		fail_msg("key %s: why '%s' does not name it", key, why);
	assert_int_equal(t.id, 0); /* nothing written on failure */
}

/* A PLAN's BSG: READ and atomics (with their operation), as rperf bw's;
 * an atomic of another size than its 8 B operand is refused. */
static void test_plan_verbs(void **state)
{
	struct rperf_gen_spec s, t;
	char why[256] = "";
	json_t *o = NULL;

	(void)state;
	sample(&s, RPERF_GEN_BSG);
	s.verb = RPERF_VERB_READ;
	s.size = 4096;
	assert_int_equal(rperf_gen_spec_encode(&s, &o), 0);
	assert_int_equal(rperf_gen_spec_decode(o, &t, why, sizeof(why)), 0);
	assert_int_equal(t.verb, RPERF_VERB_READ);
	json_decref(o);
	s.verb = RPERF_VERB_ATOMIC;
	s.size = RPERF_ATOMIC_SIZE;
	s.test.atomic_op = RPERF_ATOMIC_CMP_SWAP;
	assert_int_equal(rperf_gen_spec_encode(&s, &o), 0);
	assert_int_equal(rperf_gen_spec_decode(o, &t, why, sizeof(why)), 0);
	assert_int_equal(t.verb, RPERF_VERB_ATOMIC);
	assert_int_equal(t.test.atomic_op, RPERF_ATOMIC_CMP_SWAP);
	json_object_set_new(o, "atomic_op", json_string("swap"));
	expect_bad(o, "atomic_op");
	json_object_set_new(o, "atomic_op", json_string("fetch_and_add"));
	json_object_set_new(o, "size", json_integer(64));
	assert_int_equal(rperf_gen_spec_decode(o, &t, why, sizeof(why)),
			 EBADMSG);
	assert_string_equal(
		why, "'size' 64 B with verb atomic, whose operand is 8 B");
	json_decref(o);
	/* rdma_cm: a BSG's and an LSG's */
	s.verb = RPERF_VERB_WRITE;
	s.size = 4096;
	s.test.rdma_cm = true;
	assert_int_equal(rperf_gen_spec_encode(&s, &o), 0);
	assert_int_equal(rperf_gen_spec_decode(o, &t, why, sizeof(why)), 0);
	assert_true(t.test.rdma_cm);
	json_object_set_new(o, "kind", json_string("lsg"));
	assert_int_equal(rperf_gen_spec_decode(o, &t, why, sizeof(why)), 0);
	assert_true(t.test.rdma_cm);
	json_object_set_new(o, "rdma_cm", json_string("yes"));
	expect_bad(o, "rdma_cm");
	json_decref(o);
	/* rx_depth: absent = 0 (the engine's default), else 1..65536 */
	s.test.rdma_cm = false;
	assert_int_equal(rperf_gen_spec_encode(&s, &o), 0);
	assert_null(json_object_get(o, "rx_depth"));
	json_decref(o);
	s.test.rx_depth = 16;
	assert_int_equal(rperf_gen_spec_encode(&s, &o), 0);
	assert_int_equal(rperf_gen_spec_decode(o, &t, why, sizeof(why)), 0);
	assert_int_equal(t.test.rx_depth, 16);
	json_object_set_new(o, "kind", json_string("lsg"));
	assert_int_equal(rperf_gen_spec_decode(o, &t, why, sizeof(why)), 0);
	assert_int_equal(t.test.rx_depth, 16);
	json_object_set_new(o, "rx_depth", json_integer(0));
	expect_bad(o, "rx_depth");
	json_object_set_new(o, "rx_depth", json_integer(65537));
	expect_bad(o, "rx_depth");
	json_object_set_new(o, "rx_depth", json_string("16"));
	expect_bad(o, "rx_depth");
	json_decref(o);
}

static void test_rejects(void **state)
{
	struct rperf_gen_spec s;
	json_t *good = NULL, *o;
	size_t i;

	(void)state;
	sample(&s, RPERF_GEN_BSG);
	assert_int_equal(rperf_gen_spec_encode(&s, &good), 0);
	for (i = 0; i < sizeof(bads) / sizeof(bads[0]); i++) {
		o = json_deep_copy(good);
		json_object_set_new(o, bads[i].key,
				    json_loads(bads[i].json, JSON_DECODE_ANY,
					       NULL));
		expect_bad(o, bads[i].key);
		json_decref(o);
	}
	for (i = 0; i < sizeof(all_keys) / sizeof(all_keys[0]); i++) {
		o = json_deep_copy(good);
		json_object_del(o, all_keys[i]);
		expect_bad(o, all_keys[i]);
		json_decref(o);
	}
	/* not an object */
	o = json_array();
	{
		char why[64];

		assert_int_equal(rperf_gen_spec_decode(o, &s, why, sizeof(why)),
				 EBADMSG);
	}
	json_decref(o);
	json_decref(good);
	/* the encoder refuses what the decoder would */
	sample(&s, RPERF_GEN_BSG);
	s.path.sl = 16;
	assert_int_equal(rperf_gen_spec_encode(&s, &o), EINVAL);
	sample(&s, RPERF_GEN_BSG);
	snprintf(s.to, sizeof(s.to), "h1");
	assert_int_equal(rperf_gen_spec_encode(&s, &o), EINVAL);
	sample(&s, RPERF_GEN_BSG);
	s.verb = 7;
	assert_int_equal(rperf_gen_spec_encode(&s, &o), EINVAL);
}

static void test_host_sel(void **state)
{
	struct rperf_host_sel h = { "rxe_h1", 1, 3, 2, 1, 0, 0 }, t;
	char why[128];
	json_t *o = NULL;

	(void)state;
	assert_int_equal(rperf_host_sel_encode(&h, &o), 0);
	assert_int_equal(rperf_host_sel_decode(o, &t, why, sizeof(why)), 0);
	assert_string_equal(t.device, "rxe_h1");
	assert_int_equal(t.port, 1);
	assert_int_equal(t.gid_index, 3);
	assert_int_equal(t.cpu, 2);
	/* hugepages: absent = none; "2M", "1G"; anything else refused */
	assert_null(json_object_get(o, "hugepages"));
	assert_int_equal(t.hugepages, RPERF_HUGEPAGES_NONE);
	json_decref(o);
	h.hugepages = RPERF_HUGEPAGES_1G;
	assert_int_equal(rperf_host_sel_encode(&h, &o), 0);
	assert_string_equal(json_string_value(json_object_get(o, "hugepages")),
			    "1G");
	assert_int_equal(rperf_host_sel_decode(o, &t, why, sizeof(why)), 0);
	assert_int_equal(t.hugepages, RPERF_HUGEPAGES_1G);
	assert_int_equal(rperf_hugepage_shift(t.hugepages), 30);
	assert_int_equal(rperf_hugepage_shift(RPERF_HUGEPAGES_2M), 21);
	assert_int_equal(rperf_hugepage_shift(RPERF_HUGEPAGES_NONE), 0);
	json_object_set_new(o, "hugepages", json_string("4K"));
	assert_int_equal(rperf_host_sel_decode(o, &t, why, sizeof(why)),
			 EBADMSG);
	assert_string_equal(why, "'hugepages' not one of none, 2M, 1G");
	json_object_set_new(o, "hugepages", json_integer(21));
	assert_int_equal(rperf_host_sel_decode(o, &t, why, sizeof(why)),
			 EBADMSG);
	json_object_set_new(o, "hugepages", json_string("2M"));
	json_object_set_new(o, "port", json_integer(0));
	assert_int_equal(rperf_host_sel_decode(o, &t, why, sizeof(why)),
			 EBADMSG);
	assert_non_null(strstr(why, "port"));
	json_object_set_new(o, "port", json_integer(1));
	json_object_set_new(o, "gid_index", json_integer(-2));
	assert_int_equal(rperf_host_sel_decode(o, &t, why, sizeof(why)),
			 EBADMSG);
	json_object_set_new(o, "gid_index", json_integer(-1));
	json_object_set_new(o, "cpu", json_string("0"));
	assert_int_equal(rperf_host_sel_decode(o, &t, why, sizeof(why)),
			 EBADMSG);
	assert_non_null(strstr(why, "cpu"));
	json_object_set_new(o, "cpu", json_integer(-1));
	json_object_del(o, "device");
	assert_int_equal(rperf_host_sel_decode(o, &t, why, sizeof(why)),
			 EBADMSG);
	assert_non_null(strstr(why, "device"));
	json_decref(o);
	h.hugepages = RPERF_HUGEPAGES_N;
	assert_int_equal(rperf_host_sel_encode(&h, &o), EINVAL);
	h.hugepages = RPERF_HUGEPAGES_NONE;
	h.port = 0;
	assert_int_equal(rperf_host_sel_encode(&h, &o), EINVAL);
}

/* cpu_node/mem_node: optional (absent = -1), -1..RPERF_SPEC_MAX_NODE. */
static void test_nodes(void **state)
{
	struct rperf_gen_spec s, t;
	struct rperf_host_sel h = { "", 1, -1, -1, 2, 1023, 0 }, u;
	char why[160];
	json_t *o = NULL;

	(void)state;
	sample(&s, RPERF_GEN_BSG);
	assert_int_equal(s.cpu_node, -1);
	assert_int_equal(s.mem_node, -1);
	s.cpu_node = 0;
	s.mem_node = 1;
	assert_int_equal(rperf_gen_spec_encode(&s, &o), 0);
	assert_int_equal(rperf_gen_spec_decode(o, &t, why, sizeof(why)), 0);
	assert_int_equal(t.cpu_node, 0);
	assert_int_equal(t.mem_node, 1);
	json_object_del(o, "cpu_node");
	json_object_del(o, "mem_node");
	assert_int_equal(rperf_gen_spec_decode(o, &t, why, sizeof(why)), 0);
	assert_int_equal(t.cpu_node, -1);
	assert_int_equal(t.mem_node, -1);
	json_object_set_new(o, "cpu_node", json_integer(1024));
	assert_int_equal(rperf_gen_spec_decode(o, &t, why, sizeof(why)),
			 EBADMSG);
	assert_non_null(strstr(why, "cpu_node"));
	json_object_set_new(o, "cpu_node", json_integer(0));
	json_object_set_new(o, "mem_node", json_string("0"));
	assert_int_equal(rperf_gen_spec_decode(o, &t, why, sizeof(why)),
			 EBADMSG);
	assert_non_null(strstr(why, "mem_node"));
	json_decref(o);
	s.mem_node = -2;
	assert_int_equal(rperf_gen_spec_encode(&s, &o), EINVAL);

	assert_int_equal(rperf_host_sel_encode(&h, &o), 0);
	assert_int_equal(rperf_host_sel_decode(o, &u, why, sizeof(why)), 0);
	assert_int_equal(u.cpu_node, 2);
	assert_int_equal(u.mem_node, 1023);
	json_object_del(o, "cpu_node");
	assert_int_equal(rperf_host_sel_decode(o, &u, why, sizeof(why)), 0);
	assert_int_equal(u.cpu_node, -1);
	json_object_set_new(o, "mem_node", json_integer(-2));
	assert_int_equal(rperf_host_sel_decode(o, &u, why, sizeof(why)),
			 EBADMSG);
	assert_non_null(strstr(why, "mem_node"));
	json_decref(o);
	h.cpu_node = 1024;
	assert_int_equal(rperf_host_sel_encode(&h, &o), EINVAL);
}

/* The optional keys: schedule, on/off, interval (spec_sched.c). */
static void test_sched_keys(void **state)
{
	struct rperf_gen_spec s, t;
	char why[160];
	json_t *o = NULL;

	(void)state;
	sample(&s, RPERF_GEN_BSG);
	s.on_ns = 200000000;
	s.off_ns = 300000000;
	s.interval_ns = 250000000;
	s.schedule = (struct rperf_sched){ RPERF_SCHED_POISSON, 500 };
	assert_int_equal(rperf_gen_spec_encode(&s, &o), 0);
	assert_string_equal(json_string_value(json_object_get(o, "schedule")),
			    "poisson:500");
	assert_int_equal(rperf_gen_spec_decode(o, &t, why, sizeof(why)), 0);
	assert_int_equal(t.on_ns, 200000000);
	assert_int_equal(t.off_ns, 300000000);
	assert_int_equal(t.interval_ns, 250000000);
	assert_int_equal(t.schedule.kind, RPERF_SCHED_POISSON);
	assert_true(t.schedule.rate == 500);
	/* absent: the defaults (an older controller's PLAN) */
	json_object_del(o, "on_ns");
	json_object_del(o, "off_ns");
	json_object_del(o, "interval_ns");
	json_object_del(o, "schedule");
	assert_int_equal(rperf_gen_spec_decode(o, &t, why, sizeof(why)), 0);
	assert_int_equal(t.on_ns, 0);
	assert_int_equal(t.off_ns, 0);
	assert_int_equal(t.interval_ns, 1000000000);
	assert_int_equal(t.schedule.kind, RPERF_SCHED_CLOSED);
	/* hostile */
	json_object_set_new(o, "schedule", json_string("poisson:-1"));
	assert_int_equal(rperf_gen_spec_decode(o, &t, why, sizeof(why)),
			 EBADMSG);
	assert_non_null(strstr(why, "schedule"));
	json_object_set_new(o, "schedule", json_string("closed"));
	json_object_set_new(o, "on_ns", json_integer(1000));
	assert_int_equal(rperf_gen_spec_decode(o, &t, why, sizeof(why)),
			 EBADMSG);
	assert_non_null(strstr(why, "'on' and 'off'"));
	json_decref(o);
	s.off_ns = 0;
	assert_int_equal(rperf_gen_spec_encode(&s, &o), EINVAL);
	s.off_ns = 1;
	s.interval_ns = 1000;
	assert_int_equal(rperf_gen_spec_encode(&s, &o), EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plan_verbs),
		cmocka_unit_test(test_defaults_names),
		cmocka_unit_test(test_kinds),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_rejects),
		cmocka_unit_test(test_host_sel),
		cmocka_unit_test(test_nodes),
		cmocka_unit_test(test_sched_keys),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
