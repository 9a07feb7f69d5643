/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The engine's runtime: the device, the instances, the source threads at
 * the barrier and the one sink thread (see engine.h).
 */
#define _GNU_SOURCE
#include "engine/engine.h"

#include <errno.h>
#include <net/if.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include "engine/endpoint.h"
#include "engine/engine_priv.h"
#include "gen/rx.h"
#include "host/locality.h"
#include "verbs/rate.h"
#include "util/mono.h"
#include "util/err.h"

const struct rperf_gen_ops *rperf_gen_ops_for(enum rperf_gen_kind k,
					      enum rperf_proto_role r)
{
	const struct rperf_gen_kind_row *row = rperf_gen_kind_at(k);

	if (!row)
		return NULL;
	return r == RPERF_ROLE_SINK ? &rperf_gen_sink : row->source;
}

const char *rperf_engine_device(const struct rperf_engine *e)
{
	return e && e->dev ? e->dev->name : "";
}

const char *rperf_engine_link_layer(const struct rperf_engine *e)
{
	if (e && e->dev &&
	    e->dev->port_attr.link_layer == IBV_LINK_LAYER_ETHERNET)
		return "ethernet";
	return "infiniband";
}

double rperf_engine_link_gbps(const struct rperf_engine *e)
{
	struct ibv_gid_entry g;
	char ifname[IF_NAMESIZE] = "";

	if (!e || !e->dev)
		return 0;
	if (!e->dev->roce)
		return rperf_ib_rate_gbps(e->dev->port_attr.active_speed,
					  e->dev->port_attr.active_width);
	if (e->dev->gid_index < 0 ||
	    ibv_query_gid_ex(e->dev->ctx, (uint32_t)e->dev->port,
			     (uint32_t)e->dev->gid_index, &g, 0) ||
	    !g.ndev_ifindex || !if_indextoname(g.ndev_ifindex, ifname))
		return 0;
	return rperf_netdev_gbps(ifname);
}

size_t rperf_engine_count(const struct rperf_engine *e, size_t *sources,
			  size_t *sinks)
{
	size_t i, s = 0;

	for (i = 0; i < e->n; i++)
		s += e->inst[i].role == RPERF_ROLE_SOURCE;
	if (sources)
		*sources = s;
	if (sinks)
		*sinks = e->n - s;
	return e->n;
}

static void inst_init(struct rperf_engine *e, struct rperf_gen_inst *g,
		      const struct rperf_gen_spec *s, enum rperf_proto_role r,
		      int cpu)
{
	g->ops = rperf_gen_ops_for(s->kind, r);
	g->spec = *s;
	g->role = r;
	g->dev = e->dev;
	g->vcfg = e->vcfg;
	g->vcfg.mtu = (int)s->path.mtu;
	g->vcfg.sl = s->path.sl;
	g->vcfg.tclass = s->path.tclass;
	g->vcfg.qp_timeout = s->path.qp_timeout;
	g->vcfg.retry_count = s->path.retry_count;
	g->clk = e->clk;
	g->cpu = cpu;
	g->stall_ns = rperf_engine_inst_stall_ns(&s->path, e->stall_limit_ns);
	g->engine = e;
	g->res.id = s->id;
	g->res.role = r;
	g->res.kind = s->kind;
}

/* The CPU of a source: the host's, except a BSG's on a host that also
 * runs an LSG (a generator polling on the LSG's CPU would distort its
 * timestamps): unpinned. */
static int source_cpu(const struct rperf_proto_plan *p,
		      const struct rperf_gen_spec *s)
{
	size_t i;

	if (rperf_gen_bandwidth(s->kind))
		for (i = 0; i < p->nsources; i++)
			if (rperf_gen_latency(p->sources[i].kind))
				return -1;
	return p->device.cpu;
}

/* Where a source runs and its buffers live (rperf_place_decide: the
 * host's cpu wins, then the spec's cpu_node, then the NIC's node), noted
 * in its result. */
static int place_decide(struct rperf_gen_inst *g, int nic_node, char *why,
			size_t wl)
{
	struct rperf_place_req req = { g->cpu, g->spec.cpu_node,
				       g->spec.mem_node,
				       rperf_place_affinity_restricted() };
	struct rperf_placement *p = &g->place;
	int rc = rperf_place_decide(&req, nic_node,
				    rperf_place_node_of_cpu(g->cpu),
				    rperf_place_nnodes(), p, why, wl);

	if (rc)
		return rc;
	g->res.placed = true;
	g->res.place.nic_node = p->nic_node;
	g->res.place.cpu_node = p->cpu_node;
	g->res.place.mem_node = p->mem_node;
	g->res.place.remote = p->remote;
	return 0;
}

/* Set a source up with this thread's memory policy on its mem node (the
 * buffers registered in setup are faulted in here), then back to local. */
static int setup_placed(struct rperf_gen_inst *g, int nic_node, char *why,
			size_t wl)
{
	struct rperf_placement mem;
	int rc;

	if (g->role != RPERF_ROLE_SOURCE)
		return g->ops->setup(g, why, wl);
	rc = place_decide(g, nic_node, why, wl);
	if (rc)
		return rc;
	mem = g->place;
	mem.cpu = -1;
	mem.cpu_node = -1;
	rc = rperf_place_apply(&mem, why, wl);
	if (!rc)
		rc = g->ops->setup(g, why, wl);
	rperf_place_mem_reset();
	return rc;
}

static int nic_node_of(const struct rperf_engine *e)
{
	struct rperf_nic_locality loc;

	if (rperf_nic_locality("/sys", "/proc", rperf_engine_device(e), &loc))
		return -1;
	return loc.numa_node;
}

static int setup_all(struct rperf_engine *e, const struct rperf_proto_plan *p,
		     char *err, size_t errlen)
{
	size_t i;
	int rc = 0, nic_node = nic_node_of(e);

	for (i = 0; !rc && i < p->nsources + p->nsinks; i++) {
		bool src = i < p->nsources;
		const struct rperf_gen_spec *s =
			src ? &p->sources[i] : &p->sinks[i - p->nsources];
		struct rperf_gen_inst *g = &e->inst[i];
		char why[200] = "";

		inst_init(e, g, s, src ? RPERF_ROLE_SOURCE : RPERF_ROLE_SINK,
			  src ? source_cpu(p, s) : -1);
		if (!g->ops)
			return EINVAL;
		rc = setup_placed(g, nic_node, why, sizeof(why));
		e->n = i + 1; /* torn down by destroy, even half set up */
		if (rc)
			snprintf(err, errlen, "%s '%s' (id %u): %s",
				 g->ops->name, s->name, s->id,
				 why[0] ? why : strerror(rc));
	}
	return rc;
}

int rperf_engine_create(const struct rperf_proto_plan *plan,
			const struct rperf_clock *clk,
			struct rperf_engine **out, char *err, size_t errlen)
{
	struct rperf_engine *e;
	size_t n;
	int rc;

	if (!plan || !clk || !out)
		return EINVAL;
	n = plan->nsources + plan->nsinks;
	e = calloc(1, sizeof(*e));
	if (!e)
		return ENOMEM;
	e->clk = clk;
	e->stall_limit_ns = plan->stall_limit_ns;
	e->rounds = plan->rounds ? plan->rounds : 1;
	e->efd = -1;
	pthread_mutex_init(&e->lock, NULL);
	pthread_mutex_init(&e->live_lock, NULL);
	e->inst = calloc(n ? n : 1, sizeof(*e->inst));
	e->efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (!e->inst || e->efd < 0) {
		rc = e->inst ? errno : ENOMEM;
		snprintf(err, errlen, "engine: %s", strerror(rc));
		goto destroy;
	}
	if (plan->nhosts) {
		e->addrs.hosts = calloc(plan->nhosts, sizeof(*plan->hosts));
		if (!e->addrs.hosts) {
			rc = ENOMEM;
			goto destroy;
		}
		memcpy(e->addrs.hosts, plan->hosts,
		       plan->nhosts * sizeof(*plan->hosts));
		e->addrs.nhosts = plan->nhosts;
	}
	e->addrs.addrs_are_controller = plan->addrs_are_controller;
	snprintf(e->dev_name, sizeof(e->dev_name), "%s", plan->device.device);
	e->vcfg.dev_name = e->dev_name[0] ? e->dev_name : NULL;
	e->vcfg.ib_port = plan->device.port;
	e->vcfg.gid_index = plan->device.gid_index;
	e->vcfg.huge_shift = rperf_hugepage_shift(plan->device.hugepages);
	rc = rperf_dev_open(&e->vcfg, &e->dev, err, errlen);
	if (!rc)
		rc = setup_all(e, plan, err, errlen);
	if (rc)
		goto destroy;
	*out = e;
	return 0;
destroy:
	rperf_engine_destroy(e);
	return rc;
}

int rperf_engine_endpoints(struct rperf_engine *e, struct rperf_proto_eps *out,
			   char *err, size_t errlen)
{
	size_t i;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	out->inst = calloc(e->n ? e->n : 1, sizeof(*out->inst));
	if (!out->inst)
		return ENOMEM;
	for (i = 0; !rc && i < e->n; i++) {
		struct rperf_gen_inst *g = &e->inst[i];

		out->inst[i].id = g->spec.id;
		out->inst[i].role = g->role;
		out->n = i + 1;
		rc = g->ops->endpoints(g, &out->inst[i]);
		if (rc)
			snprintf(err, errlen, "%s '%s': endpoints: %s",
				 g->ops->name, g->spec.name, strerror(rc));
	}
	if (rc)
		rperf_proto_eps_fini(out);
	return rc;
}

/* Every instance has its peer in @peers, every peer endpoint is its
 * host's (checked before the first QP is connected). */
static int peers_check(struct rperf_engine *e,
		       const struct rperf_proto_eps *peers, char *err,
		       size_t errlen)
{
	for (size_t i = 0; i < e->n; i++) {
		const struct rperf_gen_inst *g = &e->inst[i];
		const struct rperf_proto_inst_eps *p =
			rperf_proto_eps_find(peers, g->spec.id, g->role);
		char why[300] = "";
		int rc;

		if (!p)
			return rperf_fail(
				err, errlen, EINVAL,
				"CONNECT has no peer for %s '%s' (id %u)",
				rperf_proto_role_name(g->role), g->spec.name,
				g->spec.id);
		rc = rperf_engine_peer_check(e->dev, &e->addrs,
					     g->role == RPERF_ROLE_SOURCE ?
						     g->spec.to :
						     g->spec.from,
					     p, why, sizeof(why));
		if (rc)
			return rperf_fail(err, errlen, rc,
					  "%s '%s' (id %u): %s",
					  rperf_proto_role_name(g->role),
					  g->spec.name, g->spec.id, why);
	}
	return 0;
}

/* Instance @i's place in the connect order: by id, then by index. */
static uint64_t connect_key(const struct rperf_engine *e, size_t i)
{
	return (uint64_t)e->inst[i].spec.id << 32 | (uint64_t)i;
}

/* The instance after key @after (0 with @first: the first one) in id
 * order, so that two agents whose QPs meet through rdma_cm (one accepts
 * while the other dials) never wait for each other; e->n if none. */
static size_t next_by_id(const struct rperf_engine *e, uint64_t after,
			 bool first)
{
	size_t best = e->n;

	for (size_t i = 0; i < e->n; i++) {
		uint64_t k = connect_key(e, i);

		if ((first || k > after) &&
		    (best == e->n || k < connect_key(e, best)))
			best = i;
	}
	return best;
}

int rperf_engine_connect(struct rperf_engine *e,
			 const struct rperf_proto_eps *peers, char *err,
			 size_t errlen)
{
	size_t i;
	int rc = peers_check(e, peers, err, errlen);

	for (i = next_by_id(e, 0, true); !rc && i < e->n;
	     i = next_by_id(e, connect_key(e, i), false)) {
		struct rperf_gen_inst *g = &e->inst[i];
		const struct rperf_proto_inst_eps *p =
			rperf_proto_eps_find(peers, g->spec.id, g->role);
		char why[200] = "";

		rc = g->ops->connect(g, p, why, sizeof(why));
		if (rc)
			snprintf(err, errlen, "%s '%s' (id %u): %s",
				 g->ops->name, g->spec.name, g->spec.id,
				 why[0] ? why : strerror(rc));
	}
	if (rc)
		return rc;
	rperf_engine_round_apply(e); /* round 0's, after the buffers' checks */
	return rperf_engine_sink_start(e, err, errlen);
}

int rperf_engine_fd(const struct rperf_engine *e)
{
	return e ? e->efd : -1;
}

static bool sources_ended(struct rperf_engine *e)
{
	bool all = true;
	size_t i;

	pthread_mutex_lock(&e->lock);
	for (i = 0; i < e->n; i++)
		if (e->inst[i].started && !e->inst[i].ended)
			all = false;
	pthread_mutex_unlock(&e->lock);
	return all;
}

bool rperf_engine_poll(struct rperf_engine *e)
{
	uint64_t v;

	if (read(e->efd, &v, sizeof(v)) < 0 && errno != EAGAIN)
		return false;
	return sources_ended(e);
}

void rperf_engine_qp_flush(struct rperf_qp *qp)
{
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_ERR };

	if (qp && qp->qp)
		(void)ibv_modify_qp(qp->qp, &a, IBV_QP_STATE);
}

/* Sources that ignore the flag (waiting on a dead peer): flush them. */
static void abort_stragglers(struct rperf_engine *e)
{
	uint64_t until = rperf_mono_ns() + RPERF_ENGINE_STOP_GRACE_NS;
	size_t i;

	while (!sources_ended(e) && rperf_mono_ns() < until)
		usleep(5000);
	pthread_mutex_lock(&e->lock);
	for (i = 0; i < e->n; i++) {
		struct rperf_gen_inst *g = &e->inst[i];

		if (g->started && !g->ended && g->ops->abort) {
			g->aborted = 1;
			g->ops->abort(g);
		}
	}
	pthread_mutex_unlock(&e->lock);
}

void rperf_engine_halt(struct rperf_engine *e)
{
	if (e)
		e->stop = 1;
}

void rperf_engine_stop(struct rperf_engine *e)
{
	size_t i;

	if (!e)
		return;
	e->stop = 1;
	abort_stragglers(e);
	for (i = 0; i < e->n; i++) {
		if (e->inst[i].started) {
			pthread_join(e->inst[i].thread, NULL);
			e->inst[i].started = false;
		}
	}
	rperf_engine_sink_stop(e);
}

int rperf_engine_report(struct rperf_engine *e, const char *host,
			struct rperf_proto_report *out)
{
	size_t i;

	memset(out, 0, sizeof(*out));
	snprintf(out->host, sizeof(out->host), "%s", host);
	out->has_go_rx = e->went;
	out->go_rx_ns = e->go_rx_ns;
	if (e->dev)
		snprintf(out->buffers_note, sizeof(out->buffers_note), "%s",
			 e->dev->buf_note);
	/* the start instant its sources actually kept: the earliest of
	 * (woke - its start offset) */
	for (i = 0; i < e->n; i++) {
		const struct rperf_gen_inst *g = &e->inst[i];
		uint64_t t;

		if (g->role != RPERF_ROLE_SOURCE || !g->woke_ns)
			continue;
		t = g->woke_ns - g->spec.start_ns;
		if (!out->has_start || t < out->start_ns)
			out->start_ns = t;
		out->has_start = true;
	}
	out->res = calloc(e->n ? e->n : 1, sizeof(*out->res));
	if (!out->res)
		return ENOMEM;
	for (i = 0; i < e->n; i++) {
		struct rperf_gen_inst *g = &e->inst[i];

		if (g->ops->result)
			(void)g->ops->result(g);
		out->res[i] = g->res; /* histograms move into the report */
		for (size_t k = 0; k < RPERF_PROTO_NHIST; k++)
			*rperf_proto_result_hist(&g->res, k) = NULL;
		g->res.bursts = NULL; /* moved too, as the samples */
		g->res.raw = NULL;
		g->res.nraw = 0;
		g->res.nbursts = 0;
		memset(&g->res.series, 0, sizeof(g->res.series));
		memset(&g->res.bsg_series, 0, sizeof(g->res.bsg_series));
		out->n = i + 1;
	}
	return 0;
}

void rperf_engine_destroy(struct rperf_engine *e)
{
	size_t i;

	if (!e)
		return;
	rperf_engine_stop(e);
	for (i = 0; e->inst && i < e->n; i++) {
		struct rperf_gen_inst *g = &e->inst[i];

		if (g->ops && g->ops->teardown)
			g->ops->teardown(g);
		rperf_proto_result_fini(&g->res);
	}
	free(e->inst);
	rperf_proto_plan_fini(&e->addrs);
	rperf_dev_close(e->dev);
	if (e->efd >= 0)
		close(e->efd);
	pthread_mutex_destroy(&e->lock);
	pthread_mutex_destroy(&e->live_lock);
	free(e);
}
