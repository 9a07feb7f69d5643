/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The agent without RDMA, for test_agent.c and test_agent_tls.c: a fake
 * engine behind it, a controller played by the test over loopback TCP
 * (TLS-PSK with the agent's key, or the plain channel of --insecure), the
 * agent's loop stepped by hand.
 */
#ifndef RPERF_TEST_AGENT_FIXTURE_H
#define RPERF_TEST_AGENT_FIXTURE_H

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <cmocka.h>

#include "agent/agent.h"
#include "ctrl/ctrl.h"
#include "ctrl/ctrl_tls.h"

/* ---- the fake engine ---- */

struct rperf_engine {
	int efd;
	size_t nsrc;
};

static struct {
	int created, connected, went, stopped, destroyed;
	int live_on, live_taken;
	int rounds; /* rounds after the first */
	uint32_t round; /* the last one asked */
	uint64_t stall_limit_ns; /* the plan's at create */
	struct rperf_engine *eng;
	char log[64][256];
	int nlog;
} fake;

static inline int f_create(const struct rperf_proto_plan *plan,
			   const struct rperf_clock *clk,
			   struct rperf_engine **out, char *err, size_t errlen)
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
	fake.stall_limit_ns = plan->stall_limit_ns;
	fake.created++;
	fake.eng = e;
	*out = e;
	return 0;
}

static inline int f_endpoints(struct rperf_engine *e,
			      struct rperf_proto_eps *out, char *err,
			      size_t errlen)
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

static inline int f_connect(struct rperf_engine *e,
			    const struct rperf_proto_eps *peers, char *err,
			    size_t errlen)
{
	(void)e;
	(void)err;
	(void)errlen;
	fake.connected += (int)peers->n;
	return 0;
}

static inline int f_go(struct rperf_engine *e, uint64_t t0, char *err,
		       size_t len)
{
	(void)e;
	(void)t0;
	(void)err;
	(void)len;
	fake.went++;
	return 0;
}

static inline int f_round(struct rperf_engine *e, uint32_t k, char *err,
			  size_t len)
{
	(void)e;
	(void)err;
	(void)len;
	fake.rounds++;
	fake.round = k;
	return 0;
}

static inline int f_fd(const struct rperf_engine *e)
{
	return e->efd;
}

static inline bool f_poll(struct rperf_engine *e)
{
	uint64_t v;

	return read(e->efd, &v, sizeof(v)) == sizeof(v);
}

static inline void f_stop(struct rperf_engine *e)
{
	(void)e;
	fake.stopped++;
}

static inline int f_report(struct rperf_engine *e, const char *host,
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

static inline void f_destroy(struct rperf_engine *e)
{
	close(e->efd);
	free(e);
	fake.destroyed++;
}

static inline const char *f_link(const struct rperf_engine *e)
{
	(void)e;
	return "ethernet";
}

/* live rows: GO with "live" turns them on; the first take hands one BSG
 * row of instance 3 and 2 skipped, later takes nothing */
static inline void f_live_on(struct rperf_engine *e)
{
	(void)e;
	fake.live_on++;
}

static inline void f_live_take(struct rperf_engine *e,
			       struct rperf_live_row *out, size_t cap,
			       size_t *n, uint64_t *skipped)
{
	(void)e;
	*n = 0;
	*skipped = 0;
	if (fake.live_taken++ || !cap)
		return;
	out[0] = (struct rperf_live_row){ .id = 3,
					  .kind = RPERF_GEN_BSG,
					  .start_ns = 1000000000,
					  .dur_ns = 500000000,
					  .messages = 7,
					  .bytes = 7 * 65536 };
	*n = 1;
	*skipped = 2;
}

static const struct rperf_agent_engine fake_engine = {
	.create = f_create,
	.endpoints = f_endpoints,
	.connect = f_connect,
	.go = f_go,
	.fd = f_fd,
	.poll = f_poll,
	.stop = f_stop,
	.report = f_report,
	.destroy = f_destroy,
	.link_layer = f_link,
	.live_on = f_live_on,
	.live_take = f_live_take,
	.round = f_round,
};

static inline void on_log(void *arg, const char *line)
{
	(void)arg;
	if (fake.nlog < 64)
		snprintf(fake.log[fake.nlog++], sizeof(fake.log[0]), "%s",
			 line);
}

/* Some line of the agent's log holds @part. */
static inline bool logged(const char *part)
{
	for (int i = 0; i < fake.nlog; i++)
		if (strstr(fake.log[i], part))
			return true;
	return false;
}

/* ---- the controller side ---- */

static const uint8_t the_key[] = "secret";
static struct rperf_clock clk;

static struct rperf_host_sel local; /* the agent's -d/-x/--cpu */
/* the test controller's TLS session per fd (NULL: plain) */
static struct rperf_ctrl_tls *tls_of[1024];
static struct rperf_ctrl_tls_ctx *client_ctx; /* NULL: plain channel */

/* The test controller's end: TLS with @key (NULL: plain). */
static inline void client(const char *key)
{
	struct rperf_ctrl_auth au = { .psk = (const uint8_t *)key,
				      .psklen = key ? strlen(key) : 0 };
	char err[256];

	rperf_ctrl_tls_ctx_free(client_ctx);
	client_ctx = NULL;
	if (key)
		assert_int_equal(rperf_ctrl_tls_ctx_create(&au, false,
							   &client_ctx, err,
							   sizeof(err)),
				 0);
}

/* With @key: TLS-PSK "secret"; without: --insecure (the test controller
 * matches it). */
static inline struct rperf_agent *agent(bool key, int timeout_ms)
{
	struct rperf_agent_cfg c = { .bind = "127.0.0.1",
				     .timeout_ms = timeout_ms,
				     .clk = &clk,
				     .engine = &fake_engine,
				     .log = on_log,
				     .local = local,
				     .limits = { .stall_ns = 2000000000ull } };
	struct rperf_agent *a = NULL;
	char err[256];

	if (key) {
		c.auth.psk = the_key;
		c.auth.psklen = 6;
	} else {
		c.insecure = true;
	}
	memset(&fake, 0, sizeof(fake));
	assert_int_equal(rperf_agent_create(&c, &a, err, sizeof(err)), 0);
	client(key ? (const char *)the_key : NULL);
	return a;
}

static inline struct rperf_ctrl_io io_of(int fd, int ms)
{
	return (struct rperf_ctrl_io){ .fd = fd,
				       .timeout_ms = ms,
				       .tls = tls_of[fd] };
}

static inline void hang_up(int fd)
{
	rperf_ctrl_tls_free(tls_of[fd]);
	tls_of[fd] = NULL;
	close(fd);
}

static inline void step(struct rperf_agent *a)
{
	char err[128];

	assert_int_equal(rperf_agent_step(a, 50, err, sizeof(err)), 0);
}

/* Connect; with client_ctx the TLS handshake, the agent stepped in turn:
 * its result in *tls_rc (may be NULL: must succeed). */
static inline int dial_rc(struct rperf_agent *a, int *tls_rc)
{
	char err[256] = "";
	int fd = -1, rc = 0;

	assert_int_equal(rperf_ctrl_connect("127.0.0.1", rperf_agent_port(a),
					    NULL, 1000000000ull, &fd),
			 0);
	step(a); /* accept */
	if (client_ctx) {
		assert_int_equal(
			rperf_ctrl_tls_new(client_ctx, fd, &tls_of[fd]), 0);
		for (int i = 0; i < 100; i++) {
			short ev;

			rc = rperf_ctrl_tls_step(tls_of[fd], &ev, err,
						 sizeof(err));
			if (rc != EAGAIN)
				break;
			step(a);
		}
	}
	if (tls_rc)
		*tls_rc = rc;
	else if (rc)
		fail_msg("TLS handshake: %s", err);
	return fd;
}

static inline int dial(struct rperf_agent *a)
{
	return dial_rc(a, NULL);
}

static inline void tx(int fd, enum rperf_ctrl_type t, json_t *o)
{
	const struct rperf_ctrl_io io = io_of(fd, 1000);

	assert_int_equal(rperf_ctrl_send_io(&io, t, o), 0);
	json_decref(o);
}

static inline int rx(int fd, struct rperf_ctrl_msg *m)
{
	const struct rperf_ctrl_io io = io_of(fd, 1000);

	return rperf_ctrl_recv_io(&io, m);
}

/* Send, let the agent act, receive its answer (must be @want). */
static inline void ask(struct rperf_agent *a, int fd, enum rperf_ctrl_type t,
		       json_t *o, enum rperf_ctrl_type want,
		       struct rperf_ctrl_msg *m)
{
	tx(fd, t, o);
	step(a);
	assert_int_equal(rx(fd, m), 0);
	if (m->type != want)
		fail_msg("got %s, want %s", rperf_ctrl_type_name(m->type),
			 rperf_ctrl_type_name(want));
}

static inline json_t *hello(void)
{
	struct rperf_ctrl_hello h = { RPERF_CTRL_VERSION, "run", 0, { { 0 } } };
	json_t *o = NULL;

	assert_int_equal(rperf_ctrl_hello_encode(&h, &o), 0);
	return o;
}

/* HELLO -> WELCOME (announcing HEARTBEATs). */
static inline void greet(struct rperf_agent *a, int fd)
{
	struct rperf_ctrl_welcome w;
	struct rperf_ctrl_msg m;

	ask(a, fd, RPERF_CTRL_HELLO, hello(), RPERF_CTRL_WELCOME, &m);
	assert_int_equal(rperf_ctrl_welcome_decode(&m, &w), 0);
	assert_true(rperf_ctrl_has_feature(
		(const char(*)[RPERF_CTRL_NAME_LEN])w.features, w.nfeatures,
		RPERF_PROTO_FEATURE_HEARTBEAT));
	rperf_ctrl_msg_release(&m);
}

static inline json_t *plan(const char *device)
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

/* A plain controller of @a through PLAN @p (taken) and CONNECT: its
 * socket. */
static inline int armed(struct rperf_agent *a, json_t *p)
{
	struct rperf_proto_eps eps;
	struct rperf_ctrl_msg m;
	char why[256];
	json_t *o = NULL;
	int fd;

	client(NULL);
	fd = dial(a);
	greet(a, fd);
	ask(a, fd, RPERF_CTRL_PLAN, p, RPERF_CTRL_ENDPOINTS, &m);
	assert_int_equal(
		rperf_proto_endpoints_decode(&m, &eps, why, sizeof(why)), 0);
	rperf_ctrl_msg_release(&m);
	assert_int_equal(rperf_proto_connect_encode(&eps, &o), 0);
	rperf_proto_eps_fini(&eps);
	ask(a, fd, RPERF_CTRL_CONNECT, o, RPERF_CTRL_ARMED, &m);
	rperf_ctrl_msg_release(&m);
	return fd;
}

static inline void expect_end(struct rperf_agent *a, int fd,
			      enum rperf_ctrl_type want,
			      const char *reason_part)
{
	struct rperf_ctrl_msg m;
	char r[RPERF_CTRL_REASON_LEN];

	step(a);
	assert_int_equal(rx(fd, &m), 0);
	assert_int_equal(m.type, want);
	assert_int_equal(rperf_ctrl_reason_decode(&m, r, sizeof(r)), 0);
	if (!strstr(r, reason_part))
		fail_msg("reason '%s' lacks '%s'", r, reason_part);
	rperf_ctrl_msg_release(&m);
	/* then the agent closed the connection */
	assert_int_equal(rx(fd, &m), EPIPE);
	hang_up(fd);
}

#endif
