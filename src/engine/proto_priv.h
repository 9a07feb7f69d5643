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

#endif
