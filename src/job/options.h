/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The one key table: every key of the command line and of job files, each
 * described once. An entry gives a key's command-line spelling (long name,
 * perftest's letter; the parser adds the other of '-'/'_'), its type,
 * range, units, help line and scope (per run, per host, the client's), and
 * where each parser puts its value: in .job the job-file name, the
 * sections that take it and a field of the generator spec, the [global]
 * keys or the [host] selection, which the command line's value fills too
 * (in struct rperf_cmdline's spec, sel, global: rperf_opt_in_job); an
 * option no job file has, a field of struct rperf_cmdline (.off). A key with both spellings is one entry; its job half either
 * shares the command line's value description (type NONE) or gives its own
 * where the two differ by contract (a job file's ranges are an agent's).
 * The table drives the getopt_long table (src/cli/parse.c), the job-file
 * parser (src/job/job_keys.c), --help and the option list of
 * man/rperf.1.md (src/cli/help.c), the "config" object of the JSON report,
 * the lat/bw parity check (twohost/twohost_parity.h) and, through the
 * command line's values, rperf lat/bw's implicit job.
 */
#ifndef RPERF_JOB_OPTIONS_H
#define RPERF_JOB_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "job/cmdline.h"
#include "engine/spec.h"

enum rperf_opt_type {
	RPERF_OT_NONE, /* no command-line spelling; in .job: the command
			* line's type, range and choices */
	RPERF_OT_HELP, /* -h/--help */
	RPERF_OT_VERSION, /* --version */
	RPERF_OT_FLAG, /* bool = true */
	RPERF_OT_STR, /* const char * (points into argv) */
	RPERF_OT_INT, /* int64_t in [min, max] */
	RPERF_OT_COUNT, /* uint64_t, decimal suffixes */
	RPERF_OT_SIZE, /* uint64_t bytes, binary suffixes */
	RPERF_OT_SIZE_LIST, /* sizes[] + nsizes */
	RPERF_OT_TIME, /* uint64_t ns; bare numbers in units of .unit */
	RPERF_OT_RATE, /* double, bit/s or 1/s */
	RPERF_OT_ENUM, /* int index into .choices (shown as their .cli) */
	RPERF_OT_PCT_LIST, /* percentiles[] + npercentiles */
	RPERF_OT_STR_LIST, /* struct rperf_str_list: repeatable, appended */
	/* job files only */
	RPERF_OT_NAME, /* a device name into char[RPERF_NAME_LEN] */
	RPERF_OT_MTU, /* 0 (the port's active MTU) or 256..4096, a power of 2 */
	RPERF_OT_SCHED, /* struct rperf_sched: closed | fixed:R | poisson:R */
	RPERF_OT_SIZES, /* a size or a distribution (job/job_shape.c) */
	RPERF_OT_SPECIAL, /* the job parser's own: from, to, count, control
			   * and [mesh]'s keys (job.c, job_mesh.c) */
};

/* Job-file section types (a bit each; job/job_priv.h names them). */
#define RPERF_SECT_GLOBAL (1u << 0)
#define RPERF_SECT_HOST (1u << 1)
#define RPERF_SECT_LSG (1u << 2)
#define RPERF_SECT_BSG (1u << 3)
#define RPERF_SECT_MESH (1u << 4) /* takes the LSG keys too */
#define RPERF_SECT_INCAST (1u << 5)
#define RPERF_SECT_SWITCH (1u << 6)
#define RPERF_SECT_GEN (RPERF_SECT_LSG | RPERF_SECT_BSG | RPERF_SECT_INCAST)

/* The struct a job-file key's value goes into. */
enum rperf_job_dest {
	RPERF_JOB_SPEC, /* struct rperf_gen_spec: generator sections */
	RPERF_JOB_GLOBAL, /* struct rperf_job_global: [global] */
	RPERF_JOB_HOST, /* struct rperf_host_sel: [host] */
};

/* A key's job-file half. Bare times in job files are seconds; rates are
 * bit/s. */
struct rperf_opt_job {
	const char *name; /* the key; NULL: command line only */
	unsigned int sects; /* RPERF_SECT_* that take it */
	unsigned int rank; /* order in the key lists of job-file messages */
	enum rperf_job_dest dest;
	size_t off, width; /* the field in @dest's struct */
	enum rperf_opt_type type; /* NONE: the entry's type, range, choices */
	int64_t min, max;
	const struct rperf_name *choices; /* ENUM */
	size_t nchoices; /* ENUM: the first n choices; 0: all */
	const char *word; /* INT: a word that stands for -1 */
};

/* Whose value an option is when both sides of rperf lat/bw may be given it
 * (twohost/twohost_parity.h: same flags on both sides). */
enum rperf_opt_scope {
	RPERF_SCOPE_RUN = 0, /* the run's: a server given it checks the
			      * client's value against its own */
	RPERF_SCOPE_HOST, /* each side its own (device, port, placement...) */
	RPERF_SCOPE_CLIENT, /* the client's report, thresholds or connecting:
			     * a server accepts and ignores it */
};

struct rperf_opt {
	const char *name; /* long name (also the JSON config key); NULL: a
			   * job-file key only */
	int letter; /* short letter (perftest's meaning), 0 if none */
	enum rperf_opt_type type;
	unsigned int cmds; /* commands it applies to (RPERF_CMD_*) */
	size_t off; /* field in struct rperf_cmdline (not rperf_opt_in_job) */
	int64_t min, max; /* INT/COUNT/SIZE/TIME(ns) bounds */
	uint64_t unit; /* TIME: ns per bare unit */
	const struct rperf_name *choices; /* ENUM: gen/gen.h's tables */
	const char *metavar;
	const char *help;
	const char *dflt; /* default as shown in --help, NULL if none */
	const char *implies; /* long name of a flag this option also sets */
	const char *bare; /* value when given without one (optional arg) */
	enum rperf_opt_scope scope;
	unsigned int pow2 : 1; /* SIZE: must be a power of two */
	struct rperf_opt_job job;
};

#define RPERF_MAX_OPTIONS 160 /* rperf_opt_count() never exceeds it (test) */

/* The table as one list, in --help order (options.c lists the groups). */
size_t rperf_opt_count(void);
/* Option @i (< rperf_opt_count()), its index; SIZE_MAX if not an option. */
const struct rperf_opt *rperf_opt_at(size_t i);
size_t rperf_opt_index(const struct rperf_opt *o);

/*
 * An option's value in a parsed command line. An option with a job-file
 * key and a value of one field (rperf_opt_in_job) keeps it where the job
 * file's goes: in cfg->spec, cfg->host or cfg->global at its job half's
 * field, in that field's width; the others in their own field (.off).
 * Integers, flags and enum indexes go through set/get (get sign-extends a
 * 4-byte field: -1 is "automatic"); strings through set_str/str (a device
 * name is copied: ENAMETOOLONG when it does not fit; str() gives NULL for
 * an empty one).
 */
bool rperf_opt_in_job(const struct rperf_opt *o);
/* A flag, integer, count, size, time or enum: a value of one field. */
bool rperf_opt_scalar(const struct rperf_opt *o);
void rperf_opt_set(struct rperf_cmdline *cfg, const struct rperf_opt *o,
		   uint64_t v);
int64_t rperf_opt_get(const struct rperf_cmdline *cfg,
		      const struct rperf_opt *o);
int rperf_opt_set_str(struct rperf_cmdline *cfg, const struct rperf_opt *o,
		      const char *v);
const char *rperf_opt_str(const struct rperf_cmdline *cfg,
			  const struct rperf_opt *o);

/* Command name <-> bit; NULL / RPERF_CMD_NONE when unknown. */
const char *rperf_cmd_name(enum rperf_cmd cmd);
enum rperf_cmd rperf_cmd_parse(const char *name);
const char *rperf_cmd_summary(enum rperf_cmd cmd);

/* Option by long name, or NULL. */
const struct rperf_opt *rperf_opt_find(const char *name);

/* Every entry of the table, command-line options and job-file keys alike:
 * start with an iterator of zeros; NULL after the last. */
struct rperf_key_iter {
	size_t group, i;
};
const struct rperf_opt *rperf_key_next(struct rperf_key_iter *it);

/* The job-file keys that sections of key bits @bits take (a [mesh]'s: its
 * own and the LSG keys), in rank order: up to @max into @out. Returns how
 * many were stored. */
size_t rperf_job_keys(unsigned int bits, const struct rperf_opt **out,
		      size_t max);

/* The value description of @o's job-file half: its own, or (type NONE)
 * the command line's. */
struct rperf_job_view {
	enum rperf_opt_type type;
	int64_t min, max;
	const struct rperf_name *choices;
	size_t nchoices; /* SIZE_MAX: all */
	const char *word;
};
void rperf_job_key_view(const struct rperf_opt *o, struct rperf_job_view *v);

#endif
