/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Fake agents for the controller's tests (test_run_ctl.c, test_run_tls.c,
 * test_run_hostile.c):
 * small threads on loopback TCP that speak src/engine/proto.h without RDMA
 * (made-up endpoints, made-up results), over TLS-PSK with their own key or
 * over the plain channel; and run() that drives `rperf run`'s controller
 * against them.
 */
#ifndef RPERF_TEST_FAKE_AGENT_H
#define RPERF_TEST_FAKE_AGENT_H

#include <pthread.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ctrl/ctrl_tls.h"
#include "run_fixture.h"

#define MS 1000000ull

enum fake_mode {
	FAKE_OK,
	FAKE_DIE_AFTER_GO,
	FAKE_SILENT_AFTER_PLAN,
	FAKE_NO_FINISH, /* runs until STOP */
	FAKE_BAD_REPORT, /* reports an instance of another host */
	FAKE_GARBAGE, /* sends a frame with a bad magic after GO */
	FAKE_SILENT_AFTER_GO, /* as SIGSTOP: connected, says nothing */
	FAKE_ESCAPES, /* REFUSE with escape codes, CR/LF in the reason */
	FAKE_THIRD_PARTY, /* RoCE ENDPOINTS naming another host's GID */
	FAKE_PERFTEST, /* answers HELLO as perftest's server: "6.21" */
};

/* What a hostile agent puts in a reason: clear the screen, retitle the
 * terminal, fake a line of rperf's own. */
#define EVIL_REASON                               \
	"\x1b[2J\x1b]0;owned\x07"                 \
	"bad\r\nrperf run: all hosts ok \xc2\x9b" \
	"31m"

struct fake {
	const char *name;
	const char *key; /* the agent's TLS key, NULL = plain channel */
	bool beats; /* announces and sends HEARTBEATs */
	const char *beat_json; /* their payload (NULL: none) */
	enum fake_mode mode;
	int lfd;
	uint16_t port;
	pthread_t t;
	/* outcome, read after join */
	bool planned; /* got a PLAN: it would have created QPs */
	bool peers_ok; /* CONNECT carried the other ends' endpoints */
	size_t plan_hosts; /* PLAN "hosts" entries */
	char plan_addr[64]; /* the first one's address */
	char fail[128]; /* "" or what went wrong in the fake */
	/* announces "samples" and sends 3 of each raw LSG source, the first
	 * numbered samples_first (not 0: out of order) */
	bool samples;
	uint64_t samples_first;
	char hello_cmd[RPERF_CTRL_NAME_LEN]; /* the HELLO's command */
	bool plan_options; /* the PLAN carried "options" */
	/* announces "halt"; with FAKE_NO_FINISH its sources then run until
	 * HALT (FINISHED 100 ms later, as sources reaping their last
	 * completions), or never FINISH (halt_ignored) */
	bool halts, halt_ignored;
	bool halted; /* a HALT came */
	uint64_t finished_ns, stop_ns; /* CLOCK_MONOTONIC: FINISHED, STOP */
};

static int io_ms = 5000;
static __thread struct rperf_ctrl_tls *fake_tls; /* this fake's session */

static inline int frecv(int fd, int ms, struct rperf_ctrl_msg *m)
{
	const struct rperf_ctrl_io io = { .fd = fd,
					  .timeout_ms = ms,
					  .tls = fake_tls };

	return rperf_ctrl_recv_io(&io, m);
}

static inline int recv_type(struct fake *f, int fd, enum rperf_ctrl_type t,
			    struct rperf_ctrl_msg *m)
{
	int rc = frecv(fd, io_ms, m);

	if (!rc && m->type != t) {
		snprintf(f->fail, sizeof(f->fail), "expected %s, got %s",
			 rperf_ctrl_type_name(t),
			 rperf_ctrl_type_name(m->type));
		rperf_ctrl_msg_release(m);
		rc = EPROTO;
	}
	if (rc && !f->fail[0])
		snprintf(f->fail, sizeof(f->fail), "waiting for %s: %s",
			 rperf_ctrl_type_name(t), strerror(rc));
	return rc;
}

static inline uint64_t fake_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static inline int send_msg(int fd, enum rperf_ctrl_type t, json_t *p)
{
	const struct rperf_ctrl_io io = { .fd = fd,
					  .timeout_ms = io_ms,
					  .tls = fake_tls };
	int rc = rperf_ctrl_send_io(&io, t, p);

	json_decref(p);
	return rc;
}

/* TLS (with a key) then HELLO -> WELCOME; nonzero when refused. */
static inline int handshake(struct fake *f, int fd)
{
	struct rperf_ctrl_msg m = { 0 };
	struct rperf_ctrl_welcome w = { .version = 1, .max_size = 1 << 20 };
	json_t *p = NULL;

	if (f->key) {
		struct rperf_ctrl_auth au = { .psk = (const uint8_t *)f->key,
					      .psklen = strlen(f->key) };
		struct rperf_ctrl_tls_ctx *ctx = NULL;
		char err[256];
		int rc;

		assert_int_equal(rperf_ctrl_tls_ctx_create(&au, true, &ctx, err,
							   sizeof(err)),
				 0);
		assert_int_equal(rperf_ctrl_tls_new(ctx, fd, &fake_tls), 0);
		rc = rperf_ctrl_tls_handshake(fake_tls, io_ms, NULL, err,
					      sizeof(err));
		rperf_ctrl_tls_ctx_free(ctx); /* the session keeps a ref */
		if (rc) {
			snprintf(f->fail, sizeof(f->fail), "%.120s", err);
			return 1;
		}
	}
	if (recv_type(f, fd, RPERF_CTRL_HELLO, &m))
		return -1;
	{
		struct rperf_ctrl_hello h;

		if (!rperf_ctrl_hello_decode(&m, &h))
			memcpy(f->hello_cmd, h.command, sizeof(f->hello_cmd));
	}
	rperf_ctrl_msg_release(&m);
	if (f->mode == FAKE_PERFTEST) { /* its 16-byte version field */
		static const char ver[16] = "6.21";

		(void)!write(fd, ver, sizeof(ver));
		return 1;
	}
	if (f->mode == FAKE_ESCAPES) {
		assert_int_equal(rperf_ctrl_reason_encode(EVIL_REASON, &p), 0);
		send_msg(fd, RPERF_CTRL_REFUSE, p);
		return 1;
	}
	if (f->beats)
		snprintf(w.features[w.nfeatures++], sizeof(w.features[0]), "%s",
			 RPERF_PROTO_FEATURE_HEARTBEAT);
	if (f->samples)
		snprintf(w.features[w.nfeatures++], sizeof(w.features[0]), "%s",
			 RPERF_PROTO_FEATURE_SAMPLES);
	if (f->halts)
		snprintf(w.features[w.nfeatures++], sizeof(w.features[0]), "%s",
			 RPERF_PROTO_FEATURE_HALT);
	assert_int_equal(rperf_ctrl_welcome_encode(&w, &p), 0);
	return send_msg(fd, RPERF_CTRL_WELCOME, p) ? -1 : 0;
}

/* Wait for STOP; with HEARTBEATs every @hb_ns meanwhile. */
static inline int await_stop(struct fake *f, int fd, uint64_t hb_ns,
			     struct rperf_ctrl_msg *m)
{
	while (f->beats && hb_ns) {
		int rc = frecv(fd, (int)(hb_ns / MS), m);

		if (rc != ETIMEDOUT)
			return rc;
		json_t *p = f->beat_json ? json_loads(f->beat_json, 0, NULL) :
					   NULL;

		rc = send_msg(fd, RPERF_CTRL_HEARTBEAT, p); /* takes @p */
		if (rc)
			return EPIPE;
	}
	return recv_type(f, fd, RPERF_CTRL_STOP, m);
}

/* Endpoint of (id, role): qpn tells the end apart. */
static inline void fake_ep(struct rperf_ctrl_endpoint *ep, uint32_t id,
			   int role)
{
	memset(ep, 0, sizeof(*ep));
	ep->qpn = id * 2 + (uint32_t)role + 1;
	ep->psn = 7;
	ep->lid = 3;
	ep->mtu = 1024;
}

static inline int send_endpoints(const struct fake *f, int fd,
				 const struct rperf_proto_plan *pl)
{
	size_t n = pl->nsources + pl->nsinks, i;
	struct rperf_proto_inst_eps *in = calloc(n + 1, sizeof(*in));
	struct rperf_ctrl_endpoint *eps = calloc(n + 1, sizeof(*eps));
	struct rperf_proto_eps e = { .inst = in, .n = n };
	json_t *p = NULL;

	for (i = 0; i < n; i++) {
		bool src = i < pl->nsources;
		const struct rperf_gen_spec *s =
			src ? &pl->sources[i] : &pl->sinks[i - pl->nsources];

		in[i].id = s->id;
		in[i].role = src ? RPERF_ROLE_SOURCE : RPERF_ROLE_SINK;
		fake_ep(&eps[i], s->id, in[i].role);
		/* RoCE: the GID is ::ffff:127.0.0.1, our address; a third
		 * party's is 10.9.9.9 */
		eps[i].gid[10] = eps[i].gid[11] = 0xff;
		eps[i].gid[12] = f->mode == FAKE_THIRD_PARTY ? 10 : 127;
		eps[i].gid[13] = f->mode == FAKE_THIRD_PARTY ? 9 : 0;
		eps[i].gid[14] = f->mode == FAKE_THIRD_PARTY ? 9 : 0;
		eps[i].gid[15] = f->mode == FAKE_THIRD_PARTY ? 9 : 1;
		in[i].qps = &eps[i];
		in[i].nqps = 1;
	}
	assert_int_equal(rperf_proto_endpoints_encode(&e, &p), 0);
	json_object_set_new(p, "link_layer",
			    json_string(f->mode == FAKE_THIRD_PARTY ?
						"ethernet" :
						"infiniband"));
	free(in);
	free(eps);
	return send_msg(fd, RPERF_CTRL_ENDPOINTS, p);
}

/* The CONNECT peers are the other ends' endpoints. */
static inline bool check_connect(const struct rperf_ctrl_msg *m, size_t n)
{
	struct rperf_proto_eps e = { 0 };
	char why[128];
	bool ok;

	if (rperf_proto_connect_decode(m, &e, why, sizeof(why)))
		return false;
	ok = e.n == n;
	for (size_t i = 0; ok && i < e.n; i++)
		ok = e.inst[i].nqps == 1 &&
		     e.inst[i].qps[0].qpn ==
			     e.inst[i].id * 2 + (1 - e.inst[i].role) + 1;
	rperf_proto_eps_fini(&e);
	return ok;
}

/* 3 samples of LSG @id in one SAMPLES frame. */
static inline int send_samples(struct fake *f, int fd, uint32_t id)
{
	const struct rperf_raw_sample s[3] = { { 5000, 3000, 2000, 0 },
					       { 5100, 3000, 2100, 0 },
					       { 5200, 3000, 2200, 0 } };
	json_t *p = NULL;

	assert_int_equal(
		rperf_proto_samples_encode(id, f->samples_first, s, 3, &p), 0);
	return send_msg(fd, RPERF_CTRL_SAMPLES, p);
}

static inline int send_report(struct fake *f, int fd,
			      const struct rperf_proto_plan *pl)
{
	struct rperf_proto_report rep;
	json_t *p = NULL;
	size_t i;

	fx_report(&rep, f->name, pl->nsources + pl->nsinks + 2);
	if (f->mode == FAKE_BAD_REPORT) /* id 0 is h1's LSG, not ours */
		fx_lsg(&rep, 0, fx_hist(1, 1, 10));
	for (i = 0; i < pl->nsources; i++) {
		const struct rperf_gen_spec *s = &pl->sources[i];

		if (s->kind == RPERF_GEN_LSG && s->raw &&
		    send_samples(f, fd, s->id))
			return -1;
		if (s->kind == RPERF_GEN_LSG)
			fx_lsg(&rep, s->id, fx_hist(2000, 10, 1000));
		if (s->kind == RPERF_GEN_LSG && s->raw) {
			rep.res[rep.n - 1].has_raw = true;
			rep.res[rep.n - 1].nraw = 3;
		}
		if (s->kind != RPERF_GEN_LSG)
			fx_counts(&rep, s->id, RPERF_ROLE_SOURCE, s->kind,
				  250000000ull, 0.2);
	}
	for (i = 0; i < pl->nsinks; i++)
		fx_counts(&rep, pl->sinks[i].id, RPERF_ROLE_SINK,
			  pl->sinks[i].kind, 200000000ull, 0.2);
	assert_int_equal(rperf_proto_report_encode(&rep, &p), 0);
	rperf_proto_report_fini(&rep);
	json_object_set_new(p, "clock",
			    json_pack("{s:s,s:f}", "source", "fake", "hz",
				      1e9));
	return send_msg(fd, RPERF_CTRL_REPORT, p);
}

/* PLAN .. BYE. */
static inline void experiment(struct fake *f, int fd)
{
	struct rperf_ctrl_msg m = { 0 };
	struct rperf_proto_plan pl;
	uint64_t start = 0, hb = 0;
	char why[128];

	memset(&pl, 0, sizeof(pl));
	if (recv_type(f, fd, RPERF_CTRL_PLAN, &m))
		return;
	assert_int_equal(rperf_proto_plan_decode(&m, &pl, why, sizeof(why)), 0);
	f->plan_options = json_object_get(m.payload, "options") != NULL;
	rperf_ctrl_msg_release(&m);
	f->planned = true;
	f->plan_hosts = pl.nhosts;
	if (pl.nhosts)
		snprintf(f->plan_addr, sizeof(f->plan_addr), "%s",
			 pl.hosts[0].addr);
	if (f->mode == FAKE_SILENT_AFTER_PLAN) {
		/* never answers; the controller gives up and sends ERROR */
		(void)frecv(fd, io_ms, &m);
		rperf_ctrl_msg_release(&m);
		goto plan_fini;
	}
	if (send_endpoints(f, fd, &pl) ||
	    recv_type(f, fd, RPERF_CTRL_CONNECT, &m))
		goto plan_fini;
	f->peers_ok = check_connect(&m, pl.nsources + pl.nsinks);
	rperf_ctrl_msg_release(&m);
	if (send_msg(fd, RPERF_CTRL_ARMED, json_object()) ||
	    recv_type(f, fd, RPERF_CTRL_GO, &m))
		goto plan_fini;
	assert_int_equal(rperf_proto_go_decode(&m, &start, &hb), 0);
	rperf_ctrl_msg_release(&m);
	if (f->mode == FAKE_DIE_AFTER_GO)
		goto plan_fini; /* the socket closes: EOF at the controller */
	if (f->mode == FAKE_SILENT_AFTER_GO) { /* until the controller closes */
		(void)frecv(fd, io_ms, &m);
		rperf_ctrl_msg_release(&m);
		goto plan_fini;
	}
	if (f->mode == FAKE_GARBAGE) {
		static const char junk[16] = "GARBAGE-GARBAGE";

		(void)!write(fd, junk, sizeof(junk));
		(void)frecv(fd, io_ms, &m); /* until closed */
		rperf_ctrl_msg_release(&m);
		goto plan_fini;
	}
	if (f->mode == FAKE_NO_FINISH && f->halts && pl.nsources) {
		if (recv_type(f, fd, RPERF_CTRL_HALT, &m))
			goto plan_fini;
		rperf_ctrl_msg_release(&m);
		f->halted = true;
	}
	if (f->mode != FAKE_NO_FINISH || (f->halted && !f->halt_ignored)) {
		usleep(f->halted ? 100000 : 250000); /* the last completions */
		f->finished_ns = fake_now_ns();
		if (pl.nsources &&
		    send_msg(fd, RPERF_CTRL_FINISHED, json_object()))
			goto plan_fini;
	}
	if (await_stop(f, fd, hb, &m))
		goto plan_fini;
	f->stop_ns = fake_now_ns();
	rperf_ctrl_msg_release(&m);
	if (send_report(f, fd, &pl) || recv_type(f, fd, RPERF_CTRL_BYE, &m))
		goto plan_fini;
	rperf_ctrl_msg_release(&m);
	send_msg(fd, RPERF_CTRL_BYE, json_object());
plan_fini:
	rperf_proto_plan_fini(&pl);
}

static inline void *fake_main(void *arg)
{
	struct fake *f = arg;
	int fd = -1;

	if (rperf_ctrl_accept(f->lfd, io_ms, &fd, NULL, 0)) {
		snprintf(f->fail, sizeof(f->fail), "no controller");
		return NULL;
	}
	if (handshake(f, fd) == 0)
		experiment(f, fd);
	rperf_ctrl_tls_free(fake_tls);
	fake_tls = NULL;
	close(fd);
	return NULL;
}

static inline void fake_start(struct fake *f, struct rperf_job_host *h)
{
	assert_int_equal(rperf_ctrl_listen("127.0.0.1", 0, &f->lfd), 0);
	assert_int_equal(rperf_ctrl_local_port(f->lfd, &f->port), 0);
	h->control_port = f->port;
	f->name = h->name;
	assert_int_equal(pthread_create(&f->t, NULL, fake_main, f), 0);
}

static inline void fake_join(struct fake *f)
{
	pthread_join(f->t, NULL);
	close(f->lfd);
}

/* h1: LSG lat -> h3; h2: BSG bulk -> h3; h3 the destination. */
static inline struct rperf_job *job3(void)
{
	struct rperf_job *j = fx_job(3);

	fx_inst(j, RPERF_GEN_LSG, "lat", "h1", "h3", 0, 0);
	fx_inst(j, RPERF_GEN_BSG, "bulk", "h2", "h3", 1, 0);
	return j;
}

static inline double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static uint64_t heartbeat_ns; /* the controller's --heartbeat; 0: 1 s */
static bool run_raw; /* the controller's --raw */
/* the controller's live hooks (NULL: --live not given) */
static void (*live_row)(void *arg, const struct rperf_gen_spec *spec,
			const struct rperf_live_row *row);
static void (*live_skipped)(void *arg, const char *host, uint64_t n);

/* The controller with @key (TLS-PSK), or --insecure without. */
static volatile sig_atomic_t stop_flag;

static inline struct rperf_run_results *run(struct rperf_job *j, struct fake *f,
					    const char *key, double *secs)
{
	struct rperf_run_opts o = { .start_in_ns = 20 * MS,
				    .margin_ns = 200 * MS,
				    .heartbeat_ns = heartbeat_ns,
				    .on_live = live_row,
				    .on_live_skipped = live_skipped,
				    .raw = run_raw };
	struct rperf_run_results *r = NULL;
	char err[256] = "";
	double t0;

	o.auth.psk = (const uint8_t *)key;
	o.auth.psklen = key ? strlen(key) : 0;
	o.insecure = !key;
	for (size_t i = 0; i < j->nhosts; i++)
		fake_start(&f[i], &j->hosts[i]);
	t0 = now_s();
	assert_int_equal(
		rperf_run_execute(j, &o, &stop_flag, &r, err, sizeof(err)), 0);
	*secs = now_s() - t0;
	for (size_t i = 0; i < j->nhosts; i++)
		fake_join(&f[i]);
	return r;
}

#endif
