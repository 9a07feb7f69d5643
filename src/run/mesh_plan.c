/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The mesh's schedule (mesh.h): a round-robin tournament by the circle
 * method. With m players (m = n, or n + 1 with a bye for odd n), player
 * m - 1 stays and the others sit on a circle of m - 1 seats; in round r
 * player m - 1 meets r, and (r + k) meets (r - k) (mod m - 1) for
 * k = 1..m/2 - 1. Every player is in one pair per round and meets every
 * other once in m - 1 rounds. A pair with the bye is no pair (that host
 * idles for the round).
 */
#include "run/mesh.h"

#include <errno.h>
#include <stdlib.h>

static void add_pair(struct rperf_mesh_plan *p, size_t *k, size_t x, size_t y)
{
	if (x >= p->nhosts || y >= p->nhosts) /* the bye */
		return;
	p->pairs[*k].a = (uint16_t)(x < y ? x : y);
	p->pairs[*k].b = (uint16_t)(x < y ? y : x);
	(*k)++;
}

static void plan_rounds(struct rperf_mesh_plan *p)
{
	size_t m = p->nhosts + (p->nhosts & 1), seats = m - 1, k = 0;

	for (size_t r = 0; r < seats; r++) {
		p->first[r] = k;
		add_pair(p, &k, m - 1, r);
		for (size_t d = 1; d < m / 2; d++)
			add_pair(p, &k, (r + d) % seats,
				 (r + seats - d) % seats);
	}
	p->first[seats] = k;
}

static void plan_concurrent(struct rperf_mesh_plan *p)
{
	size_t k = 0;

	p->first[0] = 0;
	for (size_t a = 0; a < p->nhosts; a++)
		for (size_t b = a + 1; b < p->nhosts; b++)
			add_pair(p, &k, a, b);
	p->first[1] = k;
}

int rperf_mesh_plan_make(size_t n, enum rperf_mesh_schedule sched,
			 struct rperf_mesh_plan *out)
{
	size_t npairs = n * (n - 1) / 2;

	*out = (struct rperf_mesh_plan){ 0 };
	if (n < 2 || n > RPERF_MESH_MAX_HOSTS)
		return EINVAL;
	out->nhosts = n;
	out->nrounds = sched == RPERF_MESH_CONCURRENT ? 1 : n - 1 + (n & 1);
	out->pairs = calloc(npairs, sizeof(*out->pairs));
	out->first = calloc(out->nrounds + 1, sizeof(*out->first));
	if (!out->pairs || !out->first) {
		rperf_mesh_plan_free(out);
		return ENOMEM;
	}
	if (sched == RPERF_MESH_CONCURRENT)
		plan_concurrent(out);
	else
		plan_rounds(out);
	return 0;
}

void rperf_mesh_plan_free(struct rperf_mesh_plan *p)
{
	free(p->pairs);
	free(p->first);
	*p = (struct rperf_mesh_plan){ 0 };
}
