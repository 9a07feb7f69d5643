/* SPDX-License-Identifier: BSD-2-Clause */
/* PLAN's "rounds" and GO's "round": rounds on the same QPs (proto.h). */
#include "engine/proto.h"

#include <errno.h>
#include <stdio.h>

#include "util/err.h"

/* A per-round list of @n entries (0: absent) for @rounds rounds. */
static int count_check(const struct rperf_gen_spec *s, const char *key,
		       uint32_t n, uint32_t rounds, char *why, size_t whylen)
{
	if (!n || n == rounds)
		return 0;
	return rperf_fail(why, whylen, EBADMSG,
			  "instance %u: '%s' has %u entries for %u rounds",
			  s->id, key, n, rounds);
}

static int check_specs(const struct rperf_gen_spec *s, size_t n,
		       uint32_t rounds, char *why, size_t whylen)
{
	int rc = 0;

	for (size_t i = 0; !rc && i < n; i++) {
		rc = count_check(&s[i], "round_sizes", s[i].round_sizes.n,
				 rounds, why, whylen);
		if (!rc)
			rc = count_check(&s[i], "round_methods",
					 s[i].round_methods.n, rounds, why,
					 whylen);
	}
	return rc;
}

int rperf_proto_plan_rounds_encode(const struct rperf_proto_plan *p, json_t *o)
{
	char why[128];

	if (p->rounds > RPERF_SPEC_MAX_ROUNDS ||
	    check_specs(p->sources, p->nsources, p->rounds ? p->rounds : 1, why,
			sizeof(why)) ||
	    check_specs(p->sinks, p->nsinks, p->rounds ? p->rounds : 1, why,
			sizeof(why)))
		return EINVAL;
	if (p->rounds <= 1)
		return 0;
	return rperf_ctrl_set_u64(o, "rounds", p->rounds) ? ENOMEM : 0;
}

int rperf_proto_plan_rounds_decode(const json_t *o, struct rperf_proto_plan *p,
				   char *why, size_t whylen)
{
	uint64_t v = 1;
	int rc = rperf_ctrl_get_u64(o, "rounds", 1, RPERF_SPEC_MAX_ROUNDS, &v);

	if (rc && rc != ENOENT)
		return rperf_fail(why, whylen, EBADMSG,
				  "'rounds' not an integer in [1, %d]",
				  RPERF_SPEC_MAX_ROUNDS);
	p->rounds = rc ? 1 : (uint32_t)v;
	rc = check_specs(p->sources, p->nsources, p->rounds, why, whylen);
	return rc ? rc :
		    check_specs(p->sinks, p->nsinks, p->rounds, why, whylen);
}

int rperf_proto_go_set_round(json_t *go, uint32_t k)
{
	if (!k)
		return 0;
	return rperf_ctrl_set_u64(go, "round", k) ? ENOMEM : 0;
}

int rperf_proto_go_round(const struct rperf_ctrl_msg *m, uint32_t *k)
{
	uint64_t v = 0;
	int rc = rperf_ctrl_get_u64(m->payload, "round", 0,
				    RPERF_SPEC_MAX_ROUNDS - 1, &v);

	if (rc && rc != ENOENT)
		return EBADMSG;
	*k = rc ? 0 : (uint32_t)v;
	return 0;
}
