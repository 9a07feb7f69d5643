/* SPDX-License-Identifier: BSD-2-Clause */
/* The command line's configuration (struct rperf_cli_config: config/config.h)
 * and its defaults, which the parser sets. */
#ifndef RPERF_CLI_CONFIG_H
#define RPERF_CLI_CONFIG_H

#include "config/config.h"

/* Defaults for every field. */
void rperf_cli_config_defaults(struct rperf_cli_config *cfg);

#endif
