/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rperf lat HOST as the controller of an implicit two-host job (lat_ctl.c):
 * host "client" (control = local: its agent runs in this process) and host
 * "server" (HOST:PORT, the rperf lat server: an agent serving "lat"), one
 * LSG from client to server with rperf lat's options.
 * Conventions: 0 or a positive errno with a message.
 */
#ifndef RPERF_LAT_CTL_H
#define RPERF_LAT_CTL_H

#include "job/job.h"
#include "lat/lat.h"
#include "run/run.h"

/* What this host's end needs, checked before anything starts: the device,
 * port and GID of run->cfg's -d/-i/-x (run->dev, run->dev_port: the one
 * opened), NIC stamps for --timestamps nic (a usage error in words, as
 * the agent would give it later). */
int rperf_lat_ctl_check(struct rperf_lat_run *run, struct rperf_err *e);

/* The job of @cfg's run (its round 0). */
int rperf_lat_ctl_job(const struct rperf_cli_config *cfg,
		      struct rperf_job **out, char *err, size_t errlen);

/* Every (method, repeat, size) of run->cfg as rounds of @job on one set of
 * QPs; their results into run->res (run->nres measured, run->measured). */
int rperf_lat_ctl_run(struct rperf_lat_run *run, const struct rperf_job *job,
		      const struct rperf_run_opts *opts, struct rperf_err *e);

#endif
