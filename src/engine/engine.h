/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The experiment engine of one host: the generator instances of a PLAN on
 * one RDMA device, behind an ops table modelled on fio's ioengine_ops.
 *
 *   rperf_engine_create()    open the device, setup every instance (QPs,
 *                            MRs, receives posted): nothing runs yet
 *   rperf_engine_endpoints() the local QPs for ENDPOINTS
 *   rperf_engine_connect()   connect every QP to its peer (CONNECT), the
 *                            instances in id order (rdma_cm: one end
 *                            accepts what the other dials); the sink
 *                            thread starts: sinks are live once ARMED
 *   rperf_engine_go()        start one thread per source at the barrier
 *   rperf_engine_fd()        readable when a source thread ended (eventfd)
 *   rperf_engine_stop()      stop flag, join every thread
 *   rperf_engine_report()    the results (REPORT)
 *   rperf_engine_destroy()   free every QP, MR, CQ, channel and the device
 *
 * Threads: every source runs on its own thread, pinned to the host's cpu,
 * else on its spec's cpu_node, else on the NIC's node (rperf_place_decide,
 * as rperf lat), its buffers on its mem_node (else the NIC's node), with a
 * stop flag and no socket; except that on a host that also runs an LSG,
 * BSG sources stay unpinned (a BSG polling on the LSG's CPU would distort
 * its timestamps: see tests/lab/README.md on busy pollers); all sinks of the
 * device are served by ONE sink thread that waits in one poll() on the
 * completion channels of the sinks (event mode: one channel per sink,
 * shared by its QPs, so the QP count is not bounded by open files) or
 * busy-polls all their CQs (poll mode: when any sink asks for it) until
 * nothing has arrived for the sinks' stall limit, then sleeps on the same
 * channels until a completion wakes it. CPU time per thread from getrusage(RUSAGE_THREAD).
 *
 * Timing: a source starts at GO receipt + start_in_ns + spec.start_ns
 * (CLOCK_MONOTONIC) and runs warmup_ns + duration_ns. An LSG's samples in
 * the first warmup_ns are taken (a first rperf_lsg_run whose histograms are
 * dropped; its sample count is the result's "warmup") and do not count; a
 * BSG runs through the warm-up in one call so the load is steady when the
 * LSG starts measuring (its figures cover the whole run), and on for
 * RPERF_ENGINE_BSG_TAIL_NS after its window: agents start only within
 * milliseconds of each other (tens under emulation), and an LSG that
 * started a little later than a BSG must not take its last samples on an
 * idle fabric. The tail stays inside the controller's margin between the
 * planned end and STOP (src/run/run_ctl.c). A sink counts
 * from ARMED to STOP; its "seconds" span its first to last receive.
 *
 * Two choices, and why: endpoints/connect use the typed struct
 * rperf_proto_inst_eps rather than JSON (one codec, in proto_plan.c); sinks
 * have no run() of their own but sink_fds()/sink_drain() called by the one
 * sink thread, so any number of them share it.
 *
 * Nothing here prints; errors are values with a one-line message.
 */
#ifndef RPERF_ENGINE_H
#define RPERF_ENGINE_H

#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rperf/clock.h>

#include "engine/proto.h"
#include "host/place.h"
#include "verbs/verbs.h"
#include "util/mono.h"

#define RPERF_ENGINE_RX_DEPTH 512 /* receives kept posted at a sink */
#define RPERF_ENGINE_ECHO_DEPTH 16 /* a pingpong sink's replies in flight */
/* An LSG's wire and loopback send queues: an open schedule keeps up to
 * RPERF_LSG_MAX_INFLIGHT (64) samples in flight, one slot spare (16 capped
 * a poisson:500 prober of a 28 ms queue at 15 and it fell behind) */
#define RPERF_ENGINE_LSG_SEND_DEPTH 65
#define RPERF_ENGINE_MAX_STALL_NS (60ull * 1000000000ull)
#define RPERF_ENGINE_BSG_TAIL_NS RPERF_PROTO_BSG_TAIL_NS
#define RPERF_ENGINE_STOP_GRACE_NS 300000000ull
#define RPERF_ENGINE_CM_TIMEOUT_MS 20000 /* each rdma_cm step of a QP */
#define RPERF_ENGINE_LIVE_RING 64 /* live rows an instance keeps */

struct rperf_engine;
struct rperf_gen_inst;

struct rperf_gen_ops {
	const char *name; /* "lsg-source", "bsg-source", "sink" */
	/* create QPs and buffers on g->dev, post receives */
	int (*setup)(struct rperf_gen_inst *g, char *err, size_t errlen);
	/* the local QPs' endpoints, in order (out->qps allocated here) */
	int (*endpoints)(struct rperf_gen_inst *g,
			 struct rperf_proto_inst_eps *out);
	/* connect to the other end's QPs (same order) */
	int (*connect)(struct rperf_gen_inst *g,
		       const struct rperf_proto_inst_eps *peer, char *err,
		       size_t errlen);
	/* sources: the whole run on the instance's thread; 0 or errno with
	 * g->res.error set */
	int (*run)(struct rperf_gen_inst *g, volatile sig_atomic_t *stop);
	/* sinks: the completion channel fds to wait on (at most @cap) */
	size_t (*sink_fds)(struct rperf_gen_inst *g, struct pollfd *pf,
			   size_t cap);
	/* sinks: after poll() (@pf: this instance's slice, NULL in poll
	 * mode) take the events, drain and refill; *progress if anything
	 * arrived. 0 or errno (g->res.error set; the instance is dropped) */
	int (*sink_drain)(struct rperf_gen_inst *g, const struct pollfd *pf,
			  bool *progress);
	/* sinks in poll mode with nothing arriving for the stall limit:
	 * arm the completion events (then sink_fds' fds are waited on and
	 * sink_drain gets @pf) so the sink thread sleeps. 0 or errno */
	int (*sink_arm)(struct rperf_gen_inst *g);
	/* sources: make a run that ignores the stop flag return (a peer
	 * gone: outstanding work never completes): flush its QPs (to ERROR,
	 * every WR completes in error). Called from another thread. */
	void (*abort)(struct rperf_gen_inst *g);
	/* a round after the first (rperf_engine_round; the previous one
	 * stopped and reported): forget its counters and figures, keep QPs,
	 * buffers and posted receives. NULL: it keeps none. */
	void (*round)(struct rperf_gen_inst *g);
	/* fill g->res (counters, histograms moved into it) */
	int (*result)(struct rperf_gen_inst *g);
	void (*teardown)(struct rperf_gen_inst *g);
};

/* The sink of every kind (gen_sink.c); the sources are the kind table's
 * (gen_kinds.c). */
extern const struct rperf_gen_ops rperf_gen_sink;
const struct rperf_gen_ops *rperf_gen_ops_for(enum rperf_gen_kind k,
					      enum rperf_proto_role r);

/* One generator instance (one end of one spec) on this host. */
struct rperf_gen_inst {
	const struct rperf_gen_ops *ops;
	struct rperf_gen_spec spec;
	enum rperf_proto_role role;
	struct rperf_dev *dev; /* the engine's, shared */
	struct rperf_verbs_cfg vcfg; /* device + this spec's path */
	const struct rperf_clock *clk;
	int cpu; /* -1: no pinning */
	uint64_t stall_ns; /* no progress for this long ends a source's run
			      and puts a sink to sleep: its path's
			      rperf_engine_stall_ns(), at most the agent's
			      --stall-limit */
	struct rperf_placement place; /* sources: decided at setup (their
					 buffers allocated under its memory
					 policy), applied by their thread */
	void *priv; /* the ops' state */
	/* runtime (sources) */
	pthread_t thread;
	bool started, ended;
	volatile sig_atomic_t aborted; /* QPs flushed by rperf_engine_stop */
	uint64_t start_at_ns; /* CLOCK_MONOTONIC */
	/* sinks: GO's t0 (CLOCK_MONOTONIC), 0 before GO; set by
	 * rperf_engine_go while the sink thread reads it */
	_Atomic uint64_t go_ns;
	uint64_t woke_ns; /* when its thread passed start_at_ns; 0: never */
	struct rperf_engine *engine;
	/* live rows (engine_live.c, under the engine's live_lock): the
	 * newest interval rows not taken yet by a HEARTBEAT */
	struct rperf_live_row live[RPERF_ENGINE_LIVE_RING];
	uint64_t live_pushed, live_taken;
	/* results */
	struct rperf_proto_result res;
};

/* Receives a spec's sink keeps posted on each QP, and an LSG source on its
 * loopback receiver: the spec's "rx_depth" (rperf lat and bw's -r, job key
 * rx_depth; the device must take it) or RPERF_ENGINE_RX_DEPTH (capped at
 * what the device takes). An LSG source solicits every depth/4-th SEND. */
unsigned int rperf_engine_rx_depth(const struct rperf_gen_spec *s);
/* The depth an end on @d posts for @s: 0 or EINVAL with @err naming the key
 * when the spec's rx_depth is above what @d takes. */
int rperf_engine_rx_depth_on(const struct rperf_gen_spec *s,
			     const struct rperf_dev *d, unsigned int *out,
			     char *err, size_t errlen);
/* An instance's stall limit: rperf_engine_stall_ns(@p), at most @limit_ns
 * (an agent's --stall-limit; 0: none). */
uint64_t rperf_engine_inst_stall_ns(const struct rperf_path_spec *p,
				    uint64_t limit_ns);
/* Stall limit of a spec: rperf_rc_stall_ns() (4x what RC takes to give
 * up, at least 5 s), capped at RPERF_ENGINE_MAX_STALL_NS. */
uint64_t rperf_engine_stall_ns(const struct rperf_path_spec *p);
/* The verbs endpoint of a QP in wire form (+ an offered buffer, may be
 * NULL). */
void rperf_engine_ep(const struct rperf_gen_inst *g, const struct rperf_qp *qp,
		     const struct rperf_buf *buf,
		     struct rperf_ctrl_endpoint *out);
/* Move @qp to the ERROR state: its outstanding WRs complete, flushed. */
void rperf_engine_qp_flush(struct rperf_qp *qp);
/* Wire endpoint -> verbs endpoint. */
void rperf_engine_ep_from(const struct rperf_ctrl_endpoint *in,
			  struct rperf_endpoint *out);

/* The endpoints of every QP of @c, in order (with @offer_buf: c->buf's
 * address, key and access; a sink's). 0 or ENOMEM. */
struct rperf_gen_conn;
int rperf_engine_conn_eps(const struct rperf_gen_inst *g,
			  const struct rperf_gen_conn *c, bool offer_buf,
			  struct rperf_proto_inst_eps *out);
/* Connect QP i of @c to @peer's QP i (the same count, else EINVAL naming
 * both ends); with the spec's rdma_cm through rdma_cm (a sink's @c
 * listening since its setup). A source refuses a sink on its own device
 * (EINVAL: a loopback inside the device). 0 or errno with @err. */
int rperf_engine_conn_connect(const struct rperf_gen_inst *g,
			      struct rperf_gen_conn *c,
			      const struct rperf_proto_inst_eps *peer,
			      char *err, size_t errlen);

/* Open @plan's device and set every instance up. @clk outlives the engine.
 * 0 or errno with @err. */
int rperf_engine_create(const struct rperf_proto_plan *plan,
			const struct rperf_clock *clk,
			struct rperf_engine **out, char *err, size_t errlen);
/* The device's name (after create). */
const char *rperf_engine_device(const struct rperf_engine *e);
/* "ethernet" (RoCE) or "infiniband": the port's link layer. */
const char *rperf_engine_link_layer(const struct rperf_engine *e);
/* The port's data rate in Gb/s, as rperf info computes it (InfiniBand:
 * speed x width after encoding; RoCE: its netdev's speed); 0 unknown. */
double rperf_engine_link_gbps(const struct rperf_engine *e);
size_t rperf_engine_count(const struct rperf_engine *e, size_t *sources,
			  size_t *sinks);
int rperf_engine_endpoints(struct rperf_engine *e, struct rperf_proto_eps *out,
			   char *err, size_t errlen);
/* Every local instance must have its peer in @peers (role = local role). */
int rperf_engine_connect(struct rperf_engine *e,
			 const struct rperf_proto_eps *peers, char *err,
			 size_t errlen);
/* Start the sources at @t0_ns (CLOCK_MONOTONIC) + spec.start_ns. */
int rperf_engine_go(struct rperf_engine *e, uint64_t t0_ns, char *err,
		    size_t errlen);
/* Readable (eventfd) when a source thread ends; rperf_engine_poll() then. */
int rperf_engine_fd(const struct rperf_engine *e);
/* Read the eventfd; true when every started source has ended. */
bool rperf_engine_poll(struct rperf_engine *e);
/* A source of @e ended with an error (its stall limit, a failed
 * completion). */
bool rperf_engine_failed(struct rperf_engine *e);
/* End the sources now (their flag; each reaps what it has in flight and
 * ends, as at its planned end: rperf_engine_poll() then); the sinks count
 * on until rperf_engine_stop(). */
void rperf_engine_halt(struct rperf_engine *e);
/* Stop every thread (flag) and join them: a source still running
 * RPERF_ENGINE_STOP_GRACE_NS after the flag is aborted (its QPs flushed),
 * so a stop never waits for a stall limit. Idempotent. */
void rperf_engine_stop(struct rperf_engine *e);
/* After stop: the results of every instance (histograms copied; free with
 * rperf_proto_report_fini). */
int rperf_engine_report(struct rperf_engine *e, const char *host,
			struct rperf_proto_report *out);
/* Rounds on the same QPs (engine_round.c; the PLAN's "rounds"): the next
 * round @k after the previous one's REPORT:
 * stop (idempotent), reset every instance's figures and counters (QPs,
 * buffers, posted receives and the connections kept), restart the sink
 * thread; the next rperf_engine_go runs round @k, every instance at its
 * round_sizes entry. 0, or EINVAL (@k not the next round of the plan),
 * EIO (an instance's QPs were flushed: no round on them) with @err. */
int rperf_engine_round(struct rperf_engine *e, uint32_t k, char *err,
		       size_t errlen);
/* Stop, tear every instance down, close the device. NULL-safe. */
void rperf_engine_destroy(struct rperf_engine *e);

/* ---- live rows (engine_live.c; proto.h's HEARTBEAT rows) ---- */

/* Keep live rows from now on (before GO: a GO with "live"). */
void rperf_engine_live_on(struct rperf_engine *e);
/* From a source's thread: one interval row of @g as it completes (kept
 * only after rperf_engine_live_on; when RPERF_ENGINE_LIVE_RING rows are
 * waiting, the oldest is overwritten and counted skipped). */
void rperf_engine_live_push(struct rperf_gen_inst *g,
			    const struct rperf_live_row *r);
/* The rows waiting, instance by instance and oldest first, up to @cap
 * into @out (*n; the rest wait for the next call); *skipped: the rows
 * overwritten since the last call. */
void rperf_engine_live_take(struct rperf_engine *e, struct rperf_live_row *out,
			    size_t cap, size_t *n, uint64_t *skipped);

/* ---- what an agent accepts (engine_limits.c) ---- */

#define RPERF_ENGINE_MAX_DURATION_NS (3600ull * 1000000000ull)

/* An agent's limits on one PLAN (0: no limit). */
struct rperf_plan_limits {
	uint64_t max_memory; /* bytes pinned, rperf_pin_estimate() */
	uint64_t max_qps; /* QPs created on the host */
	uint64_t max_instances; /* instance ends on the host */
	uint64_t max_duration_ns; /* latest start + warm-up + duration */
	uint64_t stall_ns; /* --stall-limit: every instance's stall limit at
			      most this (rperf_gen_inst.stall_ns) */
};

/* What @p would cost its host: QPs, bytes pinned (limits.c's estimate of
 * every instance end, receive queues at rperf_engine_rx_depth), instance
 * ends, the latest planned end after GO; the costliest and the last
 * instance (for the refusal text). */
struct rperf_plan_cost {
	uint64_t instances, qps, bytes, end_ns, big_bytes;
	const struct rperf_gen_spec *big, *last;
};
void rperf_engine_plan_cost(const struct rperf_proto_plan *p,
			    struct rperf_plan_cost *out);
/* @p against @l before anything is created: 0, or EDQUOT with @why
 * ("limits: ...": the figure, the limit and its option). */
int rperf_engine_plan_admit(const struct rperf_plan_limits *l,
			    const struct rperf_proto_plan *p, char *why,
			    size_t whylen);
/* May @peer's endpoints (the other end of an instance, on host @host) be
 * connected from device @d? RoCE: every GID is @host's address in
 * @hosts->hosts (the PLAN's "hosts"); InfiniBand: our subnet and a LID
 * (rperf_limits_gid_check_host). 0 or EACCES with @why. */
int rperf_engine_peer_check(const struct rperf_dev *d,
			    const struct rperf_proto_plan *hosts,
			    const char *host,
			    const struct rperf_proto_inst_eps *peer, char *why,
			    size_t whylen);

#endif
