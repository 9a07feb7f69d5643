/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rperf lat (no HOST): serve one client (or, with --persistent, one after
 * another). The server takes every run parameter from the client; during the
 * run nothing of it is on the critical path: the NIC ACKs the SENDs and the
 * server refills its receive queue from completion events.
 */
#include "lat/lat.h"

#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "lat/lat_conn.h"
#include "lat/lat_ctrl.h"

struct server {
	const struct rperf_cli_config *cfg;
	volatile sig_atomic_t *stop;
	struct rperf_lat_conn conn;
	struct rperf_ctrl_session s;
	struct rperf_ctrl_io io;
	char peer[96];
	uint64_t received, bytes;
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
					.max_size = RPERF_SERVER_MAX_SIZE,
					.nfeatures = 1,
					.features = { "rperf" } };
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
	if (strcmp(h.command, "lat")) {
		snprintf(
			why, sizeof(why),
			"command '%.32s' is a feature this server lacks (it serves: lat)",
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
	char why[RPERF_CTRL_REASON_LEN], err[256];
	struct rperf_lat_params p;
	struct rperf_endpoint peer;
	struct rperf_ctrl_msg m;
	const json_t *obj;
	int rc;

	rc = rperf_lat_expect(&sv->s, &sv->io, RPERF_CTRL_PARAMS, &m, why,
			      sizeof(why));
	if (rc)
		return note(sv, RPERF_EXIT_RUNTIME, "%s", why);
	rc = rperf_ctrl_params_decode(&m, &obj);
	if (!rc)
		rc = rperf_lat_params_decode(obj, RPERF_SERVER_MAX_SIZE, &p,
					     why, sizeof(why));
	rperf_ctrl_msg_release(&m);
	if (rc)
		return refuse(sv, why);
	rc = rperf_lat_conn_server(&sv->conn, sv->cfg, &p, err, sizeof(err));
	if (rc)
		return refuse(sv, err);
	rc = rperf_lat_send_endpoint(&sv->s, &sv->io, sv->conn.dev,
				     sv->conn.wire, sv->conn.vcfg.mtu);
	if (!rc)
		rc = rperf_lat_expect(&sv->s, &sv->io, RPERF_CTRL_ENDPOINT, &m,
				      why, sizeof(why));
	if (rc)
		return note(sv, RPERF_EXIT_RUNTIME, "endpoint exchange: %s",
			    rc == EPROTO ? why : strerror(rc));
	rc = rperf_lat_endpoint_from(&m, &peer);
	rperf_ctrl_msg_release(&m);
	if (!rc)
		rc = rperf_qp_connect(sv->conn.wire, sv->conn.dev,
				      &sv->conn.vcfg, &peer, err, sizeof(err));
	if (!rc)
		rc = rperf_ctrl_session_send(&sv->s, &sv->io, RPERF_CTRL_READY,
					     NULL);
	return rc ? note(sv, RPERF_EXIT_RUNTIME, "connecting the QP: %s",
			 err[0] ? err : strerror(rc)) :
		    0;
}

/* Take receive completions and post as many receives again. */
static int drain(struct server *sv)
{
	struct ibv_wc wc[32];
	int n;

	while ((n = ibv_poll_cq(sv->conn.wire->recv_cq, 32, wc)) > 0) {
		for (int i = 0; i < n; i++) {
			if (wc[i].status != IBV_WC_SUCCESS)
				return note(sv, RPERF_EXIT_RUNTIME,
					    "receive completion: %s",
					    ibv_wc_status_str(wc[i].status));
			sv->bytes += wc[i].byte_len;
		}
		sv->received += (uint64_t)n;
		if (rperf_post_recvs(sv->conn.wire, &sv->conn.recv_buf,
				     sv->conn.max_size, (unsigned int)n))
			return note(sv, RPERF_EXIT_RUNTIME,
				    "reposting receives failed");
	}
	return n < 0 ? note(sv, RPERF_EXIT_RUNTIME, "ibv_poll_cq failed") : 0;
}

static int on_event(struct server *sv)
{
	struct ibv_cq *cq;
	void *ctx;

	if (ibv_get_cq_event(sv->conn.wire->channel, &cq, &ctx))
		return note(sv, RPERF_EXIT_RUNTIME, "ibv_get_cq_event failed");
	ibv_ack_cq_events(cq, 1);
	if (ibv_req_notify_cq(cq, 0))
		return note(sv, RPERF_EXIT_RUNTIME, "ibv_req_notify_cq failed");
	return drain(sv);
}

/* START in; refill from events until DONE; RESULT out; BYE both ways. */
static int serve_run(struct server *sv)
{
	struct pollfd pf[2] = { { .fd = sv->conn.wire->channel->fd,
				  .events = POLLIN },
				{ .fd = sv->io.fd, .events = POLLIN } };
	char why[RPERF_CTRL_REASON_LEN];
	struct rperf_ctrl_msg m;
	uint64_t samples = 0;
	json_t *res;
	int rc;

	rc = rperf_lat_expect(&sv->s, &sv->io, RPERF_CTRL_START, &m, why,
			      sizeof(why));
	if (rc)
		return note(sv, RPERF_EXIT_RUNTIME, "%s", why);
	rperf_ctrl_msg_release(&m);
	for (;;) {
		if (*sv->stop)
			return note(sv, RPERF_EXIT_RUNTIME, "interrupted");
		if (poll(pf, 2, 200) < 0 && errno != EINTR)
			return note(sv, RPERF_EXIT_RUNTIME, "poll: %s",
				    strerror(errno));
		if ((pf[0].revents & POLLIN) && (rc = on_event(sv)))
			return rc;
		if (pf[1].revents)
			break;
	}
	rc = rperf_lat_expect(&sv->s, &sv->io, RPERF_CTRL_DONE, &m, why,
			      sizeof(why));
	if (rc)
		return note(sv, RPERF_EXIT_RUNTIME,
			    "went away mid-run after %llu messages (%s)",
			    (unsigned long long)sv->received, why);
	rperf_ctrl_done_decode(&m, &samples, NULL);
	rperf_ctrl_msg_release(&m);
	for (int i = 0; i < 100 && sv->received < samples; i++) {
		if ((rc = drain(sv)))
			return rc;
		usleep(10000); /* the last completions may trail the ACKs */
	}
	res = json_pack("{s:I, s:I}", "received", (json_int_t)sv->received,
			"bytes", (json_int_t)sv->bytes);
	rc = res ? rperf_ctrl_session_send(&sv->s, &sv->io, RPERF_CTRL_RESULT,
					   res) :
		   ENOMEM;
	json_decref(res);
	if (!rc && !rperf_lat_expect(&sv->s, &sv->io, RPERF_CTRL_BYE, &m, why,
				     sizeof(why))) {
		rperf_ctrl_msg_release(&m);
		rperf_ctrl_session_send(&sv->s, &sv->io, RPERF_CTRL_BYE, NULL);
	}
	fprintf(stderr, "rperf: client %s: %llu SENDs received (%llu B)\n",
		sv->peer, (unsigned long long)sv->received,
		(unsigned long long)sv->bytes);
	return RPERF_EXIT_OK;
}

static int serve_one(struct server *sv, int fd)
{
	int rc;

	sv->io =
		(struct rperf_ctrl_io){ .fd = fd,
					.timeout_ms = RPERF_LAT_CTRL_TIMEOUT_MS,
					.stop = sv->stop };
	sv->received = sv->bytes = 0;
	rperf_ctrl_session_init(&sv->s, RPERF_CTRL_SERVER);
	rc = greet(sv);
	if (!rc)
		rc = take_params(sv);
	if (!rc)
		rc = serve_run(sv);
	rperf_lat_conn_close(&sv->conn);
	close(fd);
	return rc;
}

int rperf_lat_server(const struct rperf_cli_config *cfg,
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
	printf("rperf lat server: listening on port %lld\n",
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
