/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Shared by the option group files (options_*.c): each defines one array of
 * options, in --help order, and its length; options.c lists the groups.
 */
#ifndef RPERF_JOB_OPTIONS_PRIV_H
#define RPERF_JOB_OPTIONS_PRIV_H

#include <stddef.h>

#include "job/options.h"

#define OFF(f) offsetof(struct rperf_cmdline, f)
#define NS_US 1000ull
#define NS_MS 1000000ull
#define NS_S 1000000000ull

#define L RPERF_CMD_LAT
#define B RPERF_CMD_BW
#define T RPERF_CMD_TRAFFIC
#define A RPERF_CMD_AGENT
#define R RPERF_CMD_RUN
#define I RPERF_CMD_INFO
#define C RPERF_CMD_COMPARE

/* job-file sections (.job.sects) */
#define GL RPERF_SECT_GLOBAL
#define HO RPERF_SECT_HOST
#define G RPERF_SECT_GEN
#define LS RPERF_SECT_LSG
#define BS RPERF_SECT_BSG
#define IN RPERF_SECT_INCAST
#define ME RPERF_SECT_MESH
/* a job-file key's field (.job.dest, .off, .width) */
#define JFIELD(dest_, type, m) \
	.dest = dest_, .off = offsetof(type, m), .width = sizeof(((type *)0)->m)
#define JSPEC(m) JFIELD(RPERF_JOB_SPEC, struct rperf_gen_spec, m)
#define JGLOBAL(m) JFIELD(RPERF_JOB_GLOBAL, struct rperf_job_global, m)
#define JHOST(m) JFIELD(RPERF_JOB_HOST, struct rperf_host_sel, m)
/* .job: the job-file key @n of the sections @sects_ (@rank_: its place in
 * the key lists of messages), its value into @field (JSPEC, JGLOBAL,
 * JHOST); with the command line's type, range and choices, */
#define JOB_AS_CLI(n, sects_, rank_, field)                      \
	{                                                        \
		.name = n, .sects = sects_, .rank = rank_, field \
	}
/* or its own, */
#define JOB_OWN(n, sects_, rank_, field, type_, lo, hi)           \
	{                                                         \
		.name = n, .sects = sects_, .rank = rank_, field, \
		.type = type_, .min = lo, .max = hi               \
	}
/* the first @nch_ of @ch_ (0: all), */
#define JOB_ENUM(n, sects_, rank_, field, ch_, nch_)                    \
	{                                                               \
		.name = n, .sects = sects_, .rank = rank_, field,       \
		.type = RPERF_OT_ENUM, .choices = ch_, .nchoices = nch_ \
	}
/* an integer in [lo, hi] or @word_ (-1), */
#define JOB_INT(n, sects_, rank_, field, lo, hi, word_)                   \
	{                                                                 \
		.name = n, .sects = sects_, .rank = rank_, field,         \
		.type = RPERF_OT_INT, .min = lo, .max = hi, .word = word_ \
	}
/* a NUMA node, auto = -1, */
#define JOB_NODE(n, sects_, rank_, field)                                    \
	{                                                                    \
		.name = n, .sects = sects_, .rank = rank_, field,            \
		.type = RPERF_OT_INT, .min = -1, .max = RPERF_SPEC_MAX_NODE, \
		.word = "auto"                                               \
	}
/* or a key the job parser handles itself (job.c, job_mesh.c). */
#define JOB_SPECIAL(n, sects_, rank_)                      \
	{                                                  \
		.name = n, .sects = sects_, .rank = rank_, \
		.type = RPERF_OT_SPECIAL                   \
	}

/* help, version, device and connection */
extern const struct rperf_opt rperf_opts_conn[];
extern const size_t rperf_nopts_conn;
/* placement and virtual lanes */
extern const struct rperf_opt rperf_opts_place[];
extern const size_t rperf_nopts_place;
/* measurement */
extern const struct rperf_opt rperf_opts_measure[];
extern const size_t rperf_nopts_measure;
/* bandwidth */
extern const struct rperf_opt rperf_opts_bw[];
extern const size_t rperf_nopts_bw;
/* perftest's other tests: atomics, reversed, report-both */
extern const struct rperf_opt rperf_opts_verbs[];
extern const size_t rperf_nopts_verbs;
/* servers' event loop */
extern const struct rperf_opt rperf_opts_serve[];
extern const size_t rperf_nopts_serve;
/* perftest's report options */
extern const struct rperf_opt rperf_opts_report[];
extern const size_t rperf_nopts_report;
/* clock and output */
extern const struct rperf_opt rperf_opts_output[];
extern const size_t rperf_nopts_output;
/* rperf run: job edits and sweeps */
extern const struct rperf_opt rperf_opts_run[];
extern const size_t rperf_nopts_run;
/* perftest's flags rperf had no option for */
extern const struct rperf_opt rperf_opts_perftest[];
extern const size_t rperf_nopts_perftest;
/* server limits per client */
extern const struct rperf_opt rperf_opts_limits[];
extern const size_t rperf_nopts_limits;
/* control-plane scale and launch */
extern const struct rperf_opt rperf_opts_scale[];
extern const size_t rperf_nopts_scale;
/* offline job checks and the monitoring export */
extern const struct rperf_opt rperf_opts_fleet[];
extern const size_t rperf_nopts_fleet;
/* the keys only job files have (no command-line spelling) */
extern const struct rperf_opt rperf_opts_job[];
extern const size_t rperf_nopts_job;

#endif
