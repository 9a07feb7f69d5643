/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Generator specification: what one generator instance (an LSG or a BSG
 * running from one host to another) is asked to do, independent of any
 * command line or job file. The controller builds specs from a job file,
 * ships them to the agents in PLAN (see src/engine/proto.h) and the agents
 * run them; rperf lat and rperf bw describe their one generator the same way.
 *
 * One encoder/decoder for the wire (JSON object, every key below). The
 * decoder is strict: every key is checked for type and range; unknown keys
 * are ignored (forward compatibility). Conventions: 0 or a positive errno,
 * EBADMSG with @why naming the key for a bad payload.
 */
#ifndef RPERF_ENGINE_SPEC_H
#define RPERF_ENGINE_SPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "gen/gen.h"
#include "gen/schedule.h"
#include "gen/size_dist.h"

#define RPERF_NAME_LEN 64 /* generator, host and device names (with NUL) */
#define RPERF_SPEC_MAX_ROUNDS 256 /* rounds of one PLAN on its QPs */

/* A generator kind: its row of the kind table (engine/gen_kinds.c) + 1;
 * LSG and BSG are the first two rows. */
enum rperf_gen_kind {
	RPERF_GEN_LSG = 1, /* "lsg": closed loop, RPerf RTT (Equation 1) */
	RPERF_GEN_BSG = 2, /* "bsg": open loop, bandwidth */
};

/* What a kind's results are: which keys its job-file section takes (an
 * [lsg]'s or a [bsg]'s) and which rows of the run's reports it fills. */
enum rperf_gen_family {
	RPERF_FAMILY_LATENCY = 1, /* RTT histograms and series, as an LSG */
	RPERF_FAMILY_BANDWIDTH = 2, /* counts and rate series, as a BSG */
};

/* A row of the kind table. */
struct rperf_gen_ops; /* engine/engine.h */
struct rperf_gen_kind_row {
	const char *name; /* its job-file section and wire name */
	enum rperf_gen_family family;
	uint64_t default_size; /* bytes per message of a new spec */
	const struct rperf_gen_ops *source; /* its sink: every kind's one */
};

/* Kind @k's row; NULL for a kind the table does not have. */
const struct rperf_gen_kind_row *rperf_gen_kind_at(enum rperf_gen_kind k);
/* Whether @k's results are an LSG's latencies / a BSG's bandwidth (false
 * for an unknown kind). */
bool rperf_gen_latency(enum rperf_gen_kind k);
bool rperf_gen_bandwidth(enum rperf_gen_kind k);

/* How one end waits for completions. */
enum rperf_completion {
	RPERF_COMPLETION_POLL = 0, /* "poll": busy polling (hardware default) */
	RPERF_COMPLETION_EVENT = 1, /* "event": sleep on completion events */
};

/* Device selection and pinning on one host (job file [host NAME]). */
struct rperf_host_sel {
	char device[RPERF_NAME_LEN]; /* "" = first device with an active port */
	int port; /* 1.. */
	int gid_index; /* -1 = automatic */
	int cpu; /* -1 = no pinning */
	int cpu_node; /* "cpu_node": default of its sources, -1 = the NIC's
			 node (optional on the wire, absent = -1) */
	int mem_node; /* "mem_node": likewise for their buffers */
	int hugepages; /* "hugepages": enum rperf_hugepages, the pages of
			  the generators' buffers (optional on the wire,
			  absent = none) */
};

/* Huge pages for the buffers of a host's generators (rperf lat and bw's
 * --use_hugepages, job key hugepages): names in rperf_hugepage_names
 * (index = value); no free huge page: normal pages and a note. */
enum rperf_hugepages {
	RPERF_HUGEPAGES_NONE = 0,
	RPERF_HUGEPAGES_2M = 1,
	RPERF_HUGEPAGES_1G = 2,
	RPERF_HUGEPAGES_N = 3,
};
extern const struct rperf_name rperf_hugepage_names[];
/* The page shift of @hugepages: 21, 30, or 0 (normal pages). */
int rperf_hugepage_shift(int hugepages);

/* Path parameters of the RC connection. */
struct rperf_path_spec {
	uint32_t mtu; /* bytes, 0 = the port's active MTU */
	uint8_t sl; /* InfiniBand service level 0..15 */
	uint8_t tclass; /* RoCE traffic class (GRH), 0..255 */
	uint8_t qp_timeout; /* RC ACK timeout exponent, 0..31 */
	uint8_t retry_count; /* 0..7 */
};

/*
 * The keys that came to a spec from rperf lat and rperf bw (spec_test.c).
 * Optional on the wire (absent: 0/false; the encoder writes only what is
 * set). A PLAN's decoder reads "method", "iters" (spec_lsg.c), "atomic_op",
 * "rdma_cm" and "rx_depth" (rperf_spec_plan_keys_decode).
 */
struct rperf_test_spec {
	int method; /* "method": enum rperf_method of the LSG (lat) */
	int atomic_op; /* "atomic_op": with verb atomic, enum rperf_atomic_op */
	uint64_t iters; /* "iters": messages per QP; 0: duration_ns */
	uint32_t rx_depth; /* "rx_depth": receives kept posted; 0: default
			      (a PLAN's BSG or LSG too: its sink's queues
			      and an LSG's loopback receiver) */
	bool rdma_cm; /* "rdma_cm": QPs connected through rdma_cm (a
			 PLAN's BSG or LSG too: rperf_spec_plan_keys_decode) */
};

struct rperf_gen_spec {
	enum rperf_gen_kind kind; /* "kind": "lsg" | "bsg" */
	uint32_t id; /* "id": instance id, unique in the experiment */
	char name[RPERF_NAME_LEN]; /* "name": the job section's name */
	char from[RPERF_NAME_LEN]; /* "from": source host name */
	char to[RPERF_NAME_LEN]; /* "to": destination host name */
	struct rperf_path_spec path; /* "mtu","sl","tclass","qp_timeout",
					"retry_count" */
	uint64_t size; /* "size": bytes per message, >= 1 */
	uint64_t start_ns; /* "start_ns": offset after the start barrier */
	uint64_t warmup_ns; /* "warmup_ns": LSG samples in it do not count */
	uint64_t warmup_samples; /* "warmup_samples": an LSG's warm-up as a
				    count of samples (rperf lat's --warmup)
				    instead of warmup_ns; optional, absent
				    = 0: warmup_ns (spec_lsg.c) */
	uint64_t duration_ns; /* "duration_ns": measurement window, > 0 */
	enum rperf_completion completion; /* "completion": source end */
	enum rperf_completion sink_completion; /* "sink_completion" */
	/* LSG */
	int pair_order; /* "pair_order": "alternate"|"wire_first"|
			   "loop_first"|"sequential" (enum rperf_pair_order) */
	int timestamps; /* "timestamps": "auto"|"nic"|"cpu" (enum
			   rperf_timestamps), as rperf lat --timestamps;
			   optional, absent = auto (spec_lsg.c). A PLAN's
			   LSG also reads test.iters ("iters": samples to
			   take, the window a cap; absent = until the
			   window ends) and test.method ("method": rperf or
			   postpoll), and its "verb" (send, write, read,
			   atomic) is what the method times */
	bool raw; /* "raw": an LSG keeps every sample of its measured run and
		     its agent sends them in SAMPLES (rperf run --raw, rperf
		     lat's --raw); optional, absent = false (spec_lsg.c) */
	bool breakdown; /* "breakdown": an LSG also times each ibv_post_send
			   and its REPORT carries those histograms (rperf
			   lat's --breakdown); optional, absent = false
			   (spec_lsg.c, a PLAN's key) */
	/* BSG */
	int verb; /* "verb": "send"|"write"|"write_imm"|"read"|"atomic"
		     (enum rperf_verb) */
	uint32_t tx_depth; /* "tx_depth" >= 1 */
	uint32_t cq_mod; /* "cq_mod" >= 1 */
	uint32_t post_list; /* "post_list" >= 1 */
	uint32_t qps; /* "qps" >= 1 */
	uint32_t inline_size; /* "inline": messages up to this size are
				 posted inline (the source's QPs ask for
				 it); optional, absent = 0: none; <=
				 RPERF_SPEC_MAX_INLINE */
	double rate_bps; /* "rate_bps": offered bits/s, 0 = unlimited; an
			    LSG paces its samples with it (one wire SEND of
			    size bytes every 8 * size / rate_bps s) */
	/* Placement of the source end (optional on the wire, absent = -1):
	 * -1 = the from host's cpu_node/mem_node, and when that is -1 too,
	 * the NIC's node (as rperf lat). The host's cpu pin wins over
	 * cpu_node (rperf_place_decide). */
	int cpu_node; /* "cpu_node": -1..RPERF_SPEC_MAX_NODE */
	int mem_node; /* "mem_node": -1..RPERF_SPEC_MAX_NODE */
	/* Optional on the wire (absent = the default), spec_sched.c: */
	struct rperf_sched schedule; /* "schedule": LSG probe schedule,
					"closed" (default) | "fixed:RATE" |
					"poisson:RATE"; not with rate_bps */
	double rate_sps; /* "rate_sps": a closed-loop LSG paced at this many
			    samples/s whatever the size (rperf lat's
			    --rate); absent = 0: none; not with rate_bps,
			    latency_gap_ns or an open schedule */
	uint64_t latency_gap_ns; /* "latency_gap_ns": a closed-loop LSG's
				    idle time between samples (rperf lat's
				    --latency_gap); absent = 0: none; not
				    with rate_bps or an open schedule */
	uint64_t on_ns, off_ns; /* "on_ns", "off_ns": BSG on/off source,
				   both 0 (always on) or both > 0 */
	uint64_t interval_ns; /* "interval_ns": time-series interval,
				 0 = none; default 1 s */
	/* BSG traffic shape (optional on the wire, absent = 0 / none; codec
	 * and checks in spec_traffic.c) */
	uint64_t stop_ns; /* "stop_ns": stop posting at this offset after
			     the barrier; 0: none, else > start_ns */
	uint64_t max_bytes; /* "bytes": payload bytes in all; 0: no cap */
	uint64_t max_messages; /* "messages": messages in all; 0: no cap */
	struct rperf_size_dist sizes; /* "sizes"/"size_weights": message
					 sizes drawn from it; size = the
					 largest; n = 0: every one is size */
	/* incast sender (an [incast NAME] section's instance) */
	uint64_t burst_bytes; /* "burst": bytes per burst; 0: not incast */
	uint64_t period_ns; /* "period_ns": one burst per period */
	uint64_t jitter_ns; /* "jitter_ns": each burst's start delayed by a
			       uniform 0..jitter_ns (< period_ns) */
	uint64_t burst_size; /* "burst_size": with rate_bps, the messages a
				BSG may post back to back (its token
				bucket's depth, full at the start: rperf
				bw --burst_size); 0: its post list */
	/* Rounds on the same QPs (spec_rounds.c; optional on the wire,
	 * absent: n = 0): "round_sizes", the message size of each round of
	 * a PLAN with "rounds" (one entry per round, each 1..size: size is
	 * what the QPs and buffers are made for); not with "sizes" */
	struct rperf_round_sizes {
		uint64_t v[RPERF_SPEC_MAX_ROUNDS];
		uint32_t n;
	} round_sizes;
	/* "round_methods" (an LSG's, optional on the wire, absent: n = 0):
	 * the method of each round, as round_sizes; its QPs and buffers are
	 * made for every method it lists (rperf lat's --method all), and
	 * test.method is round 0's */
	struct rperf_round_methods {
		int v[RPERF_SPEC_MAX_ROUNDS];
		uint32_t n;
	} round_methods;
	struct rperf_test_spec test; /* rperf lat / rperf bw only */
	/* Controller only, never on the wire: an LSG instance whose RTT p50
	 * or p99.9 is above one of these (ns; 0: none) makes rperf run exit
	 * 1 (job keys max_p50, max_p999; report/report_limit.h) */
	uint64_t max_p50_ns, max_p999_ns;
};

/* The optional keys above: check (both ends), encode, decode (absent =
 * default). 0 or EBADMSG with @why naming the key. */
int rperf_spec_sched_check(const struct rperf_gen_spec *s, char *why,
			   size_t whylen);
int rperf_spec_sched_encode(const struct rperf_gen_spec *s, json_t *o);
int rperf_spec_sched_decode(const json_t *o, struct rperf_gen_spec *t,
			    char *why, size_t whylen);
#define RPERF_SPEC_MIN_INTERVAL_NS 1000000ull /* 1 ms */
#define RPERF_SPEC_MAX_RATE_SPS 1e9 /* rate_sps: a sample a ns */

/* When @s's measured window ends after the barrier, planned: start,
 * warm-up and duration; a warm-up counted in samples (warmup_samples) at
 * its pace (schedule, rate_sps, rate_bps or latency_gap_ns; a closed loop
 * as fast as it goes: none). Saturates at UINT64_MAX. */
uint64_t rperf_spec_end_ns(const struct rperf_gen_spec *s);

/* Defaults of a new spec of @kind (its row's size: 64 for LSG, 65536 for
 * BSG, ...). */
void rperf_gen_spec_defaults(struct rperf_gen_spec *s,
			     enum rperf_gen_kind kind);

/* "lsg"/"bsg" (the kind table's); "poll"/"event". Never NULL ("?" for a
 * bad value). */
const char *rperf_gen_kind_name(enum rperf_gen_kind k);
const char *rperf_completion_name(enum rperf_completion c);
extern const struct rperf_name rperf_completion_names[]; /* index = value */

/* The verbs a BSG sends, of rperf run as of rperf bw: every one of
 * gen/gen.h (atomic: 8 B messages, "atomic_op" in the spec). */
#define RPERF_SPEC_VERBS RPERF_VERB_COUNT

/* Name -> value (the wire and job-file names; either spelling of
 * gen/gen.h): 0 or EINVAL. */
int rperf_gen_kind_parse(const char *name, enum rperf_gen_kind *out);
int rperf_completion_parse(const char *name, enum rperf_completion *out);
int rperf_pair_order_parse(const char *name, int *out);
int rperf_verb_parse(const char *name, int *out);

/* Bounds the decoder enforces (and the encoder: it refuses a spec outside
 * them with EINVAL). Besides these: mtu is 0 or a power of 2 in 256..4096,
 * post_list <= tx_depth, name/from/to non-empty and from != to. */
#define RPERF_SPEC_MAX_SIZE (1ull << 30) /* size: 1 GiB */
#define RPERF_SPEC_MAX_TIME_NS (86400ull * 1000000000ull) /* a day */
#define RPERF_SPEC_MAX_DEPTH 65536u /* tx_depth, cq_mod, post_list */
#define RPERF_SPEC_MAX_QPS 256u
#define RPERF_SPEC_MAX_INLINE 65536u /* inline (rperf bw -I's bound) */
#define RPERF_SPEC_MAX_RATE_BPS 1e13 /* 10 Tb/s */
#define RPERF_SPEC_MAX_CPU 4096 /* host_sel.cpu < this */
#define RPERF_SPEC_MAX_NODE 1023 /* cpu_node, mem_node <= this */

/* The two-host tests' wider bounds (their command-line ranges), a PLAN's
 * too where they are wider than the ones above. */
#define RPERF_SPEC_TEST_MAX_TX_DEPTH 16777216u /* bw -t */
#define RPERF_SPEC_TEST_MAX_QPS 1024u /* bw -q */
#define RPERF_SPEC_TEST_MAX_RX_DEPTH 65536u /* -r */
#define RPERF_SPEC_TEST_MAX_TIME_NS (7 * RPERF_SPEC_MAX_TIME_NS) /* -D */

/* JSON codec. encode: new object in *out (caller decrefs); 0/ENOMEM/EINVAL
 * (a spec outside the two-host tests' bounds; test keys written when set).
 * decode: a PLAN's instance: 0 or EBADMSG (@why names the key and the
 * problem). */
int rperf_gen_spec_encode(const struct rperf_gen_spec *s, json_t **out);
int rperf_gen_spec_decode(const json_t *obj, struct rperf_gen_spec *s,
			  char *why, size_t whylen);
/* spec_test.c, for the encoder: the test keys of @s into @o (only those
 * set): 0/ENOMEM/EINVAL. */
int rperf_test_spec_encode(const struct rperf_gen_spec *s, json_t *o);
/* The test keys a PLAN carries too: "atomic_op" (absent = fetch_and_add),
 * "rx_depth" and "rdma_cm" (absent = false): 0 or EBADMSG with @why. The
 * check: a verb with an operand (atomic) sends that operand, of one size.
 * 0 or EBADMSG with @why naming the key. */
int rperf_spec_plan_keys_decode(const json_t *o, struct rperf_gen_spec *s,
				char *why, size_t whylen);
int rperf_spec_plan_keys_check(const struct rperf_gen_spec *s, char *why,
			       size_t whylen);
/* spec_lsg.c: the LSG's optional keys "timestamps", "iters" and
 * "method": encode what is set, decode (absent = default), check (a BSG
 * has none of them; a PLAN's LSG, unless @test: rperf lat's rules of
 * method with verb). 0, ENOMEM, or EBADMSG with @why naming the key. */
/* "round_sizes" and "round_methods" (spec_rounds.c): check, encode (only
 * when n > 0), decode (absent: n = 0). 0 or EBADMSG with @why naming the
 * key; ENOMEM. */
int rperf_spec_rounds_check(const struct rperf_gen_spec *s, char *why,
			    size_t wl);
int rperf_spec_rounds_encode(const struct rperf_gen_spec *s, json_t *o);
int rperf_spec_rounds_decode(const json_t *o, struct rperf_gen_spec *s,
			     char *why, size_t wl);
/* The size of round @k of @s: its round_sizes entry, else its size. */
uint64_t rperf_spec_round_size(const struct rperf_gen_spec *s, uint32_t k);
/* The method of round @k of @s: its round_methods entry, else its
 * test.method. */
int rperf_spec_round_method(const struct rperf_gen_spec *s, uint32_t k);
/* Does any round of @s run @method (test.method or a round_methods
 * entry)? What its QPs and buffers must be made for. */
bool rperf_spec_any_method(const struct rperf_gen_spec *s, int method);
int rperf_spec_lsg_encode(const struct rperf_gen_spec *s, json_t *o);
int rperf_spec_lsg_decode(const json_t *o, struct rperf_gen_spec *s, char *why,
			  size_t whylen);
int rperf_spec_lsg_check(const struct rperf_gen_spec *s, bool test, char *why,
			 size_t whylen);
#define RPERF_SPEC_MAX_ITERS 1000000000000ull /* iters: 10^12 samples */
/* A [host] with nothing chosen: port 1, the rest automatic. */
void rperf_host_sel_defaults(struct rperf_host_sel *h);
int rperf_host_sel_encode(const struct rperf_host_sel *h, json_t **out);
int rperf_host_sel_decode(const json_t *obj, struct rperf_host_sel *h,
			  char *why, size_t whylen);

#endif
