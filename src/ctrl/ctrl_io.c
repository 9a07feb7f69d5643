// SPDX-License-Identifier: BSD-2-Clause
/* Control frames over a stream socket: bounded waits, stop flag, no SIGPIPE. */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include "ctrl/ctrl.h"
#include "ctrl/ctrl_priv.h"
#include "ctrl/ctrl_tls.h"
#include "util/mono.h"

#define WAIT_SLICE_MS 100

uint64_t rperf_ctrl_deadline(int timeout_ms)
{
	if (timeout_ms < 0)
		return UINT64_MAX;
	return rperf_mono_ns() + (uint64_t)timeout_ms * 1000000u;
}

int rperf_ctrl_wait(int fd, short events, uint64_t deadline_ns,
		    const volatile sig_atomic_t *stop)
{
	struct pollfd pfd = { .fd = fd, .events = events };

	for (;;) {
		uint64_t now = rperf_mono_ns(), left_ms;
		int slice, r;

		if (stop && *stop)
			return EINTR;
		left_ms = deadline_ns > now ?
				  (deadline_ns - now + 999999u) / 1000000u :
				  0;
		slice = left_ms < WAIT_SLICE_MS ? (int)left_ms : WAIT_SLICE_MS;
		r = poll(&pfd, 1, slice);
		if (r > 0)
			return 0;
		if (r < 0 && errno != EINTR)
			return errno;
		if (r == 0 && left_ms == 0)
			return ETIMEDOUT;
	}
}

/*
 * The transport under the frames: plain TCP or a TLS session (io->tls).
 * One non-blocking transfer each: > 0 bytes, 0 at EOF (recv), -1 with
 * errno; EAGAIN with *want = the poll() event to wait for.
 */
struct ctrl_transport {
	long (*recv)(const struct rperf_ctrl_io *io, void *buf, size_t n,
		     short *want);
	long (*send)(const struct rperf_ctrl_io *io, const void *buf, size_t n,
		     short *want);
};

static long tcp_recv(const struct rperf_ctrl_io *io, void *buf, size_t n,
		     short *want)
{
	ssize_t r = recv(io->fd, buf, n, MSG_DONTWAIT);

	*want = POLLIN;
	if (r < 0 && (errno == EWOULDBLOCK || errno == EINTR))
		errno = EAGAIN;
	return (long)r;
}

static long tcp_send(const struct rperf_ctrl_io *io, const void *buf, size_t n,
		     short *want)
{
	ssize_t r = send(io->fd, buf, n, MSG_NOSIGNAL | MSG_DONTWAIT);

	*want = POLLOUT;
	if (r < 0 && (errno == EWOULDBLOCK || errno == EINTR))
		errno = EAGAIN;
	return (long)r;
}

static long tls_recv(const struct rperf_ctrl_io *io, void *buf, size_t n,
		     short *want)
{
	return rperf_ctrl_tls_recv(io->tls, buf, n, want);
}

static long tls_send(const struct rperf_ctrl_io *io, const void *buf, size_t n,
		     short *want)
{
	return rperf_ctrl_tls_send(io->tls, buf, n, want);
}

static const struct ctrl_transport tcp_transport = { tcp_recv, tcp_send };
static const struct ctrl_transport tls_transport = { tls_recv, tls_send };

static const struct ctrl_transport *transport(const struct rperf_ctrl_io *io)
{
	return io->tls ? &tls_transport : &tcp_transport;
}

int rperf_ctrl_read_some(const struct rperf_ctrl_io *io, void *buf, size_t n,
			 size_t *got)
{
	short want;
	long r = transport(io)->recv(io, buf, n, &want);

	*got = 0;
	if (r > 0)
		*got = (size_t)r;
	else if (r == 0)
		return EPIPE;
	else if (errno != EAGAIN)
		return errno;
	return 0;
}

bool rperf_ctrl_io_pending(const struct rperf_ctrl_io *io)
{
	return io->tls && rperf_ctrl_tls_pending(io->tls);
}

/*
 * Move exactly @n bytes: into @rbuf, or out of @wbuf (the other NULL).
 * Reading: EPIPE when the peer closed before the first byte, ECONNRESET
 * when it closed after some. Tries first, then waits for what the
 * transport wants (TLS may hold decrypted bytes poll() cannot see).
 */
static int xfer_full(const struct rperf_ctrl_io *io, uint8_t *rbuf,
		     const uint8_t *wbuf, size_t n, uint64_t deadline)
{
	const struct ctrl_transport *t = transport(io);
	size_t off = 0;

	while (off < n) {
		short want = wbuf ? POLLOUT : POLLIN;
		long r;
		int ret;

		if (io->stop && *io->stop)
			return EINTR;
		r = wbuf ? t->send(io, wbuf + off, n - off, &want) :
			   t->recv(io, rbuf + off, n - off, &want);
		if (r > 0) {
			off += (size_t)r;
			continue;
		}
		if (r == 0 && !wbuf)
			return off ? ECONNRESET : EPIPE;
		if (r < 0 && errno != EAGAIN)
			return errno;
		ret = rperf_ctrl_wait(io->fd, want, deadline, io->stop);
		if (ret)
			return ret;
	}
	return 0;
}

static int read_full(const struct rperf_ctrl_io *io, uint8_t *buf, size_t n,
		     uint64_t deadline)
{
	return xfer_full(io, buf, NULL, n, deadline);
}

static int write_full(const struct rperf_ctrl_io *io, const uint8_t *buf,
		      size_t n, uint64_t deadline)
{
	return xfer_full(io, NULL, buf, n, deadline);
}

int rperf_ctrl_send_io(const struct rperf_ctrl_io *io, enum rperf_ctrl_type t,
		       const json_t *payload)
{
	uint64_t deadline = rperf_ctrl_deadline(io->timeout_ms);
	uint8_t *frame = NULL;
	size_t len;
	int ret;

	ret = rperf_ctrl_encode(t, payload, &frame, &len);
	if (ret)
		return ret;
	ret = write_full(io, frame, len, deadline);
	free(frame);
	return ret;
}

int rperf_ctrl_send(int fd, enum rperf_ctrl_type t, const json_t *payload,
		    int timeout_ms)
{
	struct rperf_ctrl_io io = { .fd = fd, .timeout_ms = timeout_ms };

	return rperf_ctrl_send_io(&io, t, payload);
}

int rperf_ctrl_recv_io(const struct rperf_ctrl_io *io,
		       struct rperf_ctrl_msg *out)
{
	uint64_t deadline = rperf_ctrl_deadline(io->timeout_ms);
	uint8_t hdr[RPERF_CTRL_HDR_LEN];
	struct rperf_ctrl_hdr h;
	uint8_t *body;
	int ret;

	memset(out, 0, sizeof(*out));
	ret = read_full(io, hdr, sizeof(hdr), deadline);
	if (ret)
		return ret;
	ret = rperf_ctrl_hdr_parse(hdr, &h);
	if (ret == EPROTONOSUPPORT) {
		out->version = h.version;
		out->type = (enum rperf_ctrl_type)h.type;
	}
	if (ret)
		return ret;
	body = malloc(h.length ? h.length : 1);
	if (!body)
		return ENOMEM;
	ret = read_full(io, body, h.length, deadline);
	if (ret == EPIPE)
		ret = ECONNRESET; /* the header was there */
	if (ret)
		goto out_body;
	ret = rperf_ctrl_parse_payload(body, h.length, &out->payload);
	if (ret)
		goto out_body;
	out->version = h.version;
	out->type = (enum rperf_ctrl_type)h.type;
out_body:
	free(body);
	return ret;
}

int rperf_ctrl_recv(int fd, int timeout_ms, struct rperf_ctrl_msg *out)
{
	struct rperf_ctrl_io io = { .fd = fd, .timeout_ms = timeout_ms };

	return rperf_ctrl_recv_io(&io, out);
}
