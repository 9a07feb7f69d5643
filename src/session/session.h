/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What the two-host commands (rperf lat, rperf bw) share around their
 * generators: the verbs configuration from the command line and pinning. The
 * lifecycle of a client and a server is in session_life.h.
 */
#ifndef RPERF_SESSION_H
#define RPERF_SESSION_H

#include <stdint.h>

#include "config/config.h"
#include "verbs/verbs.h"

/* The largest message a two-host server (lat, bw) accepts. */
#define RPERF_SERVER_MAX_SIZE (16u << 20)

/* Device/port/GID/path settings of @cfg (--tclass, else -T, else 0). */
void rperf_session_verbs_cfg(const struct rperf_cli_config *cfg,
			     struct rperf_verbs_cfg *v);

/* Pin the calling thread to @cpu (-1: no pinning). 0 or errno. */
int rperf_session_pin(int64_t cpu);
/* The same for --cpu, with the one-line error (usage class) in @e. */
struct rperf_err;
int rperf_session_pin_cpu(int64_t cpu, struct rperf_err *e);

#endif
