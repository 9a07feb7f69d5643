/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The traffic shape of a BSG source (spec_traffic.h keys) applied to its
 * generator: budgets, size distribution and stop deadline into the
 * rperf_bsg_cfg; an incast sender's bursts (one rperf_bsg_run per burst,
 * each at barrier + start + k x period + a uniform jitter draw, until the
 * window ends); and what the REPORT carries back (end_ns, bursts).
 */
#ifndef RPERF_ENGINE_GEN_SHAPE_H
#define RPERF_ENGINE_GEN_SHAPE_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/engine.h"
#include "gen/bsg.h"

/* An incast sender's bursts: [2 * n] CLOCK_MONOTONIC ns, first post and
 * last completion of each. */
struct rperf_incast_log {
	uint64_t *t;
	size_t n;
};

/* Messages per second of the spec's rate limit (its mean message size
 * with a distribution); 0 without a limit. */
double rperf_bsg_spec_limit(const struct rperf_gen_spec *s);
/* The generator of a BSG spec (either way of running it: the engine's
 * source, rperf bw's client and server): verb and atomic op, size,
 * iterations or duration or until stopped, depths, completion events (not
 * with bidir: one process also receives), the rate limit, interval, on/off
 * phases, no peer socket, the spec's stall limit. The caller adds its
 * callbacks and stop flag, and what it decides itself. */
void rperf_bsg_spec_cfg(const struct rperf_gen_spec *s,
			struct rperf_bsg_cfg *c);
/* Budgets, sizes, seed and stop deadline of @g's spec into @c. */
void rperf_bsg_spec_shape(const struct rperf_gen_inst *g,
			  struct rperf_bsg_cfg *c);
/* The bursts of an incast sender (@c as for rperf_bsg_run; its duration
 * bounds the window): totals in @res (seconds: the bursts' durations
 * summed), each burst in @log. 0 or the failing burst's error. */
int rperf_incast_run(const struct rperf_gen_inst *g,
		     const struct rperf_bsg_cfg *c,
		     const struct rperf_bsg_qp *qps, size_t nqps,
		     struct rperf_bsg_res *res, struct rperf_incast_log *log);
/* end_ns and bursts (relative to the barrier) into g->res: 0 or ENOMEM. */
int rperf_bsg_result_shape(struct rperf_gen_inst *g,
			   const struct rperf_bsg_res *res,
			   const struct rperf_incast_log *log);

#endif
