/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The incasts of a run (private to src/run): the instances of one
 * [incast NAME] section (BSG sources with a burst size) merged per burst.
 * A burst's completion is its first post to its last completion over
 * every sender (the last byte received: RC completes a WRITE when the
 * destination acknowledged it). Times are each sender's, relative to its
 * own start barrier; when the agents' GO receipts are on one clock
 * (run_ctlplane_go_spread(): the lab, one host) they are aligned by them
 * ("aligned": "go_rx"), else the barriers are taken as one instant
 * ("aligned": "barrier"; their skew is the error, see control_plane).
 * Only bursts every reporting sender completed count. share: each
 * sender's payload rate during its own bursts over the sum of all
 * senders' (1/N each when the port is shared fairly).
 *
 * JSON (contract): top-level "incasts": [{name, to, senders, bursts,
 * burst_ns {p50, p99, max}, share {HOST: fraction}, plus burst_bytes,
 * period_ns, aligned, completion_ns [per burst]}].
 */
#ifndef RPERF_RUN_INCAST_H
#define RPERF_RUN_INCAST_H

#include <stdio.h>

#include <jansson.h>

#include "run/run.h"

/* "incasts" into @root (an empty list without incasts): 0 or -1. */
int run_incasts_json(json_t *root, const struct rperf_run_results *r);
/* One paragraph per incast (nothing without). */
void run_incasts_text(FILE *f, const struct rperf_run_results *r);

#endif
