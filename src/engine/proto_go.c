// SPDX-License-Identifier: BSD-2-Clause
/* GO: the start barrier's delay and the agents' HEARTBEAT interval. */
#include "engine/proto.h"

#include <errno.h>

static bool heartbeat_ok(uint64_t ns)
{
	return !ns || (ns >= RPERF_PROTO_MIN_HEARTBEAT_NS &&
		       ns <= RPERF_PROTO_MAX_HEARTBEAT_NS);
}

int rperf_proto_go_encode(uint64_t start_in_ns, uint64_t heartbeat_ns,
			  json_t **out)
{
	json_t *o;
	int rc = 0;

	if (!out || start_in_ns > RPERF_PROTO_MAX_START_NS ||
	    !heartbeat_ok(heartbeat_ns))
		return EINVAL;
	o = json_object();
	if (!o || rperf_ctrl_set_u64(o, "start_in_ns", start_in_ns) ||
	    (heartbeat_ns &&
	     rperf_ctrl_set_u64(o, "heartbeat_ns", heartbeat_ns)))
		rc = ENOMEM;
	return rperf_ctrl_json_out(o, rc, out);
}

int rperf_proto_go_decode(const struct rperf_ctrl_msg *m, uint64_t *start_in_ns,
			  uint64_t *heartbeat_ns)
{
	int rc;

	if (!m || !start_in_ns || !heartbeat_ns)
		return EINVAL;
	if (m->type != RPERF_CTRL_GO)
		return EPROTO;
	if (!json_is_object(m->payload) ||
	    rperf_ctrl_get_u64(m->payload, "start_in_ns", 0,
			       RPERF_PROTO_MAX_START_NS, start_in_ns))
		return EBADMSG;
	rc = rperf_ctrl_get_u64(m->payload, "heartbeat_ns", 0,
				RPERF_PROTO_MAX_HEARTBEAT_NS, heartbeat_ns);
	if (rc == ENOENT)
		*heartbeat_ns = 0;
	else if (rc || !heartbeat_ok(*heartbeat_ns))
		return EBADMSG;
	return 0;
}
