/* SPDX-License-Identifier: BSD-2-Clause */
/* REPORT's optional keys: an LSG's "open_schedule" and "intervals", a BSG
 * source's and sink's "intervals" (sent, received), "counters". */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "engine/proto.h"

static void msg(struct rperf_ctrl_msg *m, enum rperf_ctrl_type t, json_t *o)
{
	m->type = t;
	m->version = RPERF_CTRL_VERSION;
	m->payload = o;
}

/* REPORT "open_schedule" and "intervals" (LSG, optional): round trip,
 * absent = none, hostile shapes refused. */
static void test_report_series(void **state)
{
	/* the second interval's RTTs are <= 0 (Equation 1 on a path where the
	 * wire and loopback overlap): they cross the wire as they are */
	struct rperf_lsg_interval iv[2] = { { 0, 10, 500, 900, 1000 },
					    { 1000000000, 4, -300, -20, 0 } };
	struct rperf_proto_result res = { .id = 1, .kind = RPERF_GEN_LSG };
	struct rperf_proto_report r = { .host = "h2", .res = &res, .n = 1 }, d;
	struct rperf_ctrl_msg m;
	char why[256];
	json_t *o = NULL, *c, *i0;

	(void)state;
	res.series = (struct rperf_lsg_series){ .iv = iv, .n = 2, .cap = 2 };
	res.sched = (struct rperf_sched_figs){ .open = true,
					       .late = 3,
					       .lag_bound_ns = 2000000,
					       .lag_max_ns = 7 };
	assert_int_equal(rperf_hist_create(7, &res.rtt), 0);
	assert_int_equal(rperf_hist_create(7, &res.wire), 0);
	assert_int_equal(rperf_hist_create(7, &res.loop), 0);
	assert_int_equal(rperf_proto_report_encode(&r, &o), 0);
	msg(&m, RPERF_CTRL_REPORT, o);
	assert_int_equal(rperf_proto_report_decode(&m, &d, why, sizeof(why)),
			 0);
	assert_int_equal(d.res[0].series.n, 2);
	assert_int_equal(d.res[0].series.iv[0].p99_ns, 900);
	assert_int_equal(d.res[0].series.iv[1].start_ns, 1000000000);
	assert_int_equal(d.res[0].series.iv[1].p50_ns, -300);
	assert_int_equal(d.res[0].series.iv[1].p99_ns, -20);
	assert_true(d.res[0].sched.open);
	assert_int_equal(d.res[0].sched.late, 3);
	assert_int_equal(d.res[0].sched.lag_bound_ns, 2000000);
	rperf_proto_report_fini(&d);
	c = json_deep_copy(o);
	i0 = json_array_get(json_object_get(c, "instances"), 0);
	json_object_del(i0, "intervals");
	json_object_del(i0, "open_schedule");
	msg(&m, RPERF_CTRL_REPORT, c);
	assert_int_equal(rperf_proto_report_decode(&m, &d, why, sizeof(why)),
			 0);
	assert_int_equal(d.res[0].series.n, 0);
	assert_false(d.res[0].sched.open);
	rperf_proto_report_fini(&d);
	json_object_set_new(i0, "intervals",
			    json_pack("[[i, i, i, i]]", 1, 2, 3, 4));
	assert_int_equal(rperf_proto_report_decode(&m, &d, why, sizeof(why)),
			 EBADMSG);
	assert_non_null(strstr(why, "intervals"));
	json_object_set_new(i0, "intervals",
			    json_pack("[[i, i, i, i, i]]", 1, -2, 3, 4, 5));
	assert_int_equal(rperf_proto_report_decode(&m, &d, why, sizeof(why)),
			 EBADMSG);
	json_object_set_new(i0, "intervals", json_string("x"));
	assert_int_equal(rperf_proto_report_decode(&m, &d, why, sizeof(why)),
			 EBADMSG);
	json_object_del(i0, "intervals");
	json_object_set_new(i0, "open_schedule", json_pack("{s:i}", "late", 1));
	assert_int_equal(rperf_proto_report_decode(&m, &d, why, sizeof(why)),
			 EBADMSG);
	assert_non_null(strstr(why, "open_schedule"));
	json_decref(c);
	json_decref(o);
	rperf_hist_destroy(res.rtt);
	rperf_hist_destroy(res.wire);
	rperf_hist_destroy(res.loop);
}

/* A BSG source's "intervals": 4 integers per interval. */
static void test_report_bsg_series(void **state)
{
	struct rperf_bsg_interval iv[1] = { { 5, 1000000000, 16, 16384 } };
	struct rperf_proto_result res = { .id = 2,
					  .kind = RPERF_GEN_BSG,
					  .role = RPERF_ROLE_SOURCE };
	struct rperf_proto_report r = { .host = "h3", .res = &res, .n = 1 }, d;
	struct rperf_ctrl_msg m;
	char why[256];
	json_t *o = NULL, *i0;

	(void)state;
	res.bsg_series =
		(struct rperf_bsg_series){ .iv = iv, .n = 1, .cap = 1 };
	assert_int_equal(rperf_proto_report_encode(&r, &o), 0);
	msg(&m, RPERF_CTRL_REPORT, o);
	assert_int_equal(rperf_proto_report_decode(&m, &d, why, sizeof(why)),
			 0);
	assert_int_equal(d.res[0].bsg_series.n, 1);
	assert_int_equal(d.res[0].bsg_series.iv[0].bytes, 16384);
	assert_int_equal(d.res[0].bsg_series.iv[0].dur_ns, 1000000000);
	rperf_proto_report_fini(&d);
	i0 = json_array_get(json_object_get(o, "instances"), 0);
	json_object_set_new(i0, "intervals",
			    json_pack("[[i, i, i, i, i]]", 1, 2, 3, 4, 5));
	assert_int_equal(rperf_proto_report_decode(&m, &d, why, sizeof(why)),
			 EBADMSG);
	assert_non_null(strstr(why, "not 4 integers"));
	json_decref(o);
}

/* A BSG sink's "intervals" (what arrived per interval): a round trip; an
 * older agent's sink sends none (decoded as none); hostile rows refused
 * (negative, a time past 1e18 ns, 5 columns, not an array). */
static void test_report_sink_series(void **state)
{
	struct rperf_bsg_interval iv[3] = { { 0, 100000000, 24, 49152 },
					    { 100000000, 100000000, 0, 0 },
					    { 200000000, 30000000, 2, 4096 } };
	struct rperf_proto_result res = { .id = 4,
					  .kind = RPERF_GEN_BSG,
					  .role = RPERF_ROLE_SINK,
					  .messages = 26,
					  .bytes = 53248 };
	struct rperf_proto_report r = { .host = "h1", .res = &res, .n = 1 }, d;
	static const char *const bad[] = { "[[0, -1, 2, 3]]",
					   "[[1000000000000000001, 1, 2, 3]]",
					   "[[0, 1000000000000000001, 2, 3]]",
					   "[[0, 1, 2, 3, 4]]",
					   "[0]",
					   "{}" };
	struct rperf_ctrl_msg m;
	char why[256];
	json_t *o = NULL, *i0;

	(void)state;
	res.bsg_series =
		(struct rperf_bsg_series){ .iv = iv, .n = 3, .cap = 3 };
	assert_int_equal(rperf_proto_report_encode(&r, &o), 0);
	msg(&m, RPERF_CTRL_REPORT, o);
	assert_int_equal(rperf_proto_report_decode(&m, &d, why, sizeof(why)),
			 0);
	assert_int_equal(d.res[0].role, RPERF_ROLE_SINK);
	assert_int_equal(d.res[0].bsg_series.n, 3);
	assert_int_equal(d.res[0].bsg_series.iv[0].messages, 24);
	assert_int_equal(d.res[0].bsg_series.iv[1].bytes, 0);
	assert_int_equal(d.res[0].bsg_series.iv[2].dur_ns, 30000000);
	rperf_proto_report_fini(&d);
	i0 = json_array_get(json_object_get(o, "instances"), 0);
	json_object_del(i0, "intervals"); /* an older agent's sink */
	assert_int_equal(rperf_proto_report_decode(&m, &d, why, sizeof(why)),
			 0);
	assert_int_equal(d.res[0].bsg_series.n, 0);
	assert_int_equal(d.res[0].messages, 26);
	rperf_proto_report_fini(&d);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		json_object_set_new(i0, "intervals",
				    json_loads(bad[i], 0, NULL));
		why[0] = 0;
		assert_int_equal(rperf_proto_report_decode(&m, &d, why,
							   sizeof(why)),
				 EBADMSG);
		assert_non_null(strstr(why, "intervals"));
		print_message("refused %s: %s\n", bad[i], why);
	}
	json_decref(o);
}

/* A REPORT above the control channel's limit loses its sinks' intervals
 * (marked), not the sources' rows nor any total: 3,000 rows of a sink
 * and 3,000 of a source against a limit between the two sizes. */
static void test_report_fit(void **state)
{
	struct rperf_proto_result res[2] = {
		{ .id = 0, .kind = RPERF_GEN_BSG, .role = RPERF_ROLE_SOURCE },
		{ .id = 1,
		  .kind = RPERF_GEN_BSG,
		  .role = RPERF_ROLE_SINK,
		  .messages = 7 },
	};
	struct rperf_proto_report r = { .host = "h1", .res = res, .n = 2 }, d;
	struct rperf_bsg_interval v = { 0, 1000000000, 123, 251904 };
	struct rperf_ctrl_msg m;
	size_t dropped = 9, whole;
	char why[256], *t;
	json_t *o = NULL;

	(void)state;
	for (size_t i = 0; i < 3000; i++, v.start_ns += v.dur_ns) {
		assert_int_equal(rperf_bsg_series_push(&res[0].bsg_series, &v),
				 0);
		assert_int_equal(rperf_bsg_series_push(&res[1].bsg_series, &v),
				 0);
	}
	assert_int_equal(rperf_proto_report_encode(&r, &o), 0);
	t = json_dumps(o, JSON_COMPACT | JSON_ENSURE_ASCII);
	whole = strlen(t);
	free(t);
	assert_int_equal(rperf_proto_report_fit(o, whole, &dropped), 0);
	assert_int_equal(dropped, 0);
	assert_int_equal(rperf_proto_report_fit(o, whole * 2 / 3, &dropped), 0);
	assert_int_equal(dropped, 1);
	print_message(
		"a REPORT of %zu B fit into %zu B without the sink's rows\n",
		whole, whole * 2 / 3);
	msg(&m, RPERF_CTRL_REPORT, o);
	assert_int_equal(rperf_proto_report_decode(&m, &d, why, sizeof(why)),
			 0);
	assert_int_equal(d.res[0].bsg_series.n, 3000);
	assert_false(d.res[0].rows_dropped);
	assert_int_equal(d.res[1].bsg_series.n, 0);
	assert_true(d.res[1].rows_dropped);
	assert_int_equal(d.res[1].messages, 7);
	rperf_proto_report_fini(&d);
	/* nothing more to leave out: too big */
	assert_int_equal(rperf_proto_report_fit(o, whole / 3, &dropped),
			 EMSGSIZE);
	json_object_set_new(json_array_get(json_object_get(o, "instances"), 1),
			    "intervals_dropped", json_string("yes"));
	assert_int_equal(rperf_proto_report_decode(&m, &d, why, sizeof(why)),
			 EBADMSG);
	assert_non_null(strstr(why, "intervals_dropped"));
	json_decref(o);
	rperf_bsg_series_fini(&res[0].bsg_series);
	rperf_bsg_series_fini(&res[1].bsg_series);
}

/* The REPORT's optional "counters": kept through a round trip,
 * absent in an older agent's REPORT, a bad one refuses the REPORT. */
static void test_report_counters(void **state)
{
	struct rperf_proto_report r = { .host = "h2" }, d;
	struct rperf_ctr_reading *rd = calloc(1, sizeof(*rd));
	struct rperf_ctrl_msg m;
	char why[256];
	json_t *o = NULL;

	(void)state;
	assert_non_null(rd);
	assert_int_equal(rperf_ctr_add(rd, "rxe_h2/1/rcvd_pkts", 10, false), 0);
	assert_int_equal(rperf_ctr_series_sample(&r.counters, 0, rd), 0);
	rd->e[0].v = 25;
	assert_int_equal(rperf_ctr_series_sample(&r.counters, 500, rd), 0);
	assert_int_equal(rperf_proto_report_encode(&r, &o), 0);
	msg(&m, RPERF_CTRL_REPORT, o);
	assert_int_equal(rperf_proto_report_decode(&m, &d, why, sizeof(why)),
			 0);
	assert_int_equal(d.counters.ncols, 1);
	assert_int_equal(d.counters.nrows, 1);
	assert_int_equal(d.counters.v[0], 15);
	assert_string_equal(d.counters.names[0], "rxe_h2/1/rcvd_pkts");
	rperf_proto_report_fini(&d);
	json_object_set_new(o, "counters",
			    json_pack("{s:[s], s:[], s:[[i]]}", "names", "x",
				      "gauges", "rows", 1));
	assert_int_equal(rperf_proto_report_decode(&m, &d, why, sizeof(why)),
			 EBADMSG);
	assert_non_null(strstr(why, "'counters'"));
	json_object_del(o, "counters");
	assert_int_equal(rperf_proto_report_decode(&m, &d, why, sizeof(why)),
			 0);
	assert_int_equal(d.counters.ncols, 0);
	rperf_proto_report_fini(&d);
	json_decref(o);
	rperf_ctr_series_fini(&r.counters);
	free(rd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_report_series),
		cmocka_unit_test(test_report_bsg_series),
		cmocka_unit_test(test_report_sink_series),
		cmocka_unit_test(test_report_fit),
		cmocka_unit_test(test_report_counters),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
