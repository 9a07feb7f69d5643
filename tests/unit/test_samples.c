// SPDX-License-Identifier: BSD-2-Clause
/*
 * Every sample of an LSG (rperf run --raw): the SAMPLES codec and its
 * refusals, the REPORT's "raw_samples", the spec's "raw" (an LSG's key
 * only), the state machines (SAMPLES between STOP and REPORT only) and the
 * CSV rows with their leading columns.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "engine/proto.h"
#include "report/report_cdf.h"

static struct rperf_ctrl_msg msg_of(json_t *o)
{
	struct rperf_ctrl_msg m = { .type = RPERF_CTRL_SAMPLES,
				    .version = RPERF_CTRL_VERSION,
				    .payload = o };
	return m;
}

static void codec(void **state)
{
	struct rperf_raw_sample s[3] = { { 52100, 30000, 22100, 0 },
					 { 53000, 29500, 23500, 0 },
					 { -12, 40, -52, 0 } };
	struct rperf_raw_sample *big;
	struct rperf_proto_samples x;
	struct rperf_ctrl_msg m;
	char why[256] = "";
	json_t *o = NULL;

	(void)state;
	assert_int_equal(rperf_proto_samples_encode(7, 8192, s, 3, &o), 0);
	m = msg_of(o);
	assert_int_equal(rperf_proto_samples_decode(&m, &x, why, sizeof(why)),
			 0);
	assert_int_equal(x.id, 7);
	assert_int_equal(x.first, 8192);
	assert_int_equal(x.n, 3);
	assert_int_equal(x.s[2].rtt_ns, -52); /* non-positive RTTs kept */
	assert_int_equal(x.s[1].loop_ns, 29500);
	rperf_proto_samples_fini(&x);
	/* hostile: arrays of different lengths, a string, empty, no id */
	json_array_remove(json_object_get(o, "loop_ns"), 0);
	assert_int_equal(rperf_proto_samples_decode(&m, &x, why, sizeof(why)),
			 EBADMSG);
	assert_non_null(strstr(why, "loop_ns"));
	json_array_insert_new(json_object_get(o, "loop_ns"), 0,
			      json_string("1"));
	assert_int_equal(rperf_proto_samples_decode(&m, &x, why, sizeof(why)),
			 EBADMSG);
	assert_null(x.s);
	json_object_set_new(o, "wire_ns", json_array());
	assert_int_equal(rperf_proto_samples_decode(&m, &x, why, sizeof(why)),
			 EBADMSG);
	json_object_del(o, "id");
	assert_int_equal(rperf_proto_samples_decode(&m, &x, why, sizeof(why)),
			 EBADMSG);
	json_decref(o);
	/* one frame holds at most RPERF_PROTO_SAMPLES_PER_FRAME */
	big = calloc(RPERF_PROTO_SAMPLES_PER_FRAME + 1, sizeof(*big));
	assert_non_null(big);
	assert_int_equal(rperf_proto_samples_encode(
				 1, 0, big, RPERF_PROTO_SAMPLES_PER_FRAME + 1,
				 &o),
			 EINVAL);
	assert_int_equal(rperf_proto_samples_encode(1, 0, big, 0, &o), EINVAL);
	assert_int_equal(rperf_proto_samples_encode(
				 1, 0, big, RPERF_PROTO_SAMPLES_PER_FRAME, &o),
			 0);
	json_array_append_new(json_object_get(o, "wire_ns"), json_integer(1));
	json_array_append_new(json_object_get(o, "loop_ns"), json_integer(1));
	json_array_append_new(json_object_get(o, "rtt_ns"), json_integer(1));
	m = msg_of(o);
	assert_int_equal(rperf_proto_samples_decode(&m, &x, why, sizeof(why)),
			 EBADMSG);
	json_decref(o);
	free(big);
}

static void report_and_spec(void **state)
{
	struct rperf_proto_report rep = { .host = "h1" }, out;
	struct rperf_proto_result res = { .id = 0,
					  .role = RPERF_ROLE_SOURCE,
					  .kind = RPERF_GEN_LSG,
					  .has_raw = true,
					  .nraw = 20000 };
	struct rperf_ctrl_msg m = { .type = RPERF_CTRL_REPORT,
				    .version = RPERF_CTRL_VERSION };
	struct rperf_gen_spec s, t;
	char why[256] = "";
	json_t *o = NULL;

	(void)state;
	assert_int_equal(rperf_hist_create(RPERF_HIST_DEFAULT_BITS, &res.rtt),
			 0);
	assert_int_equal(rperf_hist_create(RPERF_HIST_DEFAULT_BITS, &res.wire),
			 0);
	assert_int_equal(rperf_hist_create(RPERF_HIST_DEFAULT_BITS, &res.loop),
			 0);
	rep.res = &res;
	rep.n = 1;
	assert_int_equal(rperf_proto_report_encode(&rep, &o), 0);
	m.payload = o;
	assert_int_equal(rperf_proto_report_decode(&m, &out, why, sizeof(why)),
			 0);
	assert_true(out.res[0].has_raw);
	assert_int_equal(out.res[0].nraw, 20000);
	assert_null(out.res[0].raw); /* the samples came in SAMPLES */
	rperf_proto_report_fini(&out);
	json_object_set_new(json_array_get(json_object_get(o, "instances"), 0),
			    "raw_samples", json_integer(-1));
	assert_int_equal(rperf_proto_report_decode(&m, &out, why, sizeof(why)),
			 EBADMSG);
	json_decref(o);
	rperf_proto_result_hists_fini(&res);
	/* "raw": an LSG's PLAN key, refused on a BSG */
	rperf_gen_spec_defaults(&s, RPERF_GEN_LSG);
	snprintf(s.name, sizeof(s.name), "probe");
	snprintf(s.from, sizeof(s.from), "h1");
	snprintf(s.to, sizeof(s.to), "h2");
	s.raw = true;
	assert_int_equal(rperf_gen_spec_encode(&s, &o), 0);
	assert_true(json_is_true(json_object_get(o, "raw")));
	assert_int_equal(rperf_gen_spec_decode(o, &t, why, sizeof(why)), 0);
	assert_true(t.raw);
	json_object_set_new(o, "kind", json_string("bsg"));
	assert_int_equal(rperf_gen_spec_decode(o, &t, why, sizeof(why)),
			 EBADMSG);
	assert_non_null(strstr(why, "'raw' with a BSG"));
	json_decref(o);
}

static void session(void **state)
{
	struct rperf_proto_session a, c;

	(void)state;
	rperf_proto_session_init(&a, RPERF_PROTO_AGENT);
	a.state = RPERF_PROTO_STOP_RCVD;
	for (int i = 0; i < 3; i++)
		assert_int_equal(rperf_proto_session_check(&a, RPERF_CTRL_SEND,
							   RPERF_CTRL_SAMPLES),
				 0);
	assert_int_equal(rperf_proto_session_check(&a, RPERF_CTRL_SEND,
						   RPERF_CTRL_REPORT),
			 0);
	/* never after the REPORT, never while running */
	assert_int_equal(rperf_proto_session_check(&a, RPERF_CTRL_SEND,
						   RPERF_CTRL_SAMPLES),
			 EPROTO);
	a.state = RPERF_PROTO_RUNNING;
	assert_int_equal(rperf_proto_session_check(&a, RPERF_CTRL_SEND,
						   RPERF_CTRL_SAMPLES),
			 EPROTO);
	rperf_proto_session_init(&c, RPERF_PROTO_CONTROLLER);
	c.state = RPERF_PROTO_C_AWAIT_REPORT;
	assert_int_equal(rperf_proto_session_check(&c, RPERF_CTRL_RECV,
						   RPERF_CTRL_SAMPLES),
			 0);
	assert_int_equal(c.state, RPERF_PROTO_C_AWAIT_REPORT);
	c.state = RPERF_PROTO_C_RUNNING;
	assert_int_equal(rperf_proto_session_check(&c, RPERF_CTRL_RECV,
						   RPERF_CTRL_SAMPLES),
			 EPROTO);
}

static void rows(void **state)
{
	struct rperf_raw_sample s[2] = { { 5, 2, 3, 64 }, { 7, 9, -2, 64 } };
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	(void)state;
	assert_non_null(f);
	assert_int_equal(rperf_rpt_raw_rows(f, s, 2, "probe,h1,h2,"), 0);
	fclose(f);
	assert_string_equal(text,
			    "probe,h1,h2,64,5,2,3\nprobe,h1,h2,64,7,9,-2\n");
	free(text);
	assert_string_equal(RPERF_RPT_RAW_COLUMNS,
			    "size,wire_ns,loop_ns,rtt_ns");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(codec),
		cmocka_unit_test(report_and_spec),
		cmocka_unit_test(session),
		cmocka_unit_test(rows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
