/* SPDX-License-Identifier: BSD-2-Clause */
/* rperf run --hist FILE: every LSG's RTT CDF as CSV (report/report_cdf.h),
 * the rows of rperf lat --hist with the generator first. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include <rperf/report.h>

#include "report/report_cdf.h"
#include "run/run.h"

static int write_cdfs(FILE *f, void *arg)
{
	const struct rperf_run_results *r = arg;
	char prefix[3 * RPERF_NAME_LEN + 32];
	int rc = 0;

	fputs("generator,from,to,size," RPERF_RPT_CDF_COLUMNS "\n", f);
	for (size_t i = 0; i < r->job->ninst && !rc; i++) {
		const struct rperf_run_inst *in = &r->inst[i];
		const struct rperf_gen_spec *s = in->spec;

		if (!rperf_gen_latency(s->kind) || !in->rtt)
			continue;
		snprintf(prefix, sizeof(prefix), "%s,%s,%s,%" PRIu64 ",",
			 s->name, s->from, s->to, s->size);
		rc = rperf_rpt_cdf_rows(f, in->rtt, prefix);
	}
	return rc ? rc : ferror(f) ? EIO : 0;
}

int rperf_run_write_hist(const char *path, const struct rperf_run_results *r)
{
	return rperf_atomic_write(path, write_cdfs, (void *)r);
}
