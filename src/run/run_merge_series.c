/* SPDX-License-Identifier: BSD-2-Clause */
/* A BSG's sent and received time series side by side (run.h). */
#include "run/run.h"

#include <errno.h>
#include <stdlib.h>

/* The middle of a destination interval: which source row it belongs to. */
static uint64_t mid_of(const struct rperf_bsg_interval *v)
{
	return v->start_ns + v->dur_ns / 2;
}

/* The end of the source's last row (0 without rows). */
static uint64_t sent_end(const struct rperf_bsg_series *s)
{
	const struct rperf_bsg_interval *v = s->n ? &s->iv[s->n - 1] : NULL;

	return v ? v->start_ns + v->dur_ns : 0;
}

static void add_rx(struct rperf_run_bsg_row *row,
		   const struct rperf_bsg_interval *v)
{
	row->rx_messages += v->messages;
	row->rx_bytes += v->bytes;
	row->rx_dur_ns += v->dur_ns;
	row->rx_rows++;
}

int rperf_run_bsg_rows(const struct rperf_run_inst *in,
		       struct rperf_run_bsg_row **rows, size_t *n)
{
	const struct rperf_bsg_series *tx = &in->bsg_series,
				      *rx = &in->rx_series;
	size_t i = 0, m = rx->n, k;
	struct rperf_run_bsg_row *r;

	/* the destination's trailing empty intervals past the source's */
	while (m && !rx->iv[m - 1].messages &&
	       (!tx->n || mid_of(&rx->iv[m - 1]) >= sent_end(tx)))
		m--;
	r = calloc(tx->n + m + 1, sizeof(*r));
	if (!r)
		return ENOMEM;
	for (k = 0; k < tx->n; k++)
		r[k] = (struct rperf_run_bsg_row){
			.start_ns = tx->iv[k].start_ns, .sent = &tx->iv[k]
		};
	*n = tx->n;
	for (k = 0; k < m; k++) {
		const struct rperf_bsg_interval *v = &rx->iv[k];
		uint64_t mid = mid_of(v);

		while (i + 1 < tx->n && mid >= tx->iv[i + 1].start_ns)
			i++;
		if (tx->n && (i + 1 < tx->n || mid < sent_end(tx))) {
			add_rx(&r[i], v);
			continue;
		}
		r[*n].start_ns = v->start_ns; /* past the source's rows */
		add_rx(&r[(*n)++], v);
	}
	*rows = r;
	return 0;
}
