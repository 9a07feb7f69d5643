// SPDX-License-Identifier: BSD-2-Clause
/*
 * The agent without RDMA: a fake engine behind it, a controller played by
 * the test over loopback TCP, the agent's loop stepped by hand. Covers the
 * whole conversation, out-of-order messages, the wrong key (nothing
 * created), the busy refusal, the handshake deadline and a controller that
 * vanishes mid-experiment (everything destroyed).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <cmocka.h>

#include "agent/agent.h"
#include "ctrl/ctrl.h"

/* ---- the fake engine ---- */

struct rperf_engine {
	int efd;
	size_t nsrc;
};

static struct {
	int created, connected, went, stopped, destroyed;
	struct rperf_engine *eng;
	char log[64][256];
	int nlog;
} fake;

static int f_create(const struct rperf_proto_plan *plan,
		    const struct rperf_clock *clk, struct rperf_engine **out,
		    char *err, size_t errlen)
{
	struct rperf_engine *e = calloc(1, sizeof(*e));

	(void)clk;
	if (!e)
		return ENOMEM;
	if (strcmp(plan->device.device, "broken") == 0) {
		snprintf(err, errlen, "no such device 'broken'");
		free(e);
		return ENODEV;
	}
	e->efd = eventfd(0, EFD_NONBLOCK);
	e->nsrc = plan->nsources;
	fake.created++;
	fake.eng = e;
	*out = e;
	return 0;
}

static int f_endpoints(struct rperf_engine *e, struct rperf_proto_eps *out,
		       char *err, size_t errlen)
{
	(void)e;
	(void)err;
	(void)errlen;
	out->inst = calloc(1, sizeof(*out->inst));
	out->inst[0].qps = calloc(1, sizeof(*out->inst[0].qps));
	out->inst[0].qps[0].mtu = 1024;
	out->inst[0].qps[0].qpn = 17;
	out->inst[0].nqps = 1;
	out->n = 1;
	return 0;
}

static int f_connect(struct rperf_engine *e,
		     const struct rperf_proto_eps *peers, char *err,
		     size_t errlen)
{
	(void)e;
	(void)err;
	(void)errlen;
	fake.connected += (int)peers->n;
	return 0;
}

static int f_go(struct rperf_engine *e, uint64_t t0, char *err, size_t len)
{
	(void)e;
	(void)t0;
	(void)err;
	(void)len;
	fake.went++;
	return 0;
}

static int f_fd(const struct rperf_engine *e)
{
	return e->efd;
}

static bool f_poll(struct rperf_engine *e)
{
	uint64_t v;

	return read(e->efd, &v, sizeof(v)) == sizeof(v);
}

static void f_stop(struct rperf_engine *e)
{
	(void)e;
	fake.stopped++;
}

static int f_report(struct rperf_engine *e, const char *host,
		    struct rperf_proto_report *out)
{
	(void)e;
	memset(out, 0, sizeof(*out));
	snprintf(out->host, sizeof(out->host), "%s", host);
	out->res = calloc(1, sizeof(*out->res));
	out->res[0].role = RPERF_ROLE_SINK;
	out->res[0].kind = RPERF_GEN_BSG;
	out->res[0].messages = 5;
	out->n = 1;
	return 0;
}

static void f_destroy(struct rperf_engine *e)
{
	close(e->efd);
	free(e);
	fake.destroyed++;
}

static const char *f_link(const struct rperf_engine *e)
{
	(void)e;
	return "ethernet";
}

static const struct rperf_agent_engine fake_engine = {
	f_create, f_endpoints, f_connect, f_go,	  f_fd, f_poll,
	f_stop,	  f_report,    f_destroy, f_link, NULL,
};

static void on_log(void *arg, const char *line)
{
	(void)arg;
	if (fake.nlog < 64)
		snprintf(fake.log[fake.nlog++], sizeof(fake.log[0]), "%s",
			 line);
}

/* ---- the controller side ---- */

static const uint8_t the_key[] = "secret";
static struct rperf_clock clk;

static struct rperf_host_sel local; /* the agent's -d/-x/--cpu */

static struct rperf_agent *agent(bool key, int timeout_ms)
{
	struct rperf_agent_cfg c = { .bind = "127.0.0.1",
				     .timeout_ms = timeout_ms,
				     .clk = &clk,
				     .engine = &fake_engine,
				     .log = on_log,
				     .local = local };
	struct rperf_agent *a = NULL;
	char err[256];

	if (key) {
		c.key = the_key;
		c.keylen = 6;
	}
	memset(&fake, 0, sizeof(fake));
	assert_int_equal(rperf_agent_create(&c, &a, err, sizeof(err)), 0);
	return a;
}

static void step(struct rperf_agent *a)
{
	char err[128];

	assert_int_equal(rperf_agent_step(a, 50, err, sizeof(err)), 0);
}

static int dial(struct rperf_agent *a)
{
	int fd = -1;

	assert_int_equal(rperf_ctrl_connect("127.0.0.1", rperf_agent_port(a),
					    NULL, 1000000000ull, &fd),
			 0);
	step(a); /* accept */
	return fd;
}

static void tx(int fd, enum rperf_ctrl_type t, json_t *o)
{
	assert_int_equal(rperf_ctrl_send(fd, t, o, 1000), 0);
	json_decref(o);
}

/* Send, let the agent act, receive its answer (must be @want). */
static void ask(struct rperf_agent *a, int fd, enum rperf_ctrl_type t,
		json_t *o, enum rperf_ctrl_type want, struct rperf_ctrl_msg *m)
{
	tx(fd, t, o);
	step(a);
	assert_int_equal(rperf_ctrl_recv(fd, 1000, m), 0);
	if (m->type != want)
		fail_msg("got %s, want %s", rperf_ctrl_type_name(m->type),
			 rperf_ctrl_type_name(want));
}

static json_t *hello(void)
{
	struct rperf_ctrl_hello h = { RPERF_CTRL_VERSION, "run", 0, { { 0 } } };
	json_t *o = NULL;

	assert_int_equal(rperf_ctrl_hello_encode(&h, &o), 0);
	return o;
}

/* HELLO -> WELCOME; the nonce out. */
static void greet(struct rperf_agent *a, int fd, uint8_t *nonce)
{
	struct rperf_ctrl_welcome w;
	struct rperf_ctrl_msg m;
	bool auth;

	ask(a, fd, RPERF_CTRL_HELLO, hello(), RPERF_CTRL_WELCOME, &m);
	assert_int_equal(rperf_proto_welcome_decode(&m, &w, nonce, &auth), 0);
	rperf_ctrl_msg_release(&m);
}

static json_t *auth(const uint8_t *key, size_t keylen, const uint8_t *nonce)
{
	uint8_t mac[RPERF_PROTO_MAC_LEN];
	json_t *o = NULL;

	assert_int_equal(rperf_proto_mac(key, keylen, nonce, mac), 0);
	assert_int_equal(rperf_proto_auth_encode(mac, &o), 0);
	return o;
}

static json_t *plan(const char *device)
{
	struct rperf_gen_spec src;
	struct rperf_proto_plan p = { .experiment = "job",
				      .host = "h1",
				      .device = { "", 1, -1, -1, -1, -1 },
				      .sources = &src,
				      .nsources = 1 };
	json_t *o = NULL;

	snprintf(p.device.device, sizeof(p.device.device), "%s", device);
	rperf_gen_spec_defaults(&src, RPERF_GEN_BSG);
	snprintf(src.name, sizeof(src.name), "bg");
	snprintf(src.from, sizeof(src.from), "h1");
	snprintf(src.to, sizeof(src.to), "h2");
	assert_int_equal(rperf_proto_plan_encode(&p, &o), 0);
	return o;
}

static void expect_end(struct rperf_agent *a, int fd, enum rperf_ctrl_type want,
		       const char *reason_part)
{
	struct rperf_ctrl_msg m;
	char r[RPERF_CTRL_REASON_LEN];

	step(a);
	assert_int_equal(rperf_ctrl_recv(fd, 1000, &m), 0);
	assert_int_equal(m.type, want);
	assert_int_equal(rperf_ctrl_reason_decode(&m, r, sizeof(r)), 0);
	if (!strstr(r, reason_part))
		fail_msg("reason '%s' lacks '%s'", r, reason_part);
	rperf_ctrl_msg_release(&m);
	/* then the agent closed the connection */
	assert_int_equal(rperf_ctrl_recv(fd, 1000, &m), EPIPE);
	close(fd);
}

static void test_full_run(void **state)
{
	struct rperf_agent *a = agent(true, 2000);
	uint8_t nonce[RPERF_PROTO_NONCE_LEN];
	struct rperf_proto_report rep;
	struct rperf_proto_eps eps;
	struct rperf_ctrl_msg m;
	char why[256];
	json_t *o = NULL;
	uint64_t one = 1;
	int fd = dial(a);

	(void)state;
	greet(a, fd, nonce);
	ask(a, fd, RPERF_CTRL_AUTH, auth(the_key, 6, nonce), RPERF_CTRL_READY,
	    &m);
	rperf_ctrl_msg_release(&m);
	ask(a, fd, RPERF_CTRL_PLAN, plan(""), RPERF_CTRL_ENDPOINTS, &m);
	assert_int_equal(fake.created, 1);
	assert_int_equal(
		rperf_proto_endpoints_decode(&m, &eps, why, sizeof(why)), 0);
	assert_string_equal(
		json_string_value(json_object_get(m.payload, "link_layer")),
		"ethernet");
	rperf_ctrl_msg_release(&m);
	assert_int_equal(rperf_proto_connect_encode(&eps, &o), 0);
	rperf_proto_eps_fini(&eps);
	ask(a, fd, RPERF_CTRL_CONNECT, o, RPERF_CTRL_ARMED, &m);
	assert_int_equal(fake.connected, 1);
	rperf_ctrl_msg_release(&m);
	assert_int_equal(rperf_proto_go_encode(1000, &o), 0);
	tx(fd, RPERF_CTRL_GO, o);
	step(a);
	assert_int_equal(fake.went, 1);
	/* the source ends: FINISHED */
	assert_int_equal(write(fake.eng->efd, &one, sizeof(one)), 8);
	step(a);
	assert_int_equal(rperf_ctrl_recv(fd, 1000, &m), 0);
	assert_int_equal(m.type, RPERF_CTRL_FINISHED);
	rperf_ctrl_msg_release(&m);
	ask(a, fd, RPERF_CTRL_STOP, NULL, RPERF_CTRL_REPORT, &m);
	assert_int_equal(fake.stopped, 1);
	assert_int_equal(rperf_proto_report_decode(&m, &rep, why, sizeof(why)),
			 0);
	assert_string_equal(rep.host, "h1");
	assert_int_equal(rep.res[0].messages, 5);
	assert_non_null(json_object_get(m.payload, "clock"));
	rperf_proto_report_fini(&rep);
	rperf_ctrl_msg_release(&m);
	ask(a, fd, RPERF_CTRL_BYE, NULL, RPERF_CTRL_BYE, &m);
	rperf_ctrl_msg_release(&m);
	assert_int_equal(fake.destroyed, 1);
	assert_int_equal(rperf_agent_served(a), 1);
	assert_int_equal(rperf_ctrl_recv(fd, 1000, &m), EPIPE);
	close(fd);
	/* and it serves the next controller */
	fd = dial(a);
	greet(a, fd, nonce);
	close(fd);
	step(a);
	assert_int_equal(rperf_agent_served(a), 2);
	rperf_agent_destroy(a);
}

static void test_out_of_order(void **state)
{
	struct rperf_agent *a = agent(false, 2000);
	uint8_t nonce[RPERF_PROTO_NONCE_LEN];
	struct rperf_ctrl_msg m;
	int fd;

	(void)state;
	/* PLAN before HELLO: the server loop refuses the first frame */
	fd = dial(a);
	tx(fd, RPERF_CTRL_PLAN, plan(""));
	expect_end(a, fd, RPERF_CTRL_REFUSE, "must be HELLO, got PLAN");
	/* PLAN before AUTH */
	fd = dial(a);
	greet(a, fd, nonce);
	tx(fd, RPERF_CTRL_PLAN, plan(""));
	expect_end(a, fd, RPERF_CTRL_ERROR, "awaiting AUTH");
	/* GO before CONNECT; the engine is destroyed */
	fd = dial(a);
	greet(a, fd, nonce);
	ask(a, fd, RPERF_CTRL_AUTH, auth(the_key, 6, nonce), RPERF_CTRL_READY,
	    &m);
	rperf_ctrl_msg_release(&m);
	ask(a, fd, RPERF_CTRL_PLAN, plan(""), RPERF_CTRL_ENDPOINTS, &m);
	rperf_ctrl_msg_release(&m);
	tx(fd, RPERF_CTRL_GO, json_object());
	expect_end(a, fd, RPERF_CTRL_ERROR, "GO out of order");
	assert_int_equal(fake.created, 1);
	assert_int_equal(fake.destroyed, 1);
	assert_int_equal(fake.went, 0);
	/* a HELLO for another command */
	fd = dial(a);
	{
		struct rperf_ctrl_hello h = {
			RPERF_CTRL_VERSION, "lat", 0, { { 0 } }
		};
		json_t *o = NULL;

		assert_int_equal(rperf_ctrl_hello_encode(&h, &o), 0);
		tx(fd, RPERF_CTRL_HELLO, o);
	}
	expect_end(a, fd, RPERF_CTRL_REFUSE, "rperf run");
	/* a device that fails: ERROR with its reason */
	fd = dial(a);
	greet(a, fd, nonce);
	ask(a, fd, RPERF_CTRL_AUTH, auth(the_key, 6, nonce), RPERF_CTRL_READY,
	    &m);
	rperf_ctrl_msg_release(&m);
	tx(fd, RPERF_CTRL_PLAN, plan("broken"));
	expect_end(a, fd, RPERF_CTRL_ERROR, "no such device");
	rperf_agent_destroy(a);
	/* the agent's -d fills in a device the job left open */
	local = (struct rperf_host_sel){ "broken", 1, -1, -1, -1, -1 };
	a = agent(false, 2000);
	local = (struct rperf_host_sel){ "", 0, -1, -1, -1, -1 };
	fd = dial(a);
	greet(a, fd, nonce);
	ask(a, fd, RPERF_CTRL_AUTH, auth(the_key, 6, nonce), RPERF_CTRL_READY,
	    &m);
	rperf_ctrl_msg_release(&m);
	tx(fd, RPERF_CTRL_PLAN, plan(""));
	expect_end(a, fd, RPERF_CTRL_ERROR, "no such device 'broken'");
	rperf_agent_destroy(a);
}

static void test_wrong_key(void **state)
{
	struct rperf_agent *a = agent(true, 2000);
	uint8_t nonce[RPERF_PROTO_NONCE_LEN];
	int fd = dial(a);

	(void)state;
	greet(a, fd, nonce);
	tx(fd, RPERF_CTRL_AUTH, auth((const uint8_t *)"secreT", 6, nonce));
	expect_end(a, fd, RPERF_CTRL_REFUSE, "wrong key");
	fd = dial(a);
	greet(a, fd, nonce);
	{
		json_t *o = NULL;

		assert_int_equal(rperf_proto_auth_encode(NULL, &o), 0);
		tx(fd, RPERF_CTRL_AUTH, o);
	}
	expect_end(a, fd, RPERF_CTRL_REFUSE, "requires a key");
	assert_int_equal(fake.created, 0); /* nothing was created */
	rperf_agent_destroy(a);
}

static void test_busy_deadline_eof(void **state)
{
	struct rperf_agent *a = agent(false, 300);
	uint8_t nonce[RPERF_PROTO_NONCE_LEN];
	struct rperf_ctrl_msg m;
	char r[RPERF_CTRL_REASON_LEN];
	int fd = dial(a), fd2;

	(void)state;
	greet(a, fd, nonce);
	/* another controller meanwhile: REFUSE busy at once */
	fd2 = dial(a);
	tx(fd2, RPERF_CTRL_HELLO, hello());
	step(a);
	assert_int_equal(rperf_ctrl_recv(fd2, 1000, &m), 0);
	assert_int_equal(m.type, RPERF_CTRL_REFUSE);
	assert_int_equal(rperf_ctrl_reason_decode(&m, r, sizeof(r)), 0);
	assert_non_null(strstr(r, "busy: running a test for 127.0.0.1"));
	rperf_ctrl_msg_release(&m);
	close(fd2);
	/* no AUTH within the deadline: ERROR, closed */
	usleep(350000);
	expect_end(a, fd, RPERF_CTRL_ERROR, "no AUTH within the deadline");
	/* a controller that vanishes after PLAN: the engine is destroyed */
	fd = dial(a);
	greet(a, fd, nonce);
	ask(a, fd, RPERF_CTRL_AUTH, auth(the_key, 6, nonce), RPERF_CTRL_READY,
	    &m);
	rperf_ctrl_msg_release(&m);
	ask(a, fd, RPERF_CTRL_PLAN, plan(""), RPERF_CTRL_ENDPOINTS, &m);
	rperf_ctrl_msg_release(&m);
	close(fd);
	step(a);
	assert_int_equal(fake.created, 1);
	assert_int_equal(fake.destroyed, 1);
	assert_non_null(strstr(fake.log[fake.nlog - 1], "went away"));
	rperf_agent_destroy(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_full_run),
		cmocka_unit_test(test_out_of_order),
		cmocka_unit_test(test_wrong_key),
		cmocka_unit_test(test_busy_deadline_eof),
	};

	assert_int_equal(rperf_clock_init(&clk, RPERF_CLOCK_POSIX), 0);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
