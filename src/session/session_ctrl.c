/* SPDX-License-Identifier: BSD-2-Clause */
#include "session/session_ctrl.h"

#include "config/config.h"
#include "engine/endpoint.h"
#include "session/session_err.h"

#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

int rperf_session_send_endpoint(struct rperf_ctrl_session *s,
				const struct rperf_ctrl_io *io,
				const struct rperf_dev *d,
				const struct rperf_qp *qp, int mtu,
				const struct rperf_buf *buf)
{
	struct rperf_ctrl_endpoint cep;
	json_t *obj = NULL;
	int rc;

	rperf_endpoint_to_wire(d, qp, mtu, buf, &cep);
	rc = rperf_ctrl_endpoint_encode(&cep, &obj);
	if (!rc)
		rc = rperf_ctrl_session_send(s, io, RPERF_CTRL_ENDPOINT, obj);
	json_decref(obj);
	return rc;
}

int rperf_session_endpoint_from(const struct rperf_ctrl_msg *m,
				struct rperf_endpoint *ep,
				struct rperf_ctrl_endpoint *raw)
{
	struct rperf_ctrl_endpoint cep;
	int rc = rperf_ctrl_endpoint_decode(m, &cep);

	if (rc)
		return rc;
	if (raw)
		*raw = cep;
	rperf_endpoint_from_wire(&cep, ep);
	return 0;
}

int rperf_session_expect(struct rperf_ctrl_session *s,
			 const struct rperf_ctrl_io *io,
			 enum rperf_ctrl_type want, struct rperf_ctrl_msg *out,
			 char *why, size_t whylen)
{
	int rc = rperf_ctrl_session_recv(s, io, out);

	if (rc) {
		snprintf(why, whylen, "waiting for %s: %s",
			 rperf_ctrl_type_name(want), strerror(rc));
		return rc;
	}
	if (out->type == want)
		return 0;
	if (out->type == RPERF_CTRL_REFUSE || out->type == RPERF_CTRL_ERROR) {
		if (rperf_ctrl_reason_decode(out, why, whylen))
			snprintf(why, whylen, "(no reason given)");
	} else {
		snprintf(why, whylen, "expected %s, got %s",
			 rperf_ctrl_type_name(want),
			 rperf_ctrl_type_name(out->type));
	}
	rperf_ctrl_msg_release(out);
	return EPROTO;
}

void rperf_session_send_reason(struct rperf_ctrl_session *s,
			       const struct rperf_ctrl_io *io,
			       enum rperf_ctrl_type t, const char *reason)
{
	json_t *obj = NULL;

	if (!rperf_ctrl_reason_encode(reason, &obj))
		(void)rperf_ctrl_session_send(s, io, t, obj);
	json_decref(obj);
}

/* perftest's server answers a HELLO with its version string: name it. */
static int not_perftest(const struct rperf_ctrl_io *io, const char *command,
			char *why, size_t whylen)
{
	uint8_t b[RPERF_CTRL_HDR_LEN];
	char what[128];

	if (rperf_ctrl_peek(io, b, sizeof(b)) ||
	    !rperf_ctrl_perftest_peer(b, sizeof(b), what, sizeof(what)))
		return 0; /* the usual receive says what went wrong */
	snprintf(
		why, whylen,
		"%s: this port has a perftest server; use perftest's client for it, or start 'rperf %s' there",
		what, command);
	return EPROTO;
}

int rperf_session_hello(struct rperf_ctrl_session *s,
			const struct rperf_ctrl_io *io, const char *command,
			char *why, size_t whylen)
{
	struct rperf_ctrl_hello h = { .version = RPERF_CTRL_VERSION };
	struct rperf_ctrl_welcome w;
	struct rperf_ctrl_msg m;
	json_t *obj = NULL;
	int rc;

	snprintf(h.command, sizeof(h.command), "%s", command);
	rc = rperf_ctrl_hello_encode(&h, &obj);
	if (!rc)
		rc = rperf_ctrl_session_send(s, io, RPERF_CTRL_HELLO, obj);
	json_decref(obj);
	if (rc) {
		snprintf(why, whylen, "sending HELLO: %s", strerror(rc));
		return rc;
	}
	rc = not_perftest(io, command, why, whylen);
	if (!rc)
		rc = rperf_session_expect(s, io, RPERF_CTRL_WELCOME, &m, why,
					  whylen);
	if (rc)
		return rc;
	rc = rperf_ctrl_welcome_decode(&m, &w);
	rperf_ctrl_msg_release(&m);
	if (rc)
		snprintf(why, whylen, "malformed WELCOME");
	return rc ? EBADMSG : 0;
}

static int refuse(struct rperf_ctrl_session *s, const struct rperf_ctrl_io *io,
		  const char *why)
{
	rperf_session_send_reason(s, io, RPERF_CTRL_REFUSE, why);
	return EPROTO;
}

int rperf_session_greet_hello(struct rperf_ctrl_session *s,
			      const struct rperf_ctrl_io *io,
			      const struct rperf_ctrl_msg *m,
			      const char *command, uint64_t max_size, char *why,
			      size_t whylen)
{
	struct rperf_ctrl_welcome w = { .version = RPERF_CTRL_VERSION,
					.max_size = max_size };
	struct rperf_ctrl_hello h;
	json_t *obj = NULL;
	int rc;

	if (rperf_ctrl_hello_decode(m, &h)) {
		snprintf(why, whylen, "malformed HELLO");
		return refuse(s, io, why);
	}
	if (strcmp(h.command, command)) {
		snprintf(
			why, whylen,
			"command '%.32s' is a feature this server lacks (it serves: %s)",
			h.command, command);
		return refuse(s, io, why);
	}
	rc = rperf_ctrl_welcome_encode(&w, &obj);
	if (!rc)
		rc = rperf_ctrl_session_send(s, io, RPERF_CTRL_WELCOME, obj);
	json_decref(obj);
	if (rc)
		snprintf(why, whylen, "sending WELCOME: %s", strerror(rc));
	return rc;
}

int rperf_session_greet(struct rperf_ctrl_session *s,
			const struct rperf_ctrl_io *io, const char *command,
			uint64_t max_size, char *why, size_t whylen)
{
	struct rperf_ctrl_msg m;
	int rc;

	rc = rperf_ctrl_session_recv(s, io, &m);
	if (rc == EPROTONOSUPPORT) {
		snprintf(why, whylen,
			 "protocol version %u, this server speaks %d",
			 (unsigned)m.version, RPERF_CTRL_VERSION);
		return refuse(s, io, why);
	}
	if (rc) {
		snprintf(why, whylen, "waiting for HELLO: %s", strerror(rc));
		return rc;
	}
	rc = rperf_session_greet_hello(s, io, &m, command, max_size, why,
				       whylen);
	rperf_ctrl_msg_release(&m);
	return rc;
}

void rperf_session_bye(struct rperf_ctrl_session *s,
		       const struct rperf_ctrl_io *io)
{
	char why[RPERF_CTRL_REASON_LEN];
	struct rperf_ctrl_msg m;

	if (!rperf_ctrl_session_send(s, io, RPERF_CTRL_BYE, NULL) &&
	    !rperf_session_expect(s, io, RPERF_CTRL_BYE, &m, why, sizeof(why)))
		rperf_ctrl_msg_release(&m);
}

int rperf_session_connect(const struct rperf_cli_config *cfg,
			  const char *source, volatile sig_atomic_t *stop,
			  const char *command, int *fd, char *why,
			  size_t whylen)
{
	int rc = rperf_ctrl_connect_ex(cfg->host, (uint16_t)cfg->tcp_port,
				       source, cfg->connect_timeout_ns, stop,
				       fd);

	if (rc == ENOENT) {
		struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *res;
		int gai = getaddrinfo(cfg->host, NULL, &hints, &res);

		if (!gai) {
			freeaddrinfo(res);
			snprintf(
				why, whylen,
				"--bind %s: cannot resolve it; accepted: a local address",
				cfg->bind ? cfg->bind : "");
		} else {
			snprintf(
				why, whylen,
				"cannot resolve %s: %s; accepted: a host name or address",
				cfg->host, gai_strerror(gai));
		}
	} else if (rc)
		snprintf(
			why, whylen,
			"%s port %lld: no rperf server answered within %.3g s (%s); start 'rperf %s' there first",
			cfg->host, (long long)cfg->tcp_port,
			(double)cfg->connect_timeout_ns / 1e9, strerror(rc),
			command);
	return rc;
}

bool rperf_session_peer_gone(int fd)
{
	char c;
	ssize_t n = recv(fd, &c, 1, MSG_PEEK | MSG_DONTWAIT);

	return n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK &&
			  errno != EINTR);
}

int rperf_session_refuse_late(struct rperf_ctrl_session *s,
			      const struct rperf_ctrl_io *io, const char *why,
			      struct rperf_err *e)
{
	rperf_session_send_reason(s, io, RPERF_CTRL_REFUSE, why);
	return rperf_err_set(e, RPERF_ERRC_USAGE, EACCES, "refused: %s", why);
}
