// SPDX-License-Identifier: BSD-2-Clause
/*
 * The controller of `rperf run` against fake agents: small threads on
 * loopback TCP that speak src/engine/proto.h without RDMA (made-up
 * endpoints, made-up results). Covers the whole flow (endpoints relayed to
 * the other end, REPORTs merged), an agent dying mid-run (the others'
 * results kept, the host in failed_hosts, the run ends within 2 x timeout),
 * a wrong key (refused before anything is created) and an agent that is not
 * running.
 */
#include <pthread.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "run_fixture.h"

#define MS 1000000ull

enum fake_mode {
	FAKE_OK,
	FAKE_DIE_AFTER_GO,
	FAKE_SILENT_AFTER_PLAN,
	FAKE_NO_FINISH, /* runs until STOP */
	FAKE_BAD_REPORT, /* reports an instance of another host */
	FAKE_GARBAGE, /* sends a frame with a bad magic after GO */
	FAKE_ESCAPES, /* REFUSE with escape codes, CR/LF in the reason */
	FAKE_THIRD_PARTY, /* RoCE ENDPOINTS naming another host's GID */
};

/* What a hostile agent puts in a reason: clear the screen, retitle the
 * terminal, fake a line of rperf's own. */
#define EVIL_REASON                               \
	"\x1b[2J\x1b]0;owned\x07"                 \
	"bad\r\nrperf run: all hosts ok \xc2\x9b" \
	"31m"

struct fake {
	const char *name;
	const char *key; /* the agent's key, NULL = none */
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
};

static int io_ms = 5000;

static int recv_type(struct fake *f, int fd, enum rperf_ctrl_type t,
		     struct rperf_ctrl_msg *m)
{
	int rc = rperf_ctrl_recv(fd, io_ms, m);

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

static int send_msg(int fd, enum rperf_ctrl_type t, json_t *p)
{
	int rc = rperf_ctrl_send(fd, t, p, io_ms);

	json_decref(p);
	return rc;
}

/* HELLO .. READY; 1 when refused (wrong key). */
static int handshake(struct fake *f, int fd)
{
	struct rperf_ctrl_msg m = { 0 };
	struct rperf_ctrl_welcome w = { .version = 1, .max_size = 1 << 20 };
	uint8_t nonce[RPERF_PROTO_NONCE_LEN], mac[RPERF_PROTO_MAC_LEN];
	json_t *p = NULL;
	bool has = false;
	int rc;

	if (recv_type(f, fd, RPERF_CTRL_HELLO, &m))
		return -1;
	rperf_ctrl_msg_release(&m);
	if (f->mode == FAKE_ESCAPES) {
		assert_int_equal(rperf_ctrl_reason_encode(EVIL_REASON, &p), 0);
		send_msg(fd, RPERF_CTRL_REFUSE, p);
		return 1;
	}
	assert_int_equal(rperf_proto_nonce(nonce), 0);
	assert_int_equal(
		rperf_proto_welcome_encode(&w, nonce, f->key != NULL, &p), 0);
	if (send_msg(fd, RPERF_CTRL_WELCOME, p) ||
	    recv_type(f, fd, RPERF_CTRL_AUTH, &m))
		return -1;
	rc = rperf_proto_auth_decode(&m, mac, &has);
	rperf_ctrl_msg_release(&m);
	if (rc)
		return -1;
	if (f->key &&
	    (!has || !rperf_proto_mac_ok((const uint8_t *)f->key,
					 strlen(f->key), nonce, mac))) {
		assert_int_equal(rperf_ctrl_reason_encode("wrong key", &p), 0);
		send_msg(fd, RPERF_CTRL_REFUSE, p);
		return 1;
	}
	p = json_pack("{s:s}", "what", "auth");
	return send_msg(fd, RPERF_CTRL_READY, p) ? -1 : 0;
}

/* Endpoint of (id, role): qpn tells the end apart. */
static void fake_ep(struct rperf_ctrl_endpoint *ep, uint32_t id, int role)
{
	memset(ep, 0, sizeof(*ep));
	ep->qpn = id * 2 + (uint32_t)role + 1;
	ep->psn = 7;
	ep->lid = 3;
	ep->mtu = 1024;
}

static int send_endpoints(const struct fake *f, int fd,
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
static bool check_connect(const struct rperf_ctrl_msg *m, size_t n)
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

static int send_report(struct fake *f, int fd,
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

		if (s->kind == RPERF_GEN_LSG)
			fx_lsg(&rep, s->id, fx_hist(2000, 10, 1000));
		else
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
static void experiment(struct fake *f, int fd)
{
	struct rperf_ctrl_msg m = { 0 };
	struct rperf_proto_plan pl;
	char why[128];

	memset(&pl, 0, sizeof(pl));
	if (recv_type(f, fd, RPERF_CTRL_PLAN, &m))
		return;
	assert_int_equal(rperf_proto_plan_decode(&m, &pl, why, sizeof(why)), 0);
	rperf_ctrl_msg_release(&m);
	f->planned = true;
	f->plan_hosts = pl.nhosts;
	if (pl.nhosts)
		snprintf(f->plan_addr, sizeof(f->plan_addr), "%s",
			 pl.hosts[0].addr);
	if (f->mode == FAKE_SILENT_AFTER_PLAN) {
		/* never answers; the controller gives up and sends ERROR */
		(void)rperf_ctrl_recv(fd, io_ms, &m);
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
	rperf_ctrl_msg_release(&m);
	if (f->mode == FAKE_DIE_AFTER_GO)
		goto plan_fini; /* the socket closes: EOF at the controller */
	if (f->mode == FAKE_GARBAGE) {
		static const char junk[16] = "GARBAGE-GARBAGE";

		(void)!write(fd, junk, sizeof(junk));
		(void)rperf_ctrl_recv(fd, io_ms, &m); /* until closed */
		rperf_ctrl_msg_release(&m);
		goto plan_fini;
	}
	if (f->mode != FAKE_NO_FINISH) {
		usleep(250000);
		if (pl.nsources &&
		    send_msg(fd, RPERF_CTRL_FINISHED, json_object()))
			goto plan_fini;
	}
	if (recv_type(f, fd, RPERF_CTRL_STOP, &m))
		goto plan_fini;
	rperf_ctrl_msg_release(&m);
	if (send_report(f, fd, &pl) || recv_type(f, fd, RPERF_CTRL_BYE, &m))
		goto plan_fini;
	rperf_ctrl_msg_release(&m);
	send_msg(fd, RPERF_CTRL_BYE, json_object());
plan_fini:
	rperf_proto_plan_fini(&pl);
}

static void *fake_main(void *arg)
{
	struct fake *f = arg;
	int fd = -1;

	if (rperf_ctrl_accept(f->lfd, io_ms, &fd, NULL, 0)) {
		snprintf(f->fail, sizeof(f->fail), "no controller");
		return NULL;
	}
	if (handshake(f, fd) == 0)
		experiment(f, fd);
	close(fd);
	return NULL;
}

static void fake_start(struct fake *f, struct rperf_job_host *h)
{
	assert_int_equal(rperf_ctrl_listen("127.0.0.1", 0, &f->lfd), 0);
	assert_int_equal(rperf_ctrl_local_port(f->lfd, &f->port), 0);
	h->control_port = f->port;
	f->name = h->name;
	assert_int_equal(pthread_create(&f->t, NULL, fake_main, f), 0);
}

static void fake_join(struct fake *f)
{
	pthread_join(f->t, NULL);
	close(f->lfd);
}

/* h1: LSG lat -> h3; h2: BSG bulk -> h3; h3 the destination. */
static struct rperf_job *job3(void)
{
	struct rperf_job *j = fx_job(3);

	fx_inst(j, RPERF_GEN_LSG, "lat", "h1", "h3", 0, 0);
	fx_inst(j, RPERF_GEN_BSG, "bulk", "h2", "h3", 1, 0);
	return j;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static volatile sig_atomic_t stop_flag;

static void *stopper(void *arg)
{
	(void)arg;
	usleep(300000);
	stop_flag = 1;
	return NULL;
}

static struct rperf_run_results *run(struct rperf_job *j, struct fake *f,
				     const char *key, double *secs)
{
	struct rperf_run_opts o = { .start_in_ns = 20 * MS,
				    .margin_ns = 200 * MS };
	struct rperf_run_results *r = NULL;
	char err[256] = "";
	double t0;

	o.key = (const uint8_t *)key;
	o.keylen = key ? strlen(key) : 0;
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

static void whole_flow(void **state)
{
	struct rperf_job *j = job3();
	struct fake f[3] = { 0 };
	struct rperf_run_results *r;
	double secs;

	(void)state;
	r = run(j, f, NULL, &secs);
	for (int i = 0; i < 3; i++) {
		assert_string_equal(f[i].fail, "");
		assert_true(f[i].peers_ok);
	}
	assert_false(r->aborted);
	assert_int_equal(rperf_run_results_nfailed(r), 0);
	assert_int_equal(r->inst[0].status, RPERF_RUN_ST_OK);
	assert_int_equal(r->inst[1].status, RPERF_RUN_ST_OK);
	assert_int_equal(rperf_hist_count(r->inst[0].rtt), 1000);
	assert_int_equal(rperf_hist_min(r->inst[0].rtt), 2000);
	assert_float_equal(r->inst[1].gbps, 10.0, 1e-9);
	assert_float_equal(r->inst[1].receiver_gbps, 8.0, 1e-9);
	assert_true(r->inst[0].have_sink);
	assert_string_equal(r->hosts[0].link_layer, "infiniband");
	assert_non_null(r->hosts[0].clock);
	assert_true(secs < 2.0);
	rperf_run_results_free(r);
	fx_job_free(j);
}

/* h2 dies right after GO: its host fails, the others are reported. */
static void agent_dies(void **state)
{
	struct rperf_job *j = job3();
	struct fake f[3] = { 0 };
	struct rperf_run_results *r;
	double secs;

	(void)state;
	f[1].mode = FAKE_DIE_AFTER_GO;
	r = run(j, f, NULL, &secs);
	assert_false(r->aborted);
	assert_int_equal(rperf_run_results_nfailed(r), 1);
	assert_true(r->hosts[1].failed);
	assert_non_null(strstr(r->hosts[1].why, "connection closed"));
	assert_int_equal(r->inst[0].status, RPERF_RUN_ST_OK);
	assert_int_equal(rperf_hist_count(r->inst[0].rtt), 1000);
	assert_int_equal(r->inst[1].status, RPERF_RUN_ST_FAILED);
	assert_true(r->inst[1].have_sink); /* h3 still counted what came */
	assert_true(secs < 2.0 * (double)j->timeout_ns / 1e9);
	rperf_run_results_free(r);
	fx_job_free(j);
}

static void wrong_key(void **state)
{
	struct rperf_job *j = job3();
	struct fake f[3] = { 0 };
	struct rperf_run_results *r;
	double secs;

	(void)state;
	f[0].key = f[1].key = f[2].key = "right";
	r = run(j, f, "wrong", &secs);
	assert_true(r->aborted);
	assert_true(rperf_run_results_nfailed(r) >= 1);
	assert_non_null(strstr(r->abort_why, "wrong key"));
	for (int i = 0; i < 3; i++)
		assert_false(f[i].planned);
	rperf_run_results_free(r);
	fx_job_free(j);
}

static void right_key(void **state)
{
	struct rperf_job *j = job3();
	struct fake f[3] = { 0 };
	struct rperf_run_results *r;
	double secs;

	(void)state;
	f[0].key = f[1].key = f[2].key = "right";
	r = run(j, f, "right", &secs);
	assert_false(r->aborted);
	assert_int_equal(rperf_run_results_nfailed(r), 0);
	rperf_run_results_free(r);
	fx_job_free(j);
}

/* An agent that stops answering during setup: aborted within timeout, the
 * others told (ERROR) and nothing measured. */
static void silent_agent(void **state)
{
	struct rperf_job *j = job3();
	struct fake f[3] = { 0 };
	struct rperf_run_results *r;
	double secs;

	(void)state;
	j->timeout_ns = 500 * MS;
	f[2].mode = FAKE_SILENT_AFTER_PLAN;
	r = run(j, f, NULL, &secs);
	assert_true(r->aborted);
	assert_true(r->hosts[2].failed);
	assert_non_null(strstr(r->hosts[2].why, "no ENDPOINTS within"));
	assert_non_null(strstr(r->abort_why, "h3"));
	assert_true(secs < 1.5);
	rperf_run_results_free(r);
	fx_job_free(j);
}

static void not_running(void **state)
{
	struct rperf_job *j = job3();
	struct rperf_run_results *r = NULL;
	struct rperf_run_opts o = { 0 };
	char err[256];
	int lfd;
	uint16_t port;
	double t0;

	(void)state;
	j->timeout_ns = 300 * MS;
	/* a port nobody listens on */
	assert_int_equal(rperf_ctrl_listen("127.0.0.1", 0, &lfd), 0);
	assert_int_equal(rperf_ctrl_local_port(lfd, &port), 0);
	close(lfd);
	for (int i = 0; i < 3; i++)
		j->hosts[i].control_port = port;
	t0 = now_s();
	assert_int_equal(rperf_run_execute(j, &o, NULL, &r, err, sizeof(err)),
			 0);
	assert_true(now_s() - t0 < 1.0);
	assert_true(r->aborted);
	assert_int_equal(rperf_run_results_nfailed(r), 3);
	assert_non_null(strstr(r->hosts[0].why, "refused"));
	rperf_run_results_free(r);
	fx_job_free(j);
}

/* SIGINT mid-run: everyone stopped, every REPORT gathered, at once. */
static void interrupted(void **state)
{
	struct rperf_job *j = job3();
	struct fake f[3] = { 0 };
	struct rperf_run_results *r;
	pthread_t t;
	double secs;

	(void)state;
	j->inst[0].duration_ns = j->inst[1].duration_ns = 30000 * MS;
	for (int i = 0; i < 3; i++)
		f[i].mode = FAKE_NO_FINISH;
	stop_flag = 0;
	assert_int_equal(pthread_create(&t, NULL, stopper, NULL), 0);
	r = run(j, f, NULL, &secs);
	pthread_join(t, NULL);
	stop_flag = 0;
	assert_true(r->interrupted);
	assert_false(r->aborted);
	assert_int_equal(rperf_run_results_nfailed(r), 0);
	assert_int_equal(r->inst[0].status, RPERF_RUN_ST_OK);
	assert_int_equal(r->inst[1].status, RPERF_RUN_ST_OK);
	assert_true(secs < 1.5);
	rperf_run_results_free(r);
	fx_job_free(j);
}

/* Hostile agents: h2 names an instance of h1 in its REPORT, or sends
 * garbage mid-run. Each fails alone; the others' results stand. */
static void hostile_agent(void **state)
{
	static const enum fake_mode modes[] = { FAKE_BAD_REPORT, FAKE_GARBAGE };
	static const char *const why[] = { "bad REPORT", "malformed" };

	(void)state;
	for (size_t k = 0; k < 2; k++) {
		struct rperf_job *j = job3();
		struct fake f[3] = { 0 };
		struct rperf_run_results *r;
		double secs;

		f[1].mode = modes[k];
		r = run(j, f, NULL, &secs);
		assert_false(r->aborted);
		assert_int_equal(rperf_run_results_nfailed(r), 1);
		assert_true(r->hosts[1].failed);
		if (!strstr(r->hosts[1].why, why[k]))
			fail_msg("h2 failed for '%s', expected '%s'",
				 r->hosts[1].why, why[k]);
		assert_int_equal(r->inst[0].status, RPERF_RUN_ST_OK);
		assert_int_equal(rperf_hist_count(r->inst[0].rtt), 1000);
		assert_int_equal(r->inst[1].status, RPERF_RUN_ST_FAILED);
		assert_string_equal(r->cls[0].name, "SL 0"); /* infiniband */
		rperf_run_results_free(r);
		fx_job_free(j);
	}
}

/* A PLAN carries the addresses of its host and of the other ends. An
 * agent whose RoCE ENDPOINTS name a GID that is not its address is failed:
 * the controller relays no third party's endpoint (the others get ERROR,
 * nothing was measured). */
static void third_party_endpoints(void **state)
{
	struct rperf_job *j = job3();
	struct fake f[3] = { 0 };
	struct rperf_run_results *r;
	double secs;

	(void)state;
	r = run(j, f, NULL, &secs);
	assert_int_equal(f[0].plan_hosts, 2); /* h1 and h3 */
	assert_int_equal(f[2].plan_hosts, 3); /* h3, h1, h2 */
	assert_string_equal(f[0].plan_addr, "127.0.0.1");
	assert_false(r->aborted);
	rperf_run_results_free(r);
	memset(f, 0, sizeof(f));
	f[1].mode = FAKE_THIRD_PARTY;
	r = run(j, f, NULL, &secs);
	assert_true(r->aborted);
	assert_true(r->hosts[1].failed);
	if (!strstr(r->hosts[1].why, "GID 10.9.9.9, not this agent's address "
				     "127.0.0.1: not relayed"))
		fail_msg("h2 failed for '%s'", r->hosts[1].why);
	assert_false(f[0].peers_ok); /* no CONNECT reached the others */
	assert_false(f[2].peers_ok);
	rperf_run_results_free(r);
	fx_job_free(j);
}

/* A fake agent's REFUSE with escape codes and CR/LF reaches the terminal
 * of `rperf run` (the binary, RPERF_BIN) cleaned: no ESC, no CR, no line
 * of its own. */
static void escapes_stripped(void **state)
{
	const char *bin = getenv("RPERF_BIN");
	struct fake f[2] = { { .mode = FAKE_ESCAPES },
			     { .mode = FAKE_ESCAPES } };
	struct rperf_job_host h[2] = { { .name = "h1" }, { .name = "h2" } };
	char path[] = "/tmp/rperf-escXXXXXX", cmd[512], out[8192];
	size_t n;
	FILE *p;
	int fd;

	(void)state;
	if (!bin)
		skip();
	fake_start(&f[0], &h[0]);
	fake_start(&f[1], &h[1]);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	dprintf(fd,
		"[global]\ntimeout = 2s\n[host h1]\ncontrol = 127.0.0.1:%u\n"
		"[host h2]\ncontrol = 127.0.0.1:%u\n[lsg l]\nfrom = h1\nto = h2\n",
		f[0].port, f[1].port);
	close(fd);
	snprintf(cmd, sizeof(cmd), "%s run %s 2>&1", bin, path);
	p = popen(cmd, "r");
	assert_non_null(p);
	n = fread(out, 1, sizeof(out) - 1, p);
	out[n] = '\0';
	assert_int_equal(WEXITSTATUS(pclose(p)), 3);
	fake_join(&f[0]);
	fake_join(&f[1]);
	unlink(path);
	if (memchr(out, 0x1b, n) || memchr(out, '\r', n) ||
	    strstr(out, "\xc2\x9b") || strstr(out, "\nrperf run: all hosts ok"))
		fail_msg("raw peer bytes reached the terminal: %s", out);
	if (!strstr(out, "refused: ?[2J?]0;owned?bad??rperf run: all hosts ok ??31m"))
		fail_msg("the refusal is not shown, cleaned: %s", out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(whole_flow),
		cmocka_unit_test(agent_dies),
		cmocka_unit_test(wrong_key),
		cmocka_unit_test(right_key),
		cmocka_unit_test(silent_agent),
		cmocka_unit_test(not_running),
		cmocka_unit_test(interrupted),
		cmocka_unit_test(hostile_agent),
		cmocka_unit_test(third_party_endpoints),
		cmocka_unit_test(escapes_stripped),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
