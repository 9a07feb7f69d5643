/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * An LSG instance's RTT limits (run.h struct rperf_run_limit): its
 * [lsg]'s max_p50 and max_p999 judged on the merged RTT histogram, by the
 * rule rperf lat's --max-p50 and --max-p999 follow (report_limit.h).
 */
#include "run/run.h"

#include "report/report_limit.h"

size_t rperf_run_inst_limits(const struct rperf_run_inst *in,
			     struct rperf_run_limit out[RPERF_RUN_NLIMITS])
{
	const struct rperf_gen_spec *s = in->spec;
	bool lsg = rperf_gen_latency(s->kind);
	size_t n = 0;

	out[0] = (struct rperf_run_limit){
		.key = "max_p50", .p = 50, .limit_ns = lsg ? s->max_p50_ns : 0
	};
	out[1] = (struct rperf_run_limit){ .key = "max_p999",
					   .p = 99.9,
					   .limit_ns = lsg ? s->max_p999_ns :
							     0 };
	for (size_t i = 0; i < RPERF_RUN_NLIMITS; i++) {
		out[i].over = rperf_rtt_over(in->rtt, out[i].p, out[i].limit_ns,
					     &out[i].value_ns);
		n += out[i].over;
	}
	return n;
}

size_t rperf_run_results_over(const struct rperf_run_results *r)
{
	struct rperf_run_limit l[RPERF_RUN_NLIMITS];
	size_t n = 0;

	for (size_t i = 0; i < r->job->ninst; i++)
		n += rperf_run_inst_limits(&r->inst[i], l) > 0;
	return n;
}
