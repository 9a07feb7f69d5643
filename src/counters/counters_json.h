/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A series on the wire (the agent's REPORT "counters", proto.h):
 *   {"names":["rxe0/1/rcvd_seq_err",...], "gauges":[column index...],
 *    "rows":[[start_ns, dur_ns, value|null, ...], ...], "dropped":N}
 * start_ns from the run's start on the agent's clock; null: not read.
 * The decoder checks every count and length before it keeps anything.
 */
#ifndef RPERF_COUNTERS_JSON_H
#define RPERF_COUNTERS_JSON_H

#include <jansson.h>

#include "counters/counters.h"

/* New object in *out: 0 or ENOMEM. */
int rperf_ctr_series_encode(const struct rperf_ctr_series *s, json_t **out);
/* @o into @s (empty on failure): 0, EBADMSG with @why, ENOMEM. */
int rperf_ctr_series_decode(const json_t *o, struct rperf_ctr_series *s,
			    char *why, size_t whylen);

#endif
