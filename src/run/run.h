/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * `rperf run JOB`: the controller of a multi-host experiment.
 *
 * Three layers, each usable alone:
 *   - results (run_merge.c, run_agg.c; pure): one decoded agent REPORT at
 *     a time is checked against the plan and merged into per-instance
 *     results; histograms arrive as buckets (rperf_hist_serialize() in hex)
 *     and are merged, never averaged; then aggregates per class (SL /
 *     traffic class), per host and in total;
 *   - report (run_text.c, run_json.c): a text table and the JSON document;
 *   - controller (run_ctl.c: phases and the poll() loop; run_msgs.c: the
 *     answer to each agent message; run_conn.c: parallel connect and
 *     non-blocking frame reads): drives the protocol of src/engine/proto.h
 *     and fills the results.
 * Conventions: 0 or a positive errno, a one-line message in @err; nothing
 * here prints.
 */
#ifndef RPERF_RUN_H
#define RPERF_RUN_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "ctrl/ctrl_tls.h"
#include "engine/proto.h"
#include "job/job.h"

struct rperf_hist;

#define RPERF_RUN_WHY_LEN 256
#define RPERF_RUN_LINK_LEN 16
/* a BSG figure more than 5 % above its host's port rate is implausible
 * (without a known rate: above RPERF_SPEC_MAX_RATE_BPS) */
#define RPERF_RUN_RATE_SLACK 1.05
/* receiver_note (JSON) and a text note of a BSG whose destination's
 * per-interval counts were left out of its REPORT */
#define RPERF_RUN_ROWS_DROPPED \
	"the destination's per-interval counts were left out: its REPORT would have exceeded the control channel's 1 MiB"
#define RPERF_RUN_CLOCK_MAX 4096 /* an agent's "clock" object, JSON bytes */

enum rperf_run_status {
	RPERF_RUN_ST_MISSING = 0, /* no result arrived for the source */
	RPERF_RUN_ST_OK, /* source (and sink) reported, no error */
	RPERF_RUN_ST_ERROR, /* reported, with an error (partial figures) */
	RPERF_RUN_ST_FAILED, /* its source host failed */
};

/* The merged result of one generator instance (source + sink ends). */
struct rperf_run_inst {
	const struct rperf_gen_spec *spec; /* points into the job */
	enum rperf_run_status status;
	bool have_source, have_sink;
	char error[RPERF_RUN_WHY_LEN]; /* source's, else sink's, else "" */
	double seconds; /* source's measured window */
	double cpu_seconds;
	/* LSG source */
	struct rperf_hist *rtt, *wire, *loop; /* owned; NULL when absent */
	/* each ibv_post_send's time, wire and loopback QP: the spec's
	 * breakdown (owned; NULL without it) */
	struct rperf_hist *post_wire, *post_loop;
	bool nic_ts; /* LSG completions stamped by the NIC's clock */
	char ts_note[RPERF_RUN_WHY_LEN]; /* why timestamps = auto fell back
					    to CPU stamps; "" if not */
	struct rperf_proto_nic_clock nic_clock; /* with nic_ts; hz 0: none */
	/* rperf run --raw: every sample of the measured run, in order, as
	 * its agent sent them in SAMPLES (owned; size = the spec's) */
	struct rperf_raw_sample *raw;
	size_t nraw, raw_cap;
	uint64_t samples, warmup, nonpositive, precompleted, loop_precompleted;
	struct rperf_sched_figs sched; /* open schedules: lag, late */
	struct rperf_lsg_series series; /* per interval, from GO; owned */
	struct rperf_bsg_series bsg_series; /* BSG source's, likewise */
	/* BSG source */
	uint64_t messages, bytes, posted, post_calls;
	double gbps; /* payload Gb/s sent */
	/* sink end (both kinds) */
	uint64_t rx_messages, rx_bytes;
	double rx_seconds;
	/* BSG sink's received per interval, from GO; owned (none from an
	 * older agent, or when nothing arrived) */
	struct rperf_bsg_series rx_series;
	bool rx_rows_dropped; /* left out: its REPORT would not fit */
	double receiver_gbps; /* payload Gb/s received; BSG only */
	bool rx_invisible; /* WRITE, READ, atomic: the destination sees nothing */
	/* a figure above what the path can carry (gbps or receiver_gbps
	 * above its host's port rate, RPERF_RUN_RATE_SLACK): status error,
	 * left out of every aggregate */
	bool implausible;
	/* BSG source, optional: its last completion, ns after the barrier;
	 * an incast sender's bursts [2 * nbursts] (first post, last
	 * completion), ns after the barrier; owned */
	bool has_end;
	uint64_t end_ns;
	uint64_t *bursts;
	size_t nbursts;
	/* where the source ran (its REPORT's optional "placement") */
	bool placed;
	struct rperf_proto_placement place;
};

/* An aggregate: one class, one host or the total. */
struct rperf_run_agg {
	struct rperf_hist *rtt; /* merged LSG RTTs; NULL when no LSG */
	size_t nlsg, nbsg;
	size_t nsent, nrecv; /* BSGs whose source / sink end reported */
	bool overflow; /* an RTT histogram would have wrapped: left out */
	double gbps; /* BSG Gb/s sent */
	double receiver_gbps; /* BSG Gb/s received */
};

/* Instances grouped by (sl, tclass); named by what the link layer uses. */
struct rperf_run_class {
	uint8_t sl, tclass;
	char link_layer[RPERF_RUN_LINK_LEN]; /* of the sources; "" unknown,
						"mixed" */
	char name[32]; /* "SL 3", "tclass 96", "SL 3 / tclass 96" */
	struct rperf_run_agg agg;
};

struct rperf_run_host {
	const struct rperf_job_host *host; /* points into the job */
	bool involved; /* has a source or a sink */
	bool reported; /* its REPORT arrived */
	bool failed;
	char why[RPERF_RUN_WHY_LEN]; /* when failed */
	char link_layer[RPERF_RUN_LINK_LEN]; /* "infiniband", "ethernet", "" */
	double link_gbps; /* its port's data rate (ENDPOINTS), 0 unknown */
	json_t *clock; /* clock calibration the agent reported, or NULL (also
			  when above RPERF_RUN_CLOCK_MAX: dropped) */
	bool dry_run; /* its agent runs --dry-run: nothing measured */
	bool has_go_rx; /* go_rx_ns reported (the agent's CLOCK_MONOTONIC */
	uint64_t go_rx_ns; /* when GO arrived; see run_ctlplane.h) */
	/* the start barrier (run_sync.c, run_barrier.c): its clock offset
	 * (agent - controller, least-RTT of the CLOCK exchanges), the start
	 * instant GO gave it on the controller's clock, and when its sources
	 * actually started on its own clock (REPORT "start_ns") */
	bool has_offset;
	int64_t offset_ns;
	uint64_t offset_rtt_ns, offset_uncertainty_ns;
	uint64_t start_at_ctrl_ns; /* 0: GO carried no start instant */
	bool has_start;
	uint64_t start_ns;
	/* its REPORT's "buffers_note": huge pages asked and not free, or
	 * buffers not locked; "" none */
	char buffers_note[RPERF_RUN_WHY_LEN];
	/* its REPORT's "counters": RDMA device and netdev counters per
	 * interval, rows from the start instant */
	struct rperf_ctr_series counters;
	struct rperf_run_agg sent; /* sources on this host */
	struct rperf_run_agg received; /* sinks on this host (gbps unused) */
};

/* A [switch NAME]'s counters command over the run (run_hook.h). */
struct rperf_run_switch {
	const struct rperf_job_switch *sw; /* points into the job */
	struct rperf_ctr_series s; /* rows from the start instant */
	uint64_t runs, failed, cut; /* run; failed (any way); of those cut at
				       the deadline */
	uint64_t took_max_ns, took_sum_ns; /* how long the runs took */
	char why[RPERF_RUN_WHY_LEN]; /* the first failure */
};

struct rperf_run_results {
	const struct rperf_job *job;
	struct rperf_run_switch *sw; /* [job->nswitches] */
	struct rperf_run_inst *inst; /* [job->ninst] */
	struct rperf_run_host *hosts; /* [job->nhosts] */
	struct rperf_run_class *cls; /* after rperf_run_results_finish() */
	size_t ncls;
	struct rperf_run_agg total;
	double elapsed; /* wall seconds from GO to the last REPORT */
	uint64_t timeout_ns; /* the control-plane timeout used */
	bool interrupted; /* stopped by a signal */
	bool cut_short; /* a host failed mid-run: the others stopped one
			   timeout later, before their planned end */
	bool aborted; /* failed before GO: nothing was measured */
	char abort_why[RPERF_RUN_WHY_LEN];
	/* warnings summed over instances */
	uint64_t nonpositive, precompleted, loop_precompleted;
	size_t nerrors; /* instances with an error or missing */
	/* a merged count or sum would have wrapped: saturated, or the
	 * histogram left out of that aggregate (never a silent wrap) */
	bool overflow;
	/* control plane (run_ctlplane.h) */
	bool dry_run; /* some agent ran --dry-run: no figure is a measurement */
	double connect_seconds; /* dial start -> every agent connected */
	double setup_seconds; /* dial start -> every agent ARMED; 0: never */
	double go_send_seconds; /* the first GO sent -> the last */
	double sync_seconds; /* every agent ARMED -> clock offsets measured */
	double ready_seconds; /* dial start -> the first GO sent */
	/* the control channel: "tls-psk", "tls-cert" or "plain" (insecure:
	 * neither authenticated nor encrypted, said in text and JSON) */
	const char *channel;
	bool insecure;
	double heartbeat_seconds; /* the agents' HEARTBEAT interval */
};

/* ---- results (pure) ---- */

/* Empty results for @job (kept by reference; must outlive the results). */
int rperf_run_results_create(const struct rperf_job *job,
			     struct rperf_run_results **out);
void rperf_run_results_free(struct rperf_run_results *r);
/* The results of the job's host @name, NULL if the job has none. */
struct rperf_run_host *rperf_run_host_of(const struct rperf_run_results *r,
					 const char *name);
/*
 * Merge the decoded REPORT of host @host (see src/engine/proto.h). Checked
 * against the plan: an instance that is not @host's in that role or kind, a
 * duplicate, an LSG source without its RTT histogram -> EBADMSG with @err
 * saying which, and nothing of that report is kept. On success the
 * histograms move into the results (NULL in @rep). @extra (may be NULL) is
 * the raw payload: its optional "clock" object and "link_layer" string are
 * kept.
 */
int rperf_run_results_add_report(struct rperf_run_results *r, const char *host,
				 struct rperf_proto_report *rep,
				 const json_t *extra, char *err, size_t errlen);
/* Record what the agent said in ENDPOINTS/REPORT about itself: link layer
 * ("infiniband"/"ethernet", may be NULL). */
void rperf_run_results_set_link(struct rperf_run_results *r, const char *host,
				const char *link_layer);
/* Its port's data rate in Gb/s (ENDPOINTS "link_gbps"; <= 0 or not finite:
 * unknown). */
void rperf_run_results_set_link_gbps(struct rperf_run_results *r,
				     const char *host, double gbps);
/*
 * A BSG's time series, sent and received side by side (run_merge_series.c):
 * one row per source interval, each with the destination's intervals whose
 * middle falls in it summed (the two hosts' grids differ by the source's
 * late ticks: an index would drift), then one row per destination interval
 * past the source's last (trailing empty ones left out). Every arrival the
 * destination kept is in exactly one row.
 */
struct rperf_run_bsg_row {
	uint64_t start_ns; /* from GO: the source's, else the destination's */
	const struct rperf_bsg_interval *sent; /* NULL past the source's */
	uint64_t rx_messages, rx_bytes, rx_dur_ns; /* summed */
	size_t rx_rows; /* destination intervals summed into it */
};
/* *@rows (free()) and *@n: 0 or ENOMEM. */
int rperf_run_bsg_rows(const struct rperf_run_inst *in,
		       struct rperf_run_bsg_row **rows, size_t *n);
/* Mark @host failed (first reason kept). Unknown names are ignored. */
void rperf_run_results_host_failed(struct rperf_run_results *r,
				   const char *host, const char *why);
/* Statuses, per-class, per-host and total aggregates. Call once, after the
 * last report. 0 or ENOMEM. */
int rperf_run_results_finish(struct rperf_run_results *r);
/* Failed hosts, in job order. */
size_t rperf_run_results_nfailed(const struct rperf_run_results *r);

const char *rperf_run_status_name(enum rperf_run_status st);

/* An LSG instance's RTT limits (its [lsg]'s max_p50 and max_p999,
 * run_limits.c; the rule is report/report_limit.h's, rperf lat's too). */
#define RPERF_RUN_NLIMITS 2
struct rperf_run_limit {
	const char *key; /* the job key: "max_p50", "max_p999" */
	double p; /* the RTT percentile it bounds: 50, 99.9 */
	uint64_t limit_ns; /* 0: not set */
	int64_t value_ns; /* the instance's percentile; 0 without samples */
	bool over; /* set, samples taken, value above it */
};
/* @in's limits in key order, set or not (a BSG's: none set). Returns how
 * many it crossed. */
size_t rperf_run_inst_limits(const struct rperf_run_inst *in,
			     struct rperf_run_limit out[RPERF_RUN_NLIMITS]);
/* Instances that crossed one of their limits. */
size_t rperf_run_results_over(const struct rperf_run_results *r);

/* ---- report ---- */

/* The text report: one table, one line per instance, then aggregates. */
int rperf_run_report_text(FILE *f, const struct rperf_run_results *r);
/* The JSON document (new reference in *out). */
int rperf_run_report_json(const struct rperf_run_results *r, json_t **out);
/* Write it atomically to @path. */
int rperf_run_write_json(const char *path, const struct rperf_run_results *r);
/* The JSON document in the Prometheus text format (--prom), atomically. */
int rperf_run_write_prom(const char *path, const struct rperf_run_results *r);
/* --hist: every LSG's RTT CDF (rows of its non-empty buckets, in ns: the
 * merged histogram the report's percentiles come from) as CSV, atomically:
 * generator,from,to,size,lo_ns,hi_ns,value_ns,count,cumulative,fraction.
 * 0 or errno. */
int rperf_run_write_hist(const char *path, const struct rperf_run_results *r);
/* rperf run --raw FILE (run_raw.c): every LSG's samples as rperf lat's
 * --raw CSV rows with generator, from and to first, atomically. 0 or
 * errno. */
int rperf_run_write_raw(const char *path, const struct rperf_run_results *r);
/* Can a file be created beside @path (checked before the experiment)? */
int rperf_run_check_writable(const char *path, char *err, size_t errlen);

/* ---- controller ---- */

/* Checks of the job that only the controller cares about: two hosts of the
 * experiment naming the same agent (ADDR:PORT; one agent serves one host).
 * 0 or EINVAL with @err naming both hosts and their lines. */
int rperf_run_check_job(const struct rperf_job *job, char *err, size_t errlen);

/* Agents started by a launcher (rperf run --mpi, src/mpi): where each
 * listens and the key it was handed, in place of the job's control
 * addresses and of opts->key. A host of the job missing here fails. */
struct rperf_run_boot_host {
	char name[RPERF_NAME_LEN]; /* the job's host */
	char addr[256];
	uint16_t port;
	int fd; /* rperf_run_opts.dialled only: the connection */
};
struct rperf_run_boot {
	const struct rperf_run_boot_host *hosts;
	size_t n;
	const uint8_t *key; /* NULL: opts->auth (the launch's TLS PSK) */
	size_t keylen;
};

struct rperf_run_opts {
	const struct rperf_run_boot *boot; /* NULL: the job's addresses */
	/* the agents this process runs for the job's hosts with control =
	 * local (where each listens: the address of its RDMA device, which
	 * its host's PLAN address must be; key NULL); a local host missing
	 * here fails. Without @boot only. */
	const struct rperf_run_boot *local;
	/* the TLS channel's PSK or certificates (src/ctrl/ctrl_tls.h); none:
	 * EACCES unless @insecure (the plain channel, knowingly) */
	struct rperf_ctrl_auth auth;
	bool insecure;
	uint64_t heartbeat_ns; /* agents' HEARTBEAT interval; 0: 1 s */
	uint64_t timeout_ns; /* 0 = the job's */
	uint64_t start_in_ns; /* GO -> start; 0 = default (200 ms + 1 ms/host) */
	uint64_t margin_ns; /* after the planned end; 0 = default (timeout) */
	/* live rows (rperf run --live; NULL: none asked): each interval row
	 * of a source as its agent's HEARTBEAT brings it (rows of one
	 * instance in order; the REPORT's intervals have every row), and the
	 * rows an agent overwrote before a HEARTBEAT took them */
	void (*on_live)(void *arg, const struct rperf_gen_spec *spec,
			const struct rperf_live_row *row);
	void (*on_live_skipped)(void *arg, const char *host, uint64_t n);
	void *live_arg;
	/* the HELLO's command for the agents of hosts not local: NULL "run";
	 * "lat" / "bw": rperf lat/bw HOST's server (an agent serving them) */
	const char *command;
	/* hosts whose plain connection the caller made (rperf lat HOST: in
	 * its own retry window, from its device's address): hosts[i].fd,
	 * then the run's (it closes them); NULL: none */
	const struct rperf_run_boot *dialled;
	/* rperf lat / bw: their run options ("options", twohost/twohost_parity.h),
	 * in the PLAN of every host not local (the server checks the flags
	 * it was given against them); NULL: none */
	const json_t *plan_options;
	/* each round's GO sent (k from 0; one round without --same-qps):
	 * rperf lat / bw's progress line; NULL: none */
	void (*on_round)(void *arg, size_t k);
	void *round_arg;
	/* rperf run --raw: every LSG keeps every sample and its agent sends
	 * them (agents without the "samples" feature fail) */
	bool raw;
};

/* Live rows as text (run_live.c), @arg a FILE *: one line each, flushed:
 * "live [START-END s] NAME (FROM -> TO) bsg: G Gb/s, M msgs" or "... lsg:
 * N samples, RTT p50 X us, p99 Y us, max Z us" (times from GO). */
void rperf_run_live_text(void *arg, const struct rperf_gen_spec *spec,
			 const struct rperf_live_row *row);
void rperf_run_live_skipped_text(void *arg, const char *host, uint64_t n);

/*
 * Run @job: connect, plan, connect QPs, start at one instant, stop, gather
 * and merge every REPORT into *out (always filled when 0 is returned, even
 * when hosts failed: see rperf_run_results_nfailed() and r->aborted).
 * @stop is the signal flag (may be NULL). Returns 0, or ENOMEM / EINVAL for
 * bad arguments; agent failures are results, not errors.
 */
int rperf_run_execute(const struct rperf_job *job,
		      const struct rperf_run_opts *opts,
		      const volatile sig_atomic_t *stop,
		      struct rperf_run_results **out, char *err, size_t errlen);

/*
 * Rounds on the same QPs (run_rounds.c; rperf run --sweep ... --same-qps):
 * @jobs[0..n) (n <= RPERF_SPEC_MAX_ROUNDS) must differ only in their
 * generators' message sizes (rperf_run_rounds_check: 0 or EINVAL with
 * @err naming the point and the section). They run as one experiment:
 * connections, QPs and buffers made once, for each instance's largest
 * size; round k runs at jobs[k]'s sizes and its results go to out[k]. A
 * round not reached (interrupted, a host gone) leaves out[k] NULL. Returns
 * as rperf_run_execute; agents without the "rounds" feature fail.
 */
int rperf_run_rounds_check(const struct rperf_job *const *jobs, size_t n,
			   char *err, size_t errlen);
int rperf_run_execute_rounds(const struct rperf_job *const *jobs, size_t n,
			     const struct rperf_run_opts *opts,
			     const volatile sig_atomic_t *stop,
			     struct rperf_run_results **out, char *err,
			     size_t errlen);

#endif
