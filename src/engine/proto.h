/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Experiment protocol between `rperf run` (the controller) and `rperf agent`
 * (one per host). Same framing as src/ctrl/ctrl.h (12-byte header validated
 * before the payload is read, 1 MiB bound, one JSON object per frame); the
 * message types below extend enum rperf_ctrl_type. Every read has a timeout
 * (the job's `timeout`, default 10 s).
 *
 * The channel is TLS 1.3 (src/ctrl/ctrl_tls.h), authenticated on both
 * sides by the pre-shared key of --key-file (TLS-PSK) or by certificates,
 * before the agent reads the HELLO: a controller or an agent without the
 * key never gets a frame through. An agent started with --insecure speaks
 * the same frames over plain TCP (and every report says so).
 *
 *   controller                       agent
 *   [TLS 1.3 handshake: both ends authenticated, else closed]
 *   HELLO     ---------------->      {"version":1,"command":"run",
 *                                     "features":[]}
 *             <----------------  WELCOME {"version":1,"max_size":N,
 *                                     "features":["heartbeat"]}
 *                                 or REFUSE {"reason":"busy: running a
 *                                     test for ADDR since TIME (N s
 *                                     left)"} (src/serve/serve.h)
 *   PLAN      ---------------->      {"experiment":"job name","host":"h2",
 *                                     "device":{host_sel},
 *                                     "hosts":[{"name":"h1",
 *                                     "addr":"10.0.0.1"}...],
 *                                     "sources":[spec...],
 *                                     "sinks":[spec...]}
 *                                     sources: instances with from = host;
 *                                     sinks: instances with to = host
 *             <----------------  ENDPOINTS {"instances":[{"id":N,
 *                                     "role":"source"|"sink",
 *                                     "qps":[endpoint...]}],
 *                                     "link_layer":"infiniband"|"ethernet"}
 *                                     (optional; the controller names its
 *                                     classes SL or traffic class by it)
 *                                 or ERROR {"reason"} (device, QP ...,
 *                                     "limits: ..." when the plan is
 *                                     above the agent's --max-* limits:
 *                                     nothing was created)
 *   CONNECT   ---------------->      {"peers":[{"id":N,"role":"source"|
 *                                     "sink","qps":[endpoint...]}]}
 *                                     role is the LOCAL role; qps are the
 *                                     other end's endpoints, in order
 *             <----------------  ARMED {}   (or ERROR; "endpoint ...":
 *                                     a GID that is not the other end's
 *                                     "hosts" address: nothing connected)
 *   CLOCK     <--------------->  (optional, agents with "clock-sync",
 *                                     any number before GO: see CLOCK)
 *   GO        ---------------->      {"start_in_ns":u64} every agent starts
 *                                     its instances at receipt +
 *                                     start_in_ns + spec.start_ns (the
 *                                     barrier; sinks are live once ARMED);
 *                                     optional "heartbeat_ns": u64 (0 or
 *                                     absent: none); optional
 *                                     "start_at_ns": u64, the start
 *                                     instant on the agent's clock
 *                                     (replaces receipt + start_in_ns)
 *             <----------------  HEARTBEAT {} every heartbeat_ns from
 *                                     GO until REPORT (an agent with the
 *                                     "heartbeat" feature): a controller
 *                                     that hears nothing for 2 x
 *                                     heartbeat_ns declares it failed
 *             <----------------  FINISHED {} when all its sources ended
 *                                     (optional hint; may never come)
 *   HALT      ---------------->      {} (optional, agents with "halt",
 *                                     before STOP: see HALT)
 *   STOP      ---------------->      {} stop everything still running
 *             <----------------  REPORT {"host":"h2","instances":[result],
 *                                     "clock":{...}} (optional object: the
 *                                     clock the LSGs used, e.g. the "clock"
 *                                     object of rperf lat's JSON; the
 *                                     controller prints it as is);
 *                                     optional "dry_run": true (an agent
 *                                     started with --dry-run: no device,
 *                                     no QP, every figure empty) and
 *                                     "go_rx_ns": u64 (the agent's
 *                                     CLOCK_MONOTONIC at GO receipt)
 *   BYE       ---------------->
 *             <----------------  BYE  then the agent frees every QP, MR,
 *                                     CQ and thread and waits for the next
 *                                     controller
 *
 * An endpoint is the object of rperf_ctrl_endpoint_encode(). A result:
 *   {"id":N, "role":"source"|"sink", "kind":"lsg"|"bsg",
 *    "error": "" or why it stopped early (partial figures kept),
 *    "seconds": measured window (double),
 *    "cpu_seconds": CPU time of its thread (RUSAGE_THREAD; a sink: the
 *                   host's one sink thread, shared by all its sinks),
 *    LSG source: "samples","warmup","nonpositive","precompleted",
 *                "loop_precompleted","rtt_hist","wire_hist","loop_hist"
 *                (rperf_hist_serialize() bytes as lowercase hex),
 *                "timestamps": "nic"|"cpu" (which clock stamped the
 *                completions, as rperf lat --timestamps; optional),
 *                "timestamps_note": why auto fell back to CPU stamps
 *                (optional, absent when it did not),
 *                "nic_clock": {"hz","measured_hz","ppm"} (optional, with
 *                "timestamps": "nic": the NIC clock and its check),
 *                "post_wire_hist","post_loop_hist": each ibv_post_send's
 *                time on the wire QP and the loopback QP (optional: the
 *                spec's breakdown),
 *    BSG source: "messages","bytes","posted","post_calls",
 *    source (both kinds, optional): "placement": {"nic_node","cpu_node",
 *                "mem_node" (integers, -1 = unknown / not bound),
 *                "remote" (bool: thread or buffers off the NIC's node)}:
 *                where the engine placed the source (job keys cpu_node,
 *                mem_node, the host's cpu; rperf_place_decide),
 *    sink (both kinds): "messages","bytes" received (0 for a BSG of
 *                   verb "write": an RDMA WRITE makes no receive
 *                   completion, there is nothing to count) }
 * Percentiles never travel: the controller merges histograms.
 *
 * ERROR {"reason"} may come from either side at any step and ends the
 * experiment for that agent (it frees everything). A controller that goes
 * away (EOF) has the same effect. The agent serves one controller at a time;
 * another connection meanwhile gets REFUSE "busy ..." at once.
 */
#ifndef RPERF_ENGINE_PROTO_H
#define RPERF_ENGINE_PROTO_H

/* A BSG source loads the fabric this long past its window (see
 * src/engine/engine.h); the controller's STOP comes later than that. */
#define RPERF_PROTO_BSG_TAIL_NS (500ull * 1000000ull)
#define RPERF_PROTO_NONCE_LEN 32 /* random bytes (a launch's key) */
/* GO "heartbeat_ns" bounds; the agent's WELCOME feature that says it
 * sends them */
#define RPERF_PROTO_MIN_HEARTBEAT_NS (10ull * 1000000ull)
#define RPERF_PROTO_MAX_HEARTBEAT_NS (60ull * 1000000000ull)
#define RPERF_PROTO_FEATURE_HEARTBEAT "heartbeat"
/* ---- HALT: the sources end before the sinks stop ----
 * A run cut short (SIGINT) must not stop a sink while a source on another
 * host still completes messages: the source's count would then exceed the
 * sink's (a send acknowledged after the sink's last count). So to an agent
 * with the WELCOME feature "halt" whose sources have not FINISHED, the
 * controller first sends HALT {}: the agent ends its sources at once (they
 * reap what is in flight) and says FINISHED as usual, its sinks counting
 * on; once every source FINISHED, or after the timeout, STOP follows. An
 * agent without the feature gets STOP at once, as before. */
#define RPERF_PROTO_FEATURE_HALT "halt"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include <rperf/hist.h>
#include <rperf/report.h>

#include "ctrl/ctrl.h"
#include "engine/spec.h"
#include "counters/counters.h"
#include "gen/series.h"

#define RPERF_PROTO_EXPERIMENT_LEN 256 /* PLAN "experiment" (with NUL) */
#define RPERF_PROTO_MAX_INSTANCES 1024 /* per PLAN, ENDPOINTS, REPORT ... */
#define RPERF_PROTO_MAX_KEY 4096 /* key file bytes */
#define RPERF_PROTO_MAX_START_NS (3600ull * 1000000000ull) /* GO bound */
#define RPERF_PROTO_ERROR_LEN 256 /* result "error" (longer: cut) */

/*
 * Typed codecs of the experiment messages. Conventions as src/ctrl:
 * encode builds a new payload object in *out (caller json_decref()s);
 * 0, EINVAL (a field out of range: the encoder never ships what the
 * decoder would refuse), ENOMEM. decode takes a received message: EPROTO
 * when m->type is another type, EBADMSG with @why naming the key for a bad
 * payload, ENOMEM. Unknown keys are ignored. Decoded arrays are owned by
 * the output struct: release them with the matching _fini (NULL-safe,
 * idempotent; also safe on a zeroed struct and after a failed decode).
 */

enum rperf_proto_role {
	RPERF_ROLE_SOURCE = 0, /* "source": this host runs the generator */
	RPERF_ROLE_SINK = 1, /* "sink": this host is its destination */
};
const char *rperf_proto_role_name(enum rperf_proto_role r); /* "?" if bad */

/* ---- keys ---- */

/* @n random bytes from getrandom(): 0 or errno. */
int rperf_proto_nonce(uint8_t nonce[RPERF_PROTO_NONCE_LEN]);
/*
 * Read a pre-shared key file: its bytes without trailing "\r\n\t " (so
 * `echo secret > f` works). EACCES with a message when the file is
 * readable or writable by group or others (chmod 600), EINVAL when empty
 * (after trimming) or longer than RPERF_PROTO_MAX_KEY, or the open/read
 * errno. @key must hold RPERF_PROTO_MAX_KEY bytes.
 */
int rperf_proto_key_load(const char *path, uint8_t *key, size_t *keylen,
			 char *err, size_t errlen);

/* Lowercase hex of @n bytes into @s (2n+1 chars); exactly 2n hex digits
 * (either case) -> n bytes: 0 or EBADMSG. (The control channel's codec.) */
static inline void rperf_proto_hex(const uint8_t *b, size_t n, char *s)
{
	rperf_ctrl_hex(b, n, s);
}

static inline int rperf_proto_unhex(const char *s, uint8_t *b, size_t n)
{
	return rperf_ctrl_unhex(s, b, n);
}

/* ---- PLAN ---- */

#define RPERF_PROTO_ADDR_LEN 64 /* an IPv4 or IPv6 address as text */
#define RPERF_PROTO_MAX_HOSTS 1024 /* PLAN "hosts" entries */

/* One host of the plan and the address its agent was reached at (the
 * controller's resolved control connection): a peer endpoint's GID must
 * be it (RoCE), see rperf_engine_peer_check(). */
struct rperf_proto_host_addr {
	char name[RPERF_NAME_LEN];
	char addr[RPERF_PROTO_ADDR_LEN]; /* numeric, inet_pton()-able */
};

struct rperf_proto_plan {
	char experiment[RPERF_PROTO_EXPERIMENT_LEN];
	char host[RPERF_NAME_LEN]; /* the agent's host name in the job */
	struct rperf_host_sel device;
	struct rperf_gen_spec *sources; /* from == host */
	size_t nsources;
	struct rperf_gen_spec *sinks; /* to == host */
	size_t nsinks;
	/* "hosts": [{"name","addr"}...]: this host and every host at the
	 * other end of one of its instances (an agent refuses a PLAN without
	 * the other end's address: see src/engine/engine_limits.c) */
	struct rperf_proto_host_addr *hosts;
	size_t nhosts;
	/* "rounds" (optional, absent: 1; proto_rounds.c): GO -> REPORT
	 * cycles on the same QPs; each spec's round_sizes has this many
	 * entries or none (its size every round) */
	uint32_t rounds;
	/* Local, never on the wire: the agent's --stall-limit (0: none), set
	 * before rperf_engine_create (rperf_gen_inst.stall_ns) */
	uint64_t stall_limit_ns;
	/* Local, never on the wire: the other hosts' addresses are the
	 * control connection's (the rperf lat / bw servers: the client is
	 * the controller's host), which their endpoints are checked against */
	bool addrs_are_controller;
};
/* decode also checks: from/to == host as above, ids unique in the plan,
 * nsources + nsinks <= RPERF_PROTO_MAX_INSTANCES, every "hosts" address
 * numeric IPv4/IPv6 and every name unique. */
int rperf_proto_plan_encode(const struct rperf_proto_plan *p, json_t **out);
int rperf_proto_plan_decode(const struct rperf_ctrl_msg *m,
			    struct rperf_proto_plan *p, char *why,
			    size_t whylen);
void rperf_proto_plan_fini(struct rperf_proto_plan *p);
/* The address of host @name in @p, NULL if the plan has none. */
const char *rperf_proto_plan_addr(const struct rperf_proto_plan *p,
				  const char *name);
/* The latest planned end of the plan's sources after the barrier:
 * max(start_ns + warmup_ns + duration_ns); 0 without sources. */
uint64_t rperf_proto_plan_end_ns(const struct rperf_proto_plan *p);

/* ---- ENDPOINTS (agent -> controller) and CONNECT (controller -> agent) */

struct rperf_proto_inst_eps {
	uint32_t id;
	enum rperf_proto_role role; /* the role on the host that sends it
				       (ENDPOINTS) / that receives it
				       (CONNECT) */
	struct rperf_ctrl_endpoint *qps; /* [nqps], 1..RPERF_PROTO_MAX_QPS */
	size_t nqps;
};
struct rperf_proto_eps {
	struct rperf_proto_inst_eps *inst;
	size_t n;
};
#define RPERF_PROTO_MAX_QPS (RPERF_SPEC_TEST_MAX_QPS + 2)
/* ENDPOINTS {"instances":[...]}; CONNECT {"peers":[...]}; same shape. */
int rperf_proto_endpoints_encode(const struct rperf_proto_eps *e, json_t **out);
int rperf_proto_endpoints_decode(const struct rperf_ctrl_msg *m,
				 struct rperf_proto_eps *e, char *why,
				 size_t whylen);
int rperf_proto_connect_encode(const struct rperf_proto_eps *e, json_t **out);
int rperf_proto_connect_decode(const struct rperf_ctrl_msg *m,
			       struct rperf_proto_eps *e, char *why,
			       size_t whylen);
void rperf_proto_eps_fini(struct rperf_proto_eps *e);
/* The entry for (@id, @role), NULL if none. */
const struct rperf_proto_inst_eps *
rperf_proto_eps_find(const struct rperf_proto_eps *e, uint32_t id,
		     enum rperf_proto_role role);

/* ---- GO ---- */
/* @heartbeat_ns: 0 (none) or within the RPERF_PROTO_*_HEARTBEAT_NS
 * bounds, else EINVAL / EBADMSG. */
int rperf_proto_go_encode(uint64_t start_in_ns, uint64_t heartbeat_ns,
			  json_t **out);
int rperf_proto_go_decode(
	const struct rperf_ctrl_msg *m,
	uint64_t *start_in_ns, /* <= RPERF_PROTO_MAX_START_NS */
	uint64_t *heartbeat_ns);

/* ---- CLOCK: the start barrier's clock offsets ----
 * Between ARMED and GO a controller may measure the offset of an agent
 * that announced the "clock-sync" feature (WELCOME): it sends CLOCK
 * {"seq":u32} (t1 on its CLOCK_MONOTONIC) and the agent answers at once
 * CLOCK {"seq","rx_ns","tx_ns"} (its CLOCK_MONOTONIC at receipt and at
 * sending, rx_ns <= tx_ns), which arrives at t4; several exchanges one
 * after another, NTP's estimate of the least-RTT one kept (src/run/
 * run_clock.h). GO then carries "start_at_ns": the start instant on the
 * agent's own clock (it starts its instances at start_at_ns + spec.start_ns
 * and ignores start_in_ns); an agent without the feature is sent
 * start_in_ns only, as before. Its REPORT may say "start_ns": its clock
 * when its sources actually started (from that the controller estimates
 * the start skew). */
#define RPERF_PROTO_FEATURE_CLOCK_SYNC "clock-sync"
#define RPERF_PROTO_MAX_CLOCK_SEQ 1000000u
int rperf_proto_clock_req_encode(uint32_t seq, json_t **out);
int rperf_proto_clock_req_decode(const struct rperf_ctrl_msg *m, uint32_t *seq);
int rperf_proto_clock_reply_encode(uint32_t seq, uint64_t rx_ns, uint64_t tx_ns,
				   json_t **out);
/* EBADMSG also when rx_ns > tx_ns. */
int rperf_proto_clock_reply_decode(const struct rperf_ctrl_msg *m,
				   uint32_t *seq, uint64_t *rx_ns,
				   uint64_t *tx_ns);
/* ---- live rows (proto_live.c) ----
 * An agent with the WELCOME feature "live", sent a GO with "live": true,
 * puts in each HEARTBEAT the interval rows (the spec's interval_ns, the
 * same rows as the REPORT's "intervals") its sources completed since the
 * previous one: {"rows":[row...], "skipped": u64 (optional: rows that
 * were overwritten before a HEARTBEAT took them; the REPORT has them)}.
 * A row: {"id":N, "kind":"bsg", "start_ns" (from GO), "dur_ns",
 * "messages", "bytes"} or {"id":N, "kind":"lsg", "start_ns", "samples",
 * "p50_ns", "p99_ns", "max_ns"} (at most RPERF_PROTO_MAX_LIVE_ROWS). A
 * controller that did not ask gets none; an agent without the feature
 * ignores "live" (its HEARTBEATs stay empty). */
#define RPERF_PROTO_FEATURE_LIVE "live"
#define RPERF_PROTO_MAX_LIVE_ROWS 1024u

struct rperf_live_row {
	uint32_t id;
	enum rperf_gen_kind kind;
	uint64_t start_ns, dur_ns; /* BSG: its length; LSG: 0 */
	uint64_t messages, bytes; /* BSG: completed in it */
	uint64_t samples; /* LSG */
	int64_t p50_ns, p99_ns, max_ns; /* LSG's RTT; 0 without samples */
};

struct rperf_proto_live {
	struct rperf_live_row *rows; /* [n], owned */
	size_t n;
	uint64_t skipped;
};

/* ---- every sample (proto_samples.c) ----
 * A PLAN's LSG with "raw": true (rperf run --raw; an agent with the
 * WELCOME feature "samples") keeps every sample of its measured run; after
 * STOP its agent sends them, in order, before its REPORT as SAMPLES
 * frames {"id": N, "first": the index of the frame's first sample,
 * "wire_ns": [...], "loop_ns": [...], "rtt_ns": [...]} (integers, one
 * length, 1..RPERF_PROTO_SAMPLES_PER_FRAME), and the REPORT's result of
 * that LSG says "raw_samples": the count sent. */
#define RPERF_PROTO_FEATURE_SAMPLES "samples"
#define RPERF_PROTO_SAMPLES_PER_FRAME 8192u
struct rperf_proto_samples {
	uint32_t id;
	uint64_t first;
	struct rperf_raw_sample *s; /* [n], owned; size 0 (the spec's) */
	size_t n;
};
/* @n samples of instance @id from @first on: 0, ENOMEM, EINVAL (n 0 or
 * above RPERF_PROTO_SAMPLES_PER_FRAME). */
int rperf_proto_samples_encode(uint32_t id, uint64_t first,
			       const struct rperf_raw_sample *s, size_t n,
			       json_t **out);
/* 0, or EBADMSG with @why naming the key; ENOMEM. _fini frees. */
int rperf_proto_samples_decode(const struct rperf_ctrl_msg *m,
			       struct rperf_proto_samples *out, char *why,
			       size_t whylen);
void rperf_proto_samples_fini(struct rperf_proto_samples *x);

/* ---- rounds on the same QPs (proto_rounds.c) ----
 * An agent with the WELCOME feature "rounds" takes a PLAN with "rounds":
 * N (2..RPERF_SPEC_MAX_ROUNDS; absent: 1) whose specs may carry
 * "round_sizes" (N sizes each). After its REPORT of round k it waits for
 * either BYE or, for round k + 1 < N, CLOCK exchanges and a GO with
 * "round": k + 1: it resets every instance's figures, keeps its QPs,
 * connections and buffers, and runs the round at its round_sizes entry.
 * A GO's "round" (absent: 0) must be the next round, else ERROR. */
#define RPERF_PROTO_FEATURE_ROUNDS "rounds"
/* An agent with the WELCOME feature "round_methods" also takes an LSG's
 * "round_methods" (N methods: its method changes per round, rperf lat's
 * --method all); its LSG ends are made for every method listed. */
#define RPERF_PROTO_FEATURE_ROUND_METHODS "round_methods"
/* PLAN's "rounds" (encode when > 1; decode checks every spec's count):
 * 0, ENOMEM, EBADMSG with @why. */
int rperf_proto_plan_rounds_encode(const struct rperf_proto_plan *p, json_t *o);
int rperf_proto_plan_rounds_decode(const json_t *o, struct rperf_proto_plan *p,
				   char *why, size_t whylen);
/* GO's "round": set (@k > 0 only) / read (absent: 0). 0, ENOMEM, EBADMSG. */
int rperf_proto_go_set_round(json_t *go, uint32_t k);
int rperf_proto_go_round(const struct rperf_ctrl_msg *m, uint32_t *k);

/* GO's optional "live" (set / read: absent = false): 0, ENOMEM, EBADMSG. */
int rperf_proto_go_set_live(json_t *go);
int rperf_proto_go_live(const struct rperf_ctrl_msg *m, bool *live);
/* A HEARTBEAT's payload with @n rows (<= RPERF_PROTO_MAX_LIVE_ROWS, else
 * EINVAL) and @skipped: 0, ENOMEM, EINVAL. */
int rperf_proto_live_encode(const struct rperf_live_row *rows, size_t n,
			    uint64_t skipped, json_t **out);
/* A HEARTBEAT (an empty one: no rows): 0, or EBADMSG with @why naming the
 * row and key; ENOMEM. _fini frees the rows. */
int rperf_proto_live_decode(const struct rperf_ctrl_msg *m,
			    struct rperf_proto_live *out, char *why,
			    size_t whylen);
void rperf_proto_live_fini(struct rperf_proto_live *l);

/* GO's optional "start_at_ns" (added to an encoded GO / read from one:
 * 0, ENOENT when absent, EBADMSG, ENOMEM). */
int rperf_proto_go_set_start_at(json_t *go, uint64_t start_at_ns);
int rperf_proto_go_start_at(const struct rperf_ctrl_msg *m,
			    uint64_t *start_at_ns);

/* ---- REPORT ---- */

struct rperf_proto_result {
	uint32_t id;
	enum rperf_proto_role role;
	enum rperf_gen_kind kind;
	char error[RPERF_PROTO_ERROR_LEN]; /* "" = ran to the end */
	double seconds, cpu_seconds;
	/* LSG source */
	uint64_t samples, warmup, nonpositive, precompleted, loop_precompleted;
	bool nic_ts; /* "timestamps": "nic" | "cpu" (absent: cpu) */
	/* "timestamps_note" (optional): why timestamps = auto fell back to
	 * CPU stamps, as rperf lat's note; "" when it did not */
	char ts_note[RPERF_PROTO_ERROR_LEN];
	/* "nic_clock" (optional, with "timestamps": "nic"): {"hz": the
	 * device's hca_core_clock, "measured_hz": its counter against
	 * CLOCK_MONOTONIC_RAW (0: not measured), "ppm": the one against the
	 * other (0: not measured)}, as rperf lat checks it; hz 0: absent */
	struct rperf_proto_nic_clock {
		double hz, measured_hz, ppm;
	} nic_clock;
	/* an LSG with "raw": every sample of its measured run (owned; the
	 * agent sends them in SAMPLES, the REPORT says "raw_samples": n) */
	struct rperf_raw_sample *raw;
	size_t nraw;
	bool has_raw; /* "raw_samples" present (decode: nraw is its count,
			 raw NULL: the samples came in SAMPLES) */
	struct rperf_hist *rtt, *wire, *loop; /* owned; NULL elsewhere */
	struct rperf_hist *post_wire, *post_loop; /* owned, breakdown only */
	/* "open_schedule" (optional, LSG with fixed/poisson): {"late",
	 * "lag_bound_ns", "lag_p99_ns", "lag_max_ns", "inflight_max"} */
	struct rperf_sched_figs sched;
	/* "intervals" (optional, LSG): [[start_ns from GO, samples, p50_ns,
	 * p99_ns, max_ns], ...], owned */
	struct rperf_lsg_series series;
	/* "intervals" (optional, BSG): [[start_ns from GO, dur_ns,
	 * messages, bytes], ...] per interval, owned: a source's completed,
	 * a sink's received (older agents send none from a sink, older
	 * controllers ignore a sink's) */
	struct rperf_bsg_series bsg_series;
	/* "intervals_dropped" (optional, BSG sink): its rows were left out to
	 * keep the REPORT within RPERF_CTRL_MAX_PAYLOAD */
	bool rows_dropped;
	/* BSG source (messages, bytes); sinks (messages, bytes received) */
	uint64_t messages, bytes, posted, post_calls;
	/* BSG sources, optional (proto_traffic.c): "end_ns" the last
	 * completion, ns after the barrier (GO + start_in); "bursts" an
	 * incast sender's [[first post, last completion], ...], the same */
	bool has_end;
	uint64_t end_ns;
	uint64_t *bursts; /* [2 * nbursts], owned */
	size_t nbursts; /* <= RPERF_PROTO_MAX_BURSTS */
	/* sources: "placement" (optional; placed false when absent) */
	bool placed;
	struct rperf_proto_placement {
		int nic_node, cpu_node, mem_node; /* -1..RPERF_SPEC_MAX_NODE */
		bool remote;
	} place;
};
#define RPERF_PROTO_MAX_BURSTS 2048 /* per instance and run */
/* proto_traffic.c: the optional keys above into @o / out of @o (0, ENOMEM,
 * EBADMSG with @why); fini frees the bursts. */
int rperf_proto_traffic_fill(const struct rperf_proto_result *r, json_t *o);
int rperf_proto_traffic_decode(const json_t *o, struct rperf_proto_result *r,
			       size_t idx, char *why, size_t whylen);
void rperf_proto_traffic_fini(struct rperf_proto_result *r);

struct rperf_proto_report {
	char host[RPERF_NAME_LEN];
	struct rperf_proto_result *res; /* [n] */
	size_t n;
	/* "dry_run": true (optional): an `rperf agent --dry-run` made this
	 * report: no device, no QP, no traffic; every figure is empty */
	bool dry_run;
	/* "go_rx_ns" (optional): CLOCK_MONOTONIC of the agent when GO
	 * arrived; comparable between agents that share a host's clock */
	bool has_go_rx;
	uint64_t go_rx_ns;
	/* "start_ns" (optional): CLOCK_MONOTONIC of the agent when its
	 * sources actually started (the start barrier's skew) */
	bool has_start;
	uint64_t start_ns;
	/* "buffers_note" (optional): why the host's generator buffers are
	 * not on the huge pages the plan asked for, or not locked (rperf
	 * lat's note); "" when they are */
	char buffers_note[RPERF_PROTO_ERROR_LEN];
	/* "counters" (optional, counters_json.h): the host's RDMA device
	 * and netdev counters per interval, rows from the sources' start on
	 * the agent's clock; ncols 0: none */
	struct rperf_ctr_series counters;
};
/* An LSG source result must carry all three histograms (EINVAL). decode
 * destroys nothing it did not create; _fini destroys the histograms. */
#define RPERF_PROTO_NHIST 5 /* rtt, wire, loop, post_wire, post_loop */
/* Result @r's histogram @i (< RPERF_PROTO_NHIST); destroy them all. */
struct rperf_hist **rperf_proto_result_hist(struct rperf_proto_result *r,
					    size_t i);
void rperf_proto_result_hists_fini(struct rperf_proto_result *r);
/* Free what a result owns: histograms, bursts, series, samples. */
void rperf_proto_result_fini(struct rperf_proto_result *r);
int rperf_proto_report_encode(const struct rperf_proto_report *r, json_t **out);
int rperf_proto_report_decode(const struct rperf_ctrl_msg *m,
			      struct rperf_proto_report *r, char *why,
			      size_t whylen);
void rperf_proto_report_fini(struct rperf_proto_report *r);
/* An encoded REPORT @o above @max bytes (compact JSON, as sent) loses its
 * BSG sinks' "intervals" (each marked "intervals_dropped": true) until it
 * fits: 0 when it fits (*dropped: how many sinks lost theirs), EMSGSIZE
 * when it still does not, ENOMEM. */
int rperf_proto_report_fit(json_t *o, size_t max, size_t *dropped);

/* ---- conversation state machine (both ends) ----
 * One table per role (rperf_ctrl_transition_step); the agent answers at
 * most one FINISHED and any number of HEARTBEATs between GO and REPORT.
 * ERROR is allowed both ways in every state but CLOSED and closes. An agent may
 * also REFUSE after HELLO (busy, version).
 */
enum rperf_proto_role_end { RPERF_PROTO_AGENT, RPERF_PROTO_CONTROLLER };

enum rperf_proto_state {
	RPERF_PROTO_AWAIT_HELLO, /* agent: recv HELLO */
	RPERF_PROTO_HELLO_RCVD, /* send WELCOME | REFUSE */
	RPERF_PROTO_AWAIT_PLAN, /* recv PLAN */
	RPERF_PROTO_PLAN_RCVD, /* send ENDPOINTS */
	RPERF_PROTO_AWAIT_CONNECT, /* recv CONNECT */
	RPERF_PROTO_CONNECT_RCVD, /* send ARMED */
	RPERF_PROTO_AWAIT_GO, /* recv GO */
	RPERF_PROTO_RUNNING, /* send FINISHED | HEARTBEAT, recv STOP */
	RPERF_PROTO_FINISHED, /* send HEARTBEAT, recv STOP */
	RPERF_PROTO_STOP_RCVD, /* send REPORT */
	RPERF_PROTO_AWAIT_BYE, /* recv BYE */
	RPERF_PROTO_BYE_RCVD, /* send BYE */
	RPERF_PROTO_C_INIT, /* controller: send HELLO */
	RPERF_PROTO_C_AWAIT_WELCOME, /* recv WELCOME | REFUSE */
	RPERF_PROTO_C_WELCOMED, /* send PLAN */
	RPERF_PROTO_C_AWAIT_ENDPOINTS, /* recv ENDPOINTS */
	RPERF_PROTO_C_ENDPOINTS_RCVD, /* send CONNECT */
	RPERF_PROTO_C_AWAIT_ARMED, /* recv ARMED */
	RPERF_PROTO_C_ARMED, /* send GO */
	RPERF_PROTO_C_RUNNING, /* recv FINISHED | HEARTBEAT, send STOP */
	RPERF_PROTO_C_FINISHED, /* recv HEARTBEAT, send STOP */
	RPERF_PROTO_C_AWAIT_REPORT, /* recv REPORT (FINISHED, HEARTBEAT may
				       still come) */
	RPERF_PROTO_C_REPORT_RCVD, /* send BYE */
	RPERF_PROTO_C_AWAIT_BYE, /* recv BYE */
	RPERF_PROTO_CLOCK_RCVD, /* agent: send CLOCK (back to AWAIT_GO) */
	RPERF_PROTO_C_AWAIT_CLOCK, /* controller: recv CLOCK (to C_ARMED) */
	RPERF_PROTO_CLOSED,
	RPERF_PROTO_STATE_COUNT
};

struct rperf_proto_session {
	enum rperf_proto_role_end end;
	enum rperf_proto_state state;
};

void rperf_proto_session_init(struct rperf_proto_session *s,
			      enum rperf_proto_role_end end);
/* 0 and advance, EPROTO (state unchanged), EINVAL (bad argument). */
int rperf_proto_session_check(struct rperf_proto_session *s,
			      enum rperf_ctrl_dir dir, enum rperf_ctrl_type t);
const char *rperf_proto_state_name(enum rperf_proto_state st);

#endif
