/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Same flags on both sides (perftest's habit): the client ships the value of
 * every run option in its PLAN ("options": long name -> value, from the
 * option table); a server started with some of those options checks each one it
 * was given against the client's and refuses a client that disagrees,
 * naming both values. The client stays the source of truth: an option not
 * given on the server is not checked. Generic over the option table (each
 * entry knows its field, type and scope); cfg->given records what the server's
 * command line gave.
 */
#ifndef RPERF_TWOHOST_PARITY_H
#define RPERF_TWOHOST_PARITY_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "job/options.h"
#include "util/err.h"

/* What a given option means on the server: its entry's scope (help and
 * version are each side's own). */
enum rperf_parity_kind {
	RPERF_PARITY_RUN, /* a run parameter: checked against the client */
	RPERF_PARITY_HOST, /* each side uses its own (device, port, -F ...) */
	RPERF_PARITY_CLIENT, /* shapes the client's report or connecting
			      * only: the server accepts and ignores it */
};

enum rperf_parity_kind rperf_parity_kind(const struct rperf_opt *o);

/* Was option @i (of the table) on @cfg's command line? */
bool rperf_parity_given(const struct rperf_cmdline *cfg, size_t i);
/* Was the option of long name @name on @cfg's command line? */
bool rperf_cfg_given(const struct rperf_cmdline *cfg, const char *name);

/* Client: add "options" (every run option of cfg->cmd) to @params.
 * 0 or ENOMEM. */
int rperf_parity_ship(const struct rperf_cmdline *cfg, json_t *params);

/*
 * Server: compare every run option given to @cfg with the client's value in
 * @params. 0 when all agree (or the client shipped no "options"), else
 * EINVAL with @e (class USAGE) saying, e.g.,
 * "-s/--size: the server was started with 64, the client asks for 4096;
 *  start both with the same value or leave it off the server".
 */
int rperf_parity_check(const struct rperf_cmdline *cfg, const json_t *params,
		       struct rperf_err *e);

#endif
