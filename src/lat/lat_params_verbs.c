/* SPDX-License-Identifier: BSD-2-Clause */
/* The PARAMS keys of lat --verb: "verb" and "atomic_op", both optional (an
 * older client sends neither and means SENDs). */
#include "lat/lat_params.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ctrl/ctrl.h"

int rperf_lat_params_encode_verbs(const struct rperf_cli_config *cfg, json_t *o)
{
	if (cfg->verb == RPERF_VERB_SEND)
		return 0; /* what older servers assume */
	if (cfg->verb == RPERF_VERB_WRITE_IMM ||
	    !strcmp(rperf_verb_name(cfg->verb), "?"))
		return EINVAL; /* write_imm is no latency test */
	if (rperf_ctrl_set_str(o, "verb", rperf_verb_name(cfg->verb)))
		return ENOMEM;
	if (cfg->verb == RPERF_VERB_ATOMIC &&
	    rperf_ctrl_set_str(o, "atomic_op",
			       rperf_atomic_name(cfg->atomic_op)))
		return ENOMEM;
	return 0;
}

static int lookup(const json_t *obj, const char *key,
		  const struct rperf_name *names, int *out)
{
	char name[32] = "";

	if (rperf_ctrl_get_str(obj, key, name, sizeof(name)) ||
	    rperf_name_find(names, SIZE_MAX, name, out))
		return EBADMSG;
	return 0;
}

int rperf_lat_params_decode_verbs(const json_t *obj,
				  struct rperf_lat_params *out, char *why,
				  size_t whylen)
{
	out->verb = RPERF_VERB_SEND;
	out->atomic_op = RPERF_ATOMIC_FETCH_ADD;
	if (json_object_get(obj, "verb") &&
	    (lookup(obj, "verb", rperf_verb_names, &out->verb) ||
	     out->verb == RPERF_VERB_WRITE_IMM)) {
		snprintf(
			why, whylen,
			"parameter 'verb' not one of send, write, read, atomic");
		return EBADMSG;
	}
	if (out->verb != RPERF_VERB_ATOMIC)
		return 0;
	if (lookup(obj, "atomic_op", rperf_atomic_names, &out->atomic_op)) {
		snprintf(
			why, whylen,
			"parameter 'atomic_op' missing or not one of fetch_and_add, cmp_and_swap");
		return EBADMSG;
	}
	if (out->max_size != RPERF_ATOMIC_SIZE) {
		snprintf(
			why, whylen,
			"parameter 'max_size' %llu B with verb atomic, whose operand is %d B",
			(unsigned long long)out->max_size, RPERF_ATOMIC_SIZE);
		return EBADMSG;
	}
	return 0;
}
