/* SPDX-License-Identifier: BSD-2-Clause */
/* REPORT: an LSG's optional "open_schedule" figures (proto.h). */
#include "engine/proto.h"
#include "engine/proto_priv.h"

#include <errno.h>
#include <stdio.h>

static const char *const keys[] = { "late", "lag_bound_ns", "lag_p99_ns",
				    "lag_max_ns", "inflight_max" };

static uint64_t *field(struct rperf_sched_figs *f, size_t i)
{
	switch (i) {
	case 0:
		return &f->late;
	case 1:
		return &f->lag_bound_ns;
	case 2:
		return &f->lag_p99_ns;
	case 3:
		return &f->lag_max_ns;
	default:
		return &f->inflight_max;
	}
}

int rperf_proto_sched_set(json_t *o, const struct rperf_proto_result *r)
{
	struct rperf_sched_figs f = r->sched;
	json_t *x;
	int rc = 0;

	if (!f.open)
		return 0;
	x = json_object();
	if (!x)
		return ENOMEM;
	for (size_t i = 0; !rc && i < sizeof(keys) / sizeof(keys[0]); i++)
		rc = rperf_ctrl_set_u64(x, keys[i], *field(&f, i));
	if (rc || json_object_set_new(o, "open_schedule", x))
		return ENOMEM;
	return 0;
}

int rperf_proto_sched_get(const json_t *o, struct rperf_proto_result *r,
			  size_t idx, char *why, size_t whylen)
{
	const json_t *x = json_object_get(o, "open_schedule");
	struct rperf_sched_figs f = { .open = true };

	r->sched = (struct rperf_sched_figs){ .open = false };
	if (!x)
		return 0;
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (!json_is_object(x) ||
		    rperf_ctrl_get_u64(x, keys[i], 0, UINT64_MAX,
				       field(&f, i))) {
			snprintf(
				why, whylen,
				"instances[%zu]: 'open_schedule' '%s' missing or bad",
				idx, keys[i]);
			return EBADMSG;
		}
	r->sched = f;
	return 0;
}
