/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What `rperf run` will do with a job, worked out without any agent (rperf
 * run --check; the controller uses the same figures): the agents involved,
 * the barrier's lead time and the planned end. Pure; nothing here opens a
 * socket or resolves a name.
 */
#ifndef RPERF_RUN_PLAN_H
#define RPERF_RUN_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "job/job.h"

/* GO -> the start instant when the options give none: 200 ms plus 1 ms
 * per agent (time for GO to reach every agent). */
uint64_t rperf_run_default_start_in_ns(size_t nagents);
/* The latest planned end of any instance after the start instant:
 * max(start + warm-up + duration); 0 without instances. */
uint64_t rperf_run_planned_ns(const struct rperf_job *job);
/* Does host @h run a source (@src) or a sink (@dst)? Either: it gets an
 * agent. */
void rperf_run_host_roles(const struct rperf_job *job,
			  const struct rperf_job_host *h, size_t *nsrc,
			  size_t *ndst);
/* Hosts with a source or a sink: the agents the controller contacts. */
size_t rperf_run_nagents(const struct rperf_job *job);
/* From GO to the planned end: the default start lead + planned end. */
uint64_t rperf_run_expected_ns(const struct rperf_job *job);

/* The plan as text: the job line, one line per host (its agent's address
 * and port, sources, sinks; "not used" for a host without either), one per
 * instance (kind, from -> to, start, warm-up, duration, planned end) and
 * the expected duration. 0 or the errno of writing. */
int rperf_run_plan_text(FILE *f, const struct rperf_job *job);

#endif
