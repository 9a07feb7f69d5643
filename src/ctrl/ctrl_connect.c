// SPDX-License-Identifier: BSD-2-Clause
/* Client side of the control connection: bounded, retried connect(). */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "ctrl/ctrl.h"
#include "ctrl/ctrl_priv.h"

#define RETRY_NS 150000000u /* pause between rounds of attempts */

/* Errors after which trying again later may succeed. */
static bool retryable(int err)
{
	switch (err) {
	case ECONNREFUSED:
	case ETIMEDOUT:
	case EHOSTUNREACH:
	case ENETUNREACH:
	case ENETDOWN:
	case EHOSTDOWN:
	case ECONNRESET:
	case ECONNABORTED:
	case EAGAIN:
		return true;
	default:
		return false;
	}
}

static int bind_local(int fd, int family, const struct addrinfo *local)
{
	for (; local; local = local->ai_next)
		if (local->ai_family == family)
			return bind(fd, local->ai_addr, local->ai_addrlen) ?
				       errno :
				       0;
	return EAFNOSUPPORT; /* no local address of that family */
}

/* One non-blocking attempt, bounded by @deadline. */
static int connect_one(const struct addrinfo *ai, const struct addrinfo *local,
		       uint64_t deadline, const volatile sig_atomic_t *stop,
		       int *fd_out)
{
	socklen_t len = sizeof(int);
	int fd, ret, err = 0;

	fd = socket(ai->ai_family,
		    ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC,
		    ai->ai_protocol);
	if (fd < 0)
		return errno;
	ret = local ? bind_local(fd, ai->ai_family, local) : 0;
	if (ret)
		goto err_close;
	if (connect(fd, ai->ai_addr, ai->ai_addrlen)) {
		if (errno != EINPROGRESS) {
			ret = errno;
			goto err_close;
		}
		ret = rperf_ctrl_wait(fd, POLLOUT, deadline, stop);
		if (ret)
			goto err_close;
		if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len))
			err = errno;
		ret = err;
		if (ret)
			goto err_close;
	}
	if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)) {
		ret = errno;
		goto err_close;
	}
	rperf_ctrl_set_nodelay(fd);
	*fd_out = fd;
	return 0;
err_close:
	close(fd);
	return ret;
}

/*
 * One round over every address. 0 on success; else *last gets the last
 * retryable error and the return value is 0 < error: EAGAIN when some
 * attempt may succeed later, the hard error when none can, EINTR (stop).
 */
static int connect_round(const struct addrinfo *res,
			 const struct addrinfo *local, uint64_t deadline,
			 const volatile sig_atomic_t *stop, int *fd_out,
			 int *last)
{
	const struct addrinfo *ai;
	int hard = EADDRNOTAVAIL;
	bool soft = false;

	for (ai = res; ai; ai = ai->ai_next) {
		int ret = connect_one(ai, local, deadline, stop, fd_out);
		if (!ret || ret == EINTR)
			return ret;
		if (retryable(ret)) {
			soft = true;
			*last = ret;
		} else {
			hard = ret;
		}
	}
	return soft ? EAGAIN : hard;
}

int rperf_ctrl_connect_ex(const char *host, uint16_t port,
			  const char *bind_addr, uint64_t timeout_ns,
			  const volatile sig_atomic_t *stop, int *fd_out)
{
	struct addrinfo *res = NULL, *local = NULL;
	uint64_t now = rperf_mono_ns(), deadline;
	int ret, last = ETIMEDOUT;

	if (!host || !fd_out)
		return EINVAL;
	deadline = timeout_ns > UINT64_MAX - now ? UINT64_MAX :
						   now + timeout_ns;
	ret = rperf_ctrl_resolve(host, port, false, &res);
	if (ret)
		return ret;
	if (bind_addr) {
		ret = rperf_ctrl_resolve(bind_addr, 0, true, &local);
		if (ret)
			goto out_res;
	}
	for (;;) {
		uint64_t pause;

		ret = connect_round(res, local, deadline, stop, fd_out, &last);
		if (ret != EAGAIN)
			break;
		now = rperf_mono_ns();
		if (now >= deadline) {
			ret = last == EAGAIN ? ETIMEDOUT : last;
			break;
		}
		pause = deadline - now < RETRY_NS ? deadline : now + RETRY_NS;
		ret = rperf_ctrl_wait(-1, 0, pause, stop); /* sleep */
		if (ret == EINTR)
			break;
	}
	if (local)
		freeaddrinfo(local);
out_res:
	freeaddrinfo(res);
	return ret;
}

int rperf_ctrl_connect(const char *host, uint16_t port, const char *bind_addr,
		       uint64_t timeout_ns, int *fd_out)
{
	return rperf_ctrl_connect_ex(host, port, bind_addr, timeout_ns, NULL,
				     fd_out);
}
