/* SPDX-License-Identifier: BSD-2-Clause */
#include "gen/series.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rperf/hist.h>

int rperf_lsg_series_push(struct rperf_lsg_series *s, uint64_t start_ns,
			  struct rperf_hist *h)
{
	struct rperf_lsg_interval *iv;

	if (s->n == RPERF_SERIES_MAX)
		return E2BIG;
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 64;
		void *p = realloc(s->iv, cap * sizeof(*s->iv));

		if (!p)
			return ENOMEM;
		s->iv = p;
		s->cap = cap;
	}
	iv = &s->iv[s->n++];
	*iv = (struct rperf_lsg_interval){ .start_ns = start_ns,
					   .samples = rperf_hist_count(h) };
	if (iv->samples) {
		iv->p50_ns = rperf_hist_percentile(h, 50);
		iv->p99_ns = rperf_hist_percentile(h, 99);
		iv->max_ns = rperf_hist_max(h);
	}
	rperf_hist_reset(h);
	return 0;
}

void rperf_lsg_series_fini(struct rperf_lsg_series *s)
{
	free(s->iv);
	memset(s, 0, sizeof(*s));
}
