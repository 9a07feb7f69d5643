/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Job files of `rperf run`: an INI file (libinih), fio-style.
 *
 *   [global]   duration (10s), warmup (1s), timeout (10s: control plane),
 *              sink_completion (event)
 *   [host H]   control = ADDR[:PORT] (required; port 18521 unless given;
 *              IPv6 in brackets: [fe80::1%eth0]:18521; "local": the
 *              controller runs this host's agent itself), device (first
 *              active), port (1), gid_index (auto = -1), cpu (none = -1),
 *              cpu_node, mem_node (auto = -1: the NIC's node; defaults of
 *              every source from this host; cpu wins over cpu_node)
 *   [lsg G] / [bsg G]
 *              from (comma list of hosts: one instance per host), count
 *              (use only the first N of from; 0 = none), to, size, start,
 *              completion (poll|event), sl (0..15), tclass (0..255), mtu
 *              (0 = the port's, 256..4096), qp_timeout (0..31), retry_count
 *              (0..7), rate (0 = unlimited; a BSG's offered load, an
 *              LSG's wire SENDs paced to size x 8 x samples/s); LSG only:
 *              pair_order (alternate|wire_first|loop_first|sequential);
 *              BSG only: verb (send|write|write_imm), tx_depth, post_list
 *              (<= tx_depth), cq_mod, qps; cpu_node, mem_node (0..1023,
 *              auto = -1: the from host's). Unset keys:
 *              rperf_gen_spec_defaults(). BSG traffic shape:
 *              to = * (every other host of from), stop (offset after GO,
 *              > start), bytes, messages (budgets over its QPs), size =
 *              SIZE:WEIGHT,... or @FILE (a distribution; LSGs refuse it)
 *   [incast G] from (senders), to (one host), burst (bytes per sender per
 *              burst), period (>= 1 ms), jitter (< period) and the BSG
 *              keys but stop/bytes/messages: BSG instances with
 *              burst_bytes set (src/run/run_incast.h)
 *
 * Values:
 *   sizes  binary: 64, 4K = 4Ki = 4KiB = 4KB = 4096, 1M, 1G; optional B
 *   rates  decimal bits/s: 10M = 10Mb = 10Mbit = 10Mbps = 10^7; k, M, G, T;
 *          a trailing B (bytes) is refused
 *   times  ns, us, ms, s, m (minutes), decimals allowed: 500ms, 1.5s, 2m;
 *          a bare number is seconds
 *   counts decimal, optional k, M, G (10^3...)
 *   names  hosts, generators, devices: 1..63 of [A-Za-z0-9_.-]
 *
 * Layout: comments are lines starting with ; or #, or a ; or # after a
 * blank in a value (size = 4K ; note); `key = value` or `key: value`;
 * leading blanks are ignored (indented keys are keys, there are no
 * continuation lines); CRLF and a UTF-8 BOM are accepted; lines may be
 * long (a from list of 200 hosts). Section names are unique per kind
 * (hosts; generators of both types); a key appears once per section.
 *
 * Every error names FILE:LINE, the section and the key ("t.ini:12: [bsg b]
 * szie: unknown key; did you mean 'size'?") and says what to write instead.
 * Instances: ids 0..n-1 in file order, each section's instances in the
 * order of its from list; duration, warmup and sink_completion come from
 * [global] wherever it appears.
 *
 * Conventions: 0 or a positive errno (EINVAL for a bad job, ENOENT/EACCES
 * for an unreadable file, ENOMEM) with a one-line message in @err.
 */
#ifndef RPERF_JOB_H
#define RPERF_JOB_H

#include <stddef.h>
#include <stdint.h>

#include "engine/spec.h"

#define RPERF_JOB_MAX_HOSTS 1024 /* a fleet: the scale benchmark runs 1,000 */
#define RPERF_JOB_MAX_GENS 256 /* generator sections */
#define RPERF_JOB_MAX_INSTANCES 1024
#define RPERF_JOB_MAX_SWITCHES 16
#define RPERF_JOB_CMD_LEN 1024 /* a switch's counters command, with NUL */
#define RPERF_AGENT_DEFAULT_PORT 18521 /* lat/bw servers use 18520 */
#define RPERF_JOB_CONTROL_LOCAL "local" /* control = local */

struct rperf_job_host {
	char name[RPERF_NAME_LEN];
	char control[256]; /* agent address (host name or IP) */
	uint16_t control_port; /* RPERF_AGENT_DEFAULT_PORT unless given */
	/* control = local: the controller runs this host's agent in its own
	 * process (rperf run on this host; control "local", port 0) */
	bool local;
	struct rperf_host_sel sel;
	int line; /* where the section starts, for messages */
};

/*
 * [mesh NAME]: a latency matrix over the ports of a switch.
 *   hosts     comma list of [host] names (at least 2), or all (default)
 *   schedule  rounds (default): every ordered pair once, in rounds of
 *             disjoint pairs (src/run/mesh_plan.c), both directions of a
 *             pair together; concurrent: all pairs at once
 *   duration, warmup   per pair (default: [global]'s)
 *   samples   per pair instead of duration: the duration that offers this
 *             many probes at the LSG's pace (rate, or probe_schedule
 *             fixed:R / poisson:R); refused with a closed-loop LSG or
 *             beside duration
 *   probe_schedule  the LSG probe schedule (closed | fixed:R | poisson:R,
 *             the [lsg] key schedule): in [mesh], schedule is the pair
 *             schedule, and a probe schedule given there is refused with
 *             a pointer to probe_schedule
 *   out_above the smallest added RTT the localization names (default
 *             20us; src/run/mesh.h)
 *   statistic the cells' statistic the localization compares: p50
 *             (default) or p10 (the low end: a fixed delay moves every
 *             sample, load and timer noise only some)
 *   parallel  at most this many pairs of a round at once (0 = all, the
 *             default): a round runs as several experiments
 *   the LSG keys (size, completion, rate, sl, tclass, mtu, pair_order,
 *             ...), as in [lsg]; from, to and count are the mesh's own
 * One per job; its name is the name of every pair's LSG instance. The
 * generators of the job's [lsg]/[bsg] sections run beside every round (the
 * matrix measured under their load).
 */
#define RPERF_MESH_OUT_ABOVE_NS 20000 /* out_above's default */

enum rperf_mesh_statistic {
	RPERF_MESH_STAT_P50 = 0,
	RPERF_MESH_STAT_P10 = 1,
};

enum rperf_mesh_schedule {
	RPERF_MESH_ROUNDS = 0,
	RPERF_MESH_CONCURRENT = 1,
};

struct rperf_job_mesh {
	char name[RPERF_NAME_LEN];
	int line;
	uint16_t hosts[RPERF_JOB_MAX_HOSTS]; /* indexes into job->hosts */
	size_t nhosts;
	enum rperf_mesh_schedule schedule;
	uint64_t out_above_ns; /* the localization's floor of its threshold */
	enum rperf_mesh_statistic statistic;
	uint64_t parallel; /* pairs at once, 0 = a whole round */
	uint64_t samples; /* probes per pair asked, 0: duration given */
	/* template of every pair's LSG: kind, name, keys, duration_ns,
	 * warmup_ns, sink_completion set; id, from and to unset */
	struct rperf_gen_spec spec;
};

const char *rperf_mesh_schedule_name(enum rperf_mesh_schedule s);

struct rperf_job {
	char path[256];
	/* [global] */
	uint64_t duration_ns; /* default 10 s */
	uint64_t warmup_ns; /* default 1 s */
	uint64_t timeout_ns; /* control-plane timeout, default 10 s */
	enum rperf_completion sink_completion; /* default event */
	/* [host NAME] sections, in file order */
	struct rperf_job_host hosts[RPERF_JOB_MAX_HOSTS];
	size_t nhosts;
	/* one spec per generator instance (a section with from = a,b,c gives
	 * three), in file order; ids 0..n-1; duration/warmup/sink_completion
	 * filled from [global] */
	struct rperf_gen_spec *inst; /* [ninst], owned */
	size_t ninst;
	struct rperf_job_mesh *mesh; /* [mesh NAME], owned; NULL: none (then
					ninst >= 1) */
	/* [switch NAME] sections: counters = CMD, run by the controller at
	 * each interval (src/run/run_hook.c) */
	struct rperf_job_switch {
		char name[RPERF_NAME_LEN];
		char counters[RPERF_JOB_CMD_LEN];
		int line;
	} switches[RPERF_JOB_MAX_SWITCHES];
	size_t nswitches;
};

/* Parse and validate @path. On success *out is a new job (rperf_job_free).
 * Checks: unknown section or key (with "did you mean"), bad values, unknown
 * host in from/to, a generator to itself, duplicate section names, a
 * generator without from/to, hosts without control. */
int rperf_job_load(const char *path, struct rperf_job **out, char *err,
		   size_t errlen);
/* Same from a string (@name used in messages in place of a path). */
int rperf_job_parse(const char *text, const char *name, struct rperf_job **out,
		    char *err, size_t errlen);
void rperf_job_free(struct rperf_job *job);
/* Whether host @name has a part in @job: an end of an instance or a
 * [mesh]'s host (a host that has none needs no agent). */
bool rperf_job_involves(const struct rperf_job *job, const char *name);

/* The section types of a job file whose keys are in the key table
 * (job/options.h): "global", "host", "lsg", "bsg", "incast", "mesh", by
 * index, NULL after the last; the keys the @i-th takes, in the order of
 * messages: up to @max names into @out, their number returned. */
const char *rperf_job_sect_name(size_t i);
size_t rperf_job_sect_keys(size_t i, const char **out, size_t max);

/*
 * Edits of a job file before it is checked, so that one file serves many
 * runs (`rperf run --hosts-map FILE --set S.N.K=V --sweep S.N.K=LIST`):
 *   hosts map  a file of [host NAME] sections only, same keys and syntax as
 *              the job's; each key replaces (or adds) that key of the job's
 *              [host NAME]. Sections naming hosts the job does not have are
 *              checked and skipped (one map serves every example); a map
 *              matching none of the job's hosts is an error.
 *   assigns    SECTION.NAME.KEY=VALUE ([global]: global.KEY=VALUE), applied
 *              in order after the map: the key is replaced or added in that
 *              section, which must exist. Host and generator names may hold
 *              dots: the key is the text after the last dot.
 * The edited keys are then checked exactly like the file's; their errors
 * start with the assign's @origin ("--set bsg.b.count=9: [bsg b] count:
 * ...") or the map's FILE:LINE instead of the job's FILE:LINE.
 */
struct rperf_job_assign {
	const char *text; /* SECTION.NAME.KEY=VALUE */
	const char *origin; /* how messages name it; NULL: @text */
};

struct rperf_job_edit {
	const char *hosts_map; /* path, NULL = none */
	const struct rperf_job_assign *assigns;
	size_t nassigns;
};

/* SECTION.NAME.KEY=VALUE split and checked for syntax (section type,
 * name; the key and the value are checked by the load, as the file's). */
struct rperf_job_target {
	char sect[8]; /* global, host, lsg, bsg, mesh */
	char name[RPERF_NAME_LEN]; /* "" for global */
	char key[32];
	const char *value; /* points into the text */
};
int rperf_job_assign_parse(const char *text, struct rperf_job_target *t,
			   char *err, size_t errlen);
/* @value of @t's key as a number in the key's base unit (ns, bytes,
 * bits/s, a count): 0, ENOENT (a name, a choice, from, to) or EINVAL. */
int rperf_job_target_number(const struct rperf_job_target *t, const char *value,
			    double *out);

/* rperf_job_load() with @ed applied (NULL = none). */
int rperf_job_load_edit(const char *path, const struct rperf_job_edit *ed,
			struct rperf_job **out, char *err, size_t errlen);

/* rperf_job_parse() with @ed applied (NULL = none). */
int rperf_job_parse_edit(const char *text, const char *name,
			 const struct rperf_job_edit *ed,
			 struct rperf_job **out, char *err, size_t errlen);

/* The host called @name, NULL if none. */
const struct rperf_job_host *rperf_job_host(const struct rperf_job *job,
					    const char *name);

#endif
