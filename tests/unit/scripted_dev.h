/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A scripted RDMA device on a virtual clock: a test instrument that drives
 * the generators (src/gen) through their device ops table. Not a product
 * backend.
 *
 * Time is virtual, in ns, and advances only by the cost of the calls the
 * generator makes: post_ns per post, poll_ns per poll, clock_ns per clock
 * read (a clock read returns the time at which it was made). A script gives
 * every send work request its completion latency, counted from the moment
 * its post was entered, its status, or "never" (a stall). A completion is
 * seen by a poll entered at or after its ready time; the poll returns
 * poll_ns later. A WR whose latency is at most post_ns is therefore
 * complete when its post returns (precompleted, as on Soft-RoCE). A CQ
 * delivers in order (RC): a completion is never ready before the one ahead
 * of it. Completions on different CQs are independent (any order).
 *
 * The virtual CPU clock has 1 tick = 1 ns. The NIC clock stamps each
 * completion at its ready time: (ready * nic_hz / 1e9 + nic_offset) &
 * nic_mask.
 */
#ifndef RPERF_TEST_SCRIPTED_DEV_H
#define RPERF_TEST_SCRIPTED_DEV_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include <rperf/clock.h>

#include "gen/dev_ops.h"
#include "verbs/verbs.h"

#define SDEV_MAX_QP 8
#define SDEV_RING 1024

/* What the script decides for one send WR. */
struct sdev_wr {
	uint64_t lat_ns; /* completion latency from the post's entry */
	uint64_t reply_ns; /* QPs with replies: the reply arrives after */
	enum ibv_wc_status status;
	bool never; /* never completes */
};

/* @qp: index in creation order; @seq: WRs posted on it before this one. */
typedef void (*sdev_script_fn)(void *arg, int qp, uint64_t seq,
			       struct sdev_wr *wr);

struct sdev_cqe {
	uint64_t wr_id, ready;
	enum ibv_wc_status status;
};

struct sdev_cq {
	struct ibv_cq_ex ex; /* identity; ibv_cq_ex_to_cq(&ex) is the CQ */
	struct sdev_cqe ring[SDEV_RING];
	uint64_t head, tail, last_ready;
};

struct sdev_qp {
	struct rperf_qp rq; /* what the generator is given */
	struct ibv_qp qp; /* identity only */
	struct sdev_cq scq, rcq;
	int rx_peer; /* SENDs consume a receive of this QP; -1: remote */
	bool replies; /* every SEND gets a reply on rcq (pingpong peer) */
	uint64_t seq; /* send WRs posted */
	uint64_t recvs; /* receives posted, not consumed */
	bool stuck; /* a WR never completed: the QP is stalled */
};

struct sdev {
	uint64_t now; /* virtual ns */
	uint64_t post_ns, poll_ns, clock_ns;
	double nic_hz;
	uint64_t nic_mask, nic_offset;
	sdev_script_fn script;
	void *arg;
	struct sdev_qp qps[SDEV_MAX_QP];
	int nqps;
	struct ibv_mr mr;
	struct rperf_buf buf; /* a fake registered buffer */
	char mem[4096];
	volatile sig_atomic_t stop;
	uint64_t stop_at; /* set stop at this virtual time; 0: never */
	uint64_t rnr; /* SENDs that found no receive posted */
	uint64_t posts, polls, clock_reads, cq_full;
	uint64_t wire_bytes; /* sum of the send WRs' first SGE lengths */
	uint64_t len_log2[33]; /* send WRs by floor(log2(length)) */
	struct rperf_clock clk; /* the virtual clock's description */
};

extern const struct rperf_dev_ops sdev_ops;

/* A device with costs post 100, poll 20, clock 5 ns; NULL without memory. */
struct sdev *sdev_create(sdev_script_fn script, void *arg);
void sdev_destroy(struct sdev *d);
/* A QP; its SENDs land on QP @rx_peer's receive queue (-1: a remote). */
struct rperf_qp *sdev_add_qp(struct sdev *d, int rx_peer, bool replies);
/* The NIC clock of the completions' timestamps. */
uint64_t sdev_nic_ts(const struct sdev *d, uint64_t ready_ns);

#endif
