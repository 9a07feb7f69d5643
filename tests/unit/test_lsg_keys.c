/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What rperf run's LSG shares with rperf lat: the spec keys "timestamps",
 * "iters" and "method" (with "verb") through the PLAN codec, their job
 * keys and lat's rules of method with verb, the REPORT's
 * "timestamps_note", and the choice of completion stamps (gen/nic_ts.c)
 * where it needs no device.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "engine/engine.h"
#include "engine/proto.h"
#include "engine/spec.h"
#include "gen/gen.h"
#include "gen/lsg.h"
#include "gen/nic_ts.h"
#include "job/job.h"

#define HOSTS                             \
	"[host h1]\ncontrol = 10.0.0.1\n" \
	"[host h2]\ncontrol = 10.0.0.2\n"

static void lsg(struct rperf_gen_spec *s, enum rperf_gen_kind k)
{
	rperf_gen_spec_defaults(s, k);
	s->id = 1;
	snprintf(s->name, sizeof(s->name), "probe");
	snprintf(s->from, sizeof(s->from), "h1");
	snprintf(s->to, sizeof(s->to), "h2");
}

/* @s through the PLAN codec (the agent's decoder) into @d. */
static int plan_trip(const struct rperf_gen_spec *s, struct rperf_gen_spec *d,
		     json_t **enc)
{
	char why[200];
	int rc = rperf_gen_spec_encode(s, enc);

	return rc ? rc : rperf_gen_spec_decode(*enc, d, why, sizeof(why));
}

static void spec_keys(void **state)
{
	struct rperf_gen_spec s, d;
	json_t *o;

	(void)state;
	lsg(&s, RPERF_GEN_LSG); /* neither key: encoded as before */
	assert_int_equal(plan_trip(&s, &d, &o), 0);
	assert_null(json_object_get(o, "timestamps"));
	assert_null(json_object_get(o, "iters"));
	assert_int_equal(d.timestamps, RPERF_TS_AUTO);
	assert_int_equal(d.test.iters, 0);
	json_decref(o);
	s.timestamps = RPERF_TS_NIC;
	s.test.iters = 12345;
	assert_int_equal(plan_trip(&s, &d, &o), 0);
	assert_string_equal(json_string_value(json_object_get(o, "timestamps")),
			    "nic");
	assert_int_equal(d.timestamps, RPERF_TS_NIC);
	assert_int_equal(d.test.iters, 12345);
	json_decref(o);
	s.timestamps = RPERF_TS_CPU;
	assert_int_equal(plan_trip(&s, &d, &o), 0);
	assert_int_equal(d.timestamps, RPERF_TS_CPU);
	json_decref(o);
	s.timestamps = 7; /* not a value */
	assert_int_equal(rperf_gen_spec_encode(&s, &o), EINVAL);
	lsg(&s, RPERF_GEN_BSG); /* a BSG has no completion stamps to pick */
	s.timestamps = RPERF_TS_CPU;
	assert_int_equal(rperf_gen_spec_encode(&s, &o), EINVAL);
}

/* The decoder refuses each bad value, naming the key. */
static void expect_bad(const char *key, json_t *v)
{
	struct rperf_gen_spec s, d;
	char why[200] = "";
	json_t *o;

	lsg(&s, RPERF_GEN_LSG);
	assert_int_equal(rperf_gen_spec_encode(&s, &o), 0);
	json_object_set_new(o, key, v);
	assert_int_equal(rperf_gen_spec_decode(o, &d, why, sizeof(why)),
			 EBADMSG);
	assert_non_null(strstr(why, key));
	json_decref(o);
}

static void spec_refusals(void **state)
{
	(void)state;
	expect_bad("timestamps", json_string("tsc"));
	expect_bad("timestamps", json_integer(1));
	expect_bad("iters", json_integer(0));
	expect_bad("iters", json_integer(-5));
	expect_bad("iters", json_string("10"));
	expect_bad("iters", json_integer((json_int_t)RPERF_SPEC_MAX_ITERS + 1));
}

/* An LSG of @method and @verb through the PLAN codec: 0, or EBADMSG with
 * @key in the reason. */
static int method_trip(int method, int verb, const char *key)
{
	struct rperf_gen_spec s, d;
	char why[300] = "";
	json_t *o;
	int rc;

	lsg(&s, RPERF_GEN_LSG);
	s.test.method = method;
	s.verb = verb;
	s.size = verb == RPERF_VERB_ATOMIC ? RPERF_ATOMIC_SIZE : 64;
	assert_int_equal(rperf_gen_spec_encode(&s, &o), 0);
	rc = rperf_gen_spec_decode(o, &d, why, sizeof(why));
	json_decref(o);
	if (!rc) {
		assert_int_equal(d.test.method, method);
		assert_int_equal(d.verb, verb);
	} else {
		assert_non_null(strstr(why, key));
	}
	return rc;
}

static void spec_methods(void **state)
{
	(void)state;
	assert_int_equal(method_trip(RPERF_METHOD_RPERF, RPERF_VERB_SEND, ""),
			 0);
	assert_int_equal(method_trip(RPERF_METHOD_RPERF, RPERF_VERB_WRITE, ""),
			 0);
	for (int v = RPERF_VERB_SEND; v <= RPERF_VERB_ATOMIC; v++)
		if (v != RPERF_VERB_WRITE_IMM)
			assert_int_equal(
				method_trip(RPERF_METHOD_POSTPOLL, v, ""), 0);
	expect_bad("verb", json_string("write_imm")); /* no latency test */
	/* what the reports call each sample's wire operation */
	assert_string_equal(rperf_lsg_op_name(RPERF_METHOD_RPERF, 0), "SEND");
	assert_string_equal(rperf_lsg_op_name(RPERF_METHOD_POSTPOLL, 0),
			    "WRITE");
	assert_string_equal(rperf_lsg_op_name(RPERF_METHOD_POSTPOLL,
					      RPERF_VERB_READ),
			    "READ");
	assert_string_equal(rperf_lsg_op_name(RPERF_METHOD_POSTPOLL,
					      RPERF_VERB_ATOMIC),
			    "atomic");
	assert_int_equal(method_trip(RPERF_METHOD_RPERF, RPERF_VERB_READ,
				     "method = postpoll"),
			 EBADMSG);
	assert_int_equal(method_trip(RPERF_METHOD_RPERF, RPERF_VERB_ATOMIC,
				     "method = postpoll"),
			 EBADMSG);
	/* pingpong: the sink's agent echoes SENDs (gen/echo.c); a WRITE's
	 * byte only with a busy-polling sink (the default sleeps) */
	assert_int_equal(
		method_trip(RPERF_METHOD_PINGPONG, RPERF_VERB_SEND, NULL), 0);
	assert_int_equal(
		method_trip(RPERF_METHOD_PINGPONG, RPERF_VERB_WRITE,
			    "accepted: [global] sink_completion = poll"),
		EBADMSG);
	assert_int_equal(method_trip(RPERF_METHOD_PINGPONG, RPERF_VERB_READ,
				     "accepted: verb = send or write"),
			 EBADMSG);
}

static struct rperf_job *parse(const char *text, char *err, size_t errlen)
{
	struct rperf_job *job = NULL;

	if (rperf_job_parse(text, "t.ini", &job, err, errlen))
		return NULL;
	return job;
}

static void job_keys(void **state)
{
	char err[512] = "";
	struct rperf_job *job;

	(void)state;
	job = parse(HOSTS "[lsg p]\nfrom = h1\nto = h2\ntimestamps = cpu\n"
			  "iters = 10k\n",
		    err, sizeof(err));
	if (!job)
		print_error("%s\n", err);
	assert_non_null(job);
	assert_int_equal(job->inst[0].timestamps, RPERF_TS_CPU);
	assert_int_equal(job->inst[0].test.iters, 10000);
	rperf_job_free(job);
	job = parse(HOSTS "[lsg p]\nfrom = h1\nto = h2\n", err, sizeof(err));
	assert_non_null(job);
	assert_int_equal(job->inst[0].timestamps, RPERF_TS_AUTO);
	assert_int_equal(job->inst[0].test.iters, 0);
	rperf_job_free(job);
	assert_null(parse(HOSTS
			  "[lsg p]\nfrom = h1\nto = h2\ntimestamps = tsc\n",
			  err, sizeof(err)));
	assert_non_null(strstr(err, "t.ini:8"));
	assert_non_null(strstr(err, "timestamps"));
	/* RTT limits: job-file times (a bare number is seconds), judged by
	 * the controller, never sent to an agent */
	job = parse(HOSTS "[lsg p]\nfrom = h1\nto = h2\nmax_p50 = 20us\n"
			  "max_p999 = 0.001\n",
		    err, sizeof(err));
	assert_non_null(job);
	assert_int_equal(job->inst[0].max_p50_ns, 20000);
	assert_int_equal(job->inst[0].max_p999_ns, 1000000);
	{
		struct rperf_gen_spec d;
		json_t *o = NULL;

		assert_int_equal(plan_trip(&job->inst[0], &d, &o), 0);
		assert_null(json_object_get(o, "max_p50"));
		assert_null(json_object_get(o, "max_p999"));
		assert_int_equal(d.max_p50_ns, 0);
		assert_int_equal(d.max_p999_ns, 0);
		json_decref(o);
	}
	rperf_job_free(job);
	assert_null(parse(HOSTS "[lsg p]\nfrom = h1\nto = h2\nmax_p999 = 0\n",
			  err, sizeof(err)));
	assert_non_null(strstr(err, "max_p999"));
	/* latency_gap: rperf lat's --latency_gap, through the PLAN */
	job = parse(HOSTS "[lsg p]\nfrom = h1\nto = h2\nlatency_gap = 2ms\n",
		    err, sizeof(err));
	assert_non_null(job);
	assert_int_equal(job->inst[0].latency_gap_ns, 2000000);
	{
		struct rperf_gen_spec d;
		json_t *o = NULL;

		assert_int_equal(plan_trip(&job->inst[0], &d, &o), 0);
		assert_int_equal(json_integer_value(
					 json_object_get(o, "latency_gap_ns")),
				 2000000);
		assert_int_equal(d.latency_gap_ns, 2000000);
		json_decref(o);
		job->inst[0].latency_gap_ns = 0; /* absent: none */
		assert_int_equal(plan_trip(&job->inst[0], &d, &o), 0);
		assert_null(json_object_get(o, "latency_gap_ns"));
		assert_int_equal(d.latency_gap_ns, 0);
		json_decref(o);
	}
	rperf_job_free(job);
	assert_null(parse(HOSTS "[lsg p]\nfrom = h1\nto = h2\nrate = 1M\n"
				"latency_gap = 1ms\n",
			  err, sizeof(err)));
	assert_non_null(strstr(err, "t.ini:9: [lsg p] latency_gap: "));
	assert_null(parse(HOSTS "[lsg p]\nfrom = h1\nto = h2\n"
				"schedule = fixed:100\nlatency_gap = 1ms\n",
			  err, sizeof(err)));
	assert_non_null(strstr(err, "keep one"));
	assert_null(parse(HOSTS
			  "[bsg p]\nfrom = h1\nto = h2\nlatency_gap = 1ms\n",
			  err, sizeof(err)));
	assert_non_null(strstr(err, "applies to [lsg] sections only"));
	/* warmup_samples: rperf lat's --warmup (samples), through the PLAN */
	job = parse(HOSTS "[lsg p]\nfrom = h1\nto = h2\nwarmup_samples = 1k\n",
		    err, sizeof(err));
	assert_non_null(job);
	assert_int_equal(job->inst[0].warmup_samples, 1000);
	{
		struct rperf_gen_spec d;
		json_t *o = NULL;
		char why[200];

		assert_int_equal(plan_trip(&job->inst[0], &d, &o), 0);
		assert_int_equal(d.warmup_samples, 1000);
		json_object_set_new(o, "warmup_samples", json_integer(0));
		assert_int_equal(rperf_gen_spec_decode(o, &d, why, sizeof(why)),
				 EBADMSG);
		assert_non_null(strstr(why, "warmup_samples"));
		json_decref(o);
		job->inst[0].warmup_samples = 0; /* absent: the time */
		assert_int_equal(plan_trip(&job->inst[0], &d, &o), 0);
		assert_null(json_object_get(o, "warmup_samples"));
		json_decref(o);
	}
	rperf_job_free(job);
	assert_null(parse(HOSTS
			  "[bsg p]\nfrom = h1\nto = h2\nwarmup_samples = 10\n",
			  err, sizeof(err)));
	assert_non_null(strstr(err, "applies to [lsg] sections only"));
	assert_null(parse(HOSTS "[lsg p]\nfrom = h1\nto = h2\niters = 0\n", err,
			  sizeof(err)));
	assert_non_null(strstr(err, "iters"));
	assert_null(parse(HOSTS "[bsg b]\nfrom = h1\nto = h2\niters = 10\n",
			  err, sizeof(err)));
	assert_non_null(strstr(err, "[lsg]"));
	assert_null(parse(HOSTS
			  "[bsg b]\nfrom = h1\nto = h2\ntimestamps = nic\n",
			  err, sizeof(err)));
	assert_non_null(strstr(err, "timestamps"));
}

/* One [lsg] with @keys: its instance's method, verb, size and inline. */
static void lsg_job(const char *keys, int method, int verb, uint64_t size,
		    uint32_t inl)
{
	char text[512], err[512] = "";
	struct rperf_job *job;

	snprintf(text, sizeof(text), HOSTS "[lsg p]\nfrom = h1\nto = h2\n%s",
		 keys);
	job = parse(text, err, sizeof(err));
	if (!job)
		print_error("%s\n", err);
	assert_non_null(job);
	assert_int_equal(job->inst[0].test.method, method);
	assert_int_equal(job->inst[0].verb, verb);
	assert_int_equal(job->inst[0].size, size);
	assert_int_equal(job->inst[0].inline_size, inl);
	rperf_job_free(job);
}

/* One [lsg] with @keys is refused at line @line, naming @want. */
static void lsg_bad(const char *keys, const char *line, const char *want)
{
	char text[512], err[512] = "";

	snprintf(text, sizeof(text), HOSTS "[lsg p]\nfrom = h1\nto = h2\n%s",
		 keys);
	assert_null(parse(text, err, sizeof(err)));
	if (!strstr(err, line) || !strstr(err, want))
		print_error("%s\n", err);
	assert_non_null(strstr(err, line));
	assert_non_null(strstr(err, want));
}

static void job_methods(void **state)
{
	struct rperf_job *job;
	char err[512] = "";

	(void)state;
	lsg_job("", RPERF_METHOD_RPERF, RPERF_VERB_SEND, 64, 0);
	lsg_job("verb = write\ninline = 64\n", RPERF_METHOD_RPERF,
		RPERF_VERB_WRITE, 64, 64);
	lsg_job("method = postpoll\n", RPERF_METHOD_POSTPOLL, RPERF_VERB_SEND,
		64, 0);
	/* read, atomic: postpoll unless said otherwise (lat's --verb) */
	lsg_job("verb = read\nsize = 4K\n", RPERF_METHOD_POSTPOLL,
		RPERF_VERB_READ, 4096, 0);
	lsg_job("verb = atomic\n", RPERF_METHOD_POSTPOLL, RPERF_VERB_ATOMIC, 8,
		0);
	lsg_job("verb = atomic\natomic_op = CMP_AND_SWAP\n",
		RPERF_METHOD_POSTPOLL, RPERF_VERB_ATOMIC, 8, 0);
	job = parse(HOSTS "[lsg p]\nfrom = h1\nto = h2\nverb = atomic\n"
			  "atomic_op = cmp_and_swap\n",
		    err, sizeof(err));
	assert_non_null(job);
	assert_int_equal(job->inst[0].test.atomic_op, RPERF_ATOMIC_CMP_SWAP);
	rperf_job_free(job);
	lsg_bad("verb = read\nmethod = rperf\n", "t.ini:8",
		"method = postpoll");
	lsg_bad("method = pingpong\nverb = write\n", "t.ini:8",
		"accepted: [global] sink_completion = poll");
	lsg_bad("method = pingpong\nverb = read\n", "t.ini:8",
		"accepted: verb = send or write");
	/* pingpong write with busy-polling sinks: through the PLAN */
	job = parse("[global]\nsink_completion = poll\n" HOSTS
		    "[lsg p]\nfrom = h1\nto = h2\nmethod = pingpong\n"
		    "verb = write\n",
		    err, sizeof(err));
	assert_non_null(job);
	{
		struct rperf_gen_spec d;
		json_t *o = NULL;

		assert_int_equal(plan_trip(&job->inst[0], &d, &o), 0);
		assert_int_equal(d.test.method, RPERF_METHOD_PINGPONG);
		assert_int_equal(d.verb, RPERF_VERB_WRITE);
		json_decref(o);
	}
	rperf_job_free(job);
	lsg_bad("method = all\n", "t.ini:8", "method");
	lsg_bad("verb = write_imm\n", "t.ini:8", "not a latency test");
	lsg_bad("atomic_op = cmp_and_swap\n", "t.ini:8",
		"atomic_op: applies with verb = atomic only");
	lsg_bad("verb = atomic\nsize = 64\n", "t.ini:9", "size = 8");
}

/* An LSG source's inline size is counted in what its agent admits. */
static void inline_cost(void **state)
{
	struct rperf_gen_spec s;
	struct rperf_proto_plan p = { .host = "h1",
				      .sources = &s,
				      .nsources = 1 };
	struct rperf_plan_cost c0, c1;

	(void)state;
	lsg(&s, RPERF_GEN_LSG);
	rperf_engine_plan_cost(&p, &c0);
	s.inline_size = 4096;
	rperf_engine_plan_cost(&p, &c1);
	assert_int_equal(c1.qps, c0.qps);
	assert_true(c1.bytes > c0.bytes);
}

/* rx_depth: the spec's, refused above the device's queues, else the
 * default capped at them; the agent counts it in what it admits. */
static void rx_depth(void **state)
{
	struct rperf_gen_spec s;
	struct rperf_dev d = { .name = "dev0" };
	struct rperf_proto_plan p = { .host = "h1", .sinks = &s, .nsinks = 1 };
	struct rperf_plan_cost c0, c1;
	unsigned int n = 0;
	char err[256] = "";

	(void)state;
	lsg(&s, RPERF_GEN_BSG);
	d.attr.max_qp_wr = 16384;
	d.attr.max_cqe = 300;
	assert_int_equal(rperf_engine_rx_depth(&s), RPERF_ENGINE_RX_DEPTH);
	assert_int_equal(rperf_engine_rx_depth_on(&s, &d, &n, err, sizeof(err)),
			 0);
	assert_int_equal(n, 300);
	rperf_engine_plan_cost(&p, &c0);
	s.test.rx_depth = 8;
	assert_int_equal(rperf_engine_rx_depth(&s), 8);
	assert_int_equal(rperf_engine_rx_depth_on(&s, &d, &n, err, sizeof(err)),
			 0);
	assert_int_equal(n, 8);
	rperf_engine_plan_cost(&p, &c1);
	assert_int_equal(c1.qps, c0.qps);
	assert_true(c1.bytes < c0.bytes);
	s.test.rx_depth = 301;
	assert_int_equal(rperf_engine_rx_depth_on(&s, &d, &n, err, sizeof(err)),
			 ERANGE);
	assert_string_equal(
		err,
		"rx_depth: 301 is above what dev0 allows; accepted: at most 300 (max_qp_wr 16384, max_cqe 300)");
}

/* An instance's stall limit: its path's, at most the agent's. */
static void stall_limit(void **state)
{
	struct rperf_path_spec p = { .qp_timeout = 18, .retry_count = 7 };
	uint64_t rc;

	(void)state;
	rc = rperf_engine_stall_ns(&p);
	assert_true(rc > 30000000000ull); /* 4 x 8 x 4.096 us x 2^18 */
	assert_int_equal(rperf_engine_inst_stall_ns(&p, 0), rc);
	assert_int_equal(rperf_engine_inst_stall_ns(&p, 2000000000ull),
			 2000000000ull);
	assert_int_equal(rperf_engine_inst_stall_ns(&p, rc + 1), rc);
	p.qp_timeout = 31; /* RC's give-up time in hours: the engine's cap */
	assert_int_equal(rperf_engine_inst_stall_ns(&p, 0),
			 RPERF_ENGINE_MAX_STALL_NS);
}

static void report_note(void **state)
{
	struct rperf_proto_result res;
	struct rperf_proto_report r = { .host = "h1", .res = &res, .n = 1 }, d;
	struct rperf_ctrl_msg m = { .type = RPERF_CTRL_REPORT,
				    .version = RPERF_CTRL_VERSION };
	char why[256], longer[600];
	json_t *o = NULL, *in;

	(void)state;
	memset(&res, 0, sizeof(res));
	res.kind = RPERF_GEN_LSG;
	assert_int_equal(rperf_hist_create(7, &res.rtt), 0);
	assert_int_equal(rperf_hist_create(7, &res.wire), 0);
	assert_int_equal(rperf_hist_create(7, &res.loop), 0);
	assert_int_equal(rperf_proto_report_encode(&r, &o), 0); /* none */
	in = json_array_get(json_object_get(o, "instances"), 0);
	assert_null(json_object_get(in, "timestamps_note"));
	json_decref(o);
	snprintf(res.ts_note, sizeof(res.ts_note),
		 "rxe_h1: no completion timestamps");
	assert_int_equal(rperf_proto_report_encode(&r, &o), 0);
	m.payload = o;
	assert_int_equal(rperf_proto_report_decode(&m, &d, why, sizeof(why)),
			 0);
	assert_string_equal(d.res[0].ts_note,
			    "rxe_h1: no completion timestamps");
	assert_false(d.res[0].nic_ts);
	rperf_proto_report_fini(&d);
	/* a longer note is cut, not refused; a non-string one is refused */
	in = json_array_get(json_object_get(o, "instances"), 0);
	memset(longer, 'x', sizeof(longer) - 1);
	longer[sizeof(longer) - 1] = '\0';
	json_object_set_new(in, "timestamps_note", json_string(longer));
	assert_int_equal(rperf_proto_report_decode(&m, &d, why, sizeof(why)),
			 0);
	assert_int_equal(strlen(d.res[0].ts_note), RPERF_PROTO_ERROR_LEN - 1);
	rperf_proto_report_fini(&d);
	json_object_set_new(in, "timestamps_note", json_integer(3));
	assert_int_equal(rperf_proto_report_decode(&m, &d, why, sizeof(why)),
			 EBADMSG);
	assert_non_null(strstr(why, "timestamps_note"));
	json_decref(o);
	rperf_hist_destroy(res.rtt);
	rperf_hist_destroy(res.wire);
	rperf_hist_destroy(res.loop);
}

/* cpu asks nothing of the device; a CQ that cannot have NIC stamps drops
 * auto to CPU stamps with lat's note, and fails nic. */
static void stamps_choice(void **state)
{
	struct rperf_nic_stamps s;
	char err[200] = "";

	(void)state;
	memset(&s, 0xff, sizeof(s));
	assert_int_equal(rperf_nic_stamps_choose(NULL, RPERF_TS_CPU,
						 "timestamps", &s, err,
						 sizeof(err)),
			 0);
	assert_false(s.nic);
	assert_string_equal(s.note, "");
	s.nic = true;
	assert_false(rperf_nic_stamps_drop(&s, RPERF_TS_AUTO, "mlx5_0", 0));
	assert_false(rperf_nic_stamps_drop(&s, RPERF_TS_NIC, "mlx5_0", EINVAL));
	assert_true(s.nic);
	assert_true(rperf_nic_stamps_drop(&s, RPERF_TS_AUTO, "mlx5_0", EINVAL));
	assert_false(s.nic);
	assert_string_equal(
		s.note,
		"mlx5_0: a CQ with completion timestamps cannot be created (Invalid argument)");
	assert_false(
		rperf_nic_stamps_drop(&s, RPERF_TS_AUTO, "mlx5_0", EINVAL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(spec_keys),	cmocka_unit_test(spec_refusals),
		cmocka_unit_test(spec_methods), cmocka_unit_test(job_keys),
		cmocka_unit_test(job_methods),	cmocka_unit_test(inline_cost),
		cmocka_unit_test(rx_depth),	cmocka_unit_test(stall_limit),
		cmocka_unit_test(report_note),	cmocka_unit_test(stamps_choice),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
