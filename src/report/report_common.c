// SPDX-License-Identifier: BSD-2-Clause
/* Helpers shared by every renderer: percentile list, reliability, I/O. */
#include <errno.h>
#include <math.h>
#include <stdio.h>

#include "report_int.h"

const double rperf_rpt_default_pcts[RPERF_RPT_NDEFAULT_PCTS] = { 50, 99, 99.9,
								 99.99 };

void rperf_rpt_pcts(const struct rperf_report *r, const double **ps, size_t *n)
{
	if (r->percentiles && r->npercentiles) {
		*ps = r->percentiles;
		*n = r->npercentiles;
	} else {
		*ps = rperf_rpt_default_pcts;
		*n = RPERF_RPT_NDEFAULT_PCTS;
	}
}

void rperf_rpt_pct_key(double p, char *buf, size_t len)
{
	/* %.10g: 99.9 -> "99.9", 50 -> "50", never "99.900000000000006" */
	snprintf(buf, len, "%.10g", p);
}

int rperf_rpt_io_status(FILE *f)
{
	if (fflush(f) != 0 || ferror(f))
		return EIO;
	return 0;
}

/*
 * Rule: the percentile p (in percent) needs at least 10 / (1 - p/100) samples,
 * i.e. at least 10 samples beyond it: p50 needs 20, p99 1,000, p99.9 10,000,
 * p99.99 100,000. The extremes p <= 0 (the exact minimum) and p >= 100 (the
 * exact maximum) are recorded exactly and are reliable with any non-empty
 * histogram. Nothing is reliable with no samples, nor a NaN p.
 *
 * 1000 / (100 - p) is computed in binary floating point, where 100 - 99.9 is
 * 0.0999999999999943: the quotient is rounded to 1e-9 relative before the
 * ceiling so that 10,000 samples do support p99.9.
 */
bool rperf_percentile_reliable(double p, uint64_t samples)
{
	double need;

	if (samples == 0 || isnan(p))
		return false;
	if (p <= 0 || p >= 100)
		return true;
	need = 1000.0 / (100.0 - p);
	need = ceil(need - need * 1e-9);
	return (double)samples >= need;
}
