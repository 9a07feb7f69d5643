/* SPDX-License-Identifier: BSD-2-Clause */
/* rperf bw: client and server of a two-host bandwidth measurement (BSG). */
#ifndef RPERF_BW_H
#define RPERF_BW_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rperf/platform.h>
#include <rperf/report.h>

#include "cli/config.h"
#include "gen/bsg.h"
#include "session/session_place.h"

#define RPERF_BW_MAX_WARNINGS 16

/* Runtime state and results of a client run (config stays in cfg). */
struct rperf_bw_run {
	const struct rperf_cli_config *cfg;
	volatile sig_atomic_t *stop;
	struct rperf_platform platform;
	struct rperf_session_host host; /* placement, preflight */
	struct rperf_bw_result *res; /* [nsizes] */
	struct rperf_bw_result *rev; /* [nsizes]: -b, server -> client */
	size_t nres; /* measured so far */
	int mtu; /* path MTU */
	double line_gbps; /* the port's data rate, 0 unknown */
	bool roce, grh;
	/* interval reports of the size being measured */
	uint64_t cur_size;
	uint64_t tick_msgs, tick_bytes;
	char warnings[RPERF_BW_MAX_WARNINGS][256];
	size_t nwarnings;
	bool partial;
	char error[320];
};

/* Both return the process exit status (enum rperf_exit). */
int rperf_bw_client(const struct rperf_cli_config *cfg,
		    volatile sig_atomic_t *stop);
int rperf_bw_server(const struct rperf_cli_config *cfg,
		    volatile sig_atomic_t *stop);

void rperf_bw_warn(struct rperf_bw_run *run, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Fill run->res[i] from the generator's figures and the server's RESULT
 * (@rx NULL: none). */
struct rperf_bw_rx {
	uint64_t messages, bytes;
	double seconds, cpu_seconds;
	/* -b: what the server sent (RESULT tx_*), valid with has_tx */
	bool has_tx;
	uint64_t tx_messages, tx_bytes, tx_post_calls;
	double tx_seconds, tx_cpu_seconds;
};
void rperf_bw_fill(struct rperf_bw_run *run, size_t i,
		   const struct rperf_bsg_res *g, const struct rperf_bw_rx *rx);

/* -b: run->res[i].reverse from the server's sending (@srv, NULL: none)
 * and this side's receive counts (@own; its cpu_seconds over seconds). */
void rperf_bw_fill_reverse(struct rperf_bw_run *run, size_t i,
			   const struct rperf_bw_rx *srv,
			   const struct rperf_bw_rx *own);

/* The interval callback of the generator (arg: the run). */
void rperf_bw_on_interval(void *arg, const struct rperf_bsg_tick *t);

/* One size done: its JSON line with --jsonl. */
void rperf_bw_size_done(const struct rperf_bw_run *run, size_t i);

/* Print the text report (unless --jsonl) and write the JSON file if asked.
 * 0 or errno. */
int rperf_bw_report(const struct rperf_bw_run *run);

#endif
