/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef RPERF_JOB_CMDLINE_KV_H
#define RPERF_JOB_CMDLINE_KV_H

#include <stdbool.h>
#include <stddef.h>

#include <rperf/report.h>

#include "job/cmdline.h"
#include "job/options.h"

/* @o's value in @cfg as a report entry (pointing into @cfg); false for
 * help and version. */
bool rperf_opt_kv(const struct rperf_cmdline *cfg, const struct rperf_opt *o,
		  struct rperf_kv *kv);

/*
 * The command line's values as report entries, one per option of cfg->cmd (from
 * the option table), plus "command" and "host". @kv must hold
 * RPERF_MAX_OPTIONS + 2 entries; returns how many were filled. The entries
 * point into @cfg.
 */
size_t rperf_cmdline_kv(const struct rperf_cmdline *cfg, struct rperf_kv *kv);

#endif
