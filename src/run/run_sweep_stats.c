/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Figures of a sweep point over its repeats (run_sweep.h): mean and the
 * half width of the 95 % confidence interval of the mean, Student's t with
 * n - 1 degrees of freedom (two-sided), over the repeats that measured the
 * figure (an aborted repeat, or one without LSG samples, has none).
 */
#include "run/run_sweep.h"

#include <math.h>
#include <string.h>

const char *const rperf_sweep_fig_names[RPERF_SWEEP_NFIG] = {
	"lsg_p50_ns", "lsg_p99_ns",	   "lsg_p999_ns",
	"bsg_gbps",   "bsg_receiver_gbps",
};

/* t(0.975, df) for df = 1..30; beyond: 2.00 to 60, 1.98 to 120, 1.96 */
static const double t975[30] = {
	12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
	2.201,	2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
	2.080,	2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
};

static double t_crit(size_t df)
{
	if (df >= 1 && df <= 30)
		return t975[df - 1];
	return df <= 60 ? 2.00 : df <= 120 ? 1.98 : 1.96;
}

void rperf_mean_ci95(const double *v, size_t n, double *mean, double *ci95)
{
	double sum = 0, ss = 0;

	*mean = NAN;
	*ci95 = NAN;
	if (!n)
		return;
	for (size_t i = 0; i < n; i++)
		sum += v[i];
	*mean = sum / (double)n;
	if (n < 2)
		return;
	for (size_t i = 0; i < n; i++)
		ss += (v[i] - *mean) * (v[i] - *mean);
	*ci95 = t_crit(n - 1) * sqrt(ss / (double)(n - 1)) / sqrt((double)n);
}

static bool measured(const struct rperf_run_results *r)
{
	return r && !r->aborted;
}

void rperf_sweep_stat(const struct rperf_sweep_point *p, enum rperf_sweep_fig f,
		      struct rperf_sweep_stat *st)
{
	memset(st, 0, sizeof(*st));
	for (size_t k = 0; k < p->nrep; k++) {
		struct rperf_sweep_sum m;
		double v;

		if (!measured(p->rep[k]))
			continue;
		rperf_sweep_summary_of(p->rep[k], &m);
		switch (f) {
		case RPERF_SWEEP_P50:
		case RPERF_SWEEP_P99:
		case RPERF_SWEEP_P999:
			if (!m.have_rtt)
				continue;
			v = (double)(f == RPERF_SWEEP_P50 ? m.p50 :
				     f == RPERF_SWEEP_P99 ? m.p99 :
							    m.p999);
			break;
		case RPERF_SWEEP_GBPS:
		case RPERF_SWEEP_RX_GBPS:
			if (!m.nbsg)
				continue;
			v = f == RPERF_SWEEP_GBPS ? m.bsg_gbps :
						    m.bsg_receiver_gbps;
			break;
		default:
			continue;
		}
		st->v[st->n++] = v;
	}
	rperf_mean_ci95(st->v, st->n, &st->mean, &st->ci95);
}

void rperf_sweep_stat_by(const struct rperf_sweep_point *p, const char *name,
			 bool cls, struct rperf_sweep_stat *st)
{
	memset(st, 0, sizeof(*st));
	for (size_t k = 0; k < p->nrep; k++) {
		const struct rperf_run_results *r =
			measured(p->rep[k]) ? p->rep[k] : NULL;
		double g;

		if (cls ? rperf_sweep_gbps_by_class_of(r, name, &g) :
			  rperf_sweep_gbps_by_name_of(r, name, &g))
			st->v[st->n++] = g;
	}
	rperf_mean_ci95(st->v, st->n, &st->mean, &st->ci95);
}
