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

/* Close the open interval, ending at @end_ns from the grid's start. */
static int rx_close(struct rperf_rx_series *x, uint64_t end_ns)
{
	uint64_t start = x->k * x->interval_ns;
	struct rperf_bsg_interval v = {
		.start_ns = x->at_ns + start,
		.dur_ns = end_ns > start ? end_ns - start : 0,
		.messages = x->messages,
		.bytes = x->bytes,
	};
	int rc = x->full ? 0 : rperf_bsg_series_push(&x->s, &v);

	x->full |= rc == E2BIG;
	x->k++;
	x->messages = x->bytes = 0;
	return rc == ENOMEM ? ENOMEM : 0;
}

/* Close every interval before interval @k (full length each). */
static int rx_close_to(struct rperf_rx_series *x, uint64_t k)
{
	int rc = 0;

	while (!rc && x->k < k && !x->full)
		rc = rx_close(x, (x->k + 1) * x->interval_ns);
	if (x->k < k) /* past the cap: nothing more is kept */
		x->k = k;
	return rc;
}

int rperf_rx_series_add(struct rperf_rx_series *x, uint64_t t_ns,
			uint64_t messages, uint64_t bytes)
{
	int rc;

	if (!x->interval_ns)
		return 0;
	if (!x->open) {
		x->open = true;
		x->k = 0;
	}
	rc = rx_close_to(x, t_ns / x->interval_ns);
	x->messages += messages;
	x->bytes += bytes;
	if (t_ns > x->last_ns)
		x->last_ns = t_ns;
	return rc;
}

int rperf_rx_series_end(struct rperf_rx_series *x, uint64_t end_ns)
{
	int rc;

	if (!x->open)
		return 0;
	x->open = false;
	if (end_ns < x->last_ns)
		end_ns = x->last_ns;
	rc = rx_close_to(x, end_ns / x->interval_ns);
	/* the interval end_ns is in: counted up to end_ns */
	if (!rc && (end_ns > x->k * x->interval_ns || x->messages))
		rc = rx_close(x, end_ns);
	return rc;
}
