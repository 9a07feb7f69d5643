/* SPDX-License-Identifier: BSD-2-Clause */
/* Live rows: asked for by GO, carried by the HEARTBEATs (engine/proto.h). */
#include "agent/agent.h"
#include "agent/agent_priv.h"

#include <errno.h>
#include <stdlib.h>

int agent_live_go(struct rperf_agent *a, const struct rperf_ctrl_msg *m)
{
	bool live;

	if (rperf_proto_go_live(m, &live))
		return EBADMSG;
	a->exp.live = live && a->engine->live_on && a->engine->live_take;
	if (a->exp.live)
		a->engine->live_on(a->exp.eng);
	return 0;
}

int agent_live_payload(struct rperf_agent *a, json_t **out)
{
	struct rperf_live_row *rows;
	uint64_t skipped = 0;
	size_t n = 0;
	int rc;

	*out = NULL;
	if (!a->exp.live || !a->exp.eng)
		return 0;
	rows = malloc(RPERF_PROTO_MAX_LIVE_ROWS * sizeof(*rows));
	if (!rows)
		return ENOMEM;
	a->engine->live_take(a->exp.eng, rows, RPERF_PROTO_MAX_LIVE_ROWS, &n,
			     &skipped);
	rc = rperf_proto_live_encode(rows, n, skipped, out);
	free(rows);
	return rc;
}
