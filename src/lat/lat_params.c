/* SPDX-License-Identifier: BSD-2-Clause */
#include "lat/lat_params.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ctrl/ctrl.h"
#include "engine/limits.h"
#include "session/session.h"

json_t *rperf_lat_params_encode(const struct rperf_cli_config *cfg)
{
	uint64_t max = 0;

	for (size_t i = 0; i < cfg->nsizes; i++)
		max = cfg->sizes[i] > max ? cfg->sizes[i] : max;
	json_t *o = json_pack("{s:s, s:I, s:I, s:b}", "method",
			      rperf_method_name(cfg->method), "max_size",
			      (json_int_t)max, "rx_depth",
			      (json_int_t)cfg->rx_depth, "rdma_cm",
			      cfg->rdma_cm);

	if (o && (rperf_session_path_encode(cfg, o) ||
		  rperf_lat_params_encode_verbs(cfg, o))) {
		json_decref(o);
		o = NULL;
	}
	return o;
}

static int get_int(const json_t *obj, const char *key, int64_t min, int64_t max,
		   int64_t *out, char *why, size_t whylen)
{
	const json_t *v = json_object_get(obj, key);

	if (!json_is_integer(v) || json_integer_value(v) < min ||
	    json_integer_value(v) > max) {
		snprintf(
			why, whylen,
			"parameter '%s' missing or not an integer in [%lld, %lld]",
			key, (long long)min, (long long)max);
		return EBADMSG;
	}
	*out = json_integer_value(v);
	return 0;
}

static bool known_method(const char *m)
{
	int v;

	return rperf_name_find(rperf_method_names, SIZE_MAX, m, &v) == 0;
}

int rperf_lat_params_decode(const json_t *obj, uint64_t server_max,
			    struct rperf_lat_params *out, char *why,
			    size_t whylen)
{
	const json_t *m = json_object_get(obj, "method");
	int64_t v[2];
	int rc;

	memset(out, 0, sizeof(*out));
	if (!json_is_object(obj) || !json_is_string(m) ||
	    !known_method(json_string_value(m))) {
		snprintf(
			why, whylen,
			"method %.32s is a feature this server lacks (it serves: rperf, pingpong, postpoll, all)",
			json_is_string(m) ? json_string_value(m) : "(none)");
		rperf_ctrl_text_clean(why); /* the peer's method */
		return EBADMSG;
	}
	snprintf(out->method, sizeof(out->method), "%s", json_string_value(m));
	rc = get_int(obj, "max_size", 1, INT64_MAX, &v[0], why, whylen);
	if (!rc && (uint64_t)v[0] > server_max) {
		snprintf(
			why, whylen,
			"message size %lld B is above what this server allows (%llu B)",
			(long long)v[0], (unsigned long long)server_max);
		return EMSGSIZE;
	}
	out->max_size = (uint64_t)v[0];
	if (!rc)
		rc = get_int(obj, "rx_depth", 1, 65536, &v[1], why, whylen);
	out->rx_depth = (uint64_t)v[1];
	if (!rc)
		rc = rperf_session_path_decode(obj, &out->path, why, whylen);
	/* optional: older clients do not send it */
	if (!rc && json_object_get(obj, "rdma_cm") &&
	    !json_is_boolean(json_object_get(obj, "rdma_cm"))) {
		snprintf(why, whylen, "parameter 'rdma_cm' is not a boolean");
		rc = EBADMSG;
	}
	out->rdma_cm = json_is_true(json_object_get(obj, "rdma_cm"));
	if (!rc)
		rc = rperf_lat_params_decode_verbs(obj, out, why, whylen);
	return rc;
}

/* The wire QP (16 replies deep, rx_depth receives), one buffer. */
int rperf_lat_admit(const struct rperf_cli_config *cfg,
		    const struct rperf_lat_params *p, uint64_t *stall_ns,
		    char *why, size_t whylen)
{
	struct rperf_pin_req r = { .qps = 1,
				   .send_depth = 16,
				   .recv_depth = p->rx_depth,
				   .buf_bytes = p->max_size };

	return rperf_session_admit(cfg, &r, &p->path, stall_ns, why, whylen);
}
