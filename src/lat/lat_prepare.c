/* SPDX-License-Identifier: BSD-2-Clause */
/* Before a client run: place (platform facts, preflight), calibrate the
 * clock. */
#include "lat/lat.h"

#include <errno.h>
#include <string.h>

#include "twohost/twohost_spec.h"

int rperf_lat_prepare(struct rperf_lat_run *run, struct rperf_err *e)
{
	const struct rperf_cli_config *cfg = run->cfg;
	int rc;

	rc = rperf_twohost_place_client(cfg, &run->host, &run->platform,
					&run->notes, e);
	if (rc)
		return rc;
	rc = rperf_clock_init(&run->clk, (enum rperf_clock_source)cfg->clock);
	if (rc == ENOTSUP) {
		return rperf_err_set(
			e, RPERF_ERRC_USAGE, rc,
			"--clock: %s is not available here (%s); accepted: auto or posix",
			rperf_clock_source_name(
				(enum rperf_clock_source)cfg->clock),
			run->clk.reason);
	}
	if (run->clk.forced)
		rperf_twohost_warn(&run->notes, "clock source forced to %s: %s",
				   rperf_clock_source_name(run->clk.source),
				   run->clk.reason);
	rc = rperf_clock_selftest(&run->clk, 20.0, &run->selftest);
	if (rc) {
		return rperf_err_set(e, RPERF_ERRC_RUNTIME, rc,
				     "clock self-test failed: %s",
				     strerror(rc));
	}
	return 0;
}
