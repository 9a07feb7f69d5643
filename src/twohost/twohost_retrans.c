/* SPDX-License-Identifier: BSD-2-Clause */
/* Retransmissions during a client run: hw counters, else the figures
 * (twohost_retrans.h). */
#include "twohost/twohost_retrans.h"

#include <inttypes.h>
#include <rperf/hist.h>
#include <stdio.h>
#include <string.h>

void rperf_retrans_begin(struct rperf_retrans_probe *p, const char *sysroot,
			 const char *dev, int port, unsigned int qp_timeout)
{
	memset(p, 0, sizeof(*p));
	p->begun = true;
	p->port = port;
	p->qp_timeout = qp_timeout;
	snprintf(p->dev, sizeof(p->dev), "%s", dev ? dev : "");
	p->readable = !rperf_hwcnt_read(sysroot, p->dev, port, &p->before,
					p->unreadable, sizeof(p->unreadable));
}

void rperf_retrans_end(struct rperf_retrans_probe *p, const char *sysroot)
{
	struct rperf_hwcnt after;

	if (!p->begun || !p->readable)
		return;
	if (rperf_hwcnt_read(sysroot, p->dev, p->port, &after, p->unreadable,
			     sizeof(p->unreadable))) {
		p->readable = false;
		return;
	}
	p->sum = rperf_hwcnt_delta(&p->before, &after, &p->delta);
	for (unsigned int i = 0; i < p->delta.n; i++)
		p->names[i] = p->delta.name[i];
}

static void from_counters(const struct rperf_retrans_probe *p, char *ev,
			  size_t cap)
{
	size_t n = 0;
	const char *sep = ": ";

	n += (size_t)snprintf(ev, cap, "%s port %d hw counters", p->dev,
			      p->port);
	if (!p->sum) {
		snprintf(ev + n, cap - n,
			 ": none of %u retransmission counters moved",
			 p->delta.n);
		return;
	}
	for (unsigned int i = 0; i < p->delta.n && n < cap; i++) {
		if (!p->delta.val[i])
			continue;
		n += (size_t)snprintf(ev + n, cap - n, "%s%s +%" PRIu64, sep,
				      p->delta.name[i], p->delta.val[i]);
		sep = ", ";
	}
}

/* lat: the slowest sample against the ACK timeout and the median. */
static bool from_lat(const struct rperf_retrans_probe *p,
		     const struct rperf_report *rep, char *ev, size_t cap)
{
	double ack_ns =
		p->qp_timeout ? 4096.0 * (double)(1ull << p->qp_timeout) : 0;
	int64_t worst = 0, med = 0;
	uint64_t size = 0;
	bool likely;

	for (size_t i = 0; i < rep->nlat; i++) {
		int64_t mx = rperf_hist_max(rep->lat[i].rtt);

		if (rperf_hist_count(rep->lat[i].rtt) && mx > worst) {
			worst = mx;
			med = rperf_hist_percentile(rep->lat[i].rtt, 50);
			size = rep->lat[i].size;
		}
	}
	likely = ack_ns > 0 && (double)worst >= ack_ns && med > 0 &&
		 worst >= 10 * med;
	snprintf(
		ev, cap,
		"from the figures, hw counters unreadable: the slowest sample, %.3f ms at %" PRIu64
		" B, %s the RC ACK timeout (%.3f ms) and is %.0fx the median (%.3f us)",
		(double)worst / 1e6, size, likely ? "reached" : "is below",
		ack_ns / 1e6, med > 0 ? (double)worst / (double)med : 0.0,
		(double)med / 1e3);
	return likely;
}

/* bw keeps totals only: a stall is the evidence. */
static bool from_bw(const struct rperf_report *rep, char *ev, size_t cap)
{
	bool stalled = rep->error && strstr(rep->error, "stalled");

	snprintf(
		ev, cap, "from the figures, hw counters unreadable: %s",
		stalled ?
			"the run stalled (no completion within the stall limit)" :
			"no stall; bw keeps totals only, so retransmissions that did not stall the run cannot be ruled out");
	return stalled;
}

bool rperf_retrans_view(const struct rperf_retrans_probe *p,
			const struct rperf_report *rep,
			struct rperf_retrans *out, char *ev, size_t evlen)
{
	if (!p->begun)
		return false;
	memset(out, 0, sizeof(*out));
	out->evidence = ev;
	if (p->readable) {
		from_counters(p, ev, evlen);
		out->likely = p->sum > 0;
		out->source = "hw_counters";
		out->device = p->dev;
		out->port = p->port;
		out->names = p->names;
		out->deltas = p->delta.val;
		out->ncounters = p->delta.n;
		return true;
	}
	out->source = "figures";
	out->unreadable = p->unreadable;
	out->likely = rep->nlat ? from_lat(p, rep, ev, evlen) :
				  from_bw(rep, ev, evlen);
	return true;
}
