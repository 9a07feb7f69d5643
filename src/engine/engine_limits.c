/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What an agent accepts of a PLAN, checked before anything is created
 * (engine.h): the pinned memory of every instance from the estimator of
 * limits.c (the lat/bw servers' --max-memory), the QPs (--max-qps), the
 * instances (--max-instances) and every instance's planned end after GO
 * (--max-duration: start offset + warm-up + duration); and, at CONNECT,
 * every peer endpoint against the address of the host at the other end
 * (limits_gid.c, the servers' GID rule); and what an instance may hold
 * of its host at run time: its stall limit under the agent's
 * --stall-limit, the receive depth it posts, bounded by its device.
 */
#include "engine/engine.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include "engine/limits.h"
#include "gen/rx.h"
#include "util/err.h"

uint64_t rperf_engine_inst_stall_ns(const struct rperf_path_spec *p,
				    uint64_t limit_ns)
{
	uint64_t t = rperf_engine_stall_ns(p);

	return limit_ns && limit_ns < t ? limit_ns : t;
}

unsigned int rperf_engine_rx_depth(const struct rperf_gen_spec *s)
{
	return s->test.rx_depth ? s->test.rx_depth : RPERF_ENGINE_RX_DEPTH;
}

int rperf_engine_rx_depth_on(const struct rperf_gen_spec *s,
			     const struct rperf_dev *d, unsigned int *out,
			     char *err, size_t errlen)
{
	int max = d->attr.max_qp_wr;

	*out = rperf_engine_rx_depth(s);
	if (s->test.rx_depth)
		return rperf_gen_depth_check(d, "rx_depth", *out, err, errlen);
	if (d->attr.max_cqe > 0 && d->attr.max_cqe < max)
		max = d->attr.max_cqe;
	if (max > 0 && (unsigned int)max < *out)
		*out = (unsigned int)max;
	return 0;
}

/* QPs and bytes one instance end creates (gen_lsg.c, gen_bsg.c,
 * gen_sink.c; receive queues at rperf_engine_rx_depth). */
static void inst_cost(const struct rperf_gen_spec *s, bool source,
		      uint64_t *qps, uint64_t *bytes)
{
	struct rperf_pin_req q[2] = { { 0 } };
	struct rperf_pin_est e;
	size_t nq = 1;

	if (source && rperf_gen_latency(s->kind)) {
		/* wire and loopback sender (inline); loopback receiver; 2
		 * buffers */
		q[0] = (struct rperf_pin_req){
			.qps = 2,
			.send_depth = RPERF_ENGINE_LSG_SEND_DEPTH,
			.recv_depth = 1,
			.inline_size = s->inline_size,
			.buf_bytes = 2 * s->size
		};
		q[1] = (struct rperf_pin_req){
			.qps = 1,
			.send_depth = 1,
			.recv_depth = rperf_engine_rx_depth(s)
		};
		nq = 2;
	} else if (source) {
		q[0] = (struct rperf_pin_req){ .qps = s->qps,
					       .send_depth = s->tx_depth,
					       .recv_depth = 1,
					       .inline_size = s->inline_size,
					       .buf_bytes = s->size };
	} else {
		q[0] = (struct rperf_pin_req){
			.qps = rperf_gen_latency(s->kind) ? 1 : s->qps,
			.send_depth = s->test.method == RPERF_METHOD_PINGPONG ?
					      RPERF_ENGINE_ECHO_DEPTH :
					      1,
			.recv_depth = rperf_engine_rx_depth(s),
			.buf_bytes = s->size
		};
	}
	*qps = *bytes = 0;
	for (size_t i = 0; i < nq; i++) {
		rperf_pin_estimate(&q[i], &e);
		*qps += q[i].qps;
		*bytes += q[i].buf_bytes ? e.total : q[i].qps * e.per_qp;
	}
}

void rperf_engine_plan_cost(const struct rperf_proto_plan *p,
			    struct rperf_plan_cost *out)
{
	size_t n = p->nsources + p->nsinks;

	*out = (struct rperf_plan_cost){ .instances = n };
	for (size_t i = 0; i < n; i++) {
		bool src = i < p->nsources;
		const struct rperf_gen_spec *s =
			src ? &p->sources[i] : &p->sinks[i - p->nsources];
		uint64_t qps, bytes, end = rperf_spec_end_ns(s);

		inst_cost(s, src, &qps, &bytes);
		out->qps += qps;
		out->bytes += bytes;
		if (bytes > out->big_bytes) {
			out->big_bytes = bytes;
			out->big = s;
		}
		if (end > out->end_ns) {
			out->end_ns = end;
			out->last = s;
		}
	}
}

int rperf_engine_plan_admit(const struct rperf_plan_limits *l,
			    const struct rperf_proto_plan *p, char *why,
			    size_t whylen)
{
	struct rperf_plan_cost c;
	char tot[32], lim[32], big[32];

	rperf_engine_plan_cost(p, &c);
	if (l->max_instances && c.instances > l->max_instances)
		return rperf_fail(
			why, whylen, EDQUOT,
			"limits: the plan has %" PRIu64
			" instances on this host, above this agent's --max-instances %" PRIu64,
			c.instances, l->max_instances);
	if (l->max_qps && c.qps > l->max_qps)
		return rperf_fail(
			why, whylen, EDQUOT,
			"limits: the plan would create %" PRIu64
			" QPs on this host, above this agent's --max-qps %" PRIu64
			"; accepted: fewer qps or instances",
			c.qps, l->max_qps);
	if (l->max_memory && c.bytes > l->max_memory) {
		rperf_limits_bytes(c.bytes, tot, sizeof(tot));
		rperf_limits_bytes(l->max_memory, lim, sizeof(lim));
		rperf_limits_bytes(c.big_bytes, big, sizeof(big));
		return rperf_fail(
			why, whylen, EDQUOT,
			"limits: the plan would pin %s (on this host; the most: '%s', %s), above this agent's --max-memory %s; accepted: smaller size, fewer qps, shallower tx_depth",
			tot, c.big ? c.big->name : "?", big, lim);
	}
	if (l->max_duration_ns && c.end_ns > l->max_duration_ns)
		return rperf_fail(
			why, whylen, EDQUOT,
			"limits: '%s' would end %.3f s after GO (start + warm-up + duration), above this agent's --max-duration %.3f s",
			c.last ? c.last->name : "?", (double)c.end_ns / 1e9,
			(double)l->max_duration_ns / 1e9);
	return 0;
}

int rperf_engine_peer_check(const struct rperf_dev *d,
			    const struct rperf_proto_plan *hosts,
			    const char *host,
			    const struct rperf_proto_inst_eps *peer, char *why,
			    size_t whylen)
{
	struct rperf_endpoint ep[RPERF_PROTO_MAX_QPS];

	if (peer->nqps > RPERF_PROTO_MAX_QPS)
		return rperf_fail(why, whylen, EINVAL,
				  "%zu endpoints, more than %u", peer->nqps,
				  RPERF_PROTO_MAX_QPS);
	for (size_t i = 0; i < peer->nqps; i++)
		rperf_engine_ep_from(&peer->qps[i], &ep[i]);
	/* the control connection's address: its words */
	return rperf_limits_gid_check_host(
		d, hosts->addrs_are_controller ? NULL : host,
		rperf_proto_plan_addr(hosts, host), ep, peer->nqps, why,
		whylen);
}
