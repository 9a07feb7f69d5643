// SPDX-License-Identifier: BSD-2-Clause
/*
 * Unit tests of the shared two-host session lifecycle (src/session): error
 * values and run notes, and a whole client/server conversation over
 * loopback TCP with fake ops (no RDMA): HELLO, PARAMS, ENDPOINT, READY,
 * rounds, BYE; a refused PARAMS; the error classes the command layer maps.
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "config/config.h"
#include "session/session_life.h"

static void test_err_value(void **state)
{
	struct rperf_err e;

	(void)state;
	assert_int_equal(rperf_err_set(&e, RPERF_ERRC_USAGE, 0, "x %d", 1),
			 EIO);
	assert_int_equal(e.rc, EIO);
	assert_int_equal(e.cls, RPERF_ERRC_USAGE);
	assert_string_equal(e.msg, "x 1");
	assert_int_equal(rperf_err_set(&e, RPERF_ERRC_RUNTIME, ENOENT, "y"),
			 ENOENT);
}

static void test_notes(void **state)
{
	struct rperf_session_notes n = { 0 };
	const char *w[RPERF_MAX_WARNINGS];

	(void)state;
	for (int i = 0; i < RPERF_MAX_WARNINGS + 3; i++)
		rperf_session_warn(&n, "warning %d", i);
	assert_int_equal(rperf_session_warnings(&n, w), RPERF_MAX_WARNINGS);
	assert_string_equal(w[0], "warning 0");
	assert_string_equal(w[RPERF_MAX_WARNINGS - 1], "warning 15");
}

static void collect(void *arg, const char *msg)
{
	snprintf(arg, 64, "%s", msg);
}

static void test_say(void **state)
{
	char got[64] = "";
	const struct rperf_say quiet = { 0 };
	const struct rperf_say s = { .line = collect, .arg = got };

	(void)state;
	rperf_say(&quiet, "dropped %d", 1);
	rperf_say(NULL, "dropped %d", 2);
	rperf_say(&s, "--csv: cannot write %s", "x.csv");
	assert_string_equal(got, "--csv: cannot write x.csv");
}

/* ---- fake server ---- */
struct fake_srv {
	int rounds;
	uint64_t samples;
};

static bool refuse_params; /* read by the server thread after the join */

/* PARAMS arrive as the client's generator spec (rperf_session_spec). */
static int s_params(void *arg, struct rperf_session_chan *ch,
		    const struct rperf_gen_spec *s, uint64_t stall_ns,
		    struct rperf_err *e)
{
	(void)arg;
	(void)ch;
	if (refuse_params || s->kind != RPERF_GEN_BSG || !stall_ns ||
	    strcmp(s->from, "client"))
		return rperf_err_set(e, RPERF_ERRC_USAGE, ERANGE,
				     "size above the limit");
	return 0;
}

static int s_endpoints(void *arg, struct rperf_session_chan *ch,
		       struct rperf_err *e)
{
	struct rperf_ctrl_msg m;
	json_t *ep = json_pack("{s:i}", "ep", 1);
	int rc = rperf_ctrl_session_send(&ch->s, &ch->io, RPERF_CTRL_ENDPOINT,
					 ep);

	(void)arg;
	json_decref(ep);
	if (!rc)
		rc = rperf_ctrl_session_recv(&ch->s, &ch->io, &m);
	if (rc)
		return rperf_err_set(e, RPERF_ERRC_RUNTIME, rc, "endpoints");
	rperf_ctrl_msg_release(&m);
	return 0;
}

static int s_start(void *arg, struct rperf_session_chan *ch,
		   const struct rperf_ctrl_msg *m, struct rperf_err *e)
{
	(void)arg;
	(void)ch;
	(void)m;
	(void)e;
	return 0;
}

static int s_round(void *arg, struct rperf_session_chan *ch,
		   struct rperf_err *e)
{
	struct fake_srv *sv = arg;
	struct pollfd pf = { .fd = ch->io.fd, .events = POLLIN };

	(void)e;
	sv->rounds++;
	return poll(&pf, 1, 5000) == 1 ? 0 : ETIMEDOUT;
}

static uint64_t s_received(void *arg)
{
	(void)arg;
	return 0;
}

static int s_result(void *arg, uint64_t samples, json_t **out, char *line,
		    size_t linelen, struct rperf_err *e)
{
	struct fake_srv *sv = arg;

	(void)e;
	sv->samples += samples;
	snprintf(line, linelen, "round %d: %llu", sv->rounds,
		 (unsigned long long)samples);
	*out = json_pack("{s:I}", "received", (json_int_t)samples);
	return 0;
}

static void s_close(void *arg)
{
	(void)arg;
}

static const struct rperf_session_server_ops srv_ops = {
	.command = "test",
	.state_size = sizeof(struct fake_srv),
	.params = s_params,
	.endpoints = s_endpoints,
	.start = s_start,
	.round = s_round,
	.received = s_received,
	.result = s_result,
	.close = s_close,
};

/* ---- fake client ---- */
struct fake_cli {
	uint64_t max_size;
	uint64_t got[2];
};

static int c_setup(void *arg, uint64_t max_size, char *err, size_t errlen)
{
	struct fake_cli *c = arg;

	(void)err;
	(void)errlen;
	c->max_size = max_size;
	return 0;
}

static int c_endpoints(void *arg, struct rperf_session_chan *ch,
		       struct rperf_err *e)
{
	char why[RPERF_CTRL_REASON_LEN];
	struct rperf_ctrl_msg m;
	json_t *ep = json_pack("{s:i}", "ep", 2);
	int rc;

	(void)arg;
	rc = rperf_ctrl_session_recv(&ch->s, &ch->io, &m);
	if (!rc && m.type != RPERF_CTRL_ENDPOINT) {
		rperf_ctrl_get_str(m.payload, "reason", why, sizeof(why));
		rperf_ctrl_msg_release(&m);
		json_decref(ep);
		return rperf_err_set(e, RPERF_ERRC_USAGE, EPROTO,
				     "refused the run: %s", why);
	}
	if (!rc) {
		rperf_ctrl_msg_release(&m);
		rc = rperf_ctrl_session_send(&ch->s, &ch->io,
					     RPERF_CTRL_ENDPOINT, ep);
	}
	json_decref(ep);
	return rc ? rperf_err_set(e, RPERF_ERRC_RUNTIME, rc, "endpoints") : 0;
}

static int c_rounds(void *arg, struct rperf_session_chan *ch,
		    struct rperf_err *e)
{
	struct fake_cli *c = arg;
	struct rperf_ctrl_msg m;
	const json_t *res;
	int rc = 0;

	for (int i = 0; i < 2 && !rc; i++) {
		rc = rperf_session_start(ch, NULL, e);
		if (!rc)
			rc = rperf_session_done(ch, 5 + (uint64_t)i, e);
		if (!rc)
			rc = rperf_session_result(ch, &m, e);
		if (rc)
			break;
		assert_int_equal(rperf_ctrl_result_decode(&m, &res), 0);
		assert_int_equal(rperf_ctrl_get_u64(res, "received", 0,
						    UINT64_MAX, &c->got[i]),
				 0);
		rperf_ctrl_msg_release(&m);
	}
	return rc;
}

static const struct rperf_session_client_ops cli_ops = {
	.command = "test",
	.setup = c_setup,
	.kind = RPERF_GEN_BSG,
	.endpoints = c_endpoints,
	.rounds = c_rounds,
};

/* ---- the conversation ---- */
struct server_run {
	struct rperf_cli_config cfg;
	int lfd;
	volatile sig_atomic_t stop;
	struct rperf_err e;
	char lines[8][128];
	int nlines;
	int rc;
};

static void log_line(void *arg, const char *peer, const char *msg)
{
	struct server_run *r = arg;

	(void)peer;
	if (r->nlines < 8)
		snprintf(r->lines[r->nlines++], sizeof(r->lines[0]), "%s", msg);
}

static void *server_main(void *arg)
{
	struct server_run *r = arg;
	const struct rperf_session_log log = { .line = log_line, .arg = r };

	r->rc = rperf_session_serve(&r->cfg, r->lfd, &r->stop, &srv_ops, &log,
				    &r->e);
	return NULL;
}

static pthread_t start_server(struct server_run *r, uint16_t *port)
{
	struct rperf_err le;
	pthread_t t;

	rperf_cli_config_defaults(&r->cfg);
	r->cfg.bind = "127.0.0.1";
	r->cfg.tcp_port = 0;
	assert_int_equal(rperf_session_listen(&r->cfg, &r->lfd, &le), 0);
	assert_int_equal(rperf_ctrl_local_port(r->lfd, port), 0);
	assert_int_equal(pthread_create(&t, NULL, server_main, r), 0);
	return t;
}

static void run_client(uint16_t port, struct rperf_err *ce, struct fake_cli *fc)
{
	struct rperf_cli_config cfg;
	volatile sig_atomic_t stop = 0;

	rperf_cli_config_defaults(&cfg);
	cfg.host = "127.0.0.1";
	cfg.tcp_port = port;
	cfg.connect_timeout_ns = 2000000000ull;
	cfg.sizes[0] = 64;
	cfg.sizes[1] = 4096;
	cfg.nsizes = 2;
	rperf_session_client_run(&cfg, &stop, &cli_ops, fc, ce);
}

static void converse(struct server_run *r, struct rperf_err *ce,
		     struct fake_cli *fc)
{
	uint16_t port = 0;
	pthread_t t = start_server(r, &port);

	run_client(port, ce, fc);
	assert_int_equal(pthread_join(t, NULL), 0);
}

static void test_conversation(void **state)
{
	struct server_run r = { 0 };
	struct fake_cli fc = { 0 };
	struct rperf_err ce;

	(void)state;
	refuse_params = false;
	converse(&r, &ce, &fc);
	assert_int_equal(ce.rc, 0);
	assert_int_equal(r.rc, 0);
	assert_int_equal(r.e.rc, 0);
	assert_int_equal(fc.max_size, 4096);
	assert_int_equal(fc.got[0], 5);
	assert_int_equal(fc.got[1], 6);
	assert_int_equal(r.nlines, 2);
	assert_string_equal(r.lines[0], "round 1: 5");
	assert_string_equal(r.lines[1], "round 2: 6");
}

/*
 * A refused client does not count as a non-persistent server's one
 * client: the server goes on to serve the next one, then ends.
 */
static void test_refused(void **state)
{
	struct server_run r = { 0 };
	struct fake_cli fc = { 0 }, fc2 = { 0 };
	struct rperf_err ce, ce2;
	uint16_t port = 0;
	pthread_t t;

	(void)state;
	refuse_params = true;
	t = start_server(&r, &port);
	run_client(port, &ce, &fc);
	assert_int_equal(ce.cls, RPERF_ERRC_USAGE);
	assert_string_equal(ce.msg, "refused the run: size above the limit");
	refuse_params = false;
	run_client(port, &ce2, &fc2);
	assert_int_equal(pthread_join(t, NULL), 0);
	assert_int_equal(ce2.rc, 0);
	assert_int_equal(fc2.got[1], 6);
	assert_int_equal(r.rc, 0);
	assert_int_equal(r.e.rc, 0); /* the last client's outcome */
	assert_int_equal(r.nlines, 3);
	assert_string_equal(r.lines[0], "refused: size above the limit");
	assert_string_equal(r.lines[1], "round 1: 5");
}

/* ---- busy: a second client during the first one's round ---- */
static struct rperf_err busy_e; /* the second client's outcome */

static int c_rounds_busy(void *arg, struct rperf_session_chan *ch,
			 struct rperf_err *e)
{
	struct fake_cli other = { 0 };
	volatile sig_atomic_t stop = 0;
	struct rperf_ctrl_msg m;
	int rc = rperf_session_start(ch, NULL, e);

	(void)arg;
	/* the server runs our round on its worker; its loop answers this */
	if (!rc)
		rperf_session_client_run(ch->cfg, &stop, &cli_ops, &other,
					 &busy_e);
	if (!rc)
		rc = rperf_session_done(ch, 5, e);
	if (!rc)
		rc = rperf_session_result(ch, &m, e);
	if (!rc)
		rperf_ctrl_msg_release(&m);
	return rc;
}

static void *stop_later(void *arg)
{
	struct server_run *r = arg;

	usleep(100000);
	r->stop = 1;
	return NULL;
}

static void test_busy(void **state)
{
	const struct rperf_session_client_ops ops = {
		.command = "test",
		.setup = c_setup,
		.kind = RPERF_GEN_BSG,
		.endpoints = c_endpoints,
		.rounds = c_rounds_busy,
	};
	struct server_run r = { 0 };
	struct fake_cli fc = { 0 };
	struct rperf_cli_config cfg;
	volatile sig_atomic_t stop = 0;
	struct rperf_err ce, le;
	pthread_t t, t2;
	uint16_t port = 0;

	(void)state;
	refuse_params = false;
	rperf_cli_config_defaults(&r.cfg);
	r.cfg.bind = "127.0.0.1";
	r.cfg.tcp_port = 0;
	r.cfg.persistent = true;
	assert_int_equal(rperf_session_listen(&r.cfg, &r.lfd, &le), 0);
	assert_int_equal(rperf_ctrl_local_port(r.lfd, &port), 0);
	assert_int_equal(pthread_create(&t, NULL, server_main, &r), 0);
	rperf_cli_config_defaults(&cfg);
	cfg.host = "127.0.0.1";
	cfg.tcp_port = port;
	cfg.connect_timeout_ns = 2000000000ull;
	cfg.sizes[0] = 64;
	cfg.sizes[1] = 128;
	cfg.nsizes = 2;
	cfg.duration_ns = 30 * 1000000000ull; /* planned: 2 x 30 s */
	rperf_session_client_run(&cfg, &stop, &ops, &fc, &ce);
	assert_int_equal(ce.rc, 0);
	/* the second client: refused at once, busy, exit class runtime */
	assert_int_equal(busy_e.cls, RPERF_ERRC_RUNTIME);
	if (!strstr(busy_e.msg, "refused the run: busy: running a test for "
				"127.0.0.1:") ||
	    !strstr(busy_e.msg, " UTC (60 s left)"))
		fail_msg("busy message: %s", busy_e.msg);
	/* a persistent server ends on its stop flag */
	assert_int_equal(pthread_create(&t2, NULL, stop_later, &r), 0);
	assert_int_equal(pthread_join(t, NULL), 0);
	assert_int_equal(pthread_join(t2, NULL), 0);
	assert_int_equal(r.rc, 0);
}

/* ---- a client that goes during its set-up, and one right behind it ---- */
struct gone_run {
	uint16_t port;
	int welcomed; /* the server answered its HELLO */
};

/* HELLO, WELCOME, then no PARAMS: the client closes its connection while
 * the next one arrives. */
static void *gone_client(void *arg)
{
	struct rperf_ctrl_hello h = { RPERF_CTRL_VERSION, "test", 0, { { 0 } } };
	struct gone_run *g = arg;
	struct rperf_ctrl_msg m;
	json_t *o = NULL;
	int fd = -1;

	if (rperf_ctrl_connect("127.0.0.1", g->port, NULL, 2000000000ull,
			       &fd) ||
	    rperf_ctrl_hello_encode(&h, &o))
		return NULL;
	if (!rperf_ctrl_send(fd, RPERF_CTRL_HELLO, o, 1000) &&
	    !rperf_ctrl_recv(fd, 2000, &m)) {
		g->welcomed = m.type == RPERF_CTRL_WELCOME;
		rperf_ctrl_msg_release(&m);
	}
	json_decref(o);
	usleep(300000); /* the next client arrives meanwhile */
	close(fd);
	return NULL;
}

/*
 * A client that closes its connection while the server is still setting
 * it up does not get the next client refused busy: the newcomer, arriving
 * during that set-up, is served once the gone client's worker has ended
 * (the soak's cheap clients that reset right after their HELLO).
 */
static void test_setup_gone(void **state)
{
	struct server_run r = { 0 };
	struct gone_run g = { 0, 0 };
	struct fake_cli fc = { 0 };
	struct rperf_err ce, le;
	pthread_t t, ta, t2;

	(void)state;
	refuse_params = false;
	rperf_cli_config_defaults(&r.cfg);
	r.cfg.bind = "127.0.0.1";
	r.cfg.tcp_port = 0;
	r.cfg.persistent = true;
	assert_int_equal(rperf_session_listen(&r.cfg, &r.lfd, &le), 0);
	assert_int_equal(rperf_ctrl_local_port(r.lfd, &g.port), 0);
	assert_int_equal(pthread_create(&t, NULL, server_main, &r), 0);
	assert_int_equal(pthread_create(&ta, NULL, gone_client, &g), 0);
	usleep(100000); /* the first client is in its set-up */
	run_client(g.port, &ce, &fc);
	assert_int_equal(pthread_join(ta, NULL), 0);
	assert_int_equal(g.welcomed, 1);
	if (ce.rc)
		fail_msg("the client behind a gone one: %s", ce.msg);
	assert_int_equal(fc.got[1], 6);
	assert_int_equal(pthread_create(&t2, NULL, stop_later, &r), 0);
	assert_int_equal(pthread_join(t, NULL), 0);
	assert_int_equal(pthread_join(t2, NULL), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_err_value),
		cmocka_unit_test(test_notes),
		cmocka_unit_test(test_say),
		cmocka_unit_test(test_conversation),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_busy),
		cmocka_unit_test(test_setup_gone),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
