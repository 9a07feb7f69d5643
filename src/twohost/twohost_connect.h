/* SPDX-License-Identifier: BSD-2-Clause */
/* The control connection of rperf lat / rperf bw to their server. */
#ifndef RPERF_TWOHOST_CONNECT_H
#define RPERF_TWOHOST_CONNECT_H

#include <signal.h>
#include <stddef.h>

/*
 * Connect the control channel to HOST:-p from @source (NULL: any local
 * address), retrying for --connect-timeout. 0, or the errno with a
 * one-line @why naming @command.
 */
struct rperf_cmdline;
int rperf_twohost_connect(const struct rperf_cmdline *cfg, const char *source,
			  volatile sig_atomic_t *stop, const char *command,
			  int *fd, char *why, size_t whylen);

#endif
