/* SPDX-License-Identifier: BSD-2-Clause */
/* The LSG's time series (lsg.h interval_ns): one histogram per interval. */
#include "gen/lsg_priv.h"

#include <errno.h>

static int flush(struct lsg_run *r)
{
	int rc = rperf_lsg_series_push(&r->res->series,
				       r->iv_k * r->cfg->interval_ns, r->ivh);

	r->iv_k++;
	r->iv_next += r->iv_ticks;
	if (!rc && r->cfg->on_row)
		r->cfg->on_row(r->cfg->row_arg,
			       &r->res->series.iv[r->res->series.n - 1]);
	return rc == ENOMEM ?
		       lsg_fail(r, rc, "%s",
				"out of memory keeping the time series") :
		       0; /* past RPERF_SERIES_MAX: the rest is dropped */
}

int lsg_series_add(struct lsg_run *r, uint64_t tp, int64_t rtt)
{
	int rc = 0;

	if (!r->ivh)
		return 0;
	if (!r->iv_ticks) { /* the first counted sample opens interval 0 */
		r->iv_ticks = lsg_ns_to_ticks(r->cfg->clk, r->cfg->interval_ns);
		r->iv_ticks += !r->iv_ticks;
		r->iv_next = tp + r->iv_ticks;
	}
	while (!rc && tp >= r->iv_next)
		rc = flush(r);
	rperf_hist_record(r->ivh, rtt);
	return rc;
}

int lsg_series_end(struct lsg_run *r)
{
	int rc = r->ivh && r->iv_ticks ? flush(r) : 0;

	rperf_hist_destroy(r->ivh);
	r->ivh = NULL;
	return rc;
}
