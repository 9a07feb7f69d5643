/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Placement of a two-host client (rperf lat, rperf bw): find the device's
 * NUMA node, place the measuring thread and its buffers (--cpu, --cpu-node,
 * --mem-node, default the NIC's node), run the preflight checks and say
 * the failed ones once before measuring (through the command layer's
 * printer: nothing here prints).
 */
#ifndef RPERF_TWOHOST_PLACE_H
#define RPERF_TWOHOST_PLACE_H

#include <stdbool.h>

#include <rperf/platform.h>

#include "job/cmdline.h"
#include "twohost/twohost_notes.h"
#include "host/locality.h"
#include "verbs/verbs.h"

struct rperf_twohost_host {
	struct rperf_nic_locality nic;
	struct rperf_placement place;
	struct rperf_preflight preflight;
};

/*
 * Collect @plat (with the device's firmware and PCIe link), place the
 * calling thread, run the preflight checks. 0, or an errno with @e (a
 * usage error: the placement asked for cannot be had).
 */
int rperf_twohost_place(const struct rperf_cmdline *cfg,
			struct rperf_twohost_host *h,
			struct rperf_platform *plat, struct rperf_err *e);

/*
 * Say the failed preflight checks, once, through @say: called right before
 * measuring, so that a run failing during setup keeps its one-line error.
 */
void rperf_twohost_say_preflight(const struct rperf_twohost_host *h,
				 const struct rperf_say *say);

/* rperf_twohost_place() for a client run, with the remote-placement
 * warning added to @notes. 0 or errno with @e. */
int rperf_twohost_place_client(const struct rperf_cmdline *cfg,
			       struct rperf_twohost_host *h,
			       struct rperf_platform *plat,
			       struct rperf_twohost_notes *notes,
			       struct rperf_err *e);

/* The report warning of a remote placement into @buf; false if local. */
bool rperf_twohost_remote_warning(const struct rperf_twohost_host *h, char *buf,
				  size_t len);

#endif
