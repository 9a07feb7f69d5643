/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Job files of `rperf run`: an INI file (libinih), fio-style.
 *
 *   [global]   duration, warmup, timeout, sink_completion
 *   [host H]   control (ADDR[:PORT]), device, port, gid_index, cpu
 *   [lsg G] / [bsg G]
 *              from (comma list of hosts: one instance per host), count
 *              (use only the first N of from; 0 = none), to, size, tx_depth,
 *              post_list, cq_mod, verb, qps, rate, sl, tclass, completion,
 *              start, mtu, qp_timeout, retry_count, pair_order
 *
 * Sizes are binary (4K = 4096), rates decimal (10M = 10e6 bits/s), times
 * take units (10s, 500ms, 2us; a bare number is seconds). Every error names
 * FILE:LINE and the key, and suggests the nearest known section or key.
 *
 * Conventions: 0 or a positive errno (EINVAL for a bad job, ENOENT/EACCES
 * for an unreadable file, ENOMEM) with a one-line message in @err.
 */
#ifndef RPERF_JOB_H
#define RPERF_JOB_H

#include <stddef.h>
#include <stdint.h>

#include "engine/spec.h"

#define RPERF_JOB_MAX_HOSTS 256
#define RPERF_JOB_MAX_GENS 256 /* generator sections */
#define RPERF_JOB_MAX_INSTANCES 1024
#define RPERF_AGENT_DEFAULT_PORT 18521 /* lat/bw servers use 18520 */

struct rperf_job_host {
	char name[RPERF_NAME_LEN];
	char control[256]; /* agent address (host name or IP) */
	uint16_t control_port; /* RPERF_AGENT_DEFAULT_PORT unless given */
	struct rperf_host_sel sel;
	int line; /* where the section starts, for messages */
};

struct rperf_job {
	char path[256];
	/* [global] */
	uint64_t duration_ns; /* default 10 s */
	uint64_t warmup_ns; /* default 1 s */
	uint64_t timeout_ns; /* control-plane timeout, default 10 s */
	enum rperf_completion sink_completion; /* default event */
	/* [host NAME] sections, in file order */
	struct rperf_job_host hosts[RPERF_JOB_MAX_HOSTS];
	size_t nhosts;
	/* one spec per generator instance (a section with from = a,b,c gives
	 * three), in file order; ids 0..n-1; duration/warmup/sink_completion
	 * filled from [global] */
	struct rperf_gen_spec *inst; /* [ninst], owned */
	size_t ninst;
};

/* Parse and validate @path. On success *out is a new job (rperf_job_free).
 * Checks: unknown section or key (with "did you mean"), bad values, unknown
 * host in from/to, a generator to itself, duplicate section names, a
 * generator without from/to, hosts without control. */
int rperf_job_load(const char *path, struct rperf_job **out, char *err,
		   size_t errlen);
/* Same from a string (@name used in messages in place of a path). */
int rperf_job_parse(const char *text, const char *name, struct rperf_job **out,
		    char *err, size_t errlen);
void rperf_job_free(struct rperf_job *job);

/* The host called @name, NULL if none. */
const struct rperf_job_host *rperf_job_host(const struct rperf_job *job,
					    const char *name);

#endif
