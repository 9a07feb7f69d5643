/* SPDX-License-Identifier: BSD-2-Clause */
/* Turning a client run into reports, and the warnings it deserves. */
#include "lat/lat.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rperf/report.h>

static void check_one(struct rperf_lat_run *run, const struct rperf_lsg_res *r,
		      uint64_t size)
{
	int64_t wire50, loop50;

	if (!r->samples)
		return;
	if (run->cfg->pair_order != RPERF_PAIR_SEQUENTIAL &&
	    r->precompleted * 10 > r->samples)
		rperf_session_warn(
			&run->notes,
			"%llu B: %.1f %% of wire SENDs were complete when ibv_post_send returned (the provider does the work inside the post, as Soft-RoCE does); T_P-based times are then post costs: use --pair-order sequential",
			(unsigned long long)size,
			100.0 * (double)r->precompleted / (double)r->samples);
	wire50 = rperf_hist_percentile(r->wire, 50);
	loop50 = rperf_hist_percentile(r->loop, 50);
	if (loop50 >= wire50)
		rperf_session_warn(
			&run->notes,
			"%llu B: loopback p50 %lld ns >= wire p50 %lld ns: the loopback does not model the local path, RTTs cannot be trusted",
			(unsigned long long)size, (long long)loop50,
			(long long)wire50);
	if (r->nonpositive * 20 > r->samples)
		rperf_session_warn(
			&run->notes,
			"%llu B: %.1f %% of RTTs are <= 0 (recorded, not dropped): the wire and loopback paths overlap too much to separate",
			(unsigned long long)size,
			100.0 * (double)r->nonpositive / (double)r->samples);
}

void rperf_lat_check_results(struct rperf_lat_run *run)
{
	if (!run->clk.trusted)
		rperf_session_warn(&run->notes, "clock not trusted: %s",
				   run->clk.reason);
	for (size_t i = 0; i < run->nres; i++)
		if (rperf_lat_res_method(run, i) == RPERF_METHOD_RPERF)
			check_one(run, &run->res[i],
				  rperf_lat_res_size(run, i));
}

size_t rperf_lat_nmethods(const struct rperf_cli_config *cfg)
{
	return cfg->method == RPERF_METHOD_ALL ? 3 : 1;
}

int rperf_lat_method_at(const struct rperf_cli_config *cfg, size_t m)
{
	return cfg->method == RPERF_METHOD_ALL ? (int)m : cfg->method;
}

int rperf_lat_res_method(const struct rperf_lat_run *run, size_t i)
{
	return rperf_lat_method_at(run->cfg,
				   i / (run->cfg->nsizes * run->cfg->repeat));
}

uint64_t rperf_lat_res_size(const struct rperf_lat_run *run, size_t i)
{
	return run->cfg->sizes[i % run->cfg->nsizes];
}

uint64_t rperf_lat_res_repeat(const struct rperf_lat_run *run, size_t i)
{
	const struct rperf_cli_config *cfg = run->cfg;

	return cfg->repeat > 1 ?
		       i % (cfg->nsizes * cfg->repeat) / cfg->nsizes + 1 :
		       0;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* --repeat: min / median / max over the runs of p50 and p99.9, per size. */
static void print_spread(const struct rperf_lat_run *run)
{
	const struct rperf_cli_config *cfg = run->cfg;
	int64_t p50[1000], p999[1000];

	if (cfg->repeat < 2)
		return;
	printf("\nspread over %llu runs (RTT, usec): min / median / max\n",
	       (unsigned long long)cfg->repeat);
	for (size_t s = 0; s < cfg->nsizes * rperf_lat_nmethods(cfg); s++) {
		size_t base = s / cfg->nsizes * cfg->nsizes * cfg->repeat;
		size_t n = 0;

		for (size_t i = base + s % cfg->nsizes;
		     i < run->nres && i < base + cfg->nsizes * cfg->repeat;
		     i += cfg->nsizes) {
			if (!run->res[i].samples)
				continue;
			p50[n] = rperf_hist_percentile(run->res[i].rtt, 50);
			p999[n++] =
				rperf_hist_percentile(run->res[i].rtt, 99.9);
		}
		if (!n)
			continue;
		qsort(p50, n, sizeof(p50[0]), cmp_i64);
		qsort(p999, n, sizeof(p999[0]), cmp_i64);
		printf("  %-8s %8llu B  p50 %.3f / %.3f / %.3f   p99.9 %.3f / %.3f / %.3f   (%zu runs)\n",
		       rperf_method_name(
			       rperf_lat_method_at(cfg, s / cfg->nsizes)),
		       (unsigned long long)cfg->sizes[s % cfg->nsizes],
		       p50[0] / 1e3, p50[n / 2] / 1e3, p50[n - 1] / 1e3,
		       p999[0] / 1e3, p999[n / 2] / 1e3, p999[n - 1] / 1e3, n);
	}
}

static int write_json(const struct rperf_lat_run *run, const char *path,
		      const struct rperf_report *rep)
{
	int rc = rperf_report_write_file(path, RPERF_FMT_JSON, rep);

	if (rc)
		rperf_say(&run->say, "--out_json_file: cannot write %s: %s",
			  path, strerror(rc));
	return rc;
}

int rperf_lat_report(const struct rperf_lat_run *run,
		     const struct rperf_kv *config, size_t nconfig)
{
	struct rperf_lat_result *lat = calloc(run->nres + 1, sizeof(*lat));
	const char *warn[RPERF_MAX_WARNINGS];
	struct rperf_report rep = { 0 };
	struct rperf_retrans rt;
	char rt_ev[384];
	int rc, jrc;

	if (!lat)
		return ENOMEM;
	for (size_t i = 0; i < run->nres; i++) {
		const struct rperf_lsg_res *r = &run->res[i];

		lat[i] = (struct rperf_lat_result){
			.method =
				rperf_method_name(rperf_lat_res_method(run, i)),
			.size = rperf_lat_res_size(run, i),
			.repeat = rperf_lat_res_repeat(run, i),
			.samples = r->samples,
			.warmup = r->warmup,
			.nonpositive = r->nonpositive,
			.precompleted = r->precompleted,
			.seconds = r->seconds,
			.rtt = r->rtt,
			.wire = r->wire,
			.loop = r->loop,
			.post_wire = r->post_wire,
			.post_loop = r->post_loop,
			.half = r->half,
			.cpu_pct = run->cpu_pct[i],
		};
	}
	rep.command = "lat";
	rep.config = config;
	rep.nconfig = nconfig;
	rep.clock = &run->clk;
	rep.selftest = &run->selftest;
	rep.platform = &run->platform;
	rep.placement = &run->host.place;
	rep.preflight = &run->host.preflight;
	rep.lat = lat;
	rep.nlat = run->nres;
	rep.cpu_util = run->cfg->cpu_util;
	rep.percentiles = run->cfg->percentiles;
	rep.npercentiles = run->cfg->npercentiles;
	rep.warnings = warn;
	rep.nwarnings = rperf_session_warnings(&run->notes, warn);
	rep.timestamps = run->nic_ts ? "nic" : "cpu";
	rep.nic_clock_hz = run->nic_ts ? run->nic_clock_hz : 0;
	rep.timestamps_note = run->ts_note[0] ? run->ts_note : NULL;
	rep.partial = run->notes.partial;
	rep.error = run->notes.error[0] ? run->notes.error : NULL;
	if (rperf_retrans_view(&run->retrans, &rep, &rt, rt_ev, sizeof(rt_ev)))
		rep.retrans = &rt;
	rc = rperf_report_text(stdout, &rep);
	if (!rc)
		rc = rperf_report_retrans_text(stdout, rep.retrans);
	rperf_lat_print_half(run);
	rperf_lat_print_breakdown(run);
	print_spread(run);
	jrc = rperf_lat_print_samples(run);
	rc = rc ? rc : jrc;
	if (fflush(stdout) && !rc)
		rc = EIO;
	if (run->cfg->out_json) {
		jrc = write_json(run,
				 run->cfg->out_json_file ?
					 run->cfg->out_json_file :
					 "rperf.json",
				 &rep);

		rc = rc ? rc : jrc;
	}
	jrc = rperf_lat_write_files(run, &rep);
	rc = rc ? rc : jrc;
	free(lat);
	return rc;
}
