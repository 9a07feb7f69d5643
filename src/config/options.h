/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The one declarative option table. It generates the getopt_long table, the
 * --help text, the option list of man/rperf.1.md and the "config" object of
 * the JSON report.
 */
#ifndef RPERF_CONFIG_OPTIONS_H
#define RPERF_CONFIG_OPTIONS_H

#include <stddef.h>
#include <stdint.h>

#include "config/config.h"

enum rperf_opt_type {
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
};

/* Whose value an option is when both sides of rperf lat/bw may be given it
 * (session/session_parity.h: same flags on both sides). */
enum rperf_opt_scope {
	RPERF_SCOPE_RUN = 0, /* the run's: a server given it checks the
			      * client's value against its own */
	RPERF_SCOPE_HOST, /* each side its own (device, port, placement...) */
	RPERF_SCOPE_CLIENT, /* the client's report, thresholds or connecting:
			     * a server accepts and ignores it */
};

struct rperf_opt {
	const char *name; /* long name (also the JSON config key) */
	int letter; /* short letter (perftest's meaning), 0 if none */
	enum rperf_opt_type type;
	unsigned int cmds; /* commands it applies to (RPERF_CMD_*) */
	size_t off; /* field in struct rperf_cli_config */
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
};

#define RPERF_MAX_OPTIONS 160 /* rperf_opt_count() never exceeds it (test) */

/* The table as one list, in --help order (options.c lists the groups). */
size_t rperf_opt_count(void);
/* Option @i (< rperf_opt_count()), its index; SIZE_MAX if not an option. */
const struct rperf_opt *rperf_opt_at(size_t i);
size_t rperf_opt_index(const struct rperf_opt *o);

/* Command name <-> bit; NULL / RPERF_CMD_NONE when unknown. */
const char *rperf_cmd_name(enum rperf_cmd cmd);
enum rperf_cmd rperf_cmd_parse(const char *name);
const char *rperf_cmd_summary(enum rperf_cmd cmd);

/* Option by long name, or NULL. */
const struct rperf_opt *rperf_opt_find(const char *name);

#endif
