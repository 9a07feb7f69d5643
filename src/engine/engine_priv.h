/* SPDX-License-Identifier: BSD-2-Clause */
/* The engine's state, shared by engine.c and engine_run.c. */
#ifndef RPERF_ENGINE_PRIV_H
#define RPERF_ENGINE_PRIV_H

#include <pthread.h>
#include <signal.h>

#include "engine/engine.h"

struct rperf_engine {
	const struct rperf_clock *clk;
	struct rperf_verbs_cfg vcfg;
	char dev_name[RPERF_NAME_LEN];
	struct rperf_dev *dev;
	struct rperf_gen_inst *inst; /* [n]: sources first, then sinks */
	size_t n;
	int efd; /* eventfd: a source thread ended */
	pthread_mutex_t lock; /* started/ended of the instances */
	volatile sig_atomic_t stop; /* every thread's stop flag */
	/* the one sink thread */
	pthread_t sink_thread;
	bool sink_started;
	volatile sig_atomic_t sink_stop;
	double sink_cpu; /* its CPU time, seconds, once joined */
	struct rperf_proto_plan addrs; /* only the PLAN's "hosts": whose
					  endpoints may be connected */
	uint64_t stall_limit_ns; /* the plan's: the agent's --stall-limit */
	/* live rows: kept from rperf_engine_live_on; live_lock guards every
	 * instance's ring and the count of rows overwritten */
	bool live;
	pthread_mutex_t live_lock;
	uint64_t live_skipped;
	uint32_t rounds, round; /* the plan's (>= 1); the one GO runs */
	bool went; /* GO arrived at go_rx_ns (REPORT "go_rx_ns") */
	uint64_t go_rx_ns;
};

/* Every instance's size and method for round e->round (its round_sizes
 * and round_methods entries), set before the sink thread starts and
 * before the ops' round() (engine_round.c). */
void rperf_engine_round_apply(struct rperf_engine *e);
/* Start / stop (join) the sink thread; start is a no-op without sinks. */
int rperf_engine_sink_start(struct rperf_engine *e, char *err, size_t errlen);
void rperf_engine_sink_stop(struct rperf_engine *e);

#endif
