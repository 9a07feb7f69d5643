/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Preflight checks: host conditions that distort a latency measurement.
 * Each yields {check, ok, detail}; the command layer prints the failed ones
 * once and the JSON reports carry them all as "preflight".
 */
#ifndef RPERF_HOST_PREFLIGHT_H
#define RPERF_HOST_PREFLIGHT_H

#include <rperf/platform.h>

#include "host/locality.h"

struct rperf_preflight_in {
	const char *sys; /* sysfs root, "/sys" */
	const char *proc; /* procfs root, "/proc" */
	int cpu; /* the generator's CPU (-1: unknown) */
	const struct rperf_nic_locality *nic; /* NULL: no device */
	const struct rperf_placement *place; /* NULL: no placement made */
	unsigned int busy_sample_ms; /* /proc/stat window, 0: one read */
};

/* Run every check into @out (never fails; unknowns pass with a detail). */
void rperf_preflight_run(const struct rperf_preflight_in *in,
			 struct rperf_preflight *out);

/*
 * Busy share (0..100) of @cpu between two /proc/stat snapshots: 100 *
 * (delta total - delta idle - delta iowait) / delta total. 0, or EINVAL
 * when a snapshot has no well-formed "cpuN" line; ENODATA when no time
 * passed.
 */
int rperf_stat_busy_pct(const char *before, const char *after, int cpu,
			double *pct);

#endif
