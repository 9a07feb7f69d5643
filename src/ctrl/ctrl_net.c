// SPDX-License-Identifier: BSD-2-Clause
/* Control connections: resolve, listen and accept over TCP. */
#define _GNU_SOURCE /* accept4 */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "ctrl/ctrl.h"
#include "ctrl/ctrl_priv.h"

#define LISTEN_BACKLOG 8

static int gai_errno(int gai)
{
	switch (gai) {
	case EAI_MEMORY:
		return ENOMEM;
	case EAI_AGAIN:
		return EAGAIN;
	case EAI_SYSTEM:
		return errno ? errno : EIO;
	default:
		return ENOENT; /* name or service unknown, no address */
	}
}

int rperf_ctrl_resolve(const char *host, uint16_t port, bool passive,
		       struct addrinfo **res)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC,
				  .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_NUMERICSERV };
	char serv[8];
	int gai;

	if (passive)
		hints.ai_flags |= AI_PASSIVE;
	snprintf(serv, sizeof(serv), "%u", (unsigned int)port);
	gai = getaddrinfo(host, serv, &hints, res);
	return gai ? gai_errno(gai) : 0;
}

void rperf_ctrl_set_nodelay(int fd)
{
	int one = 1;

	/* Best effort: only latency of the control channel depends on it. */
	(void)setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
}

static int listen_one(const struct addrinfo *ai, bool any, int *fd_out)
{
	int fd, one = 1, zero = 0, ret;

	fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC,
		    ai->ai_protocol);
	if (fd < 0)
		return errno;
	if (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)))
		goto err_close;
	/* "any" on IPv6 also accepts IPv4 clients (v4-mapped addresses). */
	if (any && ai->ai_family == AF_INET6 &&
	    setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero)))
		goto err_close;
	if (bind(fd, ai->ai_addr, ai->ai_addrlen) || listen(fd, LISTEN_BACKLOG))
		goto err_close;
	*fd_out = fd;
	return 0;
err_close:
	ret = errno;
	close(fd);
	return ret;
}

int rperf_ctrl_listen(const char *bind_addr, uint16_t port, int *fd_out)
{
	const struct addrinfo *ai;
	struct addrinfo *res;
	int pass, ret;

	if (!fd_out)
		return EINVAL;
	ret = rperf_ctrl_resolve(bind_addr, port, true, &res);
	if (ret)
		return ret;
	ret = EADDRNOTAVAIL;
	/* Without an address, try the dual-stack IPv6 socket first. */
	for (pass = 0; pass < 2; pass++) {
		for (ai = res; ai; ai = ai->ai_next) {
			bool v6 = ai->ai_family == AF_INET6;

			if (bind_addr ? pass == 1 : v6 != (pass == 0))
				continue;
			ret = listen_one(ai, !bind_addr, fd_out);
			if (!ret)
				goto out_free;
		}
	}
out_free:
	freeaddrinfo(res);
	return ret;
}

/* "a.b.c.d:port" or "[v6]:port"; v4-mapped IPv6 shown as IPv4. */
static void format_peer(const struct sockaddr *sa, socklen_t len, char *peer,
			size_t peerlen)
{
	char host[NI_MAXHOST], serv[NI_MAXSERV];
	const char *h = host;

	if (!peer || peerlen == 0)
		return;
	if (getnameinfo(sa, len, host, sizeof(host), serv, sizeof(serv),
			NI_NUMERICHOST | NI_NUMERICSERV)) {
		snprintf(peer, peerlen, "?");
		return;
	}
	if (sa->sa_family == AF_INET6 && strncmp(host, "::ffff:", 7) == 0 &&
	    strchr(host, '.'))
		h = host + 7;
	if (strchr(h, ':'))
		snprintf(peer, peerlen, "[%s]:%s", h, serv);
	else
		snprintf(peer, peerlen, "%s:%s", h, serv);
}

int rperf_ctrl_accept_ex(int lfd, int timeout_ms,
			 const volatile sig_atomic_t *stop, int *fd_out,
			 char *peer, size_t peerlen)
{
	uint64_t deadline = rperf_ctrl_deadline(timeout_ms);

	if (!fd_out)
		return EINVAL;
	for (;;) {
		struct sockaddr_storage ss;
		socklen_t len = sizeof(ss);
		int fd, ret = rperf_ctrl_wait(lfd, POLLIN, deadline, stop);

		if (ret)
			return ret;
		fd = accept4(lfd, (struct sockaddr *)&ss, &len, SOCK_CLOEXEC);
		if (fd < 0) {
			if (errno == EINTR || errno == EAGAIN ||
			    errno == EWOULDBLOCK || errno == ECONNABORTED)
				continue;
			return errno;
		}
		rperf_ctrl_set_nodelay(fd);
		format_peer((struct sockaddr *)&ss, len, peer, peerlen);
		*fd_out = fd;
		return 0;
	}
}

int rperf_ctrl_accept(int lfd, int timeout_ms, int *fd_out, char *peer,
		      size_t peerlen)
{
	return rperf_ctrl_accept_ex(lfd, timeout_ms, NULL, fd_out, peer,
				    peerlen);
}

int rperf_ctrl_local_port(int fd, uint16_t *port)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);

	if (getsockname(fd, (struct sockaddr *)&ss, &len))
		return errno;
	if (ss.ss_family == AF_INET)
		*port = ntohs(((struct sockaddr_in *)&ss)->sin_port);
	else if (ss.ss_family == AF_INET6)
		*port = ntohs(((struct sockaddr_in6 *)&ss)->sin6_port);
	else
		return EAFNOSUPPORT;
	return 0;
}
