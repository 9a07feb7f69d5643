/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef RPERF_CLI_PARSE_DEFAULTS_H
#define RPERF_CLI_PARSE_DEFAULTS_H

#include <stdbool.h>

#include "job/cmdline.h"

/* After every option is read: -a's sizes, the default size, percentiles and
 * warm-up (rperf lat: -n/10 within [10, 1000], 1000 with -D); -D clears -n. */
void rperf_cli_defaults_after(struct rperf_cmdline *cfg, bool warmup_given);

#endif
