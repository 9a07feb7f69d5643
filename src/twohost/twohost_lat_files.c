/* SPDX-License-Identifier: BSD-2-Clause */
/* --raw, --hist and --csv files, -H / -U on the report stream, and the pass/fail
 * limits (--max-p50, --max-p999, --limit_lat). */
#include "twohost/twohost_lat.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rperf/report.h>

#include "report/report_breakdown.h"
#include "report/report_cdf.h"
#include "report/report_limit.h"

/* Every round's samples in turn under one header: no copy of them all. */
static int write_raw(FILE *f, void *arg)
{
	const struct rperf_lat_run *run = arg;
	int rc = rperf_report_raw_csv(f, NULL, 0);

	for (size_t i = 0; i < run->nres && !rc; i++)
		rc = rperf_rpt_raw_rows(f, run->res[i].raw, run->res[i].nraw,
					"");
	return rc;
}

static int write_cdf(FILE *f, void *arg)
{
	const struct rperf_lat_run *run = arg;
	int rc = 0;

	for (size_t i = 0; i < run->nres && !rc; i++)
		rc = rperf_report_cdf_csv(f, run->res[i].rtt,
					  rperf_lat_res_size(run, i),
					  rperf_lat_res_repeat(run, i), i == 0);
	return rc;
}

static int one_file(const struct rperf_lat_run *run, const char *opt,
		    const char *path, int (*fn)(FILE *, void *))
{
	int rc = rperf_atomic_write(path, fn, (void *)run);

	if (rc)
		rperf_say(&run->c.say, "%s: cannot write %s: %s", opt, path,
			  strerror(rc));
	return rc;
}

int rperf_lat_write_files(const struct rperf_lat_run *run,
			  const struct rperf_report *rep)
{
	const struct rperf_cmdline *cfg = run->c.cfg;
	int rc[3] = { 0, 0, 0 }; /* every file is attempted */

	if (cfg->raw_file)
		rc[0] = one_file(run, "--raw", cfg->raw_file, write_raw);
	if (cfg->hist_file)
		rc[1] = one_file(run, "--hist", cfg->hist_file, write_cdf);
	if (cfg->csv_file) {
		rc[2] = rperf_report_write_file(cfg->csv_file, RPERF_FMT_CSV,
						rep);
		if (rc[2])
			rperf_say(&run->c.say, "--csv: cannot write %s: %s",
				  cfg->csv_file, strerror(rc[2]));
	}
	return rc[0] ? rc[0] : rc[1] ? rc[1] : rc[2];
}

static bool over(const char *opt, double p, uint64_t limit_ns,
		 const struct rperf_lat_run *run, size_t i)
{
	int64_t v;

	if (!run->res[i].samples ||
	    !rperf_rtt_over(run->res[i].rtt, p, limit_ns, &v))
		return false;
	rperf_say(
		&run->c.say,
		"%s: RTT p%g at %llu B is %.3f us, above the limit of %.3f us",
		opt, p, (unsigned long long)rperf_lat_res_size(run, i),
		(double)v / 1e3, (double)limit_ns / 1e3);
	return true;
}

bool rperf_lat_thresholds(const struct rperf_lat_run *run)
{
	bool exceeded = false;

	for (size_t i = 0; i < run->nres; i++) {
		exceeded |= over("--max-p50", 50, run->c.cfg->spec.max_p50_ns,
				 run, i);
		exceeded |= over("--max-p999", 99.9,
				 run->c.cfg->spec.max_p999_ns, run, i);
		exceeded |= over("--limit_lat", 50, run->c.cfg->limit_lat_ns,
				 run, i);
	}
	return exceeded;
}

int rperf_lat_print_samples(const struct rperf_lat_run *run)
{
	int rc = 0;

	if (run->c.cfg->report_histogram) {
		fprintf(run->c.out,
			"\n-H: the RTT CDF in ns, the --hist CSV (non-empty buckets, increasing)\n");
		rc = write_cdf(run->c.out, (void *)run);
	}
	if (!rc && run->c.cfg->report_unsorted) {
		fprintf(run->c.out,
			"\n-U: every sample in ns, in the order measured (unsorted), the --raw CSV\n");
		rc = write_raw(run->c.out, (void *)run);
	}
	return rc;
}

void rperf_lat_print_breakdown(const struct rperf_lat_run *run)
{
	if (!run->c.cfg->spec.breakdown)
		return;
	fprintf(run->c.out, "\nbreakdown (usec; the components of the RTT):\n");
	for (size_t i = 0; i < run->nres; i++) {
		const struct rperf_lsg_res *r = &run->res[i];
		int m = rperf_lat_res_method(run, i);

		if (!r->samples)
			continue;
		fprintf(run->c.out, "  %s %llu B%s\n", rperf_method_name(m),
			(unsigned long long)rperf_lat_res_size(run, i),
			r->precompleted * 2 > r->samples ?
				" (complete inside the post: the post cost includes the round trip)" :
				"");
		rperf_rpt_breakdown_rows(
			run->c.out,
			&(struct rperf_rpt_breakdown){
				.equation1 = m == RPERF_METHOD_RPERF,
				.post_wire = r->post_wire,
				.post_loop = r->post_loop,
				.loop = r->loop,
				.wire = r->wire,
				.rtt = r->rtt,
				.half = r->half });
	}
}

/* pingpong: perftest reports half the round trip; show both. */
void rperf_lat_print_half(const struct rperf_lat_run *run)
{
	for (size_t i = 0; i < run->nres; i++) {
		const struct rperf_lsg_res *r = &run->res[i];

		if (!r->half || !r->samples)
			continue;
		fprintf(run->c.out,
			"pingpong %llu B: the table shows the RTT; RTT/2 (what perftest reports) p50 %.3f usec, p99.9 %.3f usec\n",
			(unsigned long long)rperf_lat_res_size(run, i),
			(double)rperf_hist_percentile(r->half, 50) / 1e3,
			(double)rperf_hist_percentile(r->half, 99.9) / 1e3);
	}
}
