/* SPDX-License-Identifier: BSD-2-Clause */
/* Before a client run: pin, calibrate the clock, collect platform facts. */
#define _GNU_SOURCE
#include "lat/lat.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

int rperf_lat_pin(int64_t cpu)
{
	cpu_set_t set;

	if (cpu < 0)
		return 0;
	if (cpu >= CPU_SETSIZE)
		return EINVAL;
	CPU_ZERO(&set);
	CPU_SET((int)cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set) ? errno : 0;
}

int rperf_lat_prepare(struct rperf_lat_run *run)
{
	const struct rperf_cli_config *cfg = run->cfg;
	int rc;

	rc = rperf_lat_pin(cfg->cpu);
	if (rc) {
		fprintf(stderr,
			"rperf: --cpu: cannot pin to CPU %lld: %s; accepted: a CPU this process may run on\n",
			(long long)cfg->cpu, strerror(rc));
		return RPERF_EXIT_USAGE;
	}
	rc = rperf_clock_init(&run->clk, (enum rperf_clock_source)cfg->clock);
	if (rc == ENOTSUP) {
		fprintf(stderr,
			"rperf: --clock: %s is not available here (%s); accepted: auto or posix\n",
			rperf_clock_source_name(
				(enum rperf_clock_source)cfg->clock),
			run->clk.reason);
		return RPERF_EXIT_USAGE;
	}
	if (run->clk.forced)
		rperf_lat_warn(run, "clock source forced to %s: %s",
			       rperf_clock_source_name(run->clk.source),
			       run->clk.reason);
	rc = rperf_clock_selftest(&run->clk, 20.0, &run->selftest);
	if (rc) {
		fprintf(stderr, "rperf: clock self-test failed: %s\n",
			strerror(rc));
		return RPERF_EXIT_RUNTIME;
	}
	rperf_platform_collect(&run->platform);
	return 0;
}
