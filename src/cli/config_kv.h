/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef RPERF_CLI_CONFIG_KV_H
#define RPERF_CLI_CONFIG_KV_H

#include <stddef.h>

#include <rperf/report.h>

#include "config/config.h"
#include "config/options.h"

/*
 * The run configuration as report entries, one per option of cfg->cmd (from
 * the option table), plus "command" and "host". @kv must hold
 * RPERF_MAX_OPTIONS + 2 entries; returns how many were filled. The entries
 * point into @cfg.
 */
size_t rperf_cli_config_kv(const struct rperf_cli_config *cfg,
			   struct rperf_kv *kv);

#endif
