/* SPDX-License-Identifier: BSD-2-Clause */
/* Helpers shared by the proto_*.c files. */
#ifndef RPERF_ENGINE_PROTO_PRIV_H
#define RPERF_ENGINE_PROTO_PRIV_H

#include "engine/proto.h"

/* "role": "source" | "sink" -> 0, or EBADMSG. */
int rperf_proto_role_get(const json_t *o, enum rperf_proto_role *r);

#endif
