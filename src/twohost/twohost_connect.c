/* SPDX-License-Identifier: BSD-2-Clause */
#include "twohost/twohost_connect.h"

#include "job/cmdline.h"
#include "ctrl/ctrl.h"

#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

int rperf_twohost_connect(const struct rperf_cmdline *cfg, const char *source,
			  volatile sig_atomic_t *stop, const char *command,
			  int *fd, char *why, size_t whylen)
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
