/* SPDX-License-Identifier: BSD-2-Clause */
#include "gen/series.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rperf/hist.h>

/* Room for one more of @size bytes in *@iv (@n used, @cap allocated). */
static int grow(void **iv, size_t n, size_t *cap, size_t size)
{
	size_t c = *cap ? 2 * *cap : 64;
	void *p;

	if (n == RPERF_SERIES_MAX)
		return E2BIG;
	if (n < *cap)
		return 0;
	p = realloc(*iv, c * size);
	if (!p)
		return ENOMEM;
	*iv = p;
	*cap = c;
	return 0;
}

int rperf_lsg_series_push(struct rperf_lsg_series *s, uint64_t start_ns,
			  struct rperf_hist *h)
{
	struct rperf_lsg_interval *iv;
	void *p = s->iv;
	int rc = grow(&p, s->n, &s->cap, sizeof(*s->iv));

	s->iv = p;
	if (rc)
		return rc;
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

int rperf_bsg_series_push(struct rperf_bsg_series *s,
			  const struct rperf_bsg_interval *v)
{
	void *p = s->iv;
	int rc = grow(&p, s->n, &s->cap, sizeof(*s->iv));

	s->iv = p;
	if (!rc)
		s->iv[s->n++] = *v;
	return rc;
}

void rperf_bsg_series_fini(struct rperf_bsg_series *s)
{
	free(s->iv);
	memset(s, 0, sizeof(*s));
}
