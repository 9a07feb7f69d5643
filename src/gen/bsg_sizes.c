/* SPDX-License-Identifier: BSD-2-Clause */
#include "gen/bsg_sizes.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int rperf_bsg_sizes_init(struct rperf_bsg_sizes *z, uint32_t ring,
			 uint64_t budget, bool vary)
{
	memset(z, 0, sizeof(*z));
	z->ring = ring;
	z->left = budget;
	if (!vary)
		return 0;
	z->cum = calloc(ring, sizeof(*z->cum));
	return z->cum ? 0 : ENOMEM;
}

void rperf_bsg_sizes_fini(struct rperf_bsg_sizes *z)
{
	free(z->cum);
	z->cum = NULL;
}

uint64_t rperf_bsg_sizes_next(struct rperf_bsg_sizes *z,
			      const struct rperf_size_dist *d, uint64_t size,
			      uint64_t *rng, uint64_t idx, bool *last)
{
	uint64_t v = d && d->n ? rperf_size_dist_pick(d, rperf_uniform(rng)) :
				 size;

	if (v > z->left)
		v = z->left;
	z->pbytes += v;
	z->cum[idx % z->ring] = z->pbytes;
	if (z->left != UINT64_MAX)
		z->left -= v;
	*last = !z->left;
	return v;
}

uint64_t rperf_bsg_sizes_done(struct rperf_bsg_sizes *z, uint64_t completed)
{
	uint64_t done = z->cum[(completed - 1) % z->ring], n = done - z->cbytes;

	z->cbytes = done;
	return n;
}

uint64_t rperf_bsg_share(uint64_t total, uint64_t n, uint64_t i)
{
	return total / n + (i < total % n ? 1 : 0);
}
