/* SPDX-License-Identifier: BSD-2-Clause */
/* RTT limits (report_limit.h). */
#include "report/report_limit.h"

#include <rperf/hist.h>

bool rperf_rtt_over(const struct rperf_hist *rtt, double p, uint64_t limit_ns,
		    int64_t *value)
{
	int64_t v = rtt && rperf_hist_count(rtt) ?
			    rperf_hist_percentile(rtt, p) :
			    0;

	if (value)
		*value = v;
	return limit_ns && rtt && rperf_hist_count(rtt) &&
	       v > (int64_t)limit_ns;
}
