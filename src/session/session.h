/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What the two-host commands (rperf lat, rperf bw) share around their
 * generators: the verbs configuration from the command line, pinning, and the
 * server's listen/accept loop with its lifecycle (one client, or one after
 * another with --persistent, surviving clients that die mid-run).
 */
#ifndef RPERF_SESSION_H
#define RPERF_SESSION_H

#include <signal.h>

#include "cli/config.h"
#include "verbs/verbs.h"

/* The largest message a two-host server (lat, bw) accepts. */
#define RPERF_SERVER_MAX_SIZE (16u << 20)

/* Device/port/GID/path settings of @cfg (--tclass, else -T, else 0). */
void rperf_session_verbs_cfg(const struct rperf_cli_config *cfg,
			     struct rperf_verbs_cfg *v);

/* Pin the calling thread to @cpu (-1: no pinning). 0 or errno. */
int rperf_session_pin(int64_t cpu);
/* --cpu with the one-line error: 0 or RPERF_EXIT_USAGE. */
int rperf_session_pin_or_say(int64_t cpu);

/*
 * Server lifecycle: pin (--cpu), listen on --bind/-p BEFORE anything slow,
 * print "rperf NAME server: listening on port P", then serve one client with
 * @serve_one (its return value is the exit status), or with --persistent one
 * after another until a signal. Returns the exit status.
 */
int rperf_session_serve(const struct rperf_cli_config *cfg,
			volatile sig_atomic_t *stop, const char *name,
			int (*serve_one)(void *arg, int fd, const char *peer),
			void *arg);

#endif
