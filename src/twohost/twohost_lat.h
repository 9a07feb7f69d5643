/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rperf lat HOST: the controller of an implicit two-host job (twohost.h)
 * whose one LSG runs client -> server with rperf lat's options; every
 * (method, repeat, size) a round on the same QPs (twohost_lat.c), and its
 * report (twohost_lat_report.c, twohost_lat_files.c).
 * Conventions: 0 or a positive errno with a message.
 */
#ifndef RPERF_TWOHOST_LAT_H
#define RPERF_TWOHOST_LAT_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include <rperf/clock.h>

#include "gen/lsg.h"
#include "twohost/twohost.h"

/* Runtime state and results of a client run (config stays in c.cfg). */
struct rperf_lat_run {
	struct rperf_twohost_client c;
	struct rperf_clock clk;
	struct rperf_clock_selftest selftest;
	struct rperf_lsg_res *res; /* [method][repeat][size] */
	double *cpu_pct; /* [as res]: the LSG's CPU over the run, % */
	struct rperf_sched_figs *sched; /* [as res]: open schedules' lag */
	size_t nres; /* measured so far (the last may be partial) */
	bool nic_ts; /* the rperf method's RTTs come from NIC timestamps */
	double nic_clock_hz; /* with nic_ts */
	char ts_note[256]; /* --timestamps auto fell back to CPU: why */
};

/* A client run's state (ENOMEM), and its end. */
int rperf_lat_run_new(const struct rperf_cmdline *cfg,
		      volatile sig_atomic_t *stop, struct rperf_lat_run **out);
void rperf_lat_run_free(struct rperf_lat_run *run);
/* Pin, calibrate, self-test, collect platform. 0 or errno with @e. */
int rperf_lat_prepare(struct rperf_lat_run *run, struct rperf_err *e);
/* Derive the warnings the results call for (precompleted, loop > wire...),
 * each kind once with the sizes it applies to (-a: one line, not one per
 * size). */
void rperf_lat_check_results(struct rperf_lat_run *run);

/* What this host's end needs, checked before anything starts: the device,
 * port and GID of -d/-i/-x (run->c.dev, run->c.dev_port: the one opened),
 * NIC stamps for --timestamps nic (a usage error in words, as the agent
 * would give it later). */
int rperf_lat_ctl_check(struct rperf_lat_run *run, struct rperf_err *e);

/* The job of @cfg's run (its round 0). */
int rperf_lat_ctl_job(const struct rperf_cmdline *cfg, struct rperf_job **out,
		      char *err, size_t errlen);

/* Every (method, repeat, size) of the run as rounds of @job on one set of
 * QPs; their results into run->res (run->nres measured, run->c.measured). */
int rperf_lat_ctl_run(struct rperf_lat_run *run, const struct rperf_job *job,
		      const struct rperf_run_opts *opts, struct rperf_err *e);

/* Methods a run measures (3 with --method all), and the i-th one. */
size_t rperf_lat_nmethods(const struct rperf_cmdline *cfg);
int rperf_lat_method_at(const struct rperf_cmdline *cfg, size_t m);
/* Method, size and (1-based) repeat of result @i. */
int rperf_lat_res_method(const struct rperf_lat_run *run, size_t i);
uint64_t rperf_lat_res_size(const struct rperf_lat_run *run, size_t i);
uint64_t rperf_lat_res_repeat(const struct rperf_lat_run *run, size_t i);

/* --raw, --hist, --csv files (atomic). 0 or the first errno. */
struct rperf_report;
int rperf_lat_write_files(const struct rperf_lat_run *run,
			  const struct rperf_report *rep);
/* --max-p50 / --max-p999 / --limit_lat: true when one is exceeded (a
 * line each). */
bool rperf_lat_thresholds(const struct rperf_lat_run *run);
/* -H / -U: the CDF and the samples (perftest's report-histogram and
 * report-unsorted) on run->out after the table. 0 or errno. */
int rperf_lat_print_samples(const struct rperf_lat_run *run);
/* --breakdown table on run->out; the pingpong RTT/2 lines. */
void rperf_lat_print_breakdown(const struct rperf_lat_run *run);
void rperf_lat_print_half(const struct rperf_lat_run *run);

/* Print the text report on run->out and write the JSON file if asked. 0 or errno. */
struct rperf_kv;
int rperf_lat_report(const struct rperf_lat_run *run,
		     const struct rperf_kv *config, size_t nconfig);

#endif
