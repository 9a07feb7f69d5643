/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Latency-sensitive generator, RPerf method: per sample one SEND over the
 * wire QP and one SEND on the loopback QP pair, each post and completion
 * timestamped; RTT = (T_W - T_P,wire) - (T_L - T_P,loop) (Equation 1).
 * The comparison methods run on the same QPs: pingpong (perftest-style: a
 * SEND, the peer's software SENDs it back; RTT = T_reply - T_P) and postpoll
 * (qperf-style: an RDMA WRITE polled to completion; RTT = T_C - T_P).
 *
 * cfg->verb picks the operation (perftest's other latency tests):
 *  - write, rperf method: an RDMA WRITE over the wire and one on the
 *    loopback pair (into loop_rx_buf); like a SEND, a WRITE completes when
 *    the remote ACK is back, but it consumes no receive at the target;
 *  - write, pingpong (ib_write_lat): the WRITE's last byte carries a
 *    sequence number; the peer's software polls its buffer's last byte and
 *    WRITEs the same back, and the reply is seen by polling the last byte
 *    of wire_rx_buf (RTT = T_reply - T_P). Every WRITE ends at the last
 *    byte of the target buffer, so one byte serves every size;
 *  - read, atomic (postpoll: ib_read_lat, ib_atomic_lat): an RDMA READ of
 *    the size, or an 8-byte atomic, from the peer's buffer into send_buf,
 *    polled to completion.
 */
#ifndef RPERF_GEN_LSG_H
#define RPERF_GEN_LSG_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include <rperf/clock.h>
#include <rperf/hist.h>
#include <rperf/report.h>

#include "gen/schedule.h"
#include "gen/series.h"
#include "verbs/verbs.h"

struct rperf_dev_ops;
struct rperf_nic_clock;

struct rperf_lsg_cfg {
	const struct rperf_clock *clk;
	int method; /* RPERF_METHOD_RPERF, _PINGPONG or _POSTPOLL */
	uint64_t remote_addr; /* postpoll, write: the peer's buffer ... */
	uint32_t rkey; /* ... its key ... */
	uint64_t remote_size; /* ... and its bytes (>= size: checked) */
	int verb; /* enum rperf_verb: send, write, read, atomic */
	int atomic_op; /* enum rperf_atomic_op */
	/* pingpong write: the last sequence byte sent (1..255), kept across
	 * runs (the peer counts the same way) */
	uint8_t *wseq;
	uint64_t size; /* bytes per SEND */
	uint64_t iters; /* samples after warm-up; 0: duration_ns alone */
	uint64_t duration_ns; /* 0: iteration mode; with iters: the run
				 ends at whichever comes first */
	uint64_t warmup; /* samples excluded first */
	int pair_order; /* enum rperf_pair_order */
	bool yield; /* sched_yield() between polls */
	bool breakdown; /* also time each ibv_post_send call */
	bool keep_raw; /* keep every sample (--raw) */
	uint32_t solicit_every; /* wire SENDs: solicit an event every N-th */
	uint64_t gap_ns; /* idle time between sample starts, 0: none */
	double rate; /* samples/s (the one unit of an LSG's pace: rperf lat
			--rate, and rperf run's rate through
			rperf_lsg_rate_of_bps); > 0: a sample every 1 / rate
			s, gap_ns not used; 0: gap_ns */
	uint64_t stall_ns; /* a sample taking longer fails the run */
	volatile sig_atomic_t *stop; /* set by a signal handler */
	int peer_fd; /* control connection: EOF or data mid-run = peer gone; -1 */
	/* the device and clock reads of the hot loop (gen/dev_ops.h): NULL
	 * is libibverbs and @clk; tests pass a scripted device */
	const struct rperf_dev_ops *ops;
	void *ops_ctx;
	/* rperf method: RTT from the NIC's completion timestamps (both send
	 * CQs were created with them: qps' send_cq_ex); NULL: CPU stamps */
	const struct rperf_nic_clock *nic;
	/* Probe schedule (gen/schedule.h). closed: the loop above, one sample
	 * at a time. fixed/poisson (rperf method only, not with pair_order
	 * sequential): each sample is posted when it is due, whether or not
	 * earlier ones have completed, up to max_inflight on the wire and
	 * loopback QPs at once (RC completes in order per QP, so the n-th
	 * completion of a CQ is the n-th sample's); a sample due while
	 * max_inflight are out waits, and its lag (post - due) says so.
	 * gap_ns does not apply. */
	struct rperf_sched schedule;
	uint64_t seed; /* poisson's gaps */
	/* open: <= each send queue's depth - 1 and what the receivers keep
	 * posted beyond one refill (the caller knows both); 0: 1, at most
	 * RPERF_LSG_MAX_INFLIGHT */
	unsigned int max_inflight;
	/* open: a sample posted later than this after it was due is late;
	 * 0: one mean gap (1 / rate) */
	uint64_t lag_bound_ns;
	/* time series (gen/series.h): samples per interval of this length,
	 * by post time, from the first counted sample; 0: none */
	uint64_t interval_ns;
	/* called with each interval's row as it is kept (NULL: none; the
	 * row's start is from the first counted sample) */
	void (*on_row)(void *arg, const struct rperf_lsg_interval *row);
	void *row_arg;
};

#define RPERF_LSG_MAX_INFLIGHT 64

/* The client's QPs and buffers (set up and connected by the caller). */
struct rperf_lsg_qps {
	struct rperf_qp *wire; /* to the remote host */
	struct rperf_qp *loop_tx; /* loopback pair: sender ... */
	struct rperf_qp *loop_rx; /* ... and receiver, same port */
	const struct rperf_buf *send_buf; /* >= size */
	const struct rperf_buf *loop_rx_buf; /* >= size */
	const struct rperf_buf *wire_rx_buf; /* pingpong replies, >= size */
	unsigned int rx_depth; /* receives kept posted on loop_rx */
};

/* Results: configuration in, figures out; histograms are owned here. */
struct rperf_lsg_res {
	struct rperf_hist *rtt; /* ns: the method's figure (RTT) */
	struct rperf_hist *wire, *loop; /* ns, rperf method only */
	struct rperf_hist *half; /* ns, RTT/2, pingpong only */
	struct rperf_hist *post_wire, *post_loop; /* ns, with breakdown */
	struct rperf_raw_sample *raw; /* with keep_raw */
	size_t nraw, raw_cap;
	uint64_t samples;
	uint64_t warmup;
	uint64_t nonpositive;
	uint64_t precompleted; /* wire SEND complete when its post returned */
	uint64_t loop_precompleted;
	double seconds;
	/* open schedules: ns each counted sample was posted after it was
	 * due (created by the run), how many were later than lag_bound_ns,
	 * the bound, and the most samples in flight at once */
	struct rperf_hist *lag;
	uint64_t late;
	uint64_t lag_bound_ns;
	unsigned int inflight_max;
	/* with interval_ns: one entry per interval, starts from the first
	 * counted sample's post */
	struct rperf_lsg_series series;
	char error[256]; /* why the run stopped early, "" if it did not */
};

/* Histograms for a run of @method; post-cost ones only with @breakdown. */
int rperf_lsg_res_init(struct rperf_lsg_res *res, int method, bool breakdown);
void rperf_lsg_res_fini(struct rperf_lsg_res *res);

/*
 * Run one size. Returns 0, EINTR (stopped by the flag), ETIMEDOUT (a sample
 * stalled), EIO (a work completion failed) or the errno of a failed post;
 * on error @res holds everything measured so far and res->error says why.
 */
int rperf_lsg_run(const struct rperf_lsg_cfg *cfg,
		  const struct rperf_lsg_qps *qps, struct rperf_lsg_res *res);

/* What a sample of @method with @verb posts on the wire QP: "SEND",
 * "WRITE", "READ" or "atomic" (postpoll's send: "WRITE"). */
const char *rperf_lsg_op_name(int method, int verb);

/* Samples/s of an LSG paced at @rate_bps bits/s (the job key rate: one
 * wire SEND of @size bytes per sample); 0 for 0. */
double rperf_lsg_rate_of_bps(double rate_bps, uint64_t size);

/* max_inflight for QPs @send_depth deep whose peer keeps @peer_rx receives
 * posted and refills them every @solicit_every SENDs: at least 1. */
unsigned int rperf_lsg_max_inflight(unsigned int send_depth,
				    unsigned int peer_rx,
				    unsigned int solicit_every);

/* An open schedule's samples were late too often: it was not sampling at
 * its times, whatever its figures say (RPERF_SCHED_LATE_PERMILLE). */
bool rperf_lsg_fell_behind(const struct rperf_lsg_res *res);
/* The schedule's figures of a run of @cfg (open false for closed). */
void rperf_lsg_sched_figs(const struct rperf_lsg_cfg *cfg,
			  const struct rperf_lsg_res *res,
			  struct rperf_sched_figs *out);

#endif
