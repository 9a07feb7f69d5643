/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The keys of a generator spec that came from rperf lat and rperf bw
 * (struct rperf_test_spec in spec.h): optional, written only when set:
 * "method" and "iters" (an LSG's, spec_lsg.c), "atomic_op" (an atomic
 * generator's operation), "rdma_cm" (its QPs connected through rdma_cm)
 * and "rx_depth" (the receives its ends keep posted).
 */
#include "engine/spec.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "ctrl/ctrl.h"
#include "gen/gen.h"
#include "util/err.h"

static int set_true(json_t *o, const char *key, bool v)
{
	return v ? rperf_ctrl_set_bool(o, key, true) : 0;
}

int rperf_test_spec_encode(const struct rperf_gen_spec *s, json_t *o)
{
	const struct rperf_test_spec *t = &s->test;
	const char *m = rperf_method_name(t->method);
	int rc = 0;

	if (!strcmp(m, "?") || !strcmp(rperf_atomic_name(t->atomic_op), "?"))
		return EINVAL;
	if (t->method != RPERF_METHOD_RPERF)
		rc = rperf_ctrl_set_str(o, "method", m);
	if (!rc && s->verb == RPERF_VERB_ATOMIC)
		rc = rperf_ctrl_set_str(o, "atomic_op",
					rperf_atomic_name(t->atomic_op));
	if (!rc && t->iters)
		rc = rperf_ctrl_set_u64(o, "iters", t->iters);
	if (!rc && t->rx_depth)
		rc = rperf_ctrl_set_u64(o, "rx_depth", t->rx_depth);
	if (!rc)
		rc = set_true(o, "rdma_cm", t->rdma_cm);
	return rc ? ENOMEM : 0;
}

/* An optional boolean: absent = false. */
static int get_flag(const json_t *o, const char *key, bool *out, char *why,
		    size_t wl)
{
	*out = false;
	if (!json_object_get(o, key) || !rperf_ctrl_get_bool(o, key, out))
		return 0;
	return rperf_fail(why, wl, EBADMSG, "parameter '%s' is not a boolean",
			  key);
}

/* An optional name of @t: absent = 0. */
static int get_name(const json_t *o, const char *key,
		    const struct rperf_name *t, int *out, char *buf, size_t len)
{
	*out = 0;
	buf[0] = '\0';
	if (!json_object_get(o, key))
		return 0;
	if (rperf_ctrl_get_str(o, key, buf, len) ||
	    rperf_name_find(t, SIZE_MAX, buf, out))
		return EBADMSG;
	return 0;
}

/* An optional count in [1, @max]: absent = 0. */
static int get_count(const json_t *o, const char *key, uint64_t max,
		     uint64_t *out, char *why, size_t wl)
{
	*out = 0;
	if (!json_object_get(o, key) ||
	    !rperf_ctrl_get_u64(o, key, 1, max, out))
		return 0;
	return rperf_fail(why, wl, EBADMSG,
			  "parameter '%s' not an integer in [1, %llu]", key,
			  (unsigned long long)max);
}

int rperf_spec_plan_keys_decode(const json_t *o, struct rperf_gen_spec *s,
				char *why, size_t wl)
{
	uint64_t rx = 0;
	char name[32];
	int rc;

	if (get_name(o, "atomic_op", rperf_atomic_names, &s->test.atomic_op,
		     name, sizeof(name)))
		return rperf_fail(why, wl, EBADMSG,
				  "parameter 'atomic_op' not one of %s, %s",
				  rperf_atomic_name(0), rperf_atomic_name(1));
	rc = get_count(o, "rx_depth", RPERF_SPEC_TEST_MAX_RX_DEPTH, &rx, why,
		       wl);
	s->test.rx_depth = (uint32_t)rx;
	if (!rc)
		rc = get_flag(o, "rdma_cm", &s->test.rdma_cm, why, wl);
	return rc;
}

int rperf_spec_plan_keys_check(const struct rperf_gen_spec *s, char *why,
			       size_t wl)
{
	unsigned int operand = rperf_verb_of(s->verb)->operand;

	if (!operand)
		return 0;
	if (s->size != operand || s->sizes.n)
		return rperf_fail(
			why, wl, EBADMSG,
			"'size' %llu B%s with verb %s, whose operand is %u B",
			(unsigned long long)s->size,
			s->sizes.n ? " (a distribution)" : "",
			rperf_verb_name(s->verb), operand);
	return 0;
}
