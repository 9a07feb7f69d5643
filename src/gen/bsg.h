/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Bandwidth-sensitive generator (open loop): per QP keep up to tx_depth work
 * requests outstanding, post them in lists of post_list chained WRs (one
 * ibv_post_send each), signal every cq_mod-th WR (and the last one, and the
 * last of a list after which the queue could not take another list), and
 * account the unsignaled WRs when a signaled one completes (RC completes in
 * order). No per-message timestamps: the clock is read once per loop pass
 * (a batch), never per message.
 */
#ifndef RPERF_GEN_BSG_H
#define RPERF_GEN_BSG_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "verbs/verbs.h"

struct rperf_dev_ops;
struct rperf_size_dist;

/* Token bucket (pure; unit tested): tokens are messages. */
struct rperf_tbucket {
	double per_ns; /* tokens added per ns */
	double burst; /* capacity */
	double tokens;
	uint64_t last_ns;
};

/* Start full (@burst tokens) at @now_ns; @per_s > 0. */
void rperf_tbucket_init(struct rperf_tbucket *tb, double per_s, double burst,
			uint64_t now_ns);
/* Take @n tokens: 0 when taken, else the ns until @n will be there (nothing
 * taken). @n above the capacity is treated as the capacity. */
uint64_t rperf_tbucket_take(struct rperf_tbucket *tb, double n,
			    uint64_t now_ns);

/* Cumulative progress handed to the interval callback. */
struct rperf_bsg_tick {
	uint64_t messages; /* completed so far */
	uint64_t bytes;
	double t_start, t_end; /* seconds since the first post */
};

struct rperf_bsg_cfg {
	int verb; /* enum rperf_verb */
	int atomic_op; /* enum rperf_atomic_op, with RPERF_VERB_ATOMIC */
	uint64_t size; /* bytes per message (RPERF_ATOMIC_SIZE for atomics) */
	uint64_t iters; /* messages per QP; 0 with duration_ns or infinite */
	uint64_t duration_ns; /* 0: iteration mode */
	bool infinite; /* until *stop */
	uint32_t tx_depth, cq_mod, post_list;
	bool events; /* wait on completion events instead of spinning */
	double limit_per_s; /* messages per second over all QPs; 0: none */
	uint32_t burst; /* with a limit: messages posted back to back (the
			 * bucket's depth); below post_list: post_list */
	/* on/off source: post for on_ns, then nothing for off_ns (what is
	 * outstanding completes), repeating from the first post; both 0:
	 * always on. The phase is read on the precise clock every pass. */
	uint64_t on_ns, off_ns;
	uint64_t interval_ns; /* 0: no callbacks */
	void (*on_interval)(void *arg, const struct rperf_bsg_tick *t);
	void *arg;
	volatile sig_atomic_t *stop; /* set by a signal handler */
	int peer_fd; /* control connection: EOF or data mid-run = gone; -1 */
	uint64_t stall_ns; /* no completion for this long while waiting: fail */
	/* called once per loop pass (bidirectional runs: the receive side);
	 * returns 0 or an errno (the run fails), *progress when it did work */
	int (*on_pass)(void *arg, bool *progress);
	void *pass_arg;
	/* the device calls of the loop (gen/dev_ops.h): NULL is libibverbs;
	 * tests pass a scripted device (events mode needs the real one) */
	const struct rperf_dev_ops *ops;
	void *ops_ctx;
	/* traffic shape (0 / NULL: none). Budgets are split evenly among
	 * the QPs; a QP whose share is used up ends (the run ends when every
	 * QP has); they combine with duration/stop (what comes first). */
	uint64_t max_messages; /* messages over all QPs */
	uint64_t max_bytes; /* payload bytes over all QPs: the last message
			       of each QP is cut to fit its share exactly */
	const struct rperf_size_dist *sizes; /* each message's size drawn
						from it; @size must be its
						largest */
	uint64_t seed; /* of the size draws (repeatable runs) */
	uint64_t stop_at_ns; /* CLOCK_MONOTONIC: stop posting then */
};

/* One QP of the generator (connected by the caller). */
struct rperf_bsg_qp {
	struct rperf_qp *qp;
	/* source, >= size; READ and atomics: the local target (LOCAL_WRITE) */
	const struct rperf_buf *buf;
	uint64_t raddr; /* WRITE target, READ source, atomic operand (8-aligned) */
	uint32_t rkey;
};

/* QP @i of @c towards @raddr/@rkey, from c's buffer. */
struct rperf_gen_conn;
void rperf_bsg_qp_of(struct rperf_bsg_qp *q, const struct rperf_gen_conn *c,
		     size_t i, uint64_t raddr, uint32_t rkey);

struct rperf_bsg_res {
	uint64_t messages; /* completed (== posted after a clean run) */
	uint64_t bytes;
	uint64_t posted;
	uint64_t post_calls; /* ibv_post_send calls */
	uint64_t signaled;
	double seconds; /* first post to last completion */
	double cpu_seconds; /* user + system of this process meanwhile */
	bool stopped; /* ended by the stop flag */
	/* CLOCK_MONOTONIC ns of the first post and of the end of the run
	 * (its last completion polled); 0 when nothing ran */
	uint64_t first_ns, last_ns;
	char error[256]; /* why the run failed, "" if it did not */
};

/*
 * Run one size. Returns 0 (also when stopped by the flag: res->stopped),
 * ETIMEDOUT (completions stalled), EIO (a work completion failed),
 * ECONNRESET (the peer went away), ENOMEM, or the errno of a failed post;
 * on error @res holds what was done so far and res->error says why.
 */
int rperf_bsg_run(const struct rperf_bsg_cfg *cfg,
		  const struct rperf_bsg_qp *qps, size_t nqps,
		  struct rperf_bsg_res *res);

#endif
