/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rperf lat / bw HOST as controllers of an implicit two-host job: host
 * "client" (control = local: its agent runs in the command's process) and
 * host "server" (HOST:PORT: the rperf lat / bw server, an agent serving
 * that command), their instances filled by the command (src/lat, src/bw),
 * run as rounds on one set of QPs (one per size, method, repeat).
 * Conventions: 0 or a positive errno; nothing here prints.
 */
#ifndef RPERF_TWOHOST_H
#define RPERF_TWOHOST_H

#include <stdbool.h>
#include <stddef.h>

#include "config/config.h"
#include "job/job.h"
#include "run/run.h"

#define RPERF_TWOHOST_CLIENT "client"
#define RPERF_TWOHOST_SERVER "server"

/* The job's hosts from @cfg (-d/-i/-x/--cpu/placement/huge pages for
 * the client; HOST and -p for the server), @ninst zeroed instances
 * (ENOMEM). */
int rperf_twohost_job(const struct rperf_cli_config *cfg, const char *path,
			  size_t ninst, struct rperf_job **out);

/* The rounds: @n copies of the job, round @k's shaped by @shape (its
 * sizes and methods; rperf_run_execute_rounds says what may differ).
 * The results keep their round's job: jobs lives until
 * rperf_twohost_rounds_fini(), after the results are freed. */
struct rperf_twohost_rounds {
	size_t n;
	void (*shape)(void *arg, size_t k, struct rperf_job *round);
	void *arg;
	struct rperf_job **jobs; /* [n], owned */
};
void rperf_twohost_rounds_fini(struct rperf_twohost_rounds *r);
int rperf_twohost_rounds(const struct rperf_job *base,
			     struct rperf_twohost_rounds *r,
			     const struct rperf_run_opts *opts,
			     const volatile sig_atomic_t *stop,
			     struct rperf_run_results **res, char *err,
			     size_t errlen);

/* Why round @r failed, in @why: the host whose agent said so (the
 * server's first), else the first failed host; *usage when an agent
 * refused before anything ran (its limits, flags that differ, an
 * endpoint): a usage error, not busy, lost or a failed run. false: it
 * did not fail. */
bool rperf_twohost_failure(const struct rperf_run_results *r, char *why,
			       size_t len, bool *usage);

#endif
