/* SPDX-License-Identifier: BSD-2-Clause */
#include "gen/nic_ts.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gen/gen.h"
#include "util/err.h"

int64_t rperf_nic_delta(uint64_t mask, uint64_t a, uint64_t b)
{
	uint64_t d = (b - a) & mask;

	if (mask == UINT64_MAX)
		return (int64_t)d;
	/* above half the range: b is behind a */
	if (d > mask / 2 + 1)
		return (int64_t)d - (int64_t)mask - 1;
	return (int64_t)d;
}

double rperf_nic_rtt_ns(const struct rperf_nic_clock *nic,
			const struct rperf_clock *cpu, uint64_t tw, uint64_t tl,
			uint64_t tp_wire, uint64_t tp_loop)
{
	double nic_ns =
		(double)rperf_nic_delta(nic->mask, tl, tw) * 1e9 / nic->hz;
	double post_ns =
		rperf_clock_ticks_to_ns(cpu, (int64_t)(tp_wire - tp_loop));

	return nic_ns - post_ns;
}

bool rperf_nic_clock_warning(double hz, double measured_hz, double ppm,
			     char *buf, size_t len)
{
	if (!(measured_hz > 0) || !(fabs(ppm) > RPERF_NIC_CLOCK_MAX_PPM))
		return false;
	snprintf(
		buf, len,
		"the NIC clock runs at %.0f Hz, hca_core_clock says %.0f Hz (%+.0f ppm): NIC-stamped RTTs scale by that much",
		measured_hz, hz, ppm);
	return true;
}

int rperf_nic_stamps_choose(struct rperf_dev *d, int want, const char *key,
			    struct rperf_nic_stamps *s, char *err,
			    size_t errlen)
{
	char why[200];
	int rc;

	memset(s, 0, sizeof(*s));
	if (want == RPERF_TS_CPU)
		return 0;
	rc = rperf_dev_query_ts(d, 20, &s->ts, why, sizeof(why));
	if (rc && want == RPERF_TS_NIC)
		return rperf_fail(err, errlen, rc,
				  "%s nic: %s; accepted: cpu or auto", key,
				  why);
	if (rc)
		snprintf(s->note, sizeof(s->note), "%s", why);
	s->nic = !rc;
	return 0;
}

bool rperf_nic_stamps_drop(struct rperf_nic_stamps *s, int want,
			   const char *dev, int rc)
{
	if (!rc || !s->nic || want != RPERF_TS_AUTO)
		return false;
	snprintf(s->note, sizeof(s->note),
		 "%s: a CQ with completion timestamps cannot be created (%s)",
		 dev, strerror(rc));
	s->nic = false;
	return true;
}
