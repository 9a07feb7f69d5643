/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Message sizes of one BSG QP when they vary (a size distribution, or a
 * byte budget whose last message is cut to fit): each WR's size, and the
 * payload posted after each outstanding WR in a ring of tx_depth, so that
 * a signaled completion covering several WRs counts their exact bytes.
 * Pure; used by bsg.c.
 */
#ifndef RPERF_GEN_BSG_SIZES_H
#define RPERF_GEN_BSG_SIZES_H

#include <stdbool.h>
#include <stdint.h>

#include "gen/size_dist.h"

struct rperf_bsg_sizes {
	uint64_t *cum; /* [ring]; NULL: every WR has the fixed size */
	uint32_t ring;
	uint64_t pbytes, cbytes; /* posted, completed payload */
	uint64_t left; /* of the byte budget; UINT64_MAX: none */
};

/* @budget: this QP's bytes (UINT64_MAX: none); the ring only when sizes
 * vary (@vary). 0 or ENOMEM. */
int rperf_bsg_sizes_init(struct rperf_bsg_sizes *z, uint32_t ring,
			 uint64_t budget, bool vary);
void rperf_bsg_sizes_fini(struct rperf_bsg_sizes *z);
/* The size of WR number @idx (drawn from @d when it has sizes, else
 * @size; cut to the budget); *last when it uses the budget up. */
uint64_t rperf_bsg_sizes_next(struct rperf_bsg_sizes *z,
			      const struct rperf_size_dist *d, uint64_t size,
			      uint64_t *rng, uint64_t idx, bool *last);
/* Payload newly completed once @completed WRs are (in order). */
uint64_t rperf_bsg_sizes_done(struct rperf_bsg_sizes *z, uint64_t completed);
/* QP @i's share of @total over @n QPs. */
uint64_t rperf_bsg_share(uint64_t total, uint64_t n, uint64_t i);

#endif
