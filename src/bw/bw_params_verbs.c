/* SPDX-License-Identifier: BSD-2-Clause */
/* The PARAMS keys of perftest's other bw tests: --verb atomic's operation
 * and --reversed. Both optional: an older client sends neither. */
#include "bw/bw_params.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ctrl/ctrl.h"

int rperf_bw_params_encode_verbs(const struct rperf_cli_config *cfg, json_t *o)
{
	if (cfg->verb == RPERF_VERB_ATOMIC &&
	    rperf_ctrl_set_str(o, "atomic_op",
			       rperf_atomic_name(cfg->atomic_op)))
		return ENOMEM;
	if (cfg->reversed && rperf_ctrl_set_bool(o, "reversed", true))
		return ENOMEM;
	return 0;
}

static int get_atomic(const json_t *obj, struct rperf_bw_params *out, char *why,
		      size_t whylen)
{
	char name[32] = "";

	if (rperf_ctrl_get_str(obj, "atomic_op", name, sizeof(name)) == 0 &&
	    rperf_name_find(rperf_atomic_names, SIZE_MAX, name,
			    &out->atomic_op) == 0)
		return 0;
	snprintf(why, whylen,
		 "parameter 'atomic_op' missing or not one of %s, %s",
		 rperf_atomic_name(0), rperf_atomic_name(1));
	return EBADMSG;
}

int rperf_bw_params_decode_verbs(const json_t *obj, struct rperf_bw_params *out,
				 char *why, size_t whylen)
{
	int rc = 0;

	if (out->verb == RPERF_VERB_ATOMIC) {
		rc = get_atomic(obj, out, why, whylen);
		if (!rc && out->max_size != RPERF_ATOMIC_SIZE) {
			snprintf(
				why, whylen,
				"parameter 'max_size' %llu B with verb atomic, whose operand is %d B",
				(unsigned long long)out->max_size,
				RPERF_ATOMIC_SIZE);
			rc = EBADMSG;
		}
	}
	if (!rc && out->reversed && out->bidir) {
		snprintf(why, whylen,
			 "parameters 'reversed' and 'bidir' are both true");
		rc = EBADMSG;
	}
	if (!rc && out->reversed && rperf_verb_responder_only(out->verb)) {
		snprintf(why, whylen,
			 "parameter 'reversed' with verb %s (not offered)",
			 rperf_verb_name(out->verb));
		rc = EBADMSG;
	}
	return rc;
}
