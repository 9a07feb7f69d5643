/* SPDX-License-Identifier: BSD-2-Clause */
/* The next round on the same QPs: a GO after the REPORT (engine/proto.h). */
#include "agent/agent.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "agent/agent_priv.h"

int agent_round_go(struct rperf_agent *a, const struct rperf_ctrl_msg *m,
		   char *why, size_t whylen)
{
	uint32_t k;
	int rc;

	if (rperf_proto_go_round(m, &k)) {
		snprintf(why, whylen, "malformed GO: round");
		return EBADMSG;
	}
	if (!a->exp.reported) {
		if (!k)
			return 0;
		snprintf(why, whylen, "GO of round %u before round 0 ran", k);
		return EPROTO;
	}
	if (k != a->exp.round + 1 || k >= a->exp.rounds) {
		snprintf(
			why, whylen,
			"GO for round %u: the plan's next round is %u (of %u, counted from 0)",
			k, a->exp.round + 1, a->exp.rounds);
		return EPROTO;
	}
	if (!a->engine->round) {
		snprintf(why, whylen,
			 "GO after REPORT: this agent runs no rounds");
		return ENOTSUP;
	}
	why[0] = '\0';
	rc = a->engine->round(a->exp.eng, k, why, whylen);
	if (rc) {
		if (!why[0])
			snprintf(why, whylen, "round %u: %s", k, strerror(rc));
		return rc;
	}
	a->exp.reported = false;
	a->exp.round = k;
	agent_log(a, "controller %s: round %u of %u on the same QPs",
		  a->exp.peer, k + 1, a->exp.rounds);
	return 0;
}
