/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Localization over a matrix of p50 RTTs (the rule: mesh.h). Medians and
 * MADs only, so that the slow cells (a slow port makes 2(n-1) of the
 * n(n-1) cells slow, two ports almost 4(n-1)) do not move the baseline
 * they are compared with.
 */
#include "run/mesh.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAD_SIGMA 1.4826 /* MAD -> standard deviation of a normal */
#define PASSES 3

const char *rperf_mesh_rule(void)
{
	return "baseline b = median p50 of the measured cells, noise s = 1.4826 x MAD of the cells less their ports' row/column medians; "
	       "a cell is out above b + T, T = max(6 s, out_above, 20 % of b) (b, s from the cells through no named port); "
	       "a port is named when the medians of its row (as source) and column (as destination) are both out, "
	       "its added RTT the median of its row and column less the other end's named port; "
	       "a pair is named when its cell is out after its ports' added RTT is taken off "
	       "(through a named port: also above that port's added RTT and 6 x the noise of its cells); "
	       "a named pair is measured again alone and named only when out twice (each cell's lower measurement)";
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Median of @v[0..n) (sorted in place); NaN when n == 0. */
static double median(double *v, size_t n)
{
	if (!n)
		return NAN;
	qsort(v, n, sizeof(*v), cmp_double);
	return n & 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

struct locate {
	const double *p50;
	size_t n;
	double floor_ns;
	double *buf; /* n * n + n scratch */
	bool *port; /* [n] named ports */
	double *added; /* [n] their added RTT, 0 for others */
	struct rperf_mesh_verdict *v;
};

static bool measured(const struct locate *l, size_t i, size_t j)
{
	return i != j && isfinite(l->p50[i * l->n + j]);
}

/* Median excess over the baseline of host @h's row (@row) or column,
 * each cell less the other end's named port's added RTT. */
static double line_excess(struct locate *l, size_t h, bool row)
{
	size_t k = 0;

	for (size_t o = 0; o < l->n; o++) {
		size_t i = row ? h : o, j = row ? o : h;

		if (measured(l, i, j))
			l->buf[k++] = l->p50[i * l->n + j] - l->v->base_ns -
				      l->added[o];
	}
	return median(l->buf, k);
}

/*
 * Baseline, noise and threshold from the cells touching no named port. The
 * noise is the MAD of the cells less each end's port effect
 * max(0, min(row median, column median)) over the baseline, so that slow
 * ports not named yet (the first pass) do not make it large.
 */
static void baseline(struct locate *l)
{
	struct rperf_mesh_verdict *v = l->v;
	double *eff = l->buf + l->n * l->n, b, mid;
	size_t k = 0;

	for (size_t i = 0; i < l->n; i++)
		for (size_t j = 0; j < l->n; j++)
			if (measured(l, i, j) && !l->port[i] && !l->port[j])
				l->buf[k++] = l->p50[i * l->n + j];
	v->clean_cells = k;
	v->base_ns = b = median(l->buf, k);
	for (size_t h = 0; h < l->n; h++) {
		double r = line_excess(l, h, true),
		       c = line_excess(l, h, false);

		eff[h] = isfinite(r) && isfinite(c) ? fmax(0, fmin(r, c)) : 0;
	}
	k = 0;
	for (size_t i = 0; i < l->n; i++)
		for (size_t j = 0; j < l->n; j++)
			if (measured(l, i, j) && !l->port[i] && !l->port[j])
				l->buf[k++] = l->p50[i * l->n + j] - b -
					      eff[i] - eff[j];
	mid = median(l->buf, k);
	for (size_t i = 0; i < k; i++)
		l->buf[i] = fabs(l->buf[i] - mid);
	v->noise_ns = MAD_SIGMA * median(l->buf, k);
	v->threshold_ns = fmax(fmax(RPERF_MESH_K * v->noise_ns, l->floor_ns),
			       RPERF_MESH_REL * b);
}

/* Name the ports of this pass; true when the set changed. */
static bool name_ports(struct locate *l)
{
	bool changed = false;

	for (size_t h = 0; h < l->n; h++) {
		double r = line_excess(l, h, true),
		       c = line_excess(l, h, false);
		bool out = r > l->v->threshold_ns && c > l->v->threshold_ns;

		changed |= out != l->port[h];
		l->port[h] = out;
	}
	return changed;
}

/* Added RTT of each named port: the median over its row and column. */
static void port_added(struct locate *l)
{
	double *next = l->buf + l->n * l->n; /* the last n of buf */

	for (size_t h = 0; h < l->n; h++) {
		size_t k = 0;

		next[h] = 0;
		if (!l->port[h])
			continue;
		for (size_t o = 0; o < l->n; o++) {
			if (measured(l, h, o))
				l->buf[k++] = l->p50[h * l->n + o] -
					      l->v->base_ns - l->added[o];
			if (measured(l, o, h))
				l->buf[k++] = l->p50[o * l->n + h] -
					      l->v->base_ns - l->added[o];
		}
		next[h] = median(l->buf, k);
	}
	memcpy(l->added, next, l->n * sizeof(*next));
}

static int add_suspect(struct rperf_mesh_verdict *v,
		       const struct rperf_mesh_suspect *s)
{
	struct rperf_mesh_suspect *p =
		realloc(v->suspects, (v->nsuspects + 1) * sizeof(*p));

	if (!p)
		return ENOMEM;
	p[v->nsuspects++] = *s;
	v->suspects = p;
	return 0;
}

/* The noise of a named port's cells: 1.4826 x MAD of their residuals
 * (excess less both ends' added RTT); 0 for other hosts. */
static double port_noise(struct locate *l, size_t h)
{
	size_t k = 0;
	double mid;

	if (!l->port[h])
		return 0;
	for (size_t o = 0; o < l->n; o++) {
		if (measured(l, h, o))
			l->buf[k++] = l->p50[h * l->n + o] - l->v->base_ns -
				      l->added[h] - l->added[o];
		if (measured(l, o, h))
			l->buf[k++] = l->p50[o * l->n + h] - l->v->base_ns -
				      l->added[h] - l->added[o];
	}
	mid = median(l->buf, k);
	for (size_t i = 0; i < k; i++)
		l->buf[i] = fabs(l->buf[i] - mid);
	return MAD_SIGMA * median(l->buf, k);
}

/*
 * A pair's threshold: T; through a named port also the port's added RTT
 * (RPERF_MESH_BEHIND x) and K x the noise of its cells: the time a slow
 * port adds varies with its own size (a queue's delay spreads about as
 * much as its mean; netem under TCG delivered a 426 us delay to the cells
 * of lab.mesh8 as +480 .. +815 us, and a late window lifts both
 * directions of a pair: 4 of a port's 12 cells +112 .. +178 us in the
 * 01:00 run), and a robust spread over the port's cells calls that tail
 * outliers: only a cell the port cannot explain twice over is a pair.
 */
static double pair_threshold(struct locate *l, size_t i, size_t j)
{
	double behind = RPERF_MESH_BEHIND * fmax(l->added[i], l->added[j]);

	return fmax(fmax(l->v->threshold_ns, behind),
		    RPERF_MESH_K * fmax(port_noise(l, i), port_noise(l, j)));
}

static int name_all(struct locate *l)
{
	struct rperf_mesh_verdict *v = l->v;
	int rc = 0;

	for (size_t h = 0; h < l->n && !rc; h++)
		if (l->port[h])
			rc = add_suspect(v, &(struct rperf_mesh_suspect){
						    .kind = RPERF_MESH_PORT,
						    .host = h,
						    .added_ns = l->added[h] });
	for (size_t i = 0; i < l->n && !rc; i++) {
		for (size_t j = 0; j < l->n && !rc; j++) {
			double x;

			if (!measured(l, i, j))
				continue;
			x = l->p50[i * l->n + j] - v->base_ns - l->added[i] -
			    l->added[j];
			if (x > v->threshold_ns && x > pair_threshold(l, i, j))
				rc = add_suspect(
					v, &(struct rperf_mesh_suspect){
						   .kind = RPERF_MESH_PAIR,
						   .from = i,
						   .to = j,
						   .added_ns = x });
		}
	}
	return rc;
}

static void locate_passes(struct locate *l)
{
	for (int pass = 0; pass < PASSES; pass++) {
		bool changed;

		memset(l->added, 0, l->n * sizeof(*l->added));
		baseline(l);
		changed = name_ports(l);
		for (int k = 0; k < 2; k++)
			port_added(l);
		if (!changed && pass)
			break;
	}
	/* a port whose added RTT came out below T after the others' share
	 * was taken off is no port (two slow ports make each other's pair
	 * cell twice as slow, not a third port) */
	for (size_t h = 0; h < l->n; h++)
		if (l->port[h] && l->added[h] <= l->v->threshold_ns)
			l->port[h] = false, l->added[h] = 0;
}

int rperf_mesh_locate(const double *p50, size_t n, double floor_ns,
		      struct rperf_mesh_verdict *out)
{
	struct locate l = { .p50 = p50, .n = n, .floor_ns = floor_ns, .v = out };
	int rc = 0;

	*out = (struct rperf_mesh_verdict){ .base_ns = NAN,
					    .noise_ns = NAN,
					    .threshold_ns = NAN };
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < n; j++)
			out->cells += measured(&l, i, j);
	if (out->cells < 3)
		return 0;
	out->decided = true;
	l.buf = calloc(n * n + n, sizeof(*l.buf));
	l.port = calloc(n, sizeof(*l.port));
	l.added = calloc(n, sizeof(*l.added));
	if (!l.buf || !l.port || !l.added) {
		rc = ENOMEM;
		goto free_bufs;
	}
	locate_passes(&l);
	rc = name_all(&l);
	if (rc)
		rperf_mesh_verdict_free(out);
free_bufs:
	free(l.buf);
	free(l.port);
	free(l.added);
	return rc;
}

/* The unordered pairs of the verdict's named pairs, at most
 * RPERF_MESH_AGAIN_MAX, into @out; their count. */
size_t rperf_mesh_again_pairs(const struct rperf_mesh_verdict *v,
			      struct rperf_mesh_pair *out)
{
	size_t k = 0;

	for (size_t s = 0; s < v->nsuspects; s++) {
		const struct rperf_mesh_suspect *x = &v->suspects[s];
		struct rperf_mesh_pair p = {
			.a = (uint16_t)(x->from < x->to ? x->from : x->to),
			.b = (uint16_t)(x->from < x->to ? x->to : x->from)
		};
		bool seen = false;

		if (x->kind != RPERF_MESH_PAIR)
			continue;
		for (size_t q = 0; q < k; q++)
			seen |= out[q].a == p.a && out[q].b == p.b;
		if (!seen && k < RPERF_MESH_AGAIN_MAX)
			out[k++] = p;
	}
	return k;
}

void rperf_mesh_verdict_free(struct rperf_mesh_verdict *v)
{
	free(v->suspects);
	v->suspects = NULL;
	v->nsuspects = 0;
}
