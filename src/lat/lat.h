/* SPDX-License-Identifier: BSD-2-Clause */
/* rperf lat: client and server of a two-host latency measurement. */
#ifndef RPERF_LAT_H
#define RPERF_LAT_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include <rperf/clock.h>
#include <rperf/platform.h>

#include "cli/config.h"
#include "gen/lsg.h"
#include "session/session_place.h"

#define RPERF_MAX_WARNINGS 16

/* Runtime state and results of a client run (config stays in cfg). */
struct rperf_lat_run {
	const struct rperf_cli_config *cfg;
	volatile sig_atomic_t *stop;
	struct rperf_clock clk;
	struct rperf_clock_selftest selftest;
	struct rperf_platform platform;
	struct rperf_session_host host; /* placement, preflight */
	struct rperf_lsg_res *res; /* [method][repeat][size] */
	size_t nres; /* measured so far (the last may be partial) */
	char warnings[RPERF_MAX_WARNINGS][256];
	size_t nwarnings;
	bool partial;
	char error[320];
	bool nic_ts; /* the rperf method's RTTs come from NIC timestamps */
	double nic_clock_hz; /* with nic_ts */
	char ts_note[256]; /* --timestamps auto fell back to CPU: why */
};

/* Both return the process exit status (enum rperf_exit). */
int rperf_lat_client(const struct rperf_cli_config *cfg,
		     volatile sig_atomic_t *stop);
int rperf_lat_server(const struct rperf_cli_config *cfg,
		     volatile sig_atomic_t *stop);

/* Pin, calibrate, self-test, collect platform; returns an exit status. */
int rperf_lat_prepare(struct rperf_lat_run *run);

/* Add a warning (printf format); silently keeps the first ones if full. */
void rperf_lat_warn(struct rperf_lat_run *run, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Derive the warnings the results call for (precompleted, loop > wire...). */
void rperf_lat_check_results(struct rperf_lat_run *run);

/* Methods a run measures (3 with --method all), and the i-th one. */
size_t rperf_lat_nmethods(const struct rperf_cli_config *cfg);
int rperf_lat_method_at(const struct rperf_cli_config *cfg, size_t m);
const char *rperf_lat_method_name(int method);
/* Method, size and (1-based) repeat of result @i. */
int rperf_lat_res_method(const struct rperf_lat_run *run, size_t i);
uint64_t rperf_lat_res_size(const struct rperf_lat_run *run, size_t i);
uint64_t rperf_lat_res_repeat(const struct rperf_lat_run *run, size_t i);

/* --raw, --hist, --csv files (atomic). 0 or the first errno. */
struct rperf_report;
int rperf_lat_write_files(const struct rperf_lat_run *run,
			  const struct rperf_report *rep);
/* --max-p50 / --max-p999: RPERF_EXIT_THRESHOLD (with a line each) or 0. */
int rperf_lat_thresholds(const struct rperf_lat_run *run);
/* --breakdown table on stdout; the pingpong RTT/2 lines. */
void rperf_lat_print_breakdown(const struct rperf_lat_run *run);
void rperf_lat_print_half(const struct rperf_lat_run *run);

/* Print the text report and write the JSON file if asked. 0 or errno. */
int rperf_lat_report(const struct rperf_lat_run *run);

#endif
