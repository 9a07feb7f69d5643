/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A switch's `counters = CMD` (job file, [switch NAME]): run by the
 * controller at each interval through /bin/sh -c, its standard output read
 * as `name value [gauge]` lines (rperf_ctr_parse_lines()). A command that
 * outlives its deadline is killed with its process group.
 */
#ifndef RPERF_COUNTERS_HOOK_H
#define RPERF_COUNTERS_HOOK_H

#include "counters/counters.h"

#define RPERF_CTR_HOOK_OUT 65536 /* bytes of output read, at most */

/*
 * Run @cmd, add its counters to @r with @prefix before each name. 0, or
 * with @why: ETIMEDOUT (cut at @deadline_ns), EIO (a non-zero exit or a
 * signal), EBADMSG (a bad line: nothing kept), EMSGSIZE (too much output),
 * another errno (pipe, fork), ENOMEM.
 */
int rperf_ctr_hook_run(const char *cmd, const char *prefix,
		       uint64_t deadline_ns, struct rperf_ctr_reading *r,
		       char *why, size_t whylen);

#endif
