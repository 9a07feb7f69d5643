/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rperf lat / bw HOST as controllers of an implicit two-host job: host
 * "client" (control = local: its agent runs in the command's process) and
 * host "server" (HOST:PORT: the rperf lat / bw server, an agent serving
 * that command), their instances filled by the command (twohost_lat.h,
 * twohost_bw.h), run as rounds on one set of QPs (one per size, method,
 * repeat).
 * Conventions: 0 or a positive errno; nothing here prints.
 */
#ifndef RPERF_TWOHOST_H
#define RPERF_TWOHOST_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <rperf/platform.h>

#include "job/cmdline.h"
#include "job/job.h"
#include "run/run.h"
#include "twohost/twohost_notes.h"
#include "twohost/twohost_place.h"
#include "twohost/twohost_retrans.h"

#define RPERF_TWOHOST_CLIENT "client"
#define RPERF_TWOHOST_SERVER "server"
/* -n or --run_infinitely: every round's window (an agent's default
 * --max-duration is an hour for the whole plan) */
#define RPERF_TWOHOST_WINDOW_NS (1800ull * 1000000000ull)

/* What a client run of rperf lat and of rperf bw holds alike (each run
 * embeds it as .c): the configuration, the command layer's hooks, this
 * host's facts and the report's notes. */
struct rperf_twohost_client {
	const struct rperf_cmdline *cfg;
	volatile sig_atomic_t *stop;
	struct rperf_platform platform;
	struct rperf_twohost_host host; /* placement, preflight */
	struct rperf_twohost_notes notes; /* warnings, partial, error */
	bool measured; /* the rounds began: there is something to report */
	struct rperf_say say; /* the command layer's: warnings, file errors */
	FILE *out; /* the command layer's: the text report */
	struct rperf_round_hook round; /* the command layer's progress line */
	struct rperf_retrans_probe retrans; /* RC retransmissions seen */
	char dev[64]; /* this host's device and port (the command's check) */
	int dev_port;
};

/* The job's hosts from @cfg (-d/-i/-x/--cpu/placement/huge pages for
 * the client; HOST and -p for the server), @ninst zeroed instances
 * (ENOMEM). */
int rperf_twohost_job(const struct rperf_cmdline *cfg, const char *path,
		      size_t ninst, struct rperf_job **out);

/* The rounds: @n copies of the job, round @k's shaped by @shape (its
 * sizes and methods; rperf_run_execute_rounds says what may differ);
 * @take takes round @k's results once it ran (0, or an errno with @e). */
struct rperf_twohost_rounds {
	size_t n;
	void (*shape)(void *arg, size_t k, struct rperf_job *round);
	int (*take)(void *arg, size_t k, struct rperf_run_results *r,
		    struct rperf_err *e);
	void *arg;
};

/*
 * The client @c's run of @rounds of @job with @opts (the caller's, its
 * hooks set): its preflight lines; the rounds, the retransmission probe
 * around them; each round that ran to rounds.take (c.measured is then
 * true), up to the first that did not. Then the verdict, 0 or an errno
 * with @e: the verbs' words of an instance that ran; an interruption (not
 * with --run_infinitely: SIGINT ends it); a round that did not run; a
 * failed host: the one whose agent said why (the server's first), else
 * the first; a usage error when an agent refused before anything ran (its
 * limits, flags that differ, an endpoint), not busy, lost or a failed
 * run. The client's buffers note becomes its placement's and a warning; a
 * failure after something was measured makes the report partial.
 */
int rperf_twohost_run_rounds(const struct rperf_job *job,
			     const struct rperf_twohost_rounds *rounds,
			     const struct rperf_run_opts *opts,
			     struct rperf_twohost_client *c,
			     struct rperf_err *e);

#endif
