/* SPDX-License-Identifier: BSD-2-Clause */
/* The PARAMS message of rperf bw: what the client ships to the server. */
#ifndef RPERF_BW_PARAMS_H
#define RPERF_BW_PARAMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "config/config.h"
#include "session/session_path.h"

#define RPERF_BW_MAX_QPS 1024

struct rperf_bw_params {
	int verb; /* enum rperf_verb */
	uint64_t max_size;
	uint64_t qps;
	uint64_t rx_depth;
	uint64_t post_list;
	struct rperf_session_path path; /* MTU, SL, tclass, timeout, retries */
	bool events; /* the server waits on completion events */
	bool rdma_cm; /* -R: connect the QPs with rdma_cm (optional key) */
	/* -b: the server also generates towards the client ("bidir", optional:
	 * absent means false; when true the keys below are required) */
	bool bidir;
	uint64_t tx_depth, cq_mod;
	uint64_t iters; /* per QP; 0 with duration_ns or infinite */
	uint64_t duration_ns;
	bool infinite;
	/* perftest's other tests (bw_params_verbs.c; optional keys, absent in
	 * older clients' PARAMS): the atomic operation, and --reversed (the
	 * server generates, the client only receives: the generator keys
	 * above are then required as with "bidir") */
	int atomic_op; /* enum rperf_atomic_op, "atomic_op" */
	bool reversed; /* "reversed" */
};

/* Client side: the parameters of @cfg as a new JSON object (NULL: ENOMEM). */
json_t *rperf_bw_params_encode(const struct rperf_cli_config *cfg);

/*
 * Server side: strict decode (every key present, right type, in range;
 * "bidir" may be absent, and then the generator keys are not read).
 * Returns 0, EBADMSG (@why names the key) or EMSGSIZE (max_size above
 * @server_max: @why says so, to be sent back as the refusal reason).
 */
int rperf_bw_params_decode(const json_t *obj, uint64_t server_max,
			   struct rperf_bw_params *out, char *why,
			   size_t whylen);

/* The keys of bw_params_verbs.c: "atomic_op" (with --verb atomic) and
 * "reversed" (with the generator keys) into @o: 0 or ENOMEM. */
int rperf_bw_params_encode_verbs(const struct rperf_cli_config *cfg, json_t *o);
/* Their decode (after the other keys): 0 or EBADMSG with @why (an atomic
 * run whose max_size is not 8, an unknown operation, reversed with -b or
 * a READ/atomic, a malformed key). */
int rperf_bw_params_decode_verbs(const json_t *obj, struct rperf_bw_params *out,
				 char *why, size_t whylen);

/* PARAMS against this server's limits (rperf_session_admit), before
 * anything is allocated: 0 with *stall_ns, or EDQUOT with @why. */
int rperf_bw_admit(const struct rperf_cli_config *cfg,
		   const struct rperf_bw_params *p, uint64_t *stall_ns,
		   char *why, size_t whylen);

#endif
