// SPDX-License-Identifier: BSD-2-Clause
/*
 * Experiment protocol: nonce, key file, PLAN, ENDPOINTS/CONNECT, GO and REPORT round trips and
 * rejections, and the agent/controller state machine.
 */
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

static void test_nonce_hex(void **state)
{
	static const char *hex1 = "b0344c61d8db38535ca8afceaf0bf12b"
				  "881dc200c9833da726e9376c2e32cff7";
	uint8_t out[32], nonce[32], nonce2[32];

	(void)state;
	assert_int_equal(rperf_proto_nonce(nonce), 0);
	assert_int_equal(rperf_proto_nonce(nonce2), 0);
	assert_memory_not_equal(nonce, nonce2, 32);
	assert_int_equal(rperf_proto_unhex(hex1, out, 32), 0);
	assert_int_equal(out[0], 0xb0);
	assert_int_equal(rperf_proto_unhex("0g", out, 1), EBADMSG);
	assert_int_equal(rperf_proto_unhex("abc", out, 1), EBADMSG);
}

static void write_file(const char *p, const char *text, mode_t mode)
{
	FILE *f = fopen(p, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	assert_int_equal(chmod(p, mode), 0);
}

static void test_key_file(void **state)
{
	char path[] = "/tmp/rperf-key-XXXXXX", err[256];
	uint8_t key[RPERF_PROTO_MAX_KEY];
	size_t len = 0;
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	write_file(path, "secret\n", 0600);
	assert_int_equal(
		rperf_proto_key_load(path, key, &len, err, sizeof(err)), 0);
	assert_int_equal(len, 6);
	assert_memory_equal(key, "secret", 6);
	write_file(path, "secret\n", 0640);
	assert_int_equal(rperf_proto_key_load(path, key, &len, err,
					      sizeof(err)),
			 EACCES);
	assert_non_null(strstr(err, "chmod 600"));
	write_file(path, " \n", 0600);
	assert_int_equal(rperf_proto_key_load(path, key, &len, err,
					      sizeof(err)),
			 EINVAL);
	assert_non_null(strstr(err, "empty"));
	unlink(path);
	assert_int_equal(rperf_proto_key_load(path, key, &len, err,
					      sizeof(err)),
			 ENOENT);
}

static void spec(struct rperf_gen_spec *s, enum rperf_gen_kind k, uint32_t id,
		 const char *from, const char *to)
{
	rperf_gen_spec_defaults(s, k);
	s->id = id;
	snprintf(s->name, sizeof(s->name), "g%u", id);
	snprintf(s->from, sizeof(s->from), "%s", from);
	snprintf(s->to, sizeof(s->to), "%s", to);
}

static int plan_decode_json(json_t *o, struct rperf_proto_plan *p, char *why,
			    size_t wl)
{
	struct rperf_ctrl_msg m;

	msg(&m, RPERF_CTRL_PLAN, o);
	return rperf_proto_plan_decode(&m, p, why, wl);
}

static void test_plan(void **state)
{
	struct rperf_gen_spec src[2], snk[1];
	struct rperf_proto_plan p = { .experiment = "job",
				      .host = "h1",
				      .device = { "", 1, -1, -1, -1, -1 },
				      .sources = src,
				      .nsources = 2,
				      .sinks = snk,
				      .nsinks = 1 },
				q;
	char why[256];
	json_t *o = NULL, *c;

	(void)state;
	spec(&src[0], RPERF_GEN_LSG, 0, "h1", "h2");
	spec(&src[1], RPERF_GEN_BSG, 1, "h1", "h3");
	spec(&snk[0], RPERF_GEN_BSG, 5, "h3", "h1");
	assert_int_equal(rperf_proto_plan_encode(&p, &o), 0);
	assert_int_equal(plan_decode_json(o, &q, why, sizeof(why)), 0);
	assert_string_equal(q.experiment, "job");
	assert_string_equal(q.host, "h1");
	assert_int_equal(q.nsources, 2);
	assert_int_equal(q.nsinks, 1);
	assert_int_equal(q.sources[1].kind, RPERF_GEN_BSG);
	assert_int_equal(q.sinks[0].id, 5);
	assert_int_equal(q.device.gid_index, -1);
	assert_null(rperf_proto_plan_addr(&q, "h3")); /* no "hosts" */
	rperf_proto_plan_fini(&q);
	rperf_proto_plan_fini(&q); /* idempotent */
	/* a source not from this host */
	c = json_deep_copy(o);
	json_object_set_new(c, "host", json_string("h3"));
	assert_int_equal(plan_decode_json(c, &q, why, sizeof(why)), EBADMSG);
	assert_non_null(strstr(why, "from"));
	json_decref(c);
	/* duplicate ids */
	src[1].id = 5;
	assert_int_equal(rperf_proto_plan_encode(&p, &c), 0);
	assert_int_equal(plan_decode_json(c, &q, why, sizeof(why)), EBADMSG);
	assert_non_null(strstr(why, "twice"));
	json_decref(c);
	/* a bad spec inside, missing device, not arrays */
	c = json_deep_copy(o);
	json_object_set_new(json_array_get(json_object_get(c, "sinks"), 0),
			    "qps", json_integer(0));
	assert_int_equal(plan_decode_json(c, &q, why, sizeof(why)), EBADMSG);
	assert_non_null(strstr(why, "sinks[0]"));
	json_object_del(c, "device");
	assert_int_equal(plan_decode_json(c, &q, why, sizeof(why)), EBADMSG);
	json_decref(c);
	c = json_deep_copy(o);
	json_object_set_new(c, "sources", json_object());
	assert_int_equal(plan_decode_json(c, &q, why, sizeof(why)), EBADMSG);
	json_object_set_new(c, "sources", json_array());
	json_object_set_new(c, "host", json_string(""));
	assert_int_equal(plan_decode_json(c, &q, why, sizeof(why)), EBADMSG);
	json_decref(c);
	json_decref(o);
}

static void test_endpoints(void **state)
{
	struct rperf_ctrl_endpoint ep[2] = {
		{ 1, 2, 3, { 0xfe, 0x80 }, 1024, 4, 5, 6, 0, 0 },
		/* a sink listening on rdma_cm says its port */
		{ 7, 8, 9, { 0 }, 4096, 10, 11, 12, 0, 40123 },
	};
	struct rperf_proto_inst_eps ie[2] = { { 3, RPERF_ROLE_SOURCE, ep, 2 },
					      { 4, RPERF_ROLE_SINK, ep, 1 } };
	struct rperf_proto_eps e = { ie, 2 }, d;
	struct rperf_ctrl_msg m;
	char why[256];
	json_t *o = NULL, *c;

	(void)state;
	assert_int_equal(rperf_proto_endpoints_encode(&e, &o), 0);
	msg(&m, RPERF_CTRL_ENDPOINTS, o);
	assert_int_equal(rperf_proto_endpoints_decode(&m, &d, why, sizeof(why)),
			 0);
	assert_int_equal(d.n, 2);
	assert_int_equal(d.inst[0].nqps, 2);
	assert_int_equal(d.inst[0].qps[1].qpn, 7);
	assert_int_equal(d.inst[0].qps[1].addr, 11);
	assert_int_equal(d.inst[0].qps[0].mtu, 1024);
	assert_memory_equal(d.inst[0].qps[0].gid, ep[0].gid, 16);
	assert_int_equal(d.inst[0].qps[0].cm_port, 0);
	assert_int_equal(d.inst[0].qps[1].cm_port, 40123);
	assert_non_null(rperf_proto_eps_find(&d, 4, RPERF_ROLE_SINK));
	assert_null(rperf_proto_eps_find(&d, 4, RPERF_ROLE_SOURCE));
	rperf_proto_eps_fini(&d);
	/* wrong type, then CONNECT's key */
	assert_int_equal(rperf_proto_connect_decode(&m, &d, why, sizeof(why)),
			 EPROTO);
	json_decref(o);
	assert_int_equal(rperf_proto_connect_encode(&e, &o), 0);
	msg(&m, RPERF_CTRL_CONNECT, o);
	assert_int_equal(rperf_proto_connect_decode(&m, &d, why, sizeof(why)),
			 0);
	rperf_proto_eps_fini(&d);
	/* bad: duplicate (id, role), empty qps, bad endpoint, bad role */
	c = json_deep_copy(o);
	json_array_append(json_object_get(c, "peers"),
			  json_array_get(json_object_get(c, "peers"), 0));
	msg(&m, RPERF_CTRL_CONNECT, c);
	assert_int_equal(rperf_proto_connect_decode(&m, &d, why, sizeof(why)),
			 EBADMSG);
	json_decref(c);
	c = json_deep_copy(o);
	json_object_set_new(json_array_get(json_object_get(c, "peers"), 1),
			    "qps", json_array());
	msg(&m, RPERF_CTRL_CONNECT, c);
	assert_int_equal(rperf_proto_connect_decode(&m, &d, why, sizeof(why)),
			 EBADMSG);
	json_decref(c);
	c = json_deep_copy(o);
	json_object_set_new(
		json_array_get(
			json_object_get(
				json_array_get(json_object_get(c, "peers"), 0),
				"qps"),
			1),
		"mtu", json_integer(1000));
	msg(&m, RPERF_CTRL_CONNECT, c);
	assert_int_equal(rperf_proto_connect_decode(&m, &d, why, sizeof(why)),
			 EBADMSG);
	assert_non_null(strstr(why, "qps[1]"));
	json_decref(c);
	c = json_deep_copy(o);
	json_object_set_new(json_array_get(json_object_get(c, "peers"), 0),
			    "role", json_string("both"));
	msg(&m, RPERF_CTRL_CONNECT, c);
	assert_int_equal(rperf_proto_connect_decode(&m, &d, why, sizeof(why)),
			 EBADMSG);
	json_decref(c);
	json_decref(o);
	ie[0].nqps = 0;
	assert_int_equal(rperf_proto_endpoints_encode(&e, &o), EINVAL);
}

static void test_go(void **state)
{
	struct rperf_ctrl_msg m;
	uint64_t v = 0, hb = 1;
	json_t *o = NULL;

	(void)state;
	assert_int_equal(rperf_proto_go_encode(250000000, 0, &o), 0);
	msg(&m, RPERF_CTRL_GO, o);
	assert_int_equal(rperf_proto_go_decode(&m, &v, &hb), 0);
	assert_int_equal(v, 250000000);
	assert_int_equal(hb, 0); /* absent: no HEARTBEATs */
	rperf_ctrl_set_u64(o, "heartbeat_ns", 500000000);
	assert_int_equal(rperf_proto_go_decode(&m, &v, &hb), 0);
	assert_int_equal(hb, 500000000);
	rperf_ctrl_set_u64(o, "heartbeat_ns", 1000); /* below 10 ms */
	assert_int_equal(rperf_proto_go_decode(&m, &v, &hb), EBADMSG);
	rperf_ctrl_set_u64(o, "heartbeat_ns", 0);
	json_object_set_new(o, "start_in_ns", json_integer(-1));
	assert_int_equal(rperf_proto_go_decode(&m, &v, &hb), EBADMSG);
	rperf_ctrl_set_u64(o, "start_in_ns", RPERF_PROTO_MAX_START_NS + 1);
	assert_int_equal(rperf_proto_go_decode(&m, &v, &hb), EBADMSG);
	m.type = RPERF_CTRL_STOP;
	assert_int_equal(rperf_proto_go_decode(&m, &v, &hb), EPROTO);
	json_decref(o);
	assert_int_equal(rperf_proto_go_encode(RPERF_PROTO_MAX_START_NS + 1, 0,
					       &o),
			 EINVAL);
	assert_int_equal(
		rperf_proto_go_encode(1, RPERF_PROTO_MAX_HEARTBEAT_NS + 1, &o),
		EINVAL);
}

static void test_report(void **state)
{
	struct rperf_proto_result res[2];
	struct rperf_proto_report r = { .host = "h2", .res = res, .n = 2 }, d;
	struct rperf_ctrl_msg m;
	char why[256];
	json_t *o = NULL, *c;

	(void)state;
	memset(res, 0, sizeof(res));
	res[0].id = 3;
	res[0].kind = RPERF_GEN_LSG;
	res[0].samples = 2;
	res[0].warmup = 9;
	res[0].seconds = 1.25;
	res[0].nic_ts = true;
	assert_int_equal(rperf_proto_report_encode(&r, &o), EINVAL); /* hists */
	assert_int_equal(rperf_hist_create(7, &res[0].rtt), 0);
	assert_int_equal(rperf_hist_create(7, &res[0].wire), 0);
	assert_int_equal(rperf_hist_create(7, &res[0].loop), 0);
	rperf_hist_record(res[0].rtt, 400);
	rperf_hist_record(res[0].rtt, -2);
	res[1].id = 4;
	res[1].role = RPERF_ROLE_SINK;
	res[1].kind = RPERF_GEN_BSG;
	res[1].messages = 100;
	res[1].bytes = 6553600;
	snprintf(res[1].error, sizeof(res[1].error), "stalled");
	assert_int_equal(rperf_proto_report_encode(&r, &o), 0);
	msg(&m, RPERF_CTRL_REPORT, o);
	assert_int_equal(rperf_proto_report_decode(&m, &d, why, sizeof(why)),
			 0);
	assert_string_equal(d.host, "h2");
	assert_int_equal(d.n, 2);
	assert_int_equal(d.res[0].samples, 2);
	assert_int_equal(d.res[0].warmup, 9);
	assert_int_equal(rperf_hist_count(d.res[0].rtt), 2);
	assert_int_equal(rperf_hist_min(d.res[0].rtt), -2);
	assert_true(d.res[0].nic_ts);
	assert_int_equal(d.res[1].bytes, 6553600);
	assert_string_equal(d.res[1].error, "stalled");
	assert_null(d.res[1].rtt);
	rperf_proto_report_fini(&d);
	/* a broken histogram, a missing counter, a bad kind */
	c = json_deep_copy(o);
	json_object_set_new(json_array_get(json_object_get(c, "instances"), 0),
			    "rtt_hist", json_string("5250484701"));
	msg(&m, RPERF_CTRL_REPORT, c);
	assert_int_equal(rperf_proto_report_decode(&m, &d, why, sizeof(why)),
			 EBADMSG);
	assert_non_null(strstr(why, "rtt_hist"));
	json_decref(c);
	c = json_deep_copy(o);
	json_object_set_new(json_array_get(json_object_get(c, "instances"), 0),
			    "timestamps", json_string("tsc"));
	msg(&m, RPERF_CTRL_REPORT, c);
	assert_int_equal(rperf_proto_report_decode(&m, &d, why, sizeof(why)),
			 EBADMSG);
	assert_non_null(strstr(why, "timestamps"));
	json_object_del(json_array_get(json_object_get(c, "instances"), 0),
			"timestamps"); /* optional: cpu */
	assert_int_equal(rperf_proto_report_decode(&m, &d, why, sizeof(why)),
			 0);
	assert_false(d.res[0].nic_ts);
	rperf_proto_report_fini(&d);
	json_decref(c);
	c = json_deep_copy(o);
	json_object_del(json_array_get(json_object_get(c, "instances"), 1),
			"bytes");
	msg(&m, RPERF_CTRL_REPORT, c);
	assert_int_equal(rperf_proto_report_decode(&m, &d, why, sizeof(why)),
			 EBADMSG);
	assert_non_null(strstr(why, "bytes"));
	json_decref(c);
	c = json_deep_copy(o);
	json_object_set_new(json_array_get(json_object_get(c, "instances"), 1),
			    "kind", json_string("xsg"));
	msg(&m, RPERF_CTRL_REPORT, c);
	assert_int_equal(rperf_proto_report_decode(&m, &d, why, sizeof(why)),
			 EBADMSG);
	json_decref(c);
	json_decref(o);
	rperf_hist_destroy(res[0].rtt);
	rperf_hist_destroy(res[0].wire);
	rperf_hist_destroy(res[0].loop);
}

/* REPORT "placement": optional; round trip; out of range refused. */
static void test_report_placement(void **state)
{
	struct rperf_proto_result res[1];
	struct rperf_proto_report r = { .host = "h1", .res = res, .n = 1 }, d;
	struct rperf_ctrl_msg m;
	char why[256];
	json_t *o = NULL, *p;

	(void)state;
	memset(res, 0, sizeof(res));
	res[0].kind = RPERF_GEN_BSG;
	res[0].placed = true;
	res[0].place = (struct rperf_proto_placement){ -1, 0, 1, true };
	assert_int_equal(rperf_proto_report_encode(&r, &o), 0);
	msg(&m, RPERF_CTRL_REPORT, o);
	assert_int_equal(rperf_proto_report_decode(&m, &d, why, sizeof(why)),
			 0);
	assert_true(d.res[0].placed);
	assert_int_equal(d.res[0].place.nic_node, -1);
	assert_int_equal(d.res[0].place.cpu_node, 0);
	assert_int_equal(d.res[0].place.mem_node, 1);
	assert_true(d.res[0].place.remote);
	rperf_proto_report_fini(&d);
	p = json_object_get(json_array_get(json_object_get(o, "instances"), 0),
			    "placement");
	json_object_set_new(p, "mem_node", json_integer(1024));
	assert_int_equal(rperf_proto_report_decode(&m, &d, why, sizeof(why)),
			 EBADMSG);
	assert_non_null(strstr(why, "mem_node"));
	json_object_set_new(p, "mem_node", json_integer(0));
	json_object_set_new(p, "remote", json_integer(1));
	assert_int_equal(rperf_proto_report_decode(&m, &d, why, sizeof(why)),
			 EBADMSG);
	assert_non_null(strstr(why, "remote"));
	json_object_del(json_array_get(json_object_get(o, "instances"), 0),
			"placement"); /* optional */
	assert_int_equal(rperf_proto_report_decode(&m, &d, why, sizeof(why)),
			 0);
	assert_false(d.res[0].placed);
	rperf_proto_report_fini(&d);
	json_decref(o);
}

/* REPORT "dry_run" and "go_rx_ns": optional; round trip; bad types
 * refused. */
static void test_report_dry_run(void **state)
{
	struct rperf_proto_report r = { .host = "h1",
					.dry_run = true,
					.has_go_rx = true,
					.go_rx_ns = 123456789012ull,
					.buffers_note =
						"no free 2M huge pages" },
				  d;
	struct rperf_ctrl_msg m;
	char why[256];
	json_t *o = NULL;

	(void)state;
	assert_int_equal(rperf_proto_report_encode(&r, &o), 0);
	msg(&m, RPERF_CTRL_REPORT, o);
	assert_int_equal(rperf_proto_report_decode(&m, &d, why, sizeof(why)),
			 0);
	assert_true(d.dry_run);
	assert_true(d.has_go_rx);
	assert_int_equal(d.go_rx_ns, 123456789012ull);
	assert_string_equal(d.buffers_note, "no free 2M huge pages");
	rperf_proto_report_fini(&d);
	json_object_set_new(o, "buffers_note", json_integer(2));
	assert_int_equal(rperf_proto_report_decode(&m, &d, why, sizeof(why)),
			 EBADMSG);
	assert_string_equal(why, "'buffers_note' not a string");
	json_object_set_new(o, "buffers_note", json_string("a\nb"));
	assert_int_equal(rperf_proto_report_decode(&m, &d, why, sizeof(why)),
			 0);
	assert_null(strchr(d.buffers_note, '\n')); /* peer text cleaned */
	rperf_proto_report_fini(&d);
	json_object_del(o, "buffers_note");
	json_object_set_new(o, "dry_run", json_string("yes"));
	assert_int_equal(rperf_proto_report_decode(&m, &d, why, sizeof(why)),
			 EBADMSG);
	assert_non_null(strstr(why, "dry_run"));
	json_object_del(o, "dry_run");
	json_object_set_new(o, "go_rx_ns", json_integer(-1));
	assert_int_equal(rperf_proto_report_decode(&m, &d, why, sizeof(why)),
			 EBADMSG);
	assert_non_null(strstr(why, "go_rx_ns"));
	json_object_del(o, "go_rx_ns"); /* both optional: a real agent's */
	assert_int_equal(rperf_proto_report_decode(&m, &d, why, sizeof(why)),
			 0);
	assert_false(d.dry_run);
	assert_false(d.has_go_rx);
	assert_string_equal(d.buffers_note, "");
	rperf_proto_report_fini(&d);
	json_decref(o);
}

#define TX RPERF_CTRL_SEND
#define RX RPERF_CTRL_RECV
#define T(x) RPERF_CTRL_##x

struct step {
	enum rperf_ctrl_dir dir;
	enum rperf_ctrl_type t;
};

static void run(enum rperf_proto_role_end end, const struct step *s, size_t n)
{
	struct rperf_proto_session ses;
	size_t i;

	rperf_proto_session_init(&ses, end);
	for (i = 0; i < n; i++) {
		int t;

		/* everything else but ERROR is refused here */
		for (t = RPERF_CTRL_TYPE_MIN; t <= RPERF_CTRL_TYPE_MAX; t++) {
			struct rperf_proto_session x = ses;
			int want = t == (int)s[i].t ? 0 : EPROTO;

			if (t == T(ERROR) ||
			    (t == T(BYE) && s[i].t == T(PLAN)) ||
			    (t == T(REFUSE) && s[i].t == T(WELCOME)) ||
			    (t == T(HEARTBEAT) &&
			     (s[i].t == T(FINISHED) || s[i].t == T(REPORT))) ||
			    (s[i].t == T(HEARTBEAT) &&
			     (t == T(FINISHED) || t == T(REPORT))) ||
			    (t == T(FINISHED) && s[i].t == T(STOP)) ||
			    (t == T(REPORT) && s[i].t == T(FINISHED)) ||
			    (t == T(FINISHED) && s[i].t == T(REPORT)) ||
			    (t == T(STOP) && s[i].t == T(FINISHED)) ||
			    (t == T(CLOCK) && s[i].t == T(GO)) ||
			    (t == T(GO) && s[i].t == T(CLOCK)) ||
			    /* HALT to an agent whose sources run (or have
			     * just FINISHED: the two cross) */
			    (t == T(HALT) &&
			     ((s[i].dir == RX &&
			       (ses.state == RPERF_PROTO_RUNNING ||
				ses.state == RPERF_PROTO_FINISHED)) ||
			      (s[i].dir == TX &&
			       ses.state == RPERF_PROTO_C_RUNNING))) ||
			    (t == T(STOP) && s[i].t == T(HALT)) ||
			    /* before a REPORT: SAMPLES (test_samples.c) */
			    (t == T(SAMPLES) &&
			     (ses.state == RPERF_PROTO_STOP_RCVD ||
			      ses.state == RPERF_PROTO_C_AWAIT_REPORT)) ||
			    /* after a REPORT: the next round (test_rounds.c) */
			    (s[i].t == T(BYE) &&
			     (t == T(GO) || t == T(CLOCK)) &&
			     (ses.state == RPERF_PROTO_AWAIT_BYE ||
			      ses.state == RPERF_PROTO_C_REPORT_RCVD)))
				continue;
			if (rperf_proto_session_check(&x, s[i].dir, t) != want)
				fail_msg("%s: %s %s",
					 rperf_proto_state_name(ses.state),
					 s[i].dir == TX ? "send" : "recv",
					 rperf_ctrl_type_name(t));
		}
		assert_int_equal(
			rperf_proto_session_check(&ses, s[i].dir, s[i].t), 0);
	}
	assert_int_equal(ses.state, RPERF_PROTO_CLOSED);
}

static void test_session(void **state)
{
	static const struct step agent[] = {
		{ RX, T(HELLO) },     { TX, T(WELCOME) },  { RX, T(PLAN) },
		{ TX, T(ENDPOINTS) }, { RX, T(CONNECT) },  { TX, T(ARMED) },
		{ RX, T(CLOCK) },     { TX, T(CLOCK) },	   { RX, T(CLOCK) },
		{ TX, T(CLOCK) },     { RX, T(GO) },	   { TX, T(HEARTBEAT) },
		{ RX, T(HALT) },      { TX, T(FINISHED) }, { RX, T(HALT) },
		{ TX, T(HEARTBEAT) }, { RX, T(STOP) },	   { TX, T(REPORT) },
		{ RX, T(BYE) },	      { TX, T(BYE) },
	};
	static const struct step ctl[] = {
		{ TX, T(HELLO) },     { RX, T(WELCOME) },  { TX, T(PLAN) },
		{ RX, T(ENDPOINTS) }, { TX, T(CONNECT) },  { RX, T(ARMED) },
		{ TX, T(CLOCK) },     { RX, T(CLOCK) },	   { TX, T(GO) },
		{ RX, T(HEARTBEAT) }, { TX, T(HALT) },	   { TX, T(STOP) },
		{ RX, T(HEARTBEAT) }, { RX, T(FINISHED) }, { RX, T(REPORT) },
		{ TX, T(BYE) },	      { RX, T(BYE) },
	};
	struct rperf_proto_session s;

	(void)state;
	run(RPERF_PROTO_AGENT, agent, sizeof(agent) / sizeof(agent[0]));
	run(RPERF_PROTO_CONTROLLER, ctl, sizeof(ctl) / sizeof(ctl[0]));
	/* the retired AUTH anywhere; ERROR closes; nothing after CLOSED */
	rperf_proto_session_init(&s, RPERF_PROTO_AGENT);
	assert_int_equal(rperf_proto_session_check(&s, RX, T(HELLO)), 0);
	assert_int_equal(rperf_proto_session_check(&s, TX, T(WELCOME)), 0);
	assert_int_equal(rperf_proto_session_check(&s, RX, T(AUTH)), EPROTO);
	assert_int_equal(s.state, RPERF_PROTO_AWAIT_PLAN);
	assert_int_equal(rperf_proto_session_check(&s, RX, T(ERROR)), 0);
	assert_int_equal(s.state, RPERF_PROTO_CLOSED);
	assert_int_equal(rperf_proto_session_check(&s, RX, T(ERROR)), EPROTO);
	assert_int_equal(rperf_proto_session_check(&s, RX, 99), EINVAL);
	assert_string_equal(rperf_proto_state_name(RPERF_PROTO_STATE_COUNT),
			    "?");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nonce_hex),
		cmocka_unit_test(test_key_file),
		cmocka_unit_test(test_plan),
		cmocka_unit_test(test_endpoints),
		cmocka_unit_test(test_go),
		cmocka_unit_test(test_report),
		cmocka_unit_test(test_report_placement),
		cmocka_unit_test(test_report_dry_run),
		cmocka_unit_test(test_session),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
