/* SPDX-License-Identifier: BSD-2-Clause */
/* The PARAMS message of rperf lat: what the client ships to the server. */
#ifndef RPERF_LAT_PARAMS_H
#define RPERF_LAT_PARAMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "config/config.h"
#include "session/session_path.h"

struct rperf_lat_params {
	char method[16];
	uint64_t max_size;
	uint64_t rx_depth;
	struct rperf_session_path path; /* MTU, SL, tclass, timeout, retries */
	bool rdma_cm; /* connect the wire QP with rdma_cm */
	/* --verb (lat_params_verbs.c; optional keys: older clients send
	 * neither, and mean send) */
	int verb; /* enum rperf_verb: send, write, read, atomic */
	int atomic_op; /* enum rperf_atomic_op */
};

/* Client side: the parameters of @cfg as a new JSON object (NULL: ENOMEM). */
json_t *rperf_lat_params_encode(const struct rperf_cli_config *cfg);

/*
 * Server side: strict decode. Returns 0, EBADMSG (missing key, wrong type,
 * out of range: @why names it) or EMSGSIZE (max_size above @server_max:
 * @why says so, to be sent back as the refusal reason).
 */
int rperf_lat_params_decode(const json_t *obj, uint64_t server_max,
			    struct rperf_lat_params *out, char *why,
			    size_t whylen);

/* "verb" (not send) and "atomic_op" (atomic) into @o: 0 or ENOMEM. */
int rperf_lat_params_encode_verbs(const struct rperf_cli_config *cfg,
				  json_t *o);
/* Their decode after the other keys: 0 or EBADMSG with @why (an unknown
 * verb or operation, write_imm, an atomic run whose max_size is not 8). */
int rperf_lat_params_decode_verbs(const json_t *obj,
				  struct rperf_lat_params *out, char *why,
				  size_t whylen);

/* PARAMS against this server's limits (rperf_session_admit), before
 * anything is allocated: 0 with *stall_ns, or EDQUOT with @why. */
int rperf_lat_admit(const struct rperf_cli_config *cfg,
		    const struct rperf_lat_params *p, uint64_t *stall_ns,
		    char *why, size_t whylen);

#endif
