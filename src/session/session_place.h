/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Placement of a two-host client (rperf lat, rperf bw): find the device's
 * NUMA node, place the measuring thread and its buffers (--cpu, --cpu-node,
 * --mem-node, default the NIC's node), run the preflight checks and print
 * the failed ones once before measuring. Command layer: it prints.
 */
#ifndef RPERF_SESSION_PLACE_H
#define RPERF_SESSION_PLACE_H

#include <stdbool.h>

#include <rperf/platform.h>

#include "cli/config.h"
#include "host/locality.h"
#include "verbs/verbs.h"

struct rperf_session_host {
	struct rperf_nic_locality nic;
	struct rperf_placement place;
	struct rperf_preflight preflight;
};

/*
 * Collect @plat (with the device's firmware and PCIe link), place the
 * calling thread, run the preflight checks. Returns an exit status (0, or
 * RPERF_EXIT_USAGE with the one-line error printed).
 */
int rperf_session_place(const struct rperf_cli_config *cfg,
			struct rperf_session_host *h,
			struct rperf_platform *plat);

/*
 * Print the failed preflight checks, once, on stderr: called right before
 * measuring, so that a run failing during setup keeps its one-line error.
 */
void rperf_session_say_preflight(const struct rperf_session_host *h);

/* The report warning of a remote placement into @buf; false if local. */
bool rperf_session_remote_warning(const struct rperf_session_host *h, char *buf,
				  size_t len);

/* Copy @d's buffer note (hugepage fallback, mlock) into the placement;
 * true when there is one (the caller adds it to the run's warnings). */
bool rperf_session_note_buffers(struct rperf_session_host *h,
				const struct rperf_dev *d);

#endif
