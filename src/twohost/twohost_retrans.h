/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Did RC likely retransmit during a client run? rperf lat and rperf bw read
 * the local device's retransmission counters (verbs/hwcnt.h) when the rounds
 * begin and when they end; the report gets the deltas. When the counters
 * cannot be read, the figures are the evidence: a latency sample that took
 * at least the RC ACK timeout (4.096 us * 2^qp_timeout, the least a
 * retransmission costs) and >= 10x the median; for bw, which keeps totals
 * only, a stalled run. The report says which evidence was used.
 */
#ifndef RPERF_TWOHOST_RETRANS_H
#define RPERF_TWOHOST_RETRANS_H

#include <rperf/report.h>
#include <stdbool.h>

#include "verbs/hwcnt.h"

struct rperf_retrans_probe {
	bool begun, readable;
	char dev[64];
	int port;
	unsigned int qp_timeout; /* the ACK timeout exponent asked for */
	struct rperf_hwcnt before, delta;
	const char *names[RPERF_HWCNT_MAX];
	uint64_t sum; /* of the deltas */
	char unreadable[256]; /* why the counters were not read */
};

/* When the rounds begin: DEV's port PORT counters (under @sysroot, NULL =
 * sysfs). Never fails: an unreadable device is noted for the report. */
void rperf_retrans_begin(struct rperf_retrans_probe *p, const char *sysroot,
			 const char *dev, int port, unsigned int qp_timeout);
/* When the rounds end: the counters again and the deltas. No-op unless
 * begun. */
void rperf_retrans_end(struct rperf_retrans_probe *p, const char *sysroot);
/* The report's view in @out, judged from the deltas or else from @rep's
 * results (lat, bw, error); its strings point into @p and @ev (the evidence
 * in words). false (nothing to report) when the rounds never began. */
bool rperf_retrans_view(const struct rperf_retrans_probe *p,
			const struct rperf_report *rep,
			struct rperf_retrans *out, char *ev, size_t evlen);

#endif
