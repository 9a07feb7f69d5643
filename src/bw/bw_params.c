/* SPDX-License-Identifier: BSD-2-Clause */
#include "bw/bw_params.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ctrl/ctrl.h"
#include "engine/limits.h"
#include "session/session.h"

static json_t *add_bidir(json_t *o, const struct rperf_cli_config *cfg)
{
	if (o && (rperf_session_path_encode(cfg, o) ||
		  rperf_bw_params_encode_verbs(cfg, o))) {
		json_decref(o);
		return NULL;
	}
	if (o && cfg->rdma_cm && rperf_ctrl_set_bool(o, "rdma_cm", true)) {
		json_decref(o);
		return NULL;
	}
	if (!o || !(cfg->bidir || cfg->reversed))
		return o;
	if (rperf_ctrl_set_bool(o, "bidir", cfg->bidir) ||
	    rperf_ctrl_set_u64(o, "tx_depth", cfg->tx_depth) ||
	    rperf_ctrl_set_u64(o, "cq_mod", cfg->cq_mod) ||
	    rperf_ctrl_set_u64(o, "iters", cfg->iters) ||
	    rperf_ctrl_set_u64(o, "duration_ns",
			       cfg->run_infinitely ? 0 : cfg->duration_ns) ||
	    rperf_ctrl_set_bool(o, "infinite", cfg->run_infinitely)) {
		json_decref(o);
		return NULL;
	}
	return o;
}

json_t *rperf_bw_params_encode(const struct rperf_cli_config *cfg)
{
	uint64_t max = 0;

	for (size_t i = 0; i < cfg->nsizes; i++)
		max = cfg->sizes[i] > max ? cfg->sizes[i] : max;
	return add_bidir(json_pack("{s:s, s:I, s:I, s:I, s:I, s:b}", "verb",
				   rperf_verb_name(cfg->verb), "max_size",
				   (json_int_t)max, "qps", (json_int_t)cfg->qps,
				   "rx_depth", (json_int_t)cfg->rx_depth,
				   "post_list", (json_int_t)cfg->post_list,
				   "events", (int)cfg->events),
			 cfg);
}

static int get_u(const json_t *obj, const char *key, uint64_t min, uint64_t max,
		 uint64_t *out, char *why, size_t whylen)
{
	if (rperf_ctrl_get_u64(obj, key, min, max, out)) {
		snprintf(
			why, whylen,
			"parameter '%s' missing or not an integer in [%llu, %llu]",
			key, (unsigned long long)min, (unsigned long long)max);
		return EBADMSG;
	}
	return 0;
}

static int get_verb(const json_t *obj, int *verb, char *why, size_t whylen)
{
	char name[16];

	if (rperf_ctrl_get_str(obj, "verb", name, sizeof(name)) == 0 &&
	    rperf_name_find(rperf_verb_names, SIZE_MAX, name, verb) == 0)
		return 0;
	snprintf(
		why, whylen,
		"parameter 'verb' missing or not one of send, write, write_imm, read, atomic");
	return EBADMSG;
}

static int get_b(const json_t *obj, const char *key, bool *out, char *why,
		 size_t whylen)
{
	if (rperf_ctrl_get_bool(obj, key, out)) {
		snprintf(why, whylen, "parameter '%s' missing or not a boolean",
			 key);
		return EBADMSG;
	}
	return 0;
}

/* "bidir" and "reversed" are optional (older clients); when either is
 * true, the generator's keys (the server generates). */
static int get_bidir(const json_t *obj, struct rperf_bw_params *out, char *why,
		     size_t whylen)
{
	int rc = 0;

	if (json_object_get(obj, "reversed"))
		rc = get_b(obj, "reversed", &out->reversed, why, whylen);
	if (!rc && json_object_get(obj, "bidir"))
		rc = get_b(obj, "bidir", &out->bidir, why, whylen);
	if (rc || !(out->bidir || out->reversed))
		return rc;
	rc = get_u(obj, "tx_depth", 1, 16777216, &out->tx_depth, why, whylen);
	if (!rc)
		rc = get_u(obj, "cq_mod", 1, 65536, &out->cq_mod, why, whylen);
	if (!rc)
		rc = get_u(obj, "iters", 0, UINT64_MAX, &out->iters, why,
			   whylen);
	if (!rc)
		rc = get_u(obj, "duration_ns", 0, UINT64_MAX, &out->duration_ns,
			   why, whylen);
	if (!rc)
		rc = get_b(obj, "infinite", &out->infinite, why, whylen);
	if (!rc && out->post_list > out->tx_depth) {
		snprintf(why, whylen,
			 "parameter 'post_list' %llu is above 'tx_depth' %llu",
			 (unsigned long long)out->post_list,
			 (unsigned long long)out->tx_depth);
		rc = EBADMSG;
	}
	return rc;
}

int rperf_bw_params_decode(const json_t *obj, uint64_t server_max,
			   struct rperf_bw_params *out, char *why,
			   size_t whylen)
{
	int rc;

	memset(out, 0, sizeof(*out));
	if (!json_is_object(obj)) {
		snprintf(why, whylen, "PARAMS is not an object");
		return EBADMSG;
	}
	rc = get_verb(obj, &out->verb, why, whylen);
	if (!rc)
		rc = get_u(obj, "max_size", 1, INT64_MAX, &out->max_size, why,
			   whylen);
	if (!rc && out->max_size > server_max) {
		snprintf(
			why, whylen,
			"message size %llu B is above what this server allows (%llu B)",
			(unsigned long long)out->max_size,
			(unsigned long long)server_max);
		return EMSGSIZE;
	}
	if (!rc)
		rc = get_u(obj, "qps", 1, RPERF_BW_MAX_QPS, &out->qps, why,
			   whylen);
	if (!rc)
		rc = get_u(obj, "rx_depth", 1, 65536, &out->rx_depth, why,
			   whylen);
	if (!rc)
		rc = get_u(obj, "post_list", 1, 4096, &out->post_list, why,
			   whylen);
	if (!rc)
		rc = rperf_session_path_decode(obj, &out->path, why, whylen);
	if (!rc)
		rc = get_b(obj, "events", &out->events, why, whylen);
	if (!rc)
		rc = get_bidir(obj, out, why, whylen);
	if (!rc)
		rc = rperf_bw_params_decode_verbs(obj, out, why, whylen);
	/* optional: absent means false */
	if (!rc && json_object_get(obj, "rdma_cm"))
		rc = get_b(obj, "rdma_cm", &out->rdma_cm, why, whylen);
	return rc;
}

/* qps QPs (send depth tx_depth with -b), one buffer of max_size. */
int rperf_bw_admit(const struct rperf_cli_config *cfg,
		   const struct rperf_bw_params *p, uint64_t *stall_ns,
		   char *why, size_t whylen)
{
	struct rperf_pin_req r = {
		.qps = p->qps,
		.send_depth = p->bidir ? p->tx_depth : 1,
		.recv_depth = p->verb != RPERF_VERB_WRITE ? p->rx_depth : 1,
		.buf_bytes = p->max_size,
	};

	return rperf_session_admit(cfg, &r, &p->path, stall_ns, why, whylen);
}
