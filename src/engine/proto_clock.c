/* SPDX-License-Identifier: BSD-2-Clause */
/* CLOCK (the start barrier's offset exchanges) and GO's "start_at_ns":
 * see src/engine/proto.h. */
#include "engine/proto.h"

#include <errno.h>

static int clock_obj(const struct rperf_ctrl_msg *m, uint32_t *seq)
{
	uint64_t v;

	if (!m || !seq)
		return EINVAL;
	if (m->type != RPERF_CTRL_CLOCK)
		return EPROTO;
	if (!json_is_object(m->payload) ||
	    rperf_ctrl_get_u64(m->payload, "seq", 0, RPERF_PROTO_MAX_CLOCK_SEQ,
			       &v))
		return EBADMSG;
	*seq = (uint32_t)v;
	return 0;
}

int rperf_proto_clock_req_encode(uint32_t seq, json_t **out)
{
	json_t *o;

	if (!out || seq > RPERF_PROTO_MAX_CLOCK_SEQ)
		return EINVAL;
	o = json_object();
	return rperf_ctrl_json_out(
		o, !o || rperf_ctrl_set_u64(o, "seq", seq) ? ENOMEM : 0, out);
}

int rperf_proto_clock_req_decode(const struct rperf_ctrl_msg *m, uint32_t *seq)
{
	return clock_obj(m, seq);
}

int rperf_proto_clock_reply_encode(uint32_t seq, uint64_t rx_ns, uint64_t tx_ns,
				   json_t **out)
{
	json_t *o = NULL;
	int rc;

	if (rx_ns > tx_ns)
		return EINVAL;
	rc = rperf_proto_clock_req_encode(seq, &o);
	if (rc)
		return rc;
	if (rperf_ctrl_set_u64(o, "rx_ns", rx_ns) ||
	    rperf_ctrl_set_u64(o, "tx_ns", tx_ns))
		rc = ENOMEM;
	return rperf_ctrl_json_out(o, rc, out);
}

int rperf_proto_clock_reply_decode(const struct rperf_ctrl_msg *m,
				   uint32_t *seq, uint64_t *rx_ns,
				   uint64_t *tx_ns)
{
	int rc = clock_obj(m, seq);

	if (rc)
		return rc;
	if (!rx_ns || !tx_ns)
		return EINVAL;
	if (rperf_ctrl_get_u64(m->payload, "rx_ns", 0, UINT64_MAX, rx_ns) ||
	    rperf_ctrl_get_u64(m->payload, "tx_ns", 0, UINT64_MAX, tx_ns) ||
	    *rx_ns > *tx_ns)
		return EBADMSG;
	return 0;
}

int rperf_proto_go_set_start_at(json_t *go, uint64_t start_at_ns)
{
	if (!json_is_object(go))
		return EINVAL;
	return rperf_ctrl_set_u64(go, "start_at_ns", start_at_ns) ? ENOMEM : 0;
}

int rperf_proto_go_start_at(const struct rperf_ctrl_msg *m,
			    uint64_t *start_at_ns)
{
	if (!m || !start_at_ns || m->type != RPERF_CTRL_GO ||
	    !json_is_object(m->payload))
		return EINVAL;
	if (!json_object_get(m->payload, "start_at_ns"))
		return ENOENT;
	return rperf_ctrl_get_u64(m->payload, "start_at_ns", 0, UINT64_MAX,
				  start_at_ns) ?
		       EBADMSG :
		       0;
}
