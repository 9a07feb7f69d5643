/* SPDX-License-Identifier: BSD-2-Clause */
/* rperf info: clock self-test, versions, RDMA devices, preflight checks. */
#define _GNU_SOURCE
#include "cli/commands.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include <rperf/clock.h>
#include <rperf/devinfo.h>
#include <rperf/platform.h>
#include <rperf/report.h>

#include "cli/cli.h"
#include "host/preflight.h"

/* The host checks, against the first device (the default of lat/bw). */
static void info_preflight(const struct rperf_device_list *devs,
			   struct rperf_preflight *pf)
{
	struct rperf_nic_locality nic;
	struct rperf_preflight_in in = { .sys = "/sys",
					 .proc = "/proc",
					 .cpu = sched_getcpu(),
					 .busy_sample_ms = 50 };

	if (devs->n &&
	    rperf_nic_locality(in.sys, in.proc, devs->dev[0].name, &nic) == 0)
		in.nic = &nic;
	rperf_preflight_run(&in, pf);
}

int rperf_cmd_info(const struct rperf_cmdline *cfg)
{
	struct rperf_device_list devs = { 0 };
	struct rperf_preflight pf;
	struct rperf_clock_selftest st;
	struct rperf_platform plat;
	struct rperf_clock clk;
	struct rperf_info info = { .clock = &clk,
				   .selftest = &st,
				   .platform = &plat,
				   .devices = &devs };
	int rc;

	rc = rperf_clock_init(&clk, (enum rperf_clock_source)cfg->clock);
	if (rc) {
		fprintf(stderr,
			"rperf: --clock: %s cannot be used here (%s); accepted: auto or posix\n",
			rperf_clock_source_name(
				(enum rperf_clock_source)cfg->clock),
			strerror(rc));
		return RPERF_EXIT_USAGE;
	}
	if (clk.forced)
		fprintf(stderr,
			"rperf: warning: clock source forced to %s: %s\n",
			rperf_clock_source_name(clk.source), clk.reason);
	rc = rperf_clock_selftest(&clk, (double)cfg->spin_ns / 1e6, &st);
	if (rc) {
		fprintf(stderr, "rperf: clock self-test failed: %s\n",
			strerror(rc));
		return RPERF_EXIT_RUNTIME;
	}
	rperf_platform_collect(&plat);
	rc = rperf_devices_list(&devs);
	if (rc) {
		fprintf(stderr, "rperf: listing RDMA devices: %s\n",
			strerror(rc));
		return RPERF_EXIT_RUNTIME;
	}
	info_preflight(&devs, &pf);
	info.preflight = &pf;
	rc = cfg->json ? rperf_info_json(stdout, &info) :
			 rperf_info_text(stdout, &info);
	rperf_devices_free(&devs);
	if (rc || fflush(stdout)) {
		fprintf(stderr, "rperf: writing the report: %s\n",
			strerror(rc ? rc : EIO));
		return RPERF_EXIT_RUNTIME;
	}
	return RPERF_EXIT_OK;
}
