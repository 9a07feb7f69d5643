/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rperf reports: one renderer per format (text table, JSON, CSV, raw
 * per-sample CSV) over one read-only description of a run. Files are written
 * atomically (temporary file in the same directory, fsync, rename).
 */
#ifndef RPERF_REPORT_H
#define RPERF_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <rperf/clock.h>
#include <rperf/devinfo.h>
#include <rperf/hist.h>
#include <rperf/platform.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Version of the JSON layout; bumped on incompatible changes only. */
#define RPERF_SCHEMA_VERSION 1

/* One run-configuration entry (the CLI builds these from its option table). */
enum rperf_kv_type {
	RPERF_KV_STR,
	RPERF_KV_INT,
	RPERF_KV_UINT,
	RPERF_KV_DOUBLE,
	RPERF_KV_BOOL,
	RPERF_KV_LIST_UINT, /* u.list.u */
	RPERF_KV_LIST_DOUBLE, /* u.list.d */
};

struct rperf_kv {
	const char *key;
	enum rperf_kv_type type;
	union {
		const char *s; /* NULL renders as JSON null */
		int64_t i;
		uint64_t u;
		double d;
		bool b;
		struct {
			size_t n;
			const uint64_t *u;
			const double *d;
		} list;
	} v;
};

/*
 * Results of one (method, size) latency measurement. The histograms hold the
 * figures as recorded: with half_rtt the generator records RTT/2, and the
 * renderers only label them ("figure": "half_rtt"); nothing is halved there.
 */
/* One interval of an LSG's time series (rperf lat --interval, rperf run's
 * interval key): the samples posted in it, their RTT's p50, p99 and max
 * (ns, 0 without samples: rendered null), its start from the series'
 * origin. */
struct rperf_lsg_interval {
	uint64_t start_ns;
	uint64_t samples;
	int64_t p50_ns, p99_ns, max_ns;
};

struct rperf_lat_result {
	const char *method; /* "rperf", "pingpong", "postpoll" */
	uint64_t size; /* message bytes */
	uint64_t repeat; /* run index (1-based) with --repeat; 0: one run */
	uint64_t samples; /* recorded (warm-up excluded) */
	uint64_t warmup; /* warm-up samples excluded */
	uint64_t nonpositive; /* RTT <= 0, recorded, never dropped */
	uint64_t precompleted; /* completion already there after the post */
	double seconds; /* measurement wall time */
	bool half_rtt; /* figures are RTT/2 (perftest-style); else RTT */
	const struct rperf_hist *rtt; /* ns; required */
	const struct rperf_hist *wire; /* ns, T_W - T_P; NULL if n/a */
	const struct rperf_hist *loop; /* ns, T_L - T_P; NULL if n/a */
	const struct rperf_hist *post_wire; /* ns, ibv_post_send cost; opt. */
	const struct rperf_hist *post_loop; /* ns, loopback post cost; opt. */
	const struct rperf_hist *half; /* ns, RTT/2 (pingpong); optional */
	double cpu_pct; /* --cpu_util: this process's CPU, % of one CPU */
	/* --interval (interval_ns > 0): the RTT per interval, starts from the
	 * first measured sample; JSON "intervals", a text block */
	uint64_t interval_ns;
	const struct rperf_lsg_interval *intervals;
	size_t nintervals;
};

/*
 * rperf bw's BW peak is the best rate of a window between interval ticks
 * that holds at least this many signaled completions per QP (a window's
 * bytes are then known to within 1/this of its count).
 */
#define RPERF_BW_PEAK_MIN_SIGNALS 10

/*
 * Results of one rperf bw size (the sender's counts; the receiver's view for
 * send and write_imm, which the receiver can count; plain WRITEs are
 * invisible to it: receiver_valid false and receiver_note says why).
 */
struct rperf_bw_result {
	const char *verb; /* "send", "write", "write_imm" */
	uint64_t size; /* message bytes */
	uint64_t qps;
	uint64_t messages; /* completed at the sender */
	uint64_t bytes;
	double seconds; /* first post to last completion */
	double gbps; /* payload Gb/s (10^9 bit/s) */
	double peak_gbps; /* the best interval's; 0: no complete interval */
	double mpps; /* million messages per second */
	int mtu; /* path MTU, bytes */
	double line_gbps; /* the port's data rate; 0 unknown */
	double wire_efficiency; /* payload / wire bytes for size and MTU */
	double cpu_pct; /* sender CPU, percent of one CPU */
	uint64_t post_calls; /* ibv_post_send calls */
	double offered_gbps; /* the rate limit as Gb/s; 0 unlimited */
	double offered_mpps;
	bool receiver_valid;
	uint64_t rx_messages, rx_bytes;
	double rx_seconds; /* first to last receive completion */
	double rx_gbps;
	double rx_cpu_pct; /* receiver CPU, percent of one CPU; < 0 unknown */
	const char *receiver_note; /* why there is no receiver view, or NULL */
	/* -b: the server -> client direction (the server's sender counts and
	 * this side's receiver view); NULL without -b */
	const struct rperf_bw_result *reverse;
};

/*
 * Did RC likely retransmit during the run? From the local RDMA device's hw
 * counters read before and after (source "hw_counters"), else from the
 * figures (source "figures": outliers >= the RC ACK timeout, a stall).
 * JSON "retransmissions"; text "retransmissions likely: ...".
 */
struct rperf_retrans {
	bool likely;
	const char *source; /* "hw_counters" or "figures" */
	const char *device; /* hw_counters: the device read, else NULL */
	int port;
	const char *const *names; /* hw_counters: counter names ... */
	const uint64_t *deltas; /* ... and how much each rose in the run */
	size_t ncounters;
	const char *evidence; /* one line: what was seen, in words */
	const char *unreadable; /* figures: why the counters were not read */
};

struct rperf_report {
	const char *command; /* "lat", "bw", ... */
	const struct rperf_kv *config; /* the full run configuration */
	size_t nconfig;
	const struct rperf_clock *clock;
	const struct rperf_clock_selftest *selftest; /* optional */
	const struct rperf_platform *platform;
	const struct rperf_lat_result *lat;
	size_t nlat;
	const struct rperf_bw_result *bw; /* rperf bw (rendered by *_bw_*) */
	size_t nbw;
	bool report_gbits; /* bw text: Gb/s instead of MiB/s */
	bool cpu_util; /* --cpu_util: CPU_Util[%] where perftest puts it */
	bool no_peak; /* -N: BW peak not computed, 0 (as perftest) */
	bool wide; /* text: every column (default: fits 120 columns) */
	bool half_rtt; /* lat text: RTT columns as RTT/2 (perftest's) */
	/* percentiles to show, in [0,100]; NULL = 50, 99, 99.9, 99.99 */
	const double *percentiles;
	size_t npercentiles;
	const char *const *warnings;
	size_t nwarnings;
	/* rperf lat: which clock stamped the completions of the rperf
	 * method, "nic" or "cpu" (NULL: not reported); the NIC clock's
	 * frequency with "nic" (0 otherwise); why auto chose cpu, or NULL */
	const char *timestamps;
	double nic_clock_hz;
	const char *timestamps_note;
	bool partial; /* the run ended early; results cover what was done */
	const char *error; /* why it ended early, or NULL */
	/* where the generator ran, the host checks (NULL: not reported) */
	const struct rperf_placement *placement;
	const struct rperf_preflight *preflight;
	const struct rperf_retrans *retrans; /* NULL: not reported */
};

/* What rperf info shows. */
struct rperf_info {
	const struct rperf_clock *clock;
	const struct rperf_clock_selftest *selftest;
	const struct rperf_platform *platform;
	const struct rperf_device_list *devices;
	const struct rperf_preflight *preflight; /* NULL: not run */
};

enum rperf_report_format {
	RPERF_FMT_TEXT = 1 << 0,
	RPERF_FMT_JSON = 1 << 1,
	RPERF_FMT_CSV = 1 << 2,
};

/*
 * A percentile is unreliable when fewer than 10/(1-p) samples support it
 * (p in percent: p50 needs 20 samples, p99 1,000, p99.9 10,000, p99.99
 * 100,000). p <= 0 and p >= 100 are the exact min and max: reliable with any
 * sample. Nothing is reliable with 0 samples or a NaN p.
 */
bool rperf_percentile_reliable(double p, uint64_t samples);

/* Renderers. Return 0 or an errno (EIO on a write error, ENOMEM). */
int rperf_report_text(FILE *f, const struct rperf_report *r);
int rperf_report_json(FILE *f, const struct rperf_report *r);
int rperf_report_csv(FILE *f, const struct rperf_report *r);
int rperf_info_text(FILE *f, const struct rperf_info *info);
/* "  retransmissions likely: yes|no (evidence)"; nothing for NULL. */
int rperf_report_retrans_text(FILE *f, const struct rperf_retrans *t);
/* rperf lat --interval: each result's intervals as text rows (nothing when
 * no result has an interval). 0 or EIO. */
int rperf_report_intervals_text(FILE *f, const struct rperf_report *r);
int rperf_info_json(FILE *f, const struct rperf_info *info);

/*
 * rperf bw renderers: the text table (totals, line-rate share, receiver's
 * view, CPU) and the JSON report (the lat layout with bw results: see
 * src/report/report_bw.c). 0 or an errno.
 */
int rperf_report_bw_text(FILE *f, const struct rperf_report *r);
int rperf_report_bw_json(FILE *f, const struct rperf_report *r);
/* One bw result as one JSON line {"type": "total", ...result keys}. */
int rperf_report_bw_jsonl(FILE *f, const struct rperf_bw_result *b);
/* Write the bw JSON report to @path atomically. */
int rperf_report_bw_write_json(const char *path, const struct rperf_report *r);

/* One raw sample (--raw): per-sample times in ns. */
struct rperf_raw_sample {
	int64_t wire_ns; /* T_W - T_P,wire */
	int64_t loop_ns; /* T_L - T_P,loop */
	int64_t rtt_ns; /* wire_ns - loop_ns (NIC stamps: from the NIC's) */
	uint64_t size; /* message bytes */
};
int rperf_report_raw_csv(FILE *f, const struct rperf_raw_sample *s, size_t n);

/*
 * CDF of @h as CSV rows "size,repeat,lo_ns,hi_ns,value_ns,count,cumulative,
 * fraction" (non-empty buckets, increasing); the header when @header.
 */
int rperf_report_cdf_csv(FILE *f, const struct rperf_hist *h, uint64_t size,
			 uint64_t repeat, bool header);

/*
 * Write a file atomically: @fn writes the content to a FILE opened on a
 * temporary file beside @path; on success it is flushed, fsync'ed and renamed
 * over @path; on failure the temporary file is removed and @path untouched.
 * Returns 0, @fn's error, or an errno from the file system.
 */
int rperf_atomic_write(const char *path, int (*fn)(FILE *f, void *arg),
		       void *arg);

/*
 * Before a measurement: can rperf_atomic_write() write @path (a temporary
 * file created and removed beside it)? 0, EISDIR, EINVAL (empty), or the
 * errno of the creation (ENOENT: no such directory, EACCES...).
 */
int rperf_atomic_check(const char *path);

/* Render @r in @fmt (one of RPERF_FMT_*) to @path atomically. */
int rperf_report_write_file(const char *path, enum rperf_report_format fmt,
			    const struct rperf_report *r);

#ifdef __cplusplus
}
#endif
#endif /* RPERF_REPORT_H */
