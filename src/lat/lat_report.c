/* SPDX-License-Identifier: BSD-2-Clause */
/* Turning a client run into reports, and the warnings it deserves. */
#include "lat/lat.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <rperf/report.h>

#include "cli/config_kv.h"

void rperf_lat_warn(struct rperf_lat_run *run, const char *fmt, ...)
{
	va_list ap;

	if (run->nwarnings >= RPERF_MAX_WARNINGS)
		return;
	va_start(ap, fmt);
	vsnprintf(run->warnings[run->nwarnings++], sizeof(run->warnings[0]),
		  fmt, ap);
	va_end(ap);
}

static void check_one(struct rperf_lat_run *run, const struct rperf_lsg_res *r,
		      uint64_t size)
{
	int64_t wire50, loop50;

	if (!r->samples)
		return;
	if (run->cfg->pair_order != RPERF_PAIR_SEQUENTIAL &&
	    r->precompleted * 10 > r->samples)
		rperf_lat_warn(
			run,
			"%llu B: %.1f %% of wire SENDs were complete when ibv_post_send returned (the provider does the work inside the post, as Soft-RoCE does); T_P-based times are then post costs: use --pair-order sequential",
			(unsigned long long)size,
			100.0 * (double)r->precompleted / (double)r->samples);
	wire50 = rperf_hist_percentile(r->wire, 50);
	loop50 = rperf_hist_percentile(r->loop, 50);
	if (loop50 >= wire50)
		rperf_lat_warn(
			run,
			"%llu B: loopback p50 %lld ns >= wire p50 %lld ns: the loopback does not model the local path, RTTs cannot be trusted",
			(unsigned long long)size, (long long)loop50,
			(long long)wire50);
	if (r->nonpositive * 20 > r->samples)
		rperf_lat_warn(
			run,
			"%llu B: %.1f %% of RTTs are <= 0 (recorded, not dropped): the wire and loopback paths overlap too much to separate",
			(unsigned long long)size,
			100.0 * (double)r->nonpositive / (double)r->samples);
}

void rperf_lat_check_results(struct rperf_lat_run *run)
{
	if (!run->clk.trusted)
		rperf_lat_warn(run, "clock not trusted: %s", run->clk.reason);
	for (size_t i = 0; i < run->nres; i++)
		check_one(run, &run->res[i], run->cfg->sizes[i]);
}

static int write_json(const char *path, const struct rperf_report *rep)
{
	int rc = rperf_report_write_file(path, RPERF_FMT_JSON, rep);

	if (rc)
		fprintf(stderr, "rperf: --out_json_file: cannot write %s: %s\n",
			path, strerror(rc));
	return rc;
}

int rperf_lat_report(const struct rperf_lat_run *run)
{
	struct rperf_lat_result lat[RPERF_MAX_SIZES];
	struct rperf_kv kv[RPERF_MAX_OPTIONS + 2];
	const char *warn[RPERF_MAX_WARNINGS];
	struct rperf_report rep = { 0 };
	int rc;

	for (size_t i = 0; i < run->nres; i++) {
		const struct rperf_lsg_res *r = &run->res[i];

		lat[i] = (struct rperf_lat_result){
			.method = "rperf",
			.size = run->cfg->sizes[i],
			.samples = r->samples,
			.warmup = r->warmup,
			.nonpositive = r->nonpositive,
			.precompleted = r->precompleted,
			.seconds = r->seconds,
			.rtt = r->rtt,
			.wire = r->wire,
			.loop = r->loop,
		};
	}
	for (size_t i = 0; i < run->nwarnings; i++)
		warn[i] = run->warnings[i];
	rep.command = "lat";
	rep.config = kv;
	rep.nconfig = rperf_cli_config_kv(run->cfg, kv);
	rep.clock = &run->clk;
	rep.selftest = &run->selftest;
	rep.platform = &run->platform;
	rep.lat = lat;
	rep.nlat = run->nres;
	rep.percentiles = run->cfg->percentiles;
	rep.npercentiles = run->cfg->npercentiles;
	rep.warnings = warn;
	rep.nwarnings = run->nwarnings;
	rep.partial = run->partial;
	rep.error = run->error[0] ? run->error : NULL;
	rc = rperf_report_text(stdout, &rep);
	if (fflush(stdout) && !rc)
		rc = EIO;
	if (run->cfg->out_json) {
		int jrc = write_json(run->cfg->out_json_file ?
					     run->cfg->out_json_file :
					     "rperf.json",
				     &rep);

		rc = rc ? rc : jrc;
	}
	return rc;
}
