/* SPDX-License-Identifier: BSD-2-Clause */
/* Turning a client run into reports, and the warnings it deserves. */
#include "twohost/twohost_lat.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rperf/report.h>
#include "twohost/twohost_report.h"

/* One kind of warning over the sizes it applies to (-a: one line, not
 * one per size); a run has at most RPERF_MAX_SIZES sizes. */
struct warn_acc {
	uint64_t sizes[RPERF_MAX_SIZES];
	size_t n;
	double lo, hi; /* the figure's range over those sizes */
};

static void acc_add(struct warn_acc *a, uint64_t size, double v)
{
	size_t i;

	a->lo = a->n && a->lo < v ? a->lo : v;
	a->hi = a->n && a->hi > v ? a->hi : v;
	for (i = 0; i < a->n && a->sizes[i] != size; i++)
		;
	if (i == a->n && a->n < RPERF_MAX_SIZES)
		a->sizes[a->n++] = size;
}

/* "64 B", "64, 128 and 256 B", "every size (12, 2-4096 B)",
 * "14 sizes (2-8388608 B)" for @n sizes of a run of @nsizes. */
static void sizes_text(const uint64_t *sz, size_t n, size_t nsizes, char *buf,
		       size_t len)
{
	uint64_t lo = UINT64_MAX, hi = 0;
	int off = 0;

	for (size_t i = 0; i < n; i++) {
		lo = sz[i] < lo ? sz[i] : lo;
		hi = sz[i] > hi ? sz[i] : hi;
	}
	if (n > 1 && n == nsizes) {
		snprintf(buf, len, "every size (%zu, %llu-%llu B)", n,
			 (unsigned long long)lo, (unsigned long long)hi);
		return;
	}
	if (n > 4) {
		snprintf(buf, len, "%zu sizes (%llu-%llu B)", n,
			 (unsigned long long)lo, (unsigned long long)hi);
		return;
	}
	for (size_t i = 0; i < n && off >= 0 && (size_t)off < len; i++)
		off += snprintf(buf + off, len - (size_t)off, "%s%llu",
				i == 0	   ? "" :
				i + 1 == n ? " and " :
					     ", ",
				(unsigned long long)sz[i]);
	if (off >= 0 && (size_t)off < len)
		snprintf(buf + off, len - (size_t)off, " B");
}

/* "100.0 %" or "96.5-100.0 %" */
static void range_text(const struct warn_acc *a, char *buf, size_t len)
{
	if (a->hi - a->lo < 0.05)
		snprintf(buf, len, "%.1f %%", a->hi);
	else
		snprintf(buf, len, "%.1f-%.1f %%", a->lo, a->hi);
}

enum { W_PRECOMPLETED, W_LOOP_SLOWER, W_NONPOSITIVE, W_KINDS };

static void check_one(const struct rperf_lat_run *run,
		      const struct rperf_lsg_res *r, uint64_t size,
		      struct warn_acc acc[W_KINDS])
{
	int64_t wire50, loop50;

	if (!r->samples)
		return;
	if (run->c.cfg->spec.pair_order != RPERF_PAIR_SEQUENTIAL &&
	    r->precompleted * 10 > r->samples)
		acc_add(&acc[W_PRECOMPLETED], size,
			100.0 * (double)r->precompleted / (double)r->samples);
	wire50 = rperf_hist_percentile(r->wire, 50);
	loop50 = rperf_hist_percentile(r->loop, 50);
	if (loop50 >= wire50)
		acc_add(&acc[W_LOOP_SLOWER], size,
			(double)(loop50 - wire50) / 1e3);
	if (r->nonpositive * 20 > r->samples)
		acc_add(&acc[W_NONPOSITIVE], size,
			100.0 * (double)r->nonpositive / (double)r->samples);
}

static void warn_acc(struct rperf_lat_run *run,
		     const struct warn_acc acc[W_KINDS])
{
	char sz[96], v[48];

	if (acc[W_PRECOMPLETED].n) {
		sizes_text(acc[W_PRECOMPLETED].sizes, acc[W_PRECOMPLETED].n,
			   run->c.cfg->nsizes, sz, sizeof(sz));
		range_text(&acc[W_PRECOMPLETED], v, sizeof(v));
		rperf_twohost_warn(
			&run->c.notes,
			"%s: %s of wire SENDs were complete when ibv_post_send returned (the provider works inside the post, as Soft-RoCE): use --pair-order sequential",
			sz, v);
	}
	if (acc[W_LOOP_SLOWER].n) {
		sizes_text(acc[W_LOOP_SLOWER].sizes, acc[W_LOOP_SLOWER].n,
			   run->c.cfg->nsizes, sz, sizeof(sz));
		rperf_twohost_warn(
			&run->c.notes,
			"%s: loopback p50 >= wire p50 (by up to %.3f us): the loopback does not model the local path, RTTs cannot be trusted",
			sz, acc[W_LOOP_SLOWER].hi);
	}
	if (acc[W_NONPOSITIVE].n) {
		sizes_text(acc[W_NONPOSITIVE].sizes, acc[W_NONPOSITIVE].n,
			   run->c.cfg->nsizes, sz, sizeof(sz));
		range_text(&acc[W_NONPOSITIVE], v, sizeof(v));
		rperf_twohost_warn(
			&run->c.notes,
			"%s: %s of RTTs are <= 0 (recorded, not dropped): the wire and loopback paths overlap too much to separate",
			sz, v);
	}
}

/* --schedule fixed/poisson: the lag of each size; falling behind warns. */
static void sched_warn(struct rperf_lat_run *run, size_t i)
{
	const struct rperf_lsg_res *r = &run->res[i];
	const struct rperf_sched_figs f = run->sched[i];
	uint64_t size = rperf_lat_res_size(run, i);
	char name[RPERF_SCHED_TEXT];

	if (!f.open || !r->samples)
		return;
	rperf_sched_format(&run->c.cfg->spec.schedule, name, sizeof(name));
	rperf_twohost_warn(
		&run->c.notes,
		"%llu B: schedule %s: %llu of %llu samples posted more than %.1f us after they were due (lag p99 %.1f us, max %.1f us; up to %llu in flight)%s",
		(unsigned long long)size, name, (unsigned long long)f.late,
		(unsigned long long)r->samples, (double)f.lag_bound_ns / 1e3,
		(double)f.lag_p99_ns / 1e3, (double)f.lag_max_ns / 1e3,
		(unsigned long long)f.inflight_max,
		rperf_sched_fell_behind(&f, r->samples) ?
			": the prober FELL BEHIND its schedule, the figures are not the schedule's; lower the rate" :
			" (kept up)");
}

void rperf_lat_check_results(struct rperf_lat_run *run)
{
	struct warn_acc acc[W_KINDS] = { 0 };

	if (!run->clk.trusted)
		rperf_twohost_warn(&run->c.notes, "clock not trusted: %s",
				   run->clk.reason);
	for (size_t i = 0; i < run->nres; i++)
		if (rperf_lat_res_method(run, i) == RPERF_METHOD_RPERF)
			check_one(run, &run->res[i], rperf_lat_res_size(run, i),
				  acc);
	warn_acc(run, acc);
	for (size_t i = 0; i < run->nres; i++)
		sched_warn(run, i);
}

size_t rperf_lat_nmethods(const struct rperf_cmdline *cfg)
{
	return cfg->spec.test.method == RPERF_METHOD_ALL ? 3 : 1;
}

int rperf_lat_method_at(const struct rperf_cmdline *cfg, size_t m)
{
	return cfg->spec.test.method == RPERF_METHOD_ALL ?
		       (int)m :
		       cfg->spec.test.method;
}

int rperf_lat_res_method(const struct rperf_lat_run *run, size_t i)
{
	return rperf_lat_method_at(
		run->c.cfg, i / (run->c.cfg->nsizes * run->c.cfg->repeat));
}

uint64_t rperf_lat_res_size(const struct rperf_lat_run *run, size_t i)
{
	return run->c.cfg->sizes[i % run->c.cfg->nsizes];
}

uint64_t rperf_lat_res_repeat(const struct rperf_lat_run *run, size_t i)
{
	const struct rperf_cmdline *cfg = run->c.cfg;

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
	const struct rperf_cmdline *cfg = run->c.cfg;
	int64_t p50[1000], p999[1000];

	if (cfg->repeat < 2)
		return;
	fprintf(run->c.out,
		"\nspread over %llu runs (RTT, usec): min / median / max\n",
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
		fprintf(run->c.out,
			"  %-8s %8llu B  p50 %.3f / %.3f / %.3f   p99.9 %.3f / %.3f / %.3f   (%zu runs)\n",
			rperf_method_name(
				rperf_lat_method_at(cfg, s / cfg->nsizes)),
			(unsigned long long)cfg->sizes[s % cfg->nsizes],
			p50[0] / 1e3, p50[n / 2] / 1e3, p50[n - 1] / 1e3,
			p999[0] / 1e3, p999[n / 2] / 1e3, p999[n - 1] / 1e3, n);
	}
}

static int write_json(const char *path, const struct rperf_report *rep)
{
	return rperf_report_write_file(path, RPERF_FMT_JSON, rep);
}

int rperf_lat_report(const struct rperf_lat_run *run,
		     const struct rperf_kv *config, size_t nconfig)
{
	struct rperf_lat_result *lat = calloc(run->nres + 1, sizeof(*lat));
	struct rperf_twohost_view v = { 0 };
	struct rperf_report rep = { 0 };
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
			.interval_ns = run->c.cfg->spec.interval_ns,
			.intervals = r->series.iv,
			.nintervals = r->series.n,
		};
	}
	rep.clock = &run->clk;
	rep.selftest = &run->selftest;
	rep.lat = lat;
	rep.nlat = run->nres;
	rep.half_rtt = run->c.cfg->half_rtt;
	rep.percentiles = run->c.cfg->percentiles;
	rep.npercentiles = run->c.cfg->npercentiles;
	rep.timestamps = run->nic_ts ? "nic" : "cpu";
	rep.nic_clock_hz = run->nic_ts ? run->nic_clock_hz : 0;
	rep.timestamps_note = run->ts_note[0] ? run->ts_note : NULL;
	rperf_twohost_report_fill(&run->c, "lat", config, nconfig, &v, &rep);
	rc = rperf_report_text(run->c.out, &rep);
	if (!rc)
		rc = rperf_report_retrans_text(run->c.out, rep.retrans);
	rperf_lat_print_half(run);
	rperf_lat_print_breakdown(run);
	print_spread(run);
	jrc = rperf_report_intervals_text(run->c.out, &rep);
	rc = rc ? rc : jrc;
	jrc = rperf_lat_print_samples(run);
	rc = rc ? rc : jrc;
	if (fflush(run->c.out) && !rc)
		rc = EIO;
	jrc = rperf_twohost_report_files(&run->c, &rep, write_json);
	rc = rc ? rc : jrc;
	jrc = rperf_lat_write_files(run, &rep);
	rc = rc ? rc : jrc;
	free(lat);
	return rc;
}
