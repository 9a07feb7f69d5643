/* SPDX-License-Identifier: BSD-2-Clause */
/* rperf lat --schedule, checked after the options are parsed. */
#ifndef RPERF_CLI_SCHED_CHECK_H
#define RPERF_CLI_SCHED_CHECK_H

#include <stdbool.h>
#include <stddef.h>

#include "job/cmdline.h"

/*
 * Parse cfg->schedule_text into cfg->spec.schedule (closed when not given) and
 * refuse what an open schedule cannot take (--rate or --latency_gap;
 * --method other than rperf; --pair-order sequential): 0 or EINVAL with a one-line @err naming the option.
 */
int rperf_cli_sched_check(struct rperf_cmdline *cfg, char *err, size_t errlen);

#endif
