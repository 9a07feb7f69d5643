/* SPDX-License-Identifier: BSD-2-Clause */
/* Helpers shared by the proto_*.c files. */
#ifndef RPERF_ENGINE_PROTO_PRIV_H
#define RPERF_ENGINE_PROTO_PRIV_H

#include "engine/proto.h"

/* "role": "source" | "sink" -> 0, or EBADMSG. */
int rperf_proto_role_get(const json_t *o, enum rperf_proto_role *r);

/* The end of an encoder: unless @rc, @arr goes into @obj under @key;
 * @arr is released; then *out = @obj (0) or @obj is released (@rc or
 * ENOMEM). */
int rperf_proto_finish(json_t *obj, const char *key, json_t *arr, int rc,
		       json_t **out);

/* A result's optional "open_schedule" (proto_sched.c): set when
 * r->sched.open; decode: absent = closed, 0 or EBADMSG with @why. */
int rperf_proto_sched_set(json_t *o, const struct rperf_proto_result *r);
int rperf_proto_sched_get(const json_t *o, struct rperf_proto_result *r,
			  size_t idx, char *why, size_t whylen);
/* A result's optional "intervals" (proto_sched.c): set when it has any;
 * decode: absent = none, 0, ENOMEM or EBADMSG with @why. */
int rperf_proto_series_set(json_t *o, const struct rperf_proto_result *r);
int rperf_proto_series_get(const json_t *o, struct rperf_proto_result *r,
			   size_t idx, char *why, size_t whylen);

#endif
