/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The keys only an LSG has beyond the common ones (spec.h): "timestamps",
 * which clock stamps the completions of the rperf method (rperf lat's
 * --timestamps), and in a PLAN "iters", the samples to take (rperf lat's
 * -n; the spec's window caps the run). Both optional: a spec without them
 * is encoded as before.
 */
#include "engine/spec.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "ctrl/ctrl.h"
#include "gen/gen.h"

int rperf_spec_lsg_encode(const struct rperf_gen_spec *s, json_t *o)
{
	const char *ts = rperf_name_of(rperf_timestamps_names, s->timestamps);

	if (!strcmp(ts, "?"))
		return EINVAL;
	/* "iters" goes with the test keys (rperf_test_spec_encode) */
	if (s->timestamps != RPERF_TS_AUTO &&
	    rperf_ctrl_set_str(o, "timestamps", ts))
		return ENOMEM;
	return 0;
}

int rperf_spec_lsg_decode(const json_t *o, bool test, struct rperf_gen_spec *s,
			  char *why, size_t wl)
{
	char name[16];

	s->timestamps = RPERF_TS_AUTO;
	if (json_object_get(o, "timestamps") &&
	    (rperf_ctrl_get_str(o, "timestamps", name, sizeof(name)) ||
	     rperf_name_find(rperf_timestamps_names, SIZE_MAX, name,
			     &s->timestamps))) {
		snprintf(why, wl, "'timestamps' not one of auto, nic, cpu");
		return EBADMSG;
	}
	if (test || !json_object_get(o, "iters"))
		return 0;
	if (rperf_ctrl_get_u64(o, "iters", 1, RPERF_SPEC_MAX_ITERS,
			       &s->test.iters)) {
		snprintf(why, wl, "'iters' not an integer in [1, %llu]",
			 RPERF_SPEC_MAX_ITERS);
		return EBADMSG;
	}
	return 0;
}

int rperf_spec_lsg_check(const struct rperf_gen_spec *s, char *why, size_t wl)
{
	if (s->timestamps < RPERF_TS_AUTO || s->timestamps > RPERF_TS_CPU) {
		snprintf(why, wl, "'timestamps' %d is not auto, nic or cpu",
			 s->timestamps);
		return EBADMSG;
	}
	if (s->kind == RPERF_GEN_LSG)
		return 0;
	if (s->timestamps != RPERF_TS_AUTO) {
		snprintf(why, wl,
			 "'timestamps' with a BSG (only an LSG has it)");
		return EBADMSG;
	}
	return 0;
}
