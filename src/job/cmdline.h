/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The command line's values (src/cli parses them; the key table,
 * options*.c, says where each goes): a job file's fields for every option
 * that has a job-file key, the command's own options beside them. Values
 * only: runtime state and results live in the modules that run and
 * report. It lives below src/cli so that the modules that read it (the
 * twohost controllers) need nothing of the parser.
 */
#ifndef RPERF_JOB_CMDLINE_H
#define RPERF_JOB_CMDLINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/spec.h"
#include "gen/gen.h"

enum rperf_cmd {
	RPERF_CMD_NONE = 0,
	RPERF_CMD_LAT = 1 << 0,
	RPERF_CMD_BW = 1 << 1,
	RPERF_CMD_RUN = 1 << 2,
	RPERF_CMD_AGENT = 1 << 3,
	RPERF_CMD_INFO = 1 << 4,
	RPERF_CMD_COMPARE = 1 << 5,
};

#define RPERF_CMD_TRAFFIC (RPERF_CMD_LAT | RPERF_CMD_BW)
#define RPERF_CMD_ALL                                                     \
	(RPERF_CMD_LAT | RPERF_CMD_BW | RPERF_CMD_RUN | RPERF_CMD_AGENT | \
	 RPERF_CMD_INFO | RPERF_CMD_COMPARE)

#define RPERF_DEFAULT_TCP_PORT 18520 /* perftest uses 18515 */
#define RPERF_MAX_SIZES 64
/* rperf lat's default warm-up: -n / 10 within [10, this], this with -D */
#define RPERF_WARMUP_MAX 1000
#define RPERF_MAX_PERCENTILES 32
#define RPERF_GIVEN_WORDS 3 /* 192 bits >= RPERF_MAX_OPTIONS (job/options.h) */

/* A repeatable option's values, in command-line order (point into argv). */
#define RPERF_MAX_STR_LIST 32
struct rperf_str_list {
	const char *v[RPERF_MAX_STR_LIST];
	size_t n;
};

struct rperf_run_boot; /* src/run/run.h */

/* A job file's [global] keys (job.c copies them into struct rperf_job). */
struct rperf_job_global {
	uint64_t duration_ns;
	uint64_t warmup_ns;
	uint64_t timeout_ns;
	enum rperf_completion sink_completion;
};

struct rperf_cmdline {
	enum rperf_cmd cmd;
	const char *host; /* peer; NULL = server side */
	const char *job; /* rperf run JOB; rperf mesh HOSTS-OR-JOB */
	bool mesh_cmd; /* rperf mesh: rperf run of a [mesh] (cmd_mesh.c) */
	const char *cmp_base, *cmp_run; /* rperf compare BASE RUN */
	const char *key_file; /* run, agent: pre-shared key */
	/* run, agent: TLS certificates (--cert/--key/--ca), the plain
	 * channel knowingly (--insecure), the agents' heartbeat interval */
	const char *tls_cert, *tls_key, *tls_ca;
	bool insecure;
	uint64_t heartbeat_ns;
	bool live; /* run: print the sources' interval rows as they come */

	/*
	 * Every option with a job-file key keeps its value where a job file's
	 * would go (the key table's .job half): rperf lat/bw's generator
	 * spec (path, depths, verb, method, iterations...), this host's
	 * [host] selection (device, port, GID, CPU, nodes, huge pages) and
	 * the [global] times (--duration, --timeout). rperf lat/bw's job is
	 * made of them (twohost_spec.c); the fields below are the options
	 * no job file has.
	 */
	struct rperf_gen_spec spec;
	struct rperf_host_sel sel;
	struct rperf_job_global global;

	/* device and connection */
	bool ipv6;
	int64_t tcp_port;
	const char *bind;
	uint64_t connect_timeout_ns;
	bool persistent;
	bool one_off; /* agent: one controller, then exit */
	/* servers' event loop (src/serve): connections held before their
	 * HELLO, and the time a HELLO may take */
	uint64_t max_conns;
	uint64_t handshake_timeout_ns;
	/* placement and virtual lanes (host/place.c, verbs/vl.c) */
	int64_t vl; /* --vl: -1 unset (use --sl) */

	/* measurement */
	uint64_t sizes[RPERF_MAX_SIZES];
	size_t nsizes;
	bool all_sizes;
	int poll_mode; /* 0 busy, 1 yield */
	double rate; /* samples per second, 0: as fast as possible */
	const char *schedule_text; /* --schedule as given */
	uint64_t repeat;
	double percentiles[RPERF_MAX_PERCENTILES];
	size_t npercentiles;

	/* latency extras (rperf lat) */
	int64_t tos; /* -T: IP TOS for rdma_cm, -1 unset */
	const char *raw_file;
	const char *hist_file;
	const char *csv_file;

	/* bandwidth (rperf bw) */
	bool bidir;
	bool run_infinitely;
	double rate_limit; /* in rate_units; 0: unlimited */
	int rate_units; /* enum rperf_rate_units */
	bool report_gbits;
	bool jsonl; /* interval reports as JSON lines on stdout */

	/* perftest's other tests (--verb read/atomic, --reversed) */
	bool reversed; /* bw: the server sends, the client receives */
	bool report_both; /* bw -b: RX and TX reported separately */

	/* perftest's output habits (job/options_report.c) */
	bool cpu_util; /* CPU_Util[%] column */
	bool report_histogram; /* -H: the CDF on stdout after the table */
	bool report_unsorted; /* -U: every sample on stdout after the table */
	double limit_bw; /* -w: exit 1 below this BW average; 0: none */
	uint64_t limit_lat_ns; /* exit 1 above this t_typical; 0: none */
	bool wide; /* --wide: every column of the text table */
	bool half_rtt; /* lat --half-rtt: the table's RTTs as RTT/2 */
	bool quiet; /* --quiet: no progress line on a terminal */

	/* clock and output */
	int clock; /* enum rperf_clock_source */
	bool json; /* JSON on stdout (info) */
	bool out_json;
	const char *out_json_file;
	uint64_t spin_ns; /* info: self-test spin window */

	/* run: job edits and sweeps (options_run.c) */
	struct rperf_str_list sweeps; /* --sweep SECTION.NAME.KEY=V1,V2,... */
	bool zip; /* --zip: the sweeps' i-th values together */
	bool same_qps; /* --same-qps: the sweep's points as rounds on one
			  set of QPs (only sizes swept) */
	struct rperf_str_list sets; /* --set SECTION.NAME.KEY=VALUE */
	const char *hosts_map;
	/* perftest's flags (job/options_perftest.c) */
	bool cpu_freq_f; /* -F: accepted; rperf never reads the CPU's MHz */
	uint64_t all_max; /* -a's largest size, 0: 8 MiB (perftest's) */
	int conn_type; /* -c: 0 RC (the only one rperf runs) */
	const char *source_ip; /* -z: rdma_cm source address, NULL: the GID's */
	int rate_limit_type; /* 0 SW (the only one rperf runs) */
	bool no_peak; /* -N: no peak bandwidth */

	/* bit i: option i of the table was on the command line (the server
	 * checks those against the client's PLAN options: twohost/twohost_parity.h) */
	uint64_t given[RPERF_GIVEN_WORDS];
	/* server limits per client (src/engine/limits.c; 0: the default) */
	uint64_t max_memory; /* bytes a run may pin; 0: from MemAvailable */
	uint64_t max_qps;
	uint64_t stall_ns; /* --stall-limit */
	uint64_t max_instances; /* agent: generator ends per PLAN; 0: 1024 */
	uint64_t max_duration_ns; /* agent: a PLAN's latest end; 0: 1 h */
	/* control-plane scale and launch (options_scale.c) */
	bool dry_run; /* agent: no device, no QP (agent_dry.c) */
	bool mpi; /* run: launched by mpirun/srun (src/mpi) */
	/* offline checks and monitoring export (options_fleet.c) */
	bool run_check; /* run --check: plan only, no agent contacted */
	const char *prom_file; /* --prom FILE: OpenMetrics text, NULL none */
	uint64_t every_ns; /* run --every: start a run this often; 0 once */
	/* not an option: set by `rperf run --mpi` for the controller rank
	 * (where the launched agents listen, their key); NULL otherwise */
	const struct rperf_run_boot *run_boot;
};

/* Defaults for every field (job/options.c), which the command-line
 * parser sets before it reads the arguments. */
void rperf_cmdline_defaults(struct rperf_cmdline *cfg);

struct rperf_limits; /* engine/limits.h */
/* The limits of a server or agent as configured (0 fields: the defaults,
 * engine/limits.h). */
void rperf_limits_of(const struct rperf_cmdline *cfg, struct rperf_limits *out);

#endif
