/* SPDX-License-Identifier: BSD-2-Clause */
/* Private helpers shared by the src/ctrl files. */
#ifndef RPERF_CTRL_PRIV_H
#define RPERF_CTRL_PRIV_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ctrl/ctrl.h"
#include "util/mono.h"

/* Parse exactly @len bytes as one JSON object (no duplicate keys, nothing
 * after it). 0 or EBADMSG. */
int rperf_ctrl_parse_payload(const uint8_t *p, size_t len, json_t **out);

/* Deadline for a timeout in ms (-1 = none: UINT64_MAX). */
uint64_t rperf_ctrl_deadline(int timeout_ms);
/*
 * poll() one fd for @events until @deadline_ns (UINT64_MAX = forever) in
 * slices of <= 100 ms, checking @stop (may be NULL) between slices and on
 * EINTR. Returns 0 (ready, including POLLERR/POLLHUP), ETIMEDOUT, EINTR
 * (stop set), or poll's errno.
 */
int rperf_ctrl_wait(int fd, short events, uint64_t deadline_ns,
		    const volatile sig_atomic_t *stop);

struct addrinfo;
/* getaddrinfo() for TCP (@host NULL + @passive: the wildcard addresses).
 * 0, ENOENT (unknown name), EAGAIN, ENOMEM or the system errno. */
int rperf_ctrl_resolve(const char *host, uint16_t port, bool passive,
		       struct addrinfo **res);
/* TCP_NODELAY, best effort. */
void rperf_ctrl_set_nodelay(int fd);

#endif /* RPERF_CTRL_PRIV_H */
