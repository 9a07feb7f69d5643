/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rperf bw (no HOST): serve one client (or, with --persistent, one after
 * another). Every run parameter comes from the client. The server is the
 * sink: it counts what arrives (SENDs; WRITE_WITH_IMM, whose immediate
 * carries how many WRITEs its list held) and keeps its receive queues full,
 * busy polling or (-e) from completion events. Plain WRITEs it cannot see.
 */
#include "bw/bw.h"

#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include <rperf/clock.h>

#include "bw/bw_conn.h"
#include "cli/cli.h"
#include "lat/lat.h"
#include "lat/lat_ctrl.h"

#define SPIN_CHECK 256 /* empty polls between control-socket checks */

struct server {
	const struct rperf_cli_config *cfg;
	volatile sig_atomic_t *stop;
	struct rperf_bw_conn conn;
	struct rperf_bw_params p;
	struct rperf_ctrl_session s;
	struct rperf_ctrl_io io;
	char peer[96];
	uint64_t received, bytes, first_ns, last_ns;
	struct pollfd *pf; /* [nqp + 1]: channels, then the control socket */
};

static int note(struct server *sv, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int note(struct server *sv, int code, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "rperf: client %s: ", sv->peer);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return code;
}

static int refuse(struct server *sv, const char *why)
{
	rperf_lat_send_reason(&sv->s, &sv->io, RPERF_CTRL_REFUSE, why);
	return note(sv, RPERF_EXIT_USAGE, "refused: %s", why);
}

static int greet(struct server *sv)
{
	struct rperf_ctrl_welcome w = { .version = RPERF_CTRL_VERSION,
					.max_size = RPERF_BW_SERVER_MAX_SIZE };
	struct rperf_ctrl_hello h;
	struct rperf_ctrl_msg m;
	char why[RPERF_CTRL_REASON_LEN];
	json_t *obj = NULL;
	int rc;

	rc = rperf_ctrl_session_recv(&sv->s, &sv->io, &m);
	if (rc == EPROTONOSUPPORT) {
		snprintf(why, sizeof(why),
			 "protocol version %u, this server speaks %d",
			 (unsigned)m.version, RPERF_CTRL_VERSION);
		return refuse(sv, why);
	}
	if (rc)
		return note(sv, RPERF_EXIT_RUNTIME, "waiting for HELLO: %s",
			    strerror(rc));
	rc = rperf_ctrl_hello_decode(&m, &h);
	rperf_ctrl_msg_release(&m);
	if (rc)
		return refuse(sv, "malformed HELLO");
	if (strcmp(h.command, "bw")) {
		snprintf(
			why, sizeof(why),
			"command '%.32s' is a feature this server lacks (it serves: bw)",
			h.command);
		return refuse(sv, why);
	}
	rc = rperf_ctrl_welcome_encode(&w, &obj);
	if (!rc)
		rc = rperf_ctrl_session_send(&sv->s, &sv->io,
					     RPERF_CTRL_WELCOME, obj);
	json_decref(obj);
	return rc ? note(sv, RPERF_EXIT_RUNTIME, "sending WELCOME: %s",
			 strerror(rc)) :
		    0;
}

static int take_params(struct server *sv)
{
	char why[RPERF_CTRL_REASON_LEN], err[256] = "";
	struct rperf_bw_peer peer = { 0 };
	struct rperf_ctrl_msg m;
	const json_t *obj;
	int rc;

	rc = rperf_lat_expect(&sv->s, &sv->io, RPERF_CTRL_PARAMS, &m, why,
			      sizeof(why));
	if (rc)
		return note(sv, RPERF_EXIT_RUNTIME, "%s", why);
	rc = rperf_ctrl_params_decode(&m, &obj);
	if (!rc)
		rc = rperf_bw_params_decode(obj, RPERF_BW_SERVER_MAX_SIZE,
					    &sv->p, why, sizeof(why));
	rperf_ctrl_msg_release(&m);
	if (rc)
		return refuse(sv, rc == EPROTO ? "malformed PARAMS" : why);
	rc = rperf_bw_conn_server(&sv->conn, sv->cfg, &sv->p, err, sizeof(err));
	if (rc)
		return refuse(sv, err);
	rc = rperf_bw_send_endpoints(&sv->s, &sv->io, &sv->conn);
	if (!rc)
		rc = rperf_bw_recv_endpoints(&sv->s, &sv->io, &sv->conn, &peer,
					     why, sizeof(why));
	if (rc)
		return note(sv, RPERF_EXIT_RUNTIME, "endpoint exchange: %s",
			    rc == EPROTO || rc == EBADMSG ? why : strerror(rc));
	rc = rperf_bw_connect_all(&sv->conn, &peer, err, sizeof(err));
	rperf_bw_peer_free(&peer);
	if (!rc)
		rc = rperf_ctrl_session_send(&sv->s, &sv->io, RPERF_CTRL_READY,
					     NULL);
	return rc ? note(sv, RPERF_EXIT_RUNTIME, "connecting the QPs: %s",
			 err[0] ? err : strerror(rc)) :
		    0;
}

static void count(struct server *sv, const struct ibv_wc *wc)
{
	if (wc->opcode == IBV_WC_RECV_RDMA_WITH_IMM) {
		uint64_t k = ntohl(wc->imm_data);

		sv->received += k;
		sv->bytes += k * wc->byte_len;
	} else {
		sv->received++;
		sv->bytes += wc->byte_len;
	}
}

/* Take receive completions of every QP, post as many receives again. */
static int drain(struct server *sv, int *got)
{
	struct ibv_wc wc[32];
	int n;

	*got = 0;
	for (size_t q = 0; q < sv->conn.nqp; q++) {
		struct rperf_qp *qp = sv->conn.qp[q];

		while ((n = ibv_poll_cq(qp->recv_cq, 32, wc)) > 0) {
			for (int i = 0; i < n; i++) {
				if (wc[i].status != IBV_WC_SUCCESS)
					return note(sv, RPERF_EXIT_RUNTIME,
						    "receive completion: %s",
						    ibv_wc_status_str(
							    wc[i].status));
				count(sv, &wc[i]);
			}
			*got += n;
			if (rperf_post_recvs(qp, &sv->conn.buf,
					     sv->conn.max_size,
					     (unsigned int)n))
				return note(sv, RPERF_EXIT_RUNTIME,
					    "reposting receives failed");
		}
		if (n < 0)
			return note(sv, RPERF_EXIT_RUNTIME,
				    "ibv_poll_cq failed");
	}
	if (*got) {
		sv->last_ns = rperf_clock_posix_now();
		if (!sv->first_ns)
			sv->first_ns = sv->last_ns;
	}
	return 0;
}

static int on_events(struct server *sv)
{
	for (size_t q = 0; q < sv->conn.nqp; q++) {
		struct ibv_cq *cq;
		void *ctx;

		if (!(sv->pf[q].revents & POLLIN))
			continue;
		if (ibv_get_cq_event(sv->conn.qp[q]->channel, &cq, &ctx))
			return note(sv, RPERF_EXIT_RUNTIME,
				    "ibv_get_cq_event failed");
		ibv_ack_cq_events(cq, 1);
		if (ibv_req_notify_cq(cq, 0))
			return note(sv, RPERF_EXIT_RUNTIME,
				    "ibv_req_notify_cq failed");
	}
	return 0;
}

/* Until the control socket speaks (DONE): count, refill. */
static int sink(struct server *sv)
{
	size_t n = sv->conn.nqp;
	unsigned int idle = 0;
	int rc, got;

	for (;;) {
		if ((rc = drain(sv, &got)))
			return rc;
		if (got || (!sv->p.events && ++idle < SPIN_CHECK))
			continue;
		idle = 0;
		if (*sv->stop)
			return note(sv, RPERF_EXIT_RUNTIME, "interrupted");
		for (size_t i = 0; i <= n; i++)
			sv->pf[i].revents = 0;
		if (sv->p.events) {
			if (poll(sv->pf, (nfds_t)n + 1, 200) < 0 &&
			    errno != EINTR)
				return note(sv, RPERF_EXIT_RUNTIME, "poll: %s",
					    strerror(errno));
			if ((rc = on_events(sv)))
				return rc;
		} else if (poll(&sv->pf[n], 1, 0) < 0 && errno != EINTR) {
			return note(sv, RPERF_EXIT_RUNTIME, "poll: %s",
				    strerror(errno));
		}
		if (sv->pf[n].revents)
			return 0;
	}
}

static int send_result(struct server *sv, double cpu0)
{
	double secs = sv->last_ns > sv->first_ns ?
			      (double)(sv->last_ns - sv->first_ns) / 1e9 :
			      0;
	struct rusage ru;
	double cpu = 0;
	json_t *res;
	int rc;

	if (!getrusage(RUSAGE_SELF, &ru))
		cpu = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
		      (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
	res = json_pack("{s:I, s:I, s:f, s:f}", "received",
			(json_int_t)sv->received, "bytes",
			(json_int_t)sv->bytes, "seconds", secs, "cpu_seconds",
			cpu - cpu0 > 0 ? cpu - cpu0 : 0.0);
	rc = res ? rperf_ctrl_session_send(&sv->s, &sv->io, RPERF_CTRL_RESULT,
					   res) :
		   ENOMEM;
	json_decref(res);
	return rc;
}

static double cpu_now(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru))
		return 0;
	return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
	       (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

/* One round: sink until DONE, catch up with the sender, RESULT out. */
static int round_once(struct server *sv)
{
	char why[RPERF_CTRL_REASON_LEN];
	struct rperf_ctrl_msg m;
	uint64_t samples = 0;
	double cpu0 = cpu_now();
	int rc, got;

	sv->received = sv->bytes = sv->first_ns = sv->last_ns = 0;
	if ((rc = sink(sv)))
		return rc;
	rc = rperf_lat_expect(&sv->s, &sv->io, RPERF_CTRL_DONE, &m, why,
			      sizeof(why));
	if (rc)
		return note(sv, RPERF_EXIT_RUNTIME,
			    "went away mid-run after %llu messages (%s)",
			    (unsigned long long)sv->received, why);
	rperf_ctrl_done_decode(&m, &samples, NULL);
	rperf_ctrl_msg_release(&m);
	for (int i = 0; i < 200 && sv->conn.recvs && sv->received < samples;
	     i++) {
		if ((rc = drain(sv, &got)))
			return rc;
		if (!got)
			usleep(5000); /* the last completions may trail */
	}
	rc = send_result(sv, cpu0);
	fprintf(stderr, "rperf: client %s: %llu messages received (%llu B)\n",
		sv->peer, (unsigned long long)sv->received,
		(unsigned long long)sv->bytes);
	return rc ? note(sv, RPERF_EXIT_RUNTIME, "sending RESULT: %s",
			 strerror(rc)) :
		    0;
}

/* START in; rounds until BYE; BYE out. */
static int serve_run(struct server *sv)
{
	char why[RPERF_CTRL_REASON_LEN];
	struct rperf_ctrl_msg m;
	enum rperf_ctrl_type t;
	int rc;

	rc = rperf_lat_expect(&sv->s, &sv->io, RPERF_CTRL_START, &m, why,
			      sizeof(why));
	if (rc)
		return note(sv, RPERF_EXIT_RUNTIME, "%s", why);
	rperf_ctrl_msg_release(&m);
	for (;;) {
		if ((rc = round_once(sv)))
			return rc;
		rc = rperf_ctrl_session_recv(&sv->s, &sv->io, &m);
		if (rc)
			return note(sv, RPERF_EXIT_RUNTIME,
				    "waiting for START or BYE: %s",
				    rc == EPROTO ? "out of order" :
						   strerror(rc));
		t = m.type;
		rperf_ctrl_msg_release(&m);
		if (t == RPERF_CTRL_BYE)
			break;
		if (t != RPERF_CTRL_START)
			return note(sv, RPERF_EXIT_RUNTIME,
				    "the client ended the run: %s",
				    rperf_ctrl_type_name((int)t));
	}
	rperf_ctrl_session_send(&sv->s, &sv->io, RPERF_CTRL_BYE, NULL);
	return RPERF_EXIT_OK;
}

static int serve_one(struct server *sv, int fd)
{
	int rc;

	sv->io = (struct rperf_ctrl_io){ .fd = fd,
					 .timeout_ms = RPERF_BW_CTRL_TIMEOUT_MS,
					 .stop = sv->stop };
	rperf_ctrl_session_init(&sv->s, RPERF_CTRL_SERVER);
	rc = greet(sv);
	if (!rc)
		rc = take_params(sv);
	if (!rc) {
		sv->pf = calloc(sv->conn.nqp + 1, sizeof(*sv->pf));
		for (size_t i = 0; sv->pf && i < sv->conn.nqp; i++)
			sv->pf[i] = (struct pollfd){
				.fd = sv->conn.qp[i]->channel ?
					      sv->conn.qp[i]->channel->fd :
					      -1,
				.events = POLLIN
			};
		if (sv->pf)
			sv->pf[sv->conn.nqp] =
				(struct pollfd){ .fd = fd, .events = POLLIN };
		rc = sv->pf ? serve_run(sv) : RPERF_EXIT_INTERNAL;
	}
	free(sv->pf);
	sv->pf = NULL;
	rperf_bw_conn_close(&sv->conn);
	close(fd);
	return rc;
}

int rperf_bw_server(const struct rperf_cli_config *cfg,
		    volatile sig_atomic_t *stop)
{
	struct server sv = { .cfg = cfg, .stop = stop };
	int lfd, fd, rc;

	rc = rperf_lat_pin(cfg->cpu);
	if (rc) {
		fprintf(stderr,
			"rperf: --cpu: cannot pin to CPU %lld: %s; accepted: a CPU this process may run on\n",
			(long long)cfg->cpu, strerror(rc));
		return RPERF_EXIT_USAGE;
	}
	rc = rperf_ctrl_listen(cfg->bind, (uint16_t)cfg->tcp_port, &lfd);
	if (rc) {
		fprintf(stderr,
			"rperf: -p/--port: cannot listen on %s port %lld: %s; accepted: a free port and a local address\n",
			cfg->bind ? cfg->bind : "any address",
			(long long)cfg->tcp_port, strerror(rc));
		return RPERF_EXIT_RUNTIME;
	}
	printf("rperf bw server: listening on port %lld\n",
	       (long long)cfg->tcp_port);
	fflush(stdout);
	do {
		rc = rperf_ctrl_accept_ex(lfd, -1, stop, &fd, sv.peer,
					  sizeof(sv.peer));
		if (rc) {
			rc = *stop ? RPERF_EXIT_OK : RPERF_EXIT_RUNTIME;
			break;
		}
		rc = serve_one(&sv, fd);
	} while (cfg->persistent && !*stop);
	close(lfd);
	return rc;
}
