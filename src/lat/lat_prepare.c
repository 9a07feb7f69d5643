/* SPDX-License-Identifier: BSD-2-Clause */
/* Before a client run: place, calibrate the clock, collect platform facts. */
#include "lat/lat.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "session/session.h"
#include "session/session_place.h"

int rperf_lat_prepare(struct rperf_lat_run *run)
{
	const struct rperf_cli_config *cfg = run->cfg;
	char remote[256];
	int rc;

	rc = rperf_session_place(cfg, &run->host, &run->platform);
	if (rc)
		return rc;
	if (rperf_session_remote_warning(&run->host, remote, sizeof(remote)))
		rperf_lat_warn(run, "%s", remote);
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
	return 0;
}
