/* SPDX-License-Identifier: BSD-2-Clause */
/* Controller side of the agent connections: parallel dial, framed reads. */
#include "run/run_conn.h"
#include "run/run.h"
#include "util/mono.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

void run_conn_init(struct run_conn *c)
{
	memset(c, 0, sizeof(*c));
	c->fd = -1;
}

void run_conn_close(struct run_conn *c)
{
	rperf_ctrl_tls_free(c->tls);
	if (c->fd >= 0)
		close(c->fd);
	free(c->frame);
	run_conn_init(c);
}

/* The header is complete: check it and size the frame. */
static int got_header(struct run_conn *c)
{
	struct rperf_ctrl_hdr h;
	uint8_t *p;
	int rc = rperf_ctrl_hdr_parse(c->frame, &h);

	if (rc == EBADMSG &&
	    rperf_ctrl_perftest_peer(c->frame, c->got, c->perftest,
				     sizeof(c->perftest)))
		return EPROTONOSUPPORT;
	if (rc)
		return rc;
	c->need = RPERF_CTRL_HDR_LEN + h.length;
	p = realloc(c->frame, c->need);
	if (!p)
		return ENOMEM;
	c->frame = p;
	return 0;
}

struct rperf_ctrl_io run_conn_io(const struct run_conn *c, int timeout_ms)
{
	return (struct rperf_ctrl_io){ .fd = c->fd,
				       .timeout_ms = timeout_ms,
				       .tls = c->tls };
}

int run_conn_read(struct run_conn *c, struct rperf_ctrl_msg *out, bool *have)
{
	const struct rperf_ctrl_io io = run_conn_io(c, 0);
	size_t r;
	int rc;

	*have = false;
	if (!c->frame) {
		c->frame = malloc(RPERF_CTRL_HDR_LEN);
		if (!c->frame)
			return ENOMEM;
		c->need = RPERF_CTRL_HDR_LEN;
		c->got = 0;
	}
	rc = rperf_ctrl_read_some(&io, c->frame + c->got, c->need - c->got, &r);
	if (rc == EPIPE)
		return c->got ? ECONNRESET : EPIPE;
	if (rc || !r)
		return rc;
	c->got += r;
	if (c->got < c->need)
		return 0;
	if (c->need == RPERF_CTRL_HDR_LEN) {
		rc = got_header(c);
		if (rc || c->got < c->need)
			return rc;
	}
	rc = rperf_ctrl_decode(c->frame, c->need, out);
	free(c->frame);
	c->frame = NULL;
	c->got = c->need = 0;
	*have = rc == 0;
	return rc;
}

int run_conn_tls(const struct rperf_ctrl_auth *auth, bool insecure,
		 struct rperf_ctrl_tls_ctx **out, char *err, size_t errlen)
{
	*out = NULL;
	if (rperf_ctrl_auth_none(auth)) {
		if (insecure)
			return 0;
		snprintf(
			err, errlen,
			"rperf run: no key and no certificate for the agents' TLS channel (or --insecure)");
		return EACCES;
	}
	return rperf_ctrl_tls_ctx_create(auth, false, out, err, errlen);
}

static void *dial_thread(void *arg)
{
	struct run_dial *d = arg;
	uint64_t t0 = rperf_mono_ns(), left_ms;

	if (d->given >= 0) { /* the caller's connection, plain */
		d->fd = d->given;
		d->rc = 0;
		return NULL;
	}
	d->rc = rperf_ctrl_connect_ex(d->addr, d->port, NULL, d->timeout_ns,
				      d->stop, &d->fd);
	if (d->rc) {
		d->fd = -1;
		return NULL;
	}
	if (!d->tls_ctx)
		return NULL;
	left_ms = (t0 + d->timeout_ns - rperf_mono_ns()) / 1000000ull;
	d->rc = rperf_ctrl_tls_new(d->tls_ctx, d->fd, &d->tls);
	if (!d->rc)
		d->rc = rperf_ctrl_tls_handshake(
			d->tls,
			left_ms > 0 && left_ms < INT32_MAX ? (int)left_ms : 1,
			d->stop, d->why, sizeof(d->why));
	if (d->rc) {
		rperf_ctrl_tls_free(d->tls);
		d->tls = NULL;
		close(d->fd);
		d->fd = -1;
		if (!d->why[0])
			snprintf(d->why, sizeof(d->why), "TLS: %s",
				 strerror(d->rc));
	}
	return NULL;
}

int run_dial_all(struct run_dial *d, size_t n)
{
	pthread_t *t = calloc(n ? n : 1, sizeof(*t));
	size_t i, started = 0;
	int rc = 0;

	if (!t)
		return ENOMEM;
	for (i = 0; i < n; i++) {
		d[i].fd = -1;
		d[i].tls = NULL;
		d[i].why[0] = '\0';
		d[i].rc = EINTR;
	}
	for (i = 0; i < n && !rc; i++) {
		rc = pthread_create(&t[i], NULL, dial_thread, &d[i]);
		if (!rc)
			started++;
	}
	for (i = 0; i < started; i++)
		pthread_join(t[i], NULL);
	free(t);
	return rc;
}

void run_dial_why(const struct run_dial *d, char *buf, size_t len)
{
	double s = (double)d->timeout_ns / 1e9;

	if (d->why[0]) { /* connected; the TLS handshake failed */
		snprintf(
			buf, len, "%s:%u: %s%s", d->addr, d->port, d->why,
			d->rc == EACCES ?
				" (the agent's key or certificate is not ours: refused)" :
			d->rc == EPROTO || d->rc == EPIPE ||
					d->rc == ECONNRESET ?
				" (an agent started with --insecure speaks the plain channel: run it with the key, or the controller with --insecure)" :
				"");
		return;
	}
	switch (d->rc) {
	case ENOENT:
		snprintf(buf, len, "cannot resolve '%s'", d->addr);
		break;
	case ECONNREFUSED:
		snprintf(
			buf, len,
			"%s:%u refused the connection for %.3g s: is `rperf agent` running there?",
			d->addr, d->port, s);
		break;
	case ETIMEDOUT:
		snprintf(buf, len, "%s:%u: no answer within %.3g s", d->addr,
			 d->port, s);
		break;
	case EINTR:
		snprintf(buf, len, "%s:%u: interrupted", d->addr, d->port);
		break;
	default:
		snprintf(buf, len, "%s:%u: %s", d->addr, d->port,
			 strerror(d->rc));
	}
}

int rperf_run_check_job(const struct rperf_job *job, char *err, size_t errlen)
{
	for (size_t i = 0; i < job->nhosts; i++) {
		const struct rperf_job_host *a = &job->hosts[i];

		if (!rperf_job_involves(job, a->name) || a->local)
			continue; /* each local host: an agent of its own */
		for (size_t j = i + 1; j < job->nhosts; j++) {
			const struct rperf_job_host *b = &job->hosts[j];

			if (strcmp(a->control, b->control) ||
			    a->control_port != b->control_port ||
			    !rperf_job_involves(job, b->name))
				continue;
			snprintf(
				err, errlen,
				"%s:%d: [host %s] control: %s:%u is also the agent of [host %s] (line %d); one agent serves one host: start another with -p PORT",
				job->path, b->line, b->name, b->control,
				b->control_port, a->name, a->line);
			return EINVAL;
		}
	}
	return 0;
}

int run_peer_addr(int fd, struct sockaddr_storage *ss, char *buf, size_t len)
{
	socklen_t sl = sizeof(*ss);
	struct sockaddr_in6 *a6 = (void *)ss;
	struct sockaddr_in *a4 = (void *)ss;

	memset(ss, 0, sizeof(*ss));
	if (getpeername(fd, (struct sockaddr *)ss, &sl))
		return errno;
	if (ss->ss_family == AF_INET6 && IN6_IS_ADDR_V4MAPPED(&a6->sin6_addr)) {
		struct in_addr v4;

		memcpy(&v4, a6->sin6_addr.s6_addr + 12, 4);
		memset(ss, 0, sizeof(*ss));
		a4->sin_family = AF_INET;
		a4->sin_addr = v4;
	}
	if (ss->ss_family == AF_INET)
		return inet_ntop(AF_INET, &a4->sin_addr, buf, (socklen_t)len) ?
			       0 :
			       errno;
	if (ss->ss_family == AF_INET6)
		return inet_ntop(AF_INET6, &a6->sin6_addr, buf,
				 (socklen_t)len) ?
			       0 :
			       errno;
	return EAFNOSUPPORT;
}
