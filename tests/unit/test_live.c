/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Live rows (rperf run --live): GO's "live", the HEARTBEAT rows' codec
 * (round trips, hostile payloads), the engine's ring per instance (order,
 * overwrite counted, a capped take leaves the rest) and the text line.
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "engine/engine.h"
#include "engine/engine_priv.h"
#include "engine/proto.h"
#include "run/run.h"

static struct rperf_ctrl_msg msg(json_t *o)
{
	return (struct rperf_ctrl_msg){ .type = RPERF_CTRL_HEARTBEAT,
					.version = RPERF_CTRL_VERSION,
					.payload = o };
}

static void go_live(void **state)
{
	struct rperf_ctrl_msg m = { .type = RPERF_CTRL_GO,
				    .version = RPERF_CTRL_VERSION };
	bool live = true;
	json_t *o = NULL;

	(void)state;
	assert_int_equal(rperf_proto_go_encode(1000, 0, &o), 0);
	m.payload = o;
	assert_int_equal(rperf_proto_go_live(&m, &live), 0); /* absent */
	assert_false(live);
	assert_int_equal(rperf_proto_go_set_live(o), 0);
	assert_int_equal(rperf_proto_go_live(&m, &live), 0);
	assert_true(live);
	json_object_set_new(o, "live", json_string("yes"));
	assert_int_equal(rperf_proto_go_live(&m, &live), EBADMSG);
	json_decref(o);
}

static void codec(void **state)
{
	struct rperf_live_row in[2] = {
		{ .id = 4,
		  .kind = RPERF_GEN_BSG,
		  .start_ns = 2000000000,
		  .dur_ns = 1000000000,
		  .messages = 150000,
		  .bytes = 150000ull * 65536 },
		{ .id = 0,
		  .kind = RPERF_GEN_LSG,
		  .start_ns = 1000000000,
		  .samples = 900,
		  .p50_ns = 12000,
		  .p99_ns = 40000,
		  .max_ns = 90000 },
	};
	struct rperf_proto_live l;
	struct rperf_ctrl_msg m;
	char why[200] = "";
	json_t *o = NULL, *r;

	(void)state;
	assert_int_equal(rperf_proto_live_encode(in, 2, 3, &o), 0);
	m = msg(o);
	assert_int_equal(rperf_proto_live_decode(&m, &l, why, sizeof(why)), 0);
	assert_int_equal(l.n, 2);
	assert_int_equal(l.skipped, 3);
	assert_memory_equal(&l.rows[0], &in[0], sizeof(in[0]));
	assert_memory_equal(&l.rows[1], &in[1], sizeof(in[1]));
	rperf_proto_live_fini(&l);
	/* hostile rows: each refused naming the row and key */
	r = json_array_get(json_object_get(o, "rows"), 1);
	json_object_set_new(r, "p99_ns", json_string("fast"));
	assert_int_equal(rperf_proto_live_decode(&m, &l, why, sizeof(why)),
			 EBADMSG);
	assert_string_equal(why, "HEARTBEAT: rows[1]: 'p99_ns' bad");
	assert_null(l.rows);
	json_object_set_new(r, "p99_ns", json_integer(1));
	json_object_set_new(r, "kind", json_string("lsgx"));
	assert_int_equal(rperf_proto_live_decode(&m, &l, why, sizeof(why)),
			 EBADMSG);
	assert_non_null(strstr(why, "'kind'"));
	json_object_set_new(r, "kind", json_string("lsg"));
	json_object_del(json_array_get(json_object_get(o, "rows"), 0), "bytes");
	assert_int_equal(rperf_proto_live_decode(&m, &l, why, sizeof(why)),
			 EBADMSG);
	assert_string_equal(why, "HEARTBEAT: rows[0]: 'bytes' bad");
	json_array_set_new(json_object_get(o, "rows"), 0, json_integer(5));
	assert_int_equal(rperf_proto_live_decode(&m, &l, why, sizeof(why)),
			 EBADMSG);
	json_object_set_new(o, "rows", json_object());
	assert_int_equal(rperf_proto_live_decode(&m, &l, why, sizeof(why)),
			 EBADMSG);
	json_object_set_new(o, "rows", json_array());
	json_object_set_new(o, "skipped", json_integer(-1));
	assert_int_equal(rperf_proto_live_decode(&m, &l, why, sizeof(why)),
			 EBADMSG);
	json_object_del(o, "skipped");
	assert_int_equal(rperf_proto_live_decode(&m, &l, why, sizeof(why)), 0);
	assert_int_equal(l.n, 0);
	rperf_proto_live_fini(&l);
	/* more rows than a HEARTBEAT may carry */
	for (size_t i = 0; i <= RPERF_PROTO_MAX_LIVE_ROWS; i++)
		json_array_append_new(json_object_get(o, "rows"),
				      json_object());
	assert_int_equal(rperf_proto_live_decode(&m, &l, why, sizeof(why)),
			 EBADMSG);
	assert_non_null(strstr(why, "at most"));
	json_decref(o);
	in[0].kind = 0; /* not a kind: not encoded */
	assert_int_equal(rperf_proto_live_encode(in, 2, 0, &o), EINVAL);
}

/* Two instances; @pushes rows of instance 1 (messages = i). */
static void ring(void **state)
{
	struct rperf_engine e;
	struct rperf_live_row out[200];
	uint64_t skipped;
	size_t n;

	(void)state;
	memset(&e, 0, sizeof(e));
	pthread_mutex_init(&e.live_lock, NULL);
	e.n = 2;
	e.inst = calloc(2, sizeof(*e.inst));
	assert_non_null(e.inst);
	for (size_t i = 0; i < 2; i++) {
		e.inst[i].engine = &e;
		e.inst[i].spec.id = (uint32_t)(10 + i);
	}
	rperf_engine_live_push(
		&e.inst[1], &(struct rperf_live_row){ .kind = RPERF_GEN_BSG });
	rperf_engine_live_take(&e, out, 200, &n, &skipped);
	assert_int_equal(n, 0); /* not on: nothing kept */
	rperf_engine_live_on(&e);
	for (uint64_t i = 0; i < RPERF_ENGINE_LIVE_RING + 6; i++)
		rperf_engine_live_push(
			&e.inst[1],
			&(struct rperf_live_row){ .kind = RPERF_GEN_BSG,
						  .messages = i });
	rperf_engine_live_push(&e.inst[0],
			       &(struct rperf_live_row){ .kind = RPERF_GEN_LSG,
							 .samples = 99 });
	rperf_engine_live_take(&e, out, 10, &n, &skipped);
	assert_int_equal(n, 10);
	assert_int_equal(skipped, 6); /* the oldest 6 overwritten */
	assert_int_equal(out[0].id, 10);
	assert_int_equal(out[0].samples, 99);
	assert_int_equal(out[1].id, 11);
	assert_int_equal(out[1].messages, 6);
	assert_int_equal(out[9].messages, 14);
	rperf_engine_live_take(&e, out, 200, &n, &skipped);
	assert_int_equal(n, RPERF_ENGINE_LIVE_RING - 9); /* the rest */
	assert_int_equal(skipped, 0);
	assert_int_equal(out[0].messages, 15);
	assert_int_equal(out[n - 1].messages, RPERF_ENGINE_LIVE_RING + 5);
	rperf_engine_live_take(&e, out, 200, &n, &skipped);
	assert_int_equal(n, 0);
	free(e.inst);
	pthread_mutex_destroy(&e.live_lock);
}

static void text(void **state)
{
	struct rperf_gen_spec s = { .name = "bulk",
				    .from = "h1",
				    .to = "h3",
				    .interval_ns = 500000000 };
	char *t = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&t, &len);

	(void)state;
	assert_non_null(f);
	rperf_run_live_text(f, &s,
			    &(struct rperf_live_row){ .kind = RPERF_GEN_BSG,
						      .start_ns = 1000000000,
						      .dur_ns = 500000000,
						      .messages = 1000,
						      .bytes = 62500000 });
	snprintf(s.name, sizeof(s.name), "probe");
	rperf_run_live_text(f, &s,
			    &(struct rperf_live_row){ .kind = RPERF_GEN_LSG,
						      .start_ns = 1500000000,
						      .samples = 40,
						      .p50_ns = 12345,
						      .p99_ns = 20000,
						      .max_ns = 30500 });
	rperf_run_live_skipped_text(f, "h2", 3);
	fclose(f);
	assert_string_equal(
		t,
		"live [   1.000-   1.500 s] bulk (h1 -> h3) bsg: 1.0000 Gb/s, 1000 msgs\n"
		"live [   1.500-   2.000 s] probe (h1 -> h3) lsg: 40 samples, RTT p50 12.345 us, p99 20.000 us, max 30.500 us\n"
		"live: 3 row(s) of h2's sources came faster than its HEARTBEATs took them: not shown live (the report's intervals have them)\n");
	free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(go_live),
		cmocka_unit_test(codec),
		cmocka_unit_test(ring),
		cmocka_unit_test(text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
