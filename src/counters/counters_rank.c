/* SPDX-License-Identifier: BSD-2-Clause */
/* Spearman's rank correlation (counters.h). */
#include "counters/counters.h"

#include <math.h>
#include <stdlib.h>

struct pair {
	double v;
	size_t i;
};

static int cmp(const void *a, const void *b)
{
	double x = ((const struct pair *)a)->v, y = ((const struct pair *)b)->v;

	return (x > y) - (x < y);
}

/* Ranks 1..n of @x into @rk, ties sharing their mean rank. */
static int ranks(const double *x, size_t n, double *rk)
{
	struct pair *p = malloc(n * sizeof(*p));

	if (!p)
		return -1;
	for (size_t i = 0; i < n; i++)
		p[i] = (struct pair){ x[i], i };
	qsort(p, n, sizeof(*p), cmp);
	for (size_t i = 0; i < n;) {
		size_t j = i;

		while (j + 1 < n && p[j + 1].v == p[i].v)
			j++;
		for (size_t k = i; k <= j; k++)
			rk[p[k].i] = (double)(i + j) / 2.0 + 1.0;
		i = j + 1;
	}
	free(p);
	return 0;
}

static double pearson(const double *a, const double *b, size_t n)
{
	double ma = 0, mb = 0, sab = 0, saa = 0, sbb = 0;

	for (size_t i = 0; i < n; i++) {
		ma += a[i];
		mb += b[i];
	}
	ma /= (double)n;
	mb /= (double)n;
	for (size_t i = 0; i < n; i++) {
		sab += (a[i] - ma) * (b[i] - mb);
		saa += (a[i] - ma) * (a[i] - ma);
		sbb += (b[i] - mb) * (b[i] - mb);
	}
	if (saa <= 0 || sbb <= 0)
		return NAN;
	return sab / sqrt(saa * sbb);
}

double rperf_ctr_spearman(const double *x, const double *y, size_t n)
{
	double *rx, *ry, rho = NAN;

	if (n < 3)
		return NAN;
	rx = malloc(n * sizeof(*rx));
	ry = malloc(n * sizeof(*ry));
	if (rx && ry && !ranks(x, n, rx) && !ranks(y, n, ry))
		rho = pearson(rx, ry, n);
	free(rx);
	free(ry);
	return rho;
}
