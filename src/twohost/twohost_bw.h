/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rperf bw HOST: the controller of an implicit two-host job (twohost.h):
 * one BSG client -> server; -b adds one server -> client; --reversed has
 * only that one; every size a round on the same QPs (twohost_bw.c), and
 * its report (twohost_bw_report.c).
 * Conventions: 0 or a positive errno with a message.
 */
#ifndef RPERF_TWOHOST_BW_H
#define RPERF_TWOHOST_BW_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rperf/report.h>

#include "gen/bsg.h"
#include "twohost/twohost.h"

/* Runtime state and results of a client run (config stays in c.cfg). */
struct rperf_bw_run {
	struct rperf_twohost_client c;
	struct rperf_bw_result *res; /* [nsizes] */
	struct rperf_bw_result *rev; /* [nsizes]: -b, server -> client */
	size_t nres; /* measured so far */
	int mtu; /* path MTU */
	double line_gbps; /* the port's data rate, 0 unknown */
	bool roce, grh;
	/* interval reports of the size being measured */
	uint64_t cur_size;
	uint64_t tick_msgs, tick_bytes;
	/* BW peak of that size: the best rate of a window that ends at a
	 * tick where completions arrived and starts where the previous
	 * window ended (or at the first post), holding at least
	 * peak_min_bytes (rperf_bw_peak_min_bytes), so that signaling every
	 * -Q-th message does not credit a batch to one short interval */
	uint64_t peak_min_bytes;
	double peak_gbps;
	double peak_from; /* seconds: where the current window starts */
	uint64_t peak_bytes; /* bytes completed at peak_from */
	uint64_t live_origin_ns; /* the round's first live row, from GO */
	size_t live_round, live_rows; /* the round of the live rows, printed */
};

/* A client run's state with its result arrays (ENOMEM), and its end. */
int rperf_bw_run_new(const struct rperf_cmdline *cfg,
		     volatile sig_atomic_t *stop, struct rperf_bw_run **out);
void rperf_bw_run_free(struct rperf_bw_run *run);

/* This host's device, port, GID and depths (-t, -r against the device's
 * maximum), checked before anything starts (a usage error in words);
 * the path's facts for the report (MTU, line rate; a rate limit above it
 * warned). */
int rperf_bw_ctl_check(struct rperf_bw_run *run, struct rperf_err *e);

/* The job of @cfg's run (its sizes are rounds). */
int rperf_bw_ctl_job(const struct rperf_cmdline *cfg, struct rperf_job **out,
		     char *err, size_t errlen);

/* Every size as a round of @job on one set of QPs; results into run->res
 * (run->nres, run->c.measured), interval rows printed as they come. */
int rperf_bw_ctl_run(struct rperf_bw_run *run, const struct rperf_job *job,
		     const struct rperf_run_opts *opts, struct rperf_err *e);

/* Fill run->res[i] from the generator's figures and the server's RESULT
 * (@rx NULL: none). */
struct rperf_bw_rx {
	uint64_t messages, bytes;
	double seconds, cpu_seconds;
	/* -b: what the server sent (RESULT tx_*), valid with has_tx */
	bool has_tx;
	uint64_t tx_messages, tx_bytes, tx_post_calls;
	double tx_seconds, tx_cpu_seconds;
};
void rperf_bw_fill(struct rperf_bw_run *run, size_t i,
		   const struct rperf_bsg_res *g, const struct rperf_bw_rx *rx);

/* -b: run->res[i].reverse from the server's sending (@srv, NULL: none)
 * and this side's receive counts (@own; its cpu_seconds over seconds). */
void rperf_bw_fill_reverse(struct rperf_bw_run *run, size_t i,
			   const struct rperf_bw_rx *srv,
			   const struct rperf_bw_rx *own);

/* -b without --report-both: @out[i] (run->nres of them) is the sum of
 * res[i] and its reverse, as perftest reports -b (twohost_bw_report.c). */
void rperf_bw_sum_directions(const struct rperf_bw_run *run,
			     struct rperf_bw_result *out);

/* The generator's interval: --interval, else -D with --run_infinitely
 * (perftest's report period), else RPERF_BW_PEAK_NS for the peak alone. */
#define RPERF_BW_PEAK_NS 100000000ull
uint64_t rperf_bw_tick_ns(const struct rperf_cmdline *cfg);
/* Whether interval lines are printed (--interval, or -D with
 * --run_infinitely); the peak is tracked either way. */
bool rperf_bw_prints_intervals(const struct rperf_cmdline *cfg);

/* The interval callback of the generator (arg: the run). */
void rperf_bw_on_interval(void *arg, const struct rperf_bsg_tick *t);

/* One size done: its JSON line with --jsonl. */
void rperf_bw_size_done(const struct rperf_bw_run *run, size_t i);

/* -w/--limit_bw: true when a size's BW average is below it (a line
 * each). */
bool rperf_bw_thresholds(const struct rperf_bw_run *run);

/* Print the text report on run->out (unless --jsonl) and write the JSON file if asked.
 * 0 or errno. */
struct rperf_kv;
int rperf_bw_report(const struct rperf_bw_run *run,
		    const struct rperf_kv *config, size_t nconfig);

#endif
