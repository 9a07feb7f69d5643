/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rperf bw HOST as the controller of an implicit two-host job (bw_ctl.c,
 * src/twohost/twohost.h): one BSG client -> server; -b adds one server ->
 * client; --reversed has only that one.
 * Conventions: 0 or a positive errno with a message.
 */
#ifndef RPERF_BW_CTL_H
#define RPERF_BW_CTL_H

#include "bw/bw.h"
#include "job/job.h"
#include "run/run.h"

/* This host's device, port, GID and depths (-t, -r against the device's
 * maximum), checked before anything starts (a usage error in words);
 * the path's facts for the report (MTU, line rate; a rate limit above it
 * warned). */
int rperf_bw_ctl_check(struct rperf_bw_run *run, struct rperf_err *e);

/* The job of run->cfg (its sizes are rounds). */
int rperf_bw_ctl_job(const struct rperf_cli_config *cfg, struct rperf_job **out,
		     char *err, size_t errlen);

/* Every size as a round of @job on one set of QPs; results into run->res
 * (run->nres, run->measured), interval rows printed as they come. */
int rperf_bw_ctl_run(struct rperf_bw_run *run, const struct rperf_job *job,
		     const struct rperf_run_opts *opts, struct rperf_err *e);

/* The run's live rows (rperf_run_opts.on_live): the forward BSG's as bw's
 * interval lines. */
void rperf_bw_ctl_live(void *arg, const struct rperf_gen_spec *spec,
		       const struct rperf_live_row *row);

#endif
