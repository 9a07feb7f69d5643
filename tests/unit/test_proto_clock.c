/* SPDX-License-Identifier: BSD-2-Clause */
/* The start barrier's messages (src/engine/proto_clock.c): CLOCK request
 * and reply, GO "start_at_ns", REPORT "start_ns". */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "engine/proto.h"

static void msg(struct rperf_ctrl_msg *m, enum rperf_ctrl_type t, json_t *o)
{
	m->type = t;
	m->version = RPERF_CTRL_VERSION;
	m->payload = o;
}

/* CLOCK request and reply, GO "start_at_ns", REPORT "start_ns": round
 * trips; out-of-range and contradictory values refused. */
static void test_clock(void **state)
{
	struct rperf_proto_report r = { .host = "h1",
					.has_start = true,
					.start_ns = 987654321ull },
				  d;
	struct rperf_ctrl_msg m;
	uint64_t rx, tx, at;
	uint32_t seq;
	char why[256];
	json_t *o = NULL;

	(void)state;
	assert_int_equal(rperf_proto_clock_req_encode(7, &o), 0);
	msg(&m, RPERF_CTRL_CLOCK, o);
	assert_int_equal(rperf_proto_clock_req_decode(&m, &seq), 0);
	assert_int_equal(seq, 7);
	assert_int_equal(rperf_proto_clock_reply_decode(&m, &seq, &rx, &tx),
			 EBADMSG); /* a request has no stamps */
	json_decref(o);
	assert_int_equal(rperf_proto_clock_reply_encode(8, 100, 150, &o), 0);
	msg(&m, RPERF_CTRL_CLOCK, o);
	assert_int_equal(rperf_proto_clock_reply_decode(&m, &seq, &rx, &tx), 0);
	assert_true(seq == 8 && rx == 100 && tx == 150);
	json_object_set_new(o, "rx_ns", json_integer(151)); /* after tx */
	assert_int_equal(rperf_proto_clock_reply_decode(&m, &seq, &rx, &tx),
			 EBADMSG);
	json_object_set_new(o, "seq",
			    json_integer(RPERF_PROTO_MAX_CLOCK_SEQ + 1));
	assert_int_equal(rperf_proto_clock_req_decode(&m, &seq), EBADMSG);
	m.type = RPERF_CTRL_GO;
	assert_int_equal(rperf_proto_clock_req_decode(&m, &seq), EPROTO);
	json_decref(o);
	assert_int_equal(rperf_proto_clock_reply_encode(1, 2, 1, &o), EINVAL);
	assert_int_equal(
		rperf_proto_clock_req_encode(RPERF_PROTO_MAX_CLOCK_SEQ + 1, &o),
		EINVAL);
	assert_int_equal(rperf_proto_go_encode(1000, 0, &o), 0);
	msg(&m, RPERF_CTRL_GO, o);
	assert_int_equal(rperf_proto_go_start_at(&m, &at), ENOENT);
	assert_int_equal(rperf_proto_go_set_start_at(o, 123456789012345ull), 0);
	assert_int_equal(rperf_proto_go_start_at(&m, &at), 0);
	assert_int_equal(at, 123456789012345ull);
	json_object_set_new(o, "start_at_ns", json_string("soon"));
	assert_int_equal(rperf_proto_go_start_at(&m, &at), EBADMSG);
	json_decref(o);
	assert_int_equal(rperf_proto_report_encode(&r, &o), 0);
	msg(&m, RPERF_CTRL_REPORT, o);
	assert_int_equal(rperf_proto_report_decode(&m, &d, why, sizeof(why)),
			 0);
	assert_true(d.has_start);
	assert_int_equal(d.start_ns, 987654321ull);
	rperf_proto_report_fini(&d);
	json_object_set_new(o, "start_ns", json_integer(-5));
	assert_int_equal(rperf_proto_report_decode(&m, &d, why, sizeof(why)),
			 EBADMSG);
	assert_non_null(strstr(why, "start_ns"));
	json_decref(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clock),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
