// SPDX-License-Identifier: BSD-2-Clause
/*
 * libFuzzer target of the control channel decoders: the input is taken both
 * as a whole frame (rperf_ctrl_decode) and as the payload of a valid header;
 * every decoded message goes through every typed decoder (as each type) and
 * the generic getters, and through the experiment decoders of
 * src/engine/proto.h (AUTH, WELCOME with nonce, PLAN with its generator
 * specs, ENDPOINTS, CONNECT, GO, CLOCK, REPORT with its histograms and its
 * "counters" series); the input's
 * first bytes also go through perftest's recogniser (src/ctrl/
 * ctrl_perftest.c, which servers apply to every first frame). Nothing may
 * crash, leak or read out of bounds.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ctrl/ctrl.h"
#include "engine/proto.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The experiment decoders; what they accept re-encodes. */
static void experiment(const struct rperf_ctrl_msg *m)
{
	struct rperf_proto_plan plan;
	struct rperf_proto_eps eps;
	struct rperf_proto_report rep;
	uint64_t go, hb;
	char why[256];
	json_t *o = NULL;

	if (!rperf_proto_go_decode(m, &go, &hb)) {
		if (rperf_proto_go_encode(go, hb, &o))
			abort();
		json_decref(o);
	}
	{ /* CLOCK request and reply, GO's start_at_ns */
		uint32_t seq;
		uint64_t rx, tx;

		if (!rperf_proto_clock_req_decode(m, &seq)) {
			if (rperf_proto_clock_req_encode(seq, &o))
				abort();
			json_decref(o);
		}
		if (!rperf_proto_clock_reply_decode(m, &seq, &rx, &tx)) {
			if (rperf_proto_clock_reply_encode(seq, rx, tx, &o))
				abort();
			json_decref(o);
		}
		(void)rperf_proto_go_start_at(m, &rx);
	}
	{ /* GO's live, a HEARTBEAT's live rows */
		struct rperf_proto_live l;
		bool live;

		uint32_t k;

		(void)rperf_proto_go_live(m, &live);
		(void)rperf_proto_go_round(m, &k); /* rounds on the same QPs */
		if (!rperf_proto_live_decode(m, &l, why, sizeof(why))) {
			if (rperf_proto_live_encode(l.rows, l.n, l.skipped, &o))
				abort();
			json_decref(o);
			rperf_proto_live_fini(&l);
		}
	}
	{ /* SAMPLES: an LSG's every sample */
		struct rperf_proto_samples x;

		if (!rperf_proto_samples_decode(m, &x, why, sizeof(why))) {
			if (rperf_proto_samples_encode(x.id, x.first, x.s, x.n,
						       &o))
				abort();
			json_decref(o);
			rperf_proto_samples_fini(&x);
		}
	}
	if (!rperf_proto_plan_decode(m, &plan, why, sizeof(why))) {
		if (rperf_proto_plan_encode(&plan, &o))
			abort();
		json_decref(o);
		rperf_proto_plan_fini(&plan);
	}
	if (!rperf_proto_endpoints_decode(m, &eps, why, sizeof(why))) {
		if (rperf_proto_endpoints_encode(&eps, &o))
			abort();
		json_decref(o);
		rperf_proto_eps_fini(&eps);
	}
	if (!rperf_proto_connect_decode(m, &eps, why, sizeof(why))) {
		if (rperf_proto_connect_encode(&eps, &o))
			abort();
		json_decref(o);
		rperf_proto_eps_fini(&eps);
	}
	if (!rperf_proto_report_decode(m, &rep, why, sizeof(why))) {
		if (rperf_proto_report_encode(&rep, &o))
			abort();
		json_decref(o);
		rperf_proto_report_fini(&rep);
	}
}

static void typed(struct rperf_ctrl_msg *m)
{
	struct rperf_ctrl_hello hello;
	struct rperf_ctrl_welcome welcome;
	struct rperf_ctrl_endpoint ep;
	enum rperf_ctrl_type real = m->type;
	uint64_t u, arr[8];
	int64_t i;
	double d;
	bool b;
	char s[16];
	size_t n;
	int t;

	for (t = RPERF_CTRL_TYPE_MIN; t <= RPERF_CTRL_TYPE_MAX; t++) {
		m->type = (enum rperf_ctrl_type)t;
		(void)rperf_ctrl_hello_decode(m, &hello);
		(void)rperf_ctrl_welcome_decode(m, &welcome);
		(void)rperf_ctrl_reason_decode(m, s, sizeof(s));
		(void)rperf_ctrl_endpoint_decode(m, &ep);
		experiment(m);
	}
	m->type = real;
	if (!rperf_ctrl_hello_decode(m, &hello))
		(void)rperf_ctrl_has_feature(hello.features, hello.nfeatures,
					     "x");
	/* Getters on whatever keys the fuzzer invents. */
	(void)rperf_ctrl_get_u64(m->payload, "a", 0, UINT64_MAX, &u);
	(void)rperf_ctrl_get_i64(m->payload, "a", INT64_MIN, INT64_MAX, &i);
	(void)rperf_ctrl_get_double(m->payload, "a", -1e300, 1e300, &d);
	(void)rperf_ctrl_get_bool(m->payload, "a", &b);
	(void)rperf_ctrl_get_str(m->payload, "a", s, sizeof(s));
	(void)rperf_ctrl_get_u64_array(m->payload, "a", 0, UINT64_MAX, arr, 8,
				       &n);
}

static void roundtrip(const struct rperf_ctrl_msg *m)
{
	struct rperf_ctrl_msg again;
	uint8_t *buf;
	size_t len;

	/* What was accepted re-encodes and decodes to the same thing. */
	if (rperf_ctrl_encode(m->type, m->payload, &buf, &len))
		return;
	if (rperf_ctrl_decode(buf, len, &again) ||
	    !json_equal(again.payload, m->payload) || again.type != m->type)
		abort();
	rperf_ctrl_msg_release(&again);
	free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rperf_ctrl_msg m;
	struct rperf_ctrl_hdr h = { RPERF_CTRL_MAGIC, RPERF_CTRL_VERSION, 0,
				    (uint32_t)size };
	uint8_t *frame;
	char what[128];

	/* the servers' and clients' look at a peer's first bytes */
	if (rperf_ctrl_perftest_peer(data, size, what, sizeof(what)) &&
	    !strstr(what, "perftest"))
		abort();
	if (!rperf_ctrl_decode(data, size, &m)) {
		typed(&m);
		roundtrip(&m);
		rperf_ctrl_msg_release(&m);
	} else if (m.payload) {
		abort(); /* errors leave no payload */
	}
	if (size > RPERF_CTRL_MAX_PAYLOAD)
		return 0;
	frame = malloc(RPERF_CTRL_HDR_LEN + size);
	if (!frame)
		return 0;
	h.type = (uint16_t)(RPERF_CTRL_TYPE_MIN + size % RPERF_CTRL_TYPE_MAX);
	rperf_ctrl_hdr_pack(&h, frame);
	if (size)
		memcpy(frame + RPERF_CTRL_HDR_LEN, data, size);
	if (!rperf_ctrl_decode(frame, RPERF_CTRL_HDR_LEN + size, &m)) {
		typed(&m);
		roundtrip(&m);
		rperf_ctrl_msg_release(&m);
	}
	free(frame);
	return 0;
}
