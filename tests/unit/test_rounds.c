// SPDX-License-Identifier: BSD-2-Clause
/*
 * Rounds on the same QPs (engine/proto.h, PLAN "rounds"): the codecs of a
 * spec's "round_sizes" and "round_methods", a PLAN's "rounds" and a GO's
 * "round" with their refusals, both ends' state machines, and the agent (agent_fixture.h's
 * engine) running two rounds on one connection, refusing a GO of the wrong
 * round and a next round before the first.
 */
#include "agent_fixture.h"

static struct rperf_ctrl_msg msg_of(enum rperf_ctrl_type t, json_t *o)
{
	struct rperf_ctrl_msg m = { .type = t,
				    .version = RPERF_CTRL_VERSION,
				    .payload = o };
	return m;
}

static void lsg(struct rperf_gen_spec *s, uint64_t size)
{
	rperf_gen_spec_defaults(s, RPERF_GEN_LSG);
	snprintf(s->name, sizeof(s->name), "probe");
	snprintf(s->from, sizeof(s->from), "h1");
	snprintf(s->to, sizeof(s->to), "h2");
	s->size = size;
}

static void test_spec_codec(void **state)
{
	struct rperf_gen_spec s, t;
	char why[256] = "";
	json_t *o = NULL, *a;

	(void)state;
	lsg(&s, 4096);
	s.round_sizes =
		(struct rperf_round_sizes){ .v = { 8, 4096, 64 }, .n = 3 };
	assert_int_equal(rperf_gen_spec_encode(&s, &o), 0);
	assert_int_equal(json_array_size(json_object_get(o, "round_sizes")), 3);
	assert_int_equal(rperf_gen_spec_decode(o, &t, why, sizeof(why)), 0);
	assert_int_equal(t.round_sizes.n, 3);
	assert_int_equal(t.round_sizes.v[2], 64);
	assert_int_equal(rperf_spec_round_size(&t, 0), 8);
	assert_int_equal(rperf_spec_round_size(&t, 1), 4096);
	/* an entry above the size the QPs are made for, zero, not a number,
	 * an empty list, more than RPERF_SPEC_MAX_ROUNDS */
	a = json_object_get(o, "round_sizes");
	json_array_set_new(a, 1, json_integer(4097));
	assert_int_equal(rperf_gen_spec_decode(o, &t, why, sizeof(why)),
			 EBADMSG);
	assert_non_null(strstr(why, "round_sizes"));
	json_array_set_new(a, 1, json_integer(0));
	assert_int_equal(rperf_gen_spec_decode(o, &t, why, sizeof(why)),
			 EBADMSG);
	json_array_set_new(a, 1, json_string("64"));
	assert_int_equal(rperf_gen_spec_decode(o, &t, why, sizeof(why)),
			 EBADMSG);
	json_array_clear(a);
	assert_int_equal(rperf_gen_spec_decode(o, &t, why, sizeof(why)),
			 EBADMSG);
	for (int i = 0; i <= RPERF_SPEC_MAX_ROUNDS; i++)
		json_array_append_new(a, json_integer(8));
	assert_int_equal(rperf_gen_spec_decode(o, &t, why, sizeof(why)),
			 EBADMSG);
	json_object_del(o, "round_sizes");
	assert_int_equal(rperf_gen_spec_decode(o, &t, why, sizeof(why)), 0);
	assert_int_equal(t.round_sizes.n, 0);
	assert_int_equal(rperf_spec_round_size(&t, 5), 4096);
	json_decref(o);
	/* a BSG drawing its sizes has no one size per round */
	rperf_gen_spec_defaults(&s, RPERF_GEN_BSG);
	s.sizes = (struct rperf_size_dist){ .size = { 1024, 65536 },
					    .weight = { 1, 1 },
					    .cdf = { 0.5, 1 },
					    .n = 2 };
	s.size = 65536;
	s.round_sizes = (struct rperf_round_sizes){ .v = { 8, 64 }, .n = 2 };
	assert_int_equal(rperf_spec_rounds_check(&s, why, sizeof(why)),
			 EBADMSG);
	assert_non_null(strstr(why, "sizes"));
}

/* "round_methods": an LSG's method per round, each by the rules of method
 * with verb; round 0's is the spec's method; a PLAN checks the count. */
static void test_methods_codec(void **state)
{
	struct rperf_gen_spec s, t;
	struct rperf_proto_plan p = { .experiment = "job",
				      .host = "h1",
				      .device = { "", 1, -1, -1, -1, -1 },
				      .sources = &s,
				      .nsources = 1,
				      .rounds = 3 },
				q;
	struct rperf_ctrl_msg m;
	char why[256] = "";
	json_t *o = NULL, *a;

	(void)state;
	lsg(&s, 1024);
	s.round_methods =
		(struct rperf_round_methods){ .v = { RPERF_METHOD_RPERF,
						     RPERF_METHOD_PINGPONG,
						     RPERF_METHOD_POSTPOLL },
					      .n = 3 };
	assert_int_equal(rperf_gen_spec_encode(&s, &o), 0);
	a = json_object_get(o, "round_methods");
	assert_string_equal(json_string_value(json_array_get(a, 1)),
			    "pingpong");
	assert_int_equal(rperf_gen_spec_decode(o, &t, why, sizeof(why)), 0);
	assert_int_equal(t.round_methods.n, 3);
	assert_int_equal(rperf_spec_round_method(&t, 2), RPERF_METHOD_POSTPOLL);
	assert_true(rperf_spec_any_method(&t, RPERF_METHOD_PINGPONG));
	t.round_methods.n = 0;
	assert_false(rperf_spec_any_method(&t, RPERF_METHOD_PINGPONG));
	assert_int_equal(rperf_spec_round_method(&t, 2), RPERF_METHOD_RPERF);
	/* not a method name, "all", not a string, round 0 not the method */
	json_array_set_new(a, 1, json_string("ping"));
	assert_int_equal(rperf_gen_spec_decode(o, &t, why, sizeof(why)),
			 EBADMSG);
	assert_non_null(strstr(why, "'round_methods' entry 1"));
	json_array_set_new(a, 1, json_string("all"));
	assert_int_equal(rperf_gen_spec_decode(o, &t, why, sizeof(why)),
			 EBADMSG);
	json_array_set_new(a, 1, json_integer(1));
	assert_int_equal(rperf_gen_spec_decode(o, &t, why, sizeof(why)),
			 EBADMSG);
	json_array_set_new(a, 1, json_string("pingpong"));
	json_array_set_new(a, 0, json_string("postpoll"));
	assert_int_equal(rperf_gen_spec_decode(o, &t, why, sizeof(why)),
			 EBADMSG);
	assert_non_null(strstr(why, "entry 0 is not the spec's 'method'"));
	json_decref(o);
	o = NULL;
	/* a round's method against the verb (pingpong answers no READ), a
	 * BSG with methods */
	s.verb = RPERF_VERB_READ;
	s.test.method = RPERF_METHOD_POSTPOLL;
	s.round_methods.v[0] = RPERF_METHOD_POSTPOLL;
	assert_int_equal(rperf_spec_rounds_check(&s, why, sizeof(why)),
			 EBADMSG);
	assert_non_null(strstr(why, "'round_methods' entry 1: 'method' "
				    "pingpong with verb read"));
	s.verb = RPERF_VERB_SEND;
	s.test.method = RPERF_METHOD_RPERF;
	s.round_methods.v[0] = RPERF_METHOD_RPERF;
	assert_int_equal(rperf_spec_rounds_check(&s, why, sizeof(why)), 0);
	s.kind = RPERF_GEN_BSG;
	assert_int_equal(rperf_spec_rounds_check(&s, why, sizeof(why)),
			 EBADMSG);
	assert_non_null(strstr(why, "with a BSG"));
	s.kind = RPERF_GEN_LSG;
	/* a PLAN: as many methods as rounds */
	assert_int_equal(rperf_proto_plan_encode(&p, &o), 0);
	m = msg_of(RPERF_CTRL_PLAN, o);
	assert_int_equal(rperf_proto_plan_decode(&m, &q, why, sizeof(why)), 0);
	assert_int_equal(q.sources[0].round_methods.v[1],
			 RPERF_METHOD_PINGPONG);
	rperf_proto_plan_fini(&q);
	json_object_set_new(o, "rounds", json_integer(2));
	assert_int_equal(rperf_proto_plan_decode(&m, &q, why, sizeof(why)),
			 EBADMSG);
	assert_non_null(strstr(why, "'round_methods' has 3 entries for 2"));
	json_decref(o);
}

static void test_plan_and_go(void **state)
{
	struct rperf_gen_spec src[2];
	struct rperf_proto_plan p = { .experiment = "job",
				      .host = "h1",
				      .device = { "", 1, -1, -1, -1, -1 },
				      .sources = src,
				      .nsources = 2,
				      .rounds = 3 },
				q;
	struct rperf_ctrl_msg m;
	char why[256] = "";
	json_t *o = NULL;
	uint32_t k = 9;

	(void)state;
	lsg(&src[0], 1024);
	src[0].round_sizes =
		(struct rperf_round_sizes){ .v = { 8, 64, 1024 }, .n = 3 };
	lsg(&src[1], 64); /* no round_sizes: its size every round */
	src[1].id = 1;
	snprintf(src[1].name, sizeof(src[1].name), "other");
	assert_int_equal(rperf_proto_plan_encode(&p, &o), 0);
	assert_int_equal(json_integer_value(json_object_get(o, "rounds")), 3);
	m = msg_of(RPERF_CTRL_PLAN, o);
	assert_int_equal(rperf_proto_plan_decode(&m, &q, why, sizeof(why)), 0);
	assert_int_equal(q.rounds, 3);
	assert_int_equal(q.sources[0].round_sizes.v[1], 64);
	rperf_proto_plan_fini(&q);
	/* a spec with another count of rounds, a count out of range */
	json_object_set_new(o, "rounds", json_integer(2));
	assert_int_equal(rperf_proto_plan_decode(&m, &q, why, sizeof(why)),
			 EBADMSG);
	assert_non_null(strstr(why, "3 entries for 2 rounds"));
	json_object_set_new(o, "rounds",
			    json_integer(RPERF_SPEC_MAX_ROUNDS + 1));
	assert_int_equal(rperf_proto_plan_decode(&m, &q, why, sizeof(why)),
			 EBADMSG);
	json_object_set_new(o, "rounds", json_integer(0));
	assert_int_equal(rperf_proto_plan_decode(&m, &q, why, sizeof(why)),
			 EBADMSG);
	json_decref(o);
	p.rounds = 2; /* the encoder refuses the mismatch too */
	assert_int_equal(rperf_proto_plan_encode(&p, &o), EINVAL);
	/* GO: absent round = 0; set; out of range */
	assert_int_equal(rperf_proto_go_encode(1000, 0, &o), 0);
	m = msg_of(RPERF_CTRL_GO, o);
	assert_int_equal(rperf_proto_go_round(&m, &k), 0);
	assert_int_equal(k, 0);
	assert_int_equal(rperf_proto_go_set_round(o, 0), 0);
	assert_null(json_object_get(o, "round"));
	assert_int_equal(rperf_proto_go_set_round(o, 2), 0);
	assert_int_equal(rperf_proto_go_round(&m, &k), 0);
	assert_int_equal(k, 2);
	json_object_set_new(o, "round", json_integer(RPERF_SPEC_MAX_ROUNDS));
	assert_int_equal(rperf_proto_go_round(&m, &k), EBADMSG);
	json_object_set_new(o, "round", json_string("1"));
	assert_int_equal(rperf_proto_go_round(&m, &k), EBADMSG);
	json_decref(o);
}

static void test_session(void **state)
{
	struct rperf_proto_session s;
	static const enum rperf_ctrl_type agent_path[] = {
		RPERF_CTRL_HELLO,     RPERF_CTRL_WELCOME, RPERF_CTRL_PLAN,
		RPERF_CTRL_ENDPOINTS, RPERF_CTRL_CONNECT, RPERF_CTRL_ARMED,
		RPERF_CTRL_GO,	      RPERF_CTRL_STOP,	  RPERF_CTRL_REPORT,
		RPERF_CTRL_CLOCK,     RPERF_CTRL_CLOCK,	  RPERF_CTRL_GO,
		RPERF_CTRL_STOP,      RPERF_CTRL_REPORT,  RPERF_CTRL_GO,
		RPERF_CTRL_STOP,      RPERF_CTRL_REPORT,  RPERF_CTRL_BYE,
		RPERF_CTRL_BYE,
	};
	static const enum rperf_ctrl_type ctl_path[] = { RPERF_CTRL_CLOCK,
							 RPERF_CTRL_CLOCK,
							 RPERF_CTRL_GO };
	static const enum rperf_ctrl_dir ctl_dir[] = { RPERF_CTRL_SEND,
						       RPERF_CTRL_RECV,
						       RPERF_CTRL_SEND };
	static const bool agent_rx[] = { 1, 0, 1, 0, 1, 0, 1, 1, 0, 1,
					 0, 1, 1, 0, 1, 1, 0, 1, 0 };

	(void)state;
	rperf_proto_session_init(&s, RPERF_PROTO_AGENT);
	for (size_t i = 0; i < sizeof(agent_rx); i++)
		assert_int_equal(rperf_proto_session_check(
					 &s,
					 agent_rx[i] ? RPERF_CTRL_RECV :
						       RPERF_CTRL_SEND,
					 agent_path[i]),
				 0);
	assert_int_equal(s.state, RPERF_PROTO_CLOSED);
	/* the controller: after a REPORT, CLOCK exchanges and the next GO */
	rperf_proto_session_init(&s, RPERF_PROTO_CONTROLLER);
	s.state = RPERF_PROTO_C_REPORT_RCVD;
	for (size_t i = 0; i < 3; i++)
		assert_int_equal(rperf_proto_session_check(&s, ctl_dir[i],
							   ctl_path[i]),
				 0);
	assert_int_equal(s.state, RPERF_PROTO_C_RUNNING);
	/* an agent never takes a PLAN or CONNECT after its REPORT */
	rperf_proto_session_init(&s, RPERF_PROTO_AGENT);
	s.state = RPERF_PROTO_AWAIT_BYE;
	assert_int_equal(rperf_proto_session_check(&s, RPERF_CTRL_RECV,
						   RPERF_CTRL_PLAN),
			 EPROTO);
	assert_int_equal(rperf_proto_session_check(&s, RPERF_CTRL_RECV,
						   RPERF_CTRL_CONNECT),
			 EPROTO);
}

/* A controller of @a through PLAN ("rounds": @rounds) and CONNECT. */
static int armed_rounds(struct rperf_agent *a, int rounds)
{
	json_t *p = plan("");

	json_object_set_new(p, "rounds", json_integer(rounds));
	return armed(a, p);
}

static void go(struct rperf_agent *a, int fd, uint32_t k)
{
	json_t *o = NULL;

	assert_int_equal(rperf_proto_go_encode(1000, 0, &o), 0);
	assert_int_equal(rperf_proto_go_set_round(o, k), 0);
	tx(fd, RPERF_CTRL_GO, o);
	step(a);
}

static void stop_report(struct rperf_agent *a, int fd)
{
	struct rperf_ctrl_msg m;

	ask(a, fd, RPERF_CTRL_STOP, NULL, RPERF_CTRL_REPORT, &m);
	rperf_ctrl_msg_release(&m);
}

static void test_agent_rounds(void **state)
{
	struct rperf_agent *a = agent(false, 2000);
	struct rperf_ctrl_msg m;
	json_t *o = NULL;
	int fd;

	(void)state;
	fd = armed_rounds(a, 2);
	go(a, fd, 0);
	stop_report(a, fd);
	assert_int_equal(fake.rounds, 0);
	go(a, fd, 1); /* the next round: the engine resets, the QPs stay */
	assert_int_equal(fake.rounds, 1);
	assert_int_equal(fake.round, 1);
	assert_int_equal(fake.went, 2);
	assert_true(logged("round 2 of 2 on the same QPs"));
	stop_report(a, fd);
	ask(a, fd, RPERF_CTRL_BYE, NULL, RPERF_CTRL_BYE, &m);
	rperf_ctrl_msg_release(&m);
	assert_int_equal(fake.created, 1); /* one engine for both rounds */
	assert_int_equal(fake.destroyed, 1);
	hang_up(fd);
	/* a GO past the plan's rounds: ERROR, everything freed */
	fd = armed_rounds(a, 2);
	go(a, fd, 0);
	stop_report(a, fd);
	go(a, fd, 1);
	stop_report(a, fd);
	assert_int_equal(rperf_proto_go_encode(1000, 0, &o), 0);
	assert_int_equal(rperf_proto_go_set_round(o, 2), 0);
	tx(fd, RPERF_CTRL_GO, o);
	expect_end(a, fd, RPERF_CTRL_ERROR, "the plan's next round is 2");
	assert_int_equal(fake.destroyed, 2);
	/* round 1 as the first GO */
	fd = armed_rounds(a, 3);
	assert_int_equal(rperf_proto_go_encode(1000, 0, &o), 0);
	assert_int_equal(rperf_proto_go_set_round(o, 1), 0);
	tx(fd, RPERF_CTRL_GO, o);
	expect_end(a, fd, RPERF_CTRL_ERROR, "before round 0");
	rperf_agent_destroy(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spec_codec),
		cmocka_unit_test(test_methods_codec),
		cmocka_unit_test(test_plan_and_go),
		cmocka_unit_test(test_session),
		cmocka_unit_test(test_agent_rounds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
