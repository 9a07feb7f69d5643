/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The LSG's run state and the steps both schedules share (lsg.c): the
 * closed loop lives in lsg.c, the open schedules in lsg_open.c.
 */
#ifndef RPERF_GEN_LSG_PRIV_H
#define RPERF_GEN_LSG_PRIV_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "gen/dev_ops.h"
#include "gen/lsg.h"

/* Completion queues a sample waits on: wire send, loopback send, wire recv */
enum { WIRE = 0, LOOP = 1, REPLY = 2 };

/* One sample's timestamps (raw ticks) and state. */
struct sample {
	uint64_t tp[3], tc[3];
	uint64_t tn[2]; /* NIC completion timestamps (cfg->nic) */
	uint64_t tpe[3]; /* when ibv_post_send returned (breakdown) */
	bool done[3], pre[3];
	uint64_t due; /* open schedules: when it was due (ticks) */
};

struct lsg_run {
	const struct rperf_lsg_cfg *cfg;
	const struct rperf_lsg_qps *qps;
	struct rperf_lsg_res *res;
	struct rperf_gen_dev dev;
	struct ibv_cq *cq[3];
	struct ibv_cq_ex *cqx[3]; /* NIC timestamps: WIRE and LOOP, else NULL */
	struct ibv_qp *qp[2];
	struct ibv_sge sge;
	bool inl[2];
	uint64_t stall_ticks;
	uint64_t wire_posts;
	bool wpp; /* pingpong with RDMA WRITE: the reply is a byte polled */
	const volatile uint8_t *reply_byte; /* with wpp */
	uint8_t want; /* with wpp: the sequence byte the reply carries */
	/* time series (cfg->interval_ns): this interval's RTTs, its end */
	struct rperf_hist *ivh;
	uint64_t iv_ticks, iv_next, iv_k;
};

int lsg_fail(struct lsg_run *r, int rc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
const char *lsg_cq_name(const struct lsg_run *r, int k);
/* Post QP @k's operation of @s, stamping @s->tp[k] (and with --breakdown
 * @s->tpe[k]); 0 or an errno said in res->error. */
int lsg_post_stamped(struct lsg_run *r, struct sample *s, int k);
/* Poll @k's CQ once into @s: 1 done, 0 not, <0 a negative errno. */
int lsg_poll_once(struct lsg_run *r, struct sample *s, int k);
bool lsg_peer_gone(const struct lsg_run *r);
/* Record a completed sample (histograms, counters, --raw). */
int lsg_record(struct lsg_run *r, const struct sample *s);
int lsg_refill_loop_rx(struct lsg_run *r);
/* Time series: count @rtt of a sample posted at @tp (ticks); close the
 * last interval at the end of the run (lsg_series.c). */
int lsg_series_add(struct lsg_run *r, uint64_t tp, int64_t rtt);
int lsg_series_end(struct lsg_run *r);
/* The open schedules' run (lsg_open.c), after setup. */
int lsg_open_run(struct lsg_run *r);

static inline int64_t lsg_delta_ns(const struct rperf_clock *clk, uint64_t a,
				   uint64_t b)
{
	return llround(rperf_clock_ticks_to_ns(clk, (int64_t)(b - a)));
}

static inline uint64_t lsg_ns_to_ticks(const struct rperf_clock *clk,
				       uint64_t ns)
{
	return (uint64_t)((double)ns / clk->ns_per_tick);
}

#endif
