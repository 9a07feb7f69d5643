/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The path settings a client ships in PARAMS and the server applies to its
 * QP: MTU, service level, traffic class, ACK timeout and retry count. Shared
 * by rperf lat and rperf bw so both keep the same keys and checks.
 */
#ifndef RPERF_SESSION_PATH_H
#define RPERF_SESSION_PATH_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "config/config.h"
#include "verbs/verbs.h"

struct rperf_session_path {
	uint64_t mtu; /* 0: the port's */
	int64_t sl;
	int64_t tclass;
	int64_t qp_timeout;
	int64_t retry_count;
};

/* Add "mtu", "sl", "tclass" (--tclass, else -T, else 0), "qp_timeout" and
 * "retry_count" of @cfg to @obj. 0 or ENOMEM. */
int rperf_session_path_encode(const struct rperf_cli_config *cfg, json_t *obj);
/* Strict decode: 0, or EBADMSG with @why naming the key. */
int rperf_session_path_decode(const json_t *obj, struct rperf_session_path *out,
			      char *why, size_t whylen);
/* Server: the client's path choices over the server's device settings. */
void rperf_session_path_apply(const struct rperf_session_path *p,
			      struct rperf_verbs_cfg *v);

#endif
