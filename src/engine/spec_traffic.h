/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The traffic-shape keys of a generator spec (spec.h: stop_ns, bytes,
 * messages, sizes/size_weights, burst, period_ns, jitter_ns): optional on
 * the wire (absent = 0 / none, so older peers interoperate), written only
 * when set. Checks: BSGs only; stop_ns > start_ns; a distribution's sizes
 * distinct, in [1, size] with size its largest, weights finite > 0; an
 * incast sender has a period of at least 1 ms and jitter below it.
 */
#ifndef RPERF_ENGINE_SPEC_TRAFFIC_H
#define RPERF_ENGINE_SPEC_TRAFFIC_H

#include <stddef.h>

#include <jansson.h>

#include "engine/spec.h"

#define RPERF_SPEC_MIN_PERIOD_NS 1000000ull /* an incast's period */
#define RPERF_SPEC_MAX_BURST (1ull << 40) /* bytes per burst per sender */
#define RPERF_SPEC_MAX_BURST_SIZE 16777216ull /* burst_size, messages */

/* EBADMSG with @why naming the key, or 0. */
int rperf_spec_traffic_check(const struct rperf_gen_spec *s, char *why,
			     size_t wl);
/* The keys that are set into @o: 0 or ENOMEM. */
int rperf_spec_traffic_fill(const struct rperf_gen_spec *s, json_t *o);
/* The optional keys of @o into @t: 0 or EBADMSG with @why. */
int rperf_spec_traffic_decode(const json_t *o, struct rperf_gen_spec *t,
			      char *why, size_t wl);

#endif
