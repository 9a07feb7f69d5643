/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The switches' counters commands during a run: one thread per
 * [switch NAME], from the start instant to the end of the run phase, runs
 * its command at each interval (the job's smallest generator interval)
 * with that interval as its deadline; each reading is stamped when the
 * command ends (a command that took 0.9 s of a 1 s interval in the lab VM
 * read the next interval's queue). A command that fails, hangs or
 * prints nonsense is cut and counted in the results (rperf_run_switch),
 * never fatal: the experiment's figures do not depend on it.
 */
#ifndef RPERF_RUN_HOOK_H
#define RPERF_RUN_HOOK_H

#include <stdint.h>

#include "run/run.h"

struct run_hooks;

/* The run's counter interval: the smallest non-zero interval_ns of the
 * job's instances (0: none). */
uint64_t run_hook_interval_ns(const struct rperf_job *job);

/* Start a thread per switch of @r's job, the first reading at @t0_ns
 * (CLOCK_MONOTONIC, the start instant); the series go into r->sw. *out
 * NULL when the job has no switch. 0, or ENOMEM / an errno of
 * pthread_create (then nothing runs, r->sw[i].why says so). */
int run_hooks_start(struct rperf_run_results *r, uint64_t t0_ns,
		    struct run_hooks **out);
/* Stop (after a command in progress ends or is cut) and join; the last
 * reading is taken first. NULL is fine. */
void run_hooks_stop(struct run_hooks *h);

#endif
