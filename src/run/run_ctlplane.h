/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The control plane of a run, reported beside the results (private to
 * src/run): set-up time as the controller saw it (dial start -> every agent
 * connected; -> every agent ARMED: connect + auth + plan + endpoints +
 * armed) and the start barrier's skew: the spread (max - min) of the GO
 * receipt times that agents report in "go_rx_ns" on their own
 * CLOCK_MONOTONIC, so meaningful only between agents that share a host's
 * clock (every agent reports it: on one host, as in the lab or with
 * --dry-run, it is the barrier's skew; across hosts it is not). And
 * the dry-run marks: a run with a dry-run agent says so above its table
 * and in JSON ("dry_run": true), so that no one takes its empty figures
 * for measurements. And the channel: TLS 1.3 with a pre-shared key or
 * certificates, or plain TCP (--insecure), which the report says in a line
 * of its own and in JSON ("insecure": true).
 */
#ifndef RPERF_RUN_CTLPLANE_H
#define RPERF_RUN_CTLPLANE_H

#include <stdio.h>

#include <jansson.h>

#include "run/run.h"

/* Slack on top of the controller's GO sending within which receipts on
 * one clock must fall; a wider spread means clocks of different hosts. */
#define RUN_CTLPLANE_SAME_CLOCK_NS 100000000ull
/* Agents that reported their GO receipt; *spread_ns their max - min;
 * *comparable false when the spread exceeds the controller's GO sending
 * + RUN_CTLPLANE_SAME_CLOCK_NS (the agents' clocks differ). */
size_t run_ctlplane_go_spread(const struct rperf_run_results *r,
			      uint64_t *spread_ns, bool *comparable);
/* The INSECURE and DRY RUN banners (nothing when neither applies). */
void run_ctlplane_banner(FILE *f, const struct rperf_run_results *r);
/* One "Control plane:" line (set-up, barrier skew). */
void run_ctlplane_text(FILE *f, const struct rperf_run_results *r);
/* "dry_run", "insecure" and "control_plane" (with "channel" and
 * "heartbeat_seconds") into @root: 0 or -1 (out of memory). */
int run_ctlplane_json(json_t *root, const struct rperf_run_results *r);

#endif
