/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The dry-run engine of `rperf agent --dry-run`: the whole controller <->
 * agent conversation with no RDMA device, no QP and no traffic, so that one
 * controller can drive many agents on one machine (control-plane scale).
 *
 *   create     keeps the plan's instance ends (id, kind, role, QP count as
 *              the real engine would create: LSG 1, BSG spec.qps)
 *   endpoints  made-up endpoints (qpn = a counter, zero GID, MTU 1024):
 *              never given to a device, only relayed by the controller
 *   connect    checks that every end got its peer's endpoints, QP for QP
 *              (what the real engine checks before connecting)
 *   go         stamps the GO receipt (CLOCK_MONOTONIC) and arms a timer
 *              at the start instant (its firing is the actual start),
 *              then at the sources' planned end: FINISHED comes when it
 *              would; with a shared starter (cfg.dry_starter, struct
 *              rperf_dry_starter_ops) the starter stamps the start and
 *              the timer waits only for the end
 *   report     one result per end with every counter 0, empty histograms
 *              for LSG sources, "dry_run": true and "go_rx_ns"
 *
 * Nothing here is a measurement and nothing pretends to be one: the
 * controller marks a run with a dry-run agent in its text and JSON.
 */
#include "agent/agent.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "engine/proto.h"

#define DRY_MTU 1024

struct dry_end {
	uint32_t id;
	enum rperf_gen_kind kind;
	enum rperf_proto_role role;
	size_t nqps;
	bool connected;
	bool raw; /* an LSG keeping every sample: it sends none */
};

struct dry_engine {
	struct dry_end *ends; /* sources first, then sinks */
	size_t n, nsources;
	uint64_t end_ns; /* the sources' planned end after the barrier */
	int tfd; /* timerfd: readable at the start, then the planned end */
	bool went, started, ended;
	bool halted; /* HALT came: the sources end at once, or at the start */
	uint64_t go_rx_ns;
	uint64_t t0_ns; /* the start instant GO set */
	uint64_t start_ns; /* when the start timer actually fired */
	const struct rperf_dry_starter_ops *starter; /* shared, or NULL */
	void *starter_arg;
	size_t slot; /* ours in it, when armed */
	bool armed;
};

/* Arm the timer at @at (CLOCK_MONOTONIC ns). */
static int arm(struct dry_engine *d, uint64_t at, char *err, size_t errlen)
{
	struct itimerspec its = { 0 };

	its.it_value.tv_sec = (time_t)(at / 1000000000ull);
	its.it_value.tv_nsec = (long)(at % 1000000000ull);
	if (!its.it_value.tv_sec && !its.it_value.tv_nsec)
		its.it_value.tv_nsec = 1;
	if (timerfd_settime(d->tfd, TFD_TIMER_ABSTIME, &its, NULL)) {
		int rc = errno;

		snprintf(err, errlen, "dry run: timerfd: %s", strerror(rc));
		return rc;
	}
	return 0;
}

static struct dry_engine *dry(struct rperf_engine *e)
{
	return (struct dry_engine *)(void *)e;
}

static const struct dry_engine *dry_c(const struct rperf_engine *e)
{
	return (const struct dry_engine *)(const void *)e;
}

static void dry_destroy(struct rperf_engine *e)
{
	struct dry_engine *d = dry(e);

	if (!d)
		return;
	if (d->tfd >= 0)
		close(d->tfd);
	if (d->armed)
		d->starter->release(d->starter_arg, d->slot);
	free(d->ends);
	free(d);
}

static void add_ends(struct dry_engine *d, const struct rperf_gen_spec *s,
		     size_t n, enum rperf_proto_role role)
{
	for (size_t i = 0; i < n; i++) {
		struct dry_end *x = &d->ends[d->n++];

		x->id = s[i].id;
		x->kind = s[i].kind;
		x->role = role;
		x->nqps = rperf_gen_latency(s[i].kind) ? 1 : s[i].qps;
		x->raw = s[i].raw;
	}
}

static int create_with(const struct rperf_proto_plan *plan,
		       const struct rperf_agent_cfg *cfg,
		       struct rperf_engine **out, char *err, size_t errlen)
{
	size_t n = plan->nsources + plan->nsinks;
	struct dry_engine *d = calloc(1, sizeof(*d));

	if (!d)
		return ENOMEM;
	d->ends = calloc(n ? n : 1, sizeof(*d->ends));
	d->tfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	if (!d->ends || d->tfd < 0) {
		int rc = d->ends ? errno : ENOMEM;

		snprintf(err, errlen, "dry run: %s", strerror(rc));
		dry_destroy((struct rperf_engine *)(void *)d);
		return rc;
	}
	add_ends(d, plan->sources, plan->nsources, RPERF_ROLE_SOURCE);
	add_ends(d, plan->sinks, plan->nsinks, RPERF_ROLE_SINK);
	d->nsources = plan->nsources;
	d->end_ns = rperf_proto_plan_end_ns(plan);
	if (cfg) {
		d->starter = cfg->dry_starter;
		d->starter_arg = cfg->dry_starter_arg;
	}
	*out = (struct rperf_engine *)(void *)d;
	return 0;
}

static int dry_create(const struct rperf_proto_plan *plan,
		      const struct rperf_clock *clk, struct rperf_engine **out,
		      char *err, size_t errlen)
{
	(void)clk;
	return create_with(plan, NULL, out, err, errlen);
}

static int dry_create_cfg(const struct rperf_agent_cfg *cfg,
			  const struct rperf_proto_plan *plan,
			  struct rperf_engine **out, char *err, size_t errlen)
{
	return create_with(plan, cfg, out, err, errlen);
}

static int dry_endpoints(struct rperf_engine *e, struct rperf_proto_eps *out,
			 char *err, size_t errlen)
{
	struct dry_engine *d = dry(e);
	uint32_t qpn = 1;

	out->n = 0;
	out->inst = calloc(d->n ? d->n : 1, sizeof(*out->inst));
	if (!out->inst)
		goto nomem;
	for (size_t i = 0; i < d->n; i++) {
		struct rperf_proto_inst_eps *x = &out->inst[i];

		x->qps = calloc(d->ends[i].nqps, sizeof(*x->qps));
		if (!x->qps)
			goto nomem;
		out->n = i + 1;
		x->id = d->ends[i].id;
		x->role = d->ends[i].role;
		x->nqps = d->ends[i].nqps;
		for (size_t q = 0; q < x->nqps; q++) {
			x->qps[q].qpn = qpn++ & 0xffffff;
			x->qps[q].mtu = DRY_MTU;
		}
	}
	return 0;
nomem:
	rperf_proto_eps_fini(out);
	snprintf(err, errlen, "dry run: endpoints: out of memory");
	return ENOMEM;
}

static int dry_connect(struct rperf_engine *e,
		       const struct rperf_proto_eps *peers, char *err,
		       size_t errlen)
{
	struct dry_engine *d = dry(e);

	for (size_t i = 0; i < d->n; i++) {
		struct dry_end *x = &d->ends[i];
		const struct rperf_proto_inst_eps *p =
			rperf_proto_eps_find(peers, x->id, x->role);

		if (!p) {
			snprintf(err, errlen,
				 "dry run: CONNECT without instance %u (%s)",
				 x->id, rperf_proto_role_name(x->role));
			return EINVAL;
		}
		if (p->nqps != x->nqps) {
			snprintf(
				err, errlen,
				"dry run: CONNECT: instance %u (%s): %zu peer QP endpoint(s), %zu expected",
				x->id, rperf_proto_role_name(x->role), p->nqps,
				x->nqps);
			return EINVAL;
		}
		x->connected = true;
	}
	return 0;
}

static int dry_go(struct rperf_engine *e, uint64_t t0_ns, char *err,
		  size_t errlen)
{
	struct dry_engine *d = dry(e);

	d->go_rx_ns = rperf_mono_ns();
	d->went = true;
	d->t0_ns = t0_ns;
	if (d->starter) { /* it stamps the start; our timer: the end */
		int rc = d->starter->arm(d->starter_arg, t0_ns, &d->slot);

		if (rc) {
			snprintf(err, errlen, "dry run: shared start timer: %s",
				 strerror(rc));
			return rc;
		}
		d->armed = d->started = true;
		return d->nsources ? arm(d, t0_ns + d->end_ns, err, errlen) : 0;
	}
	/* no timer slack (50 us by default) on the start instant */
	(void)prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
	/* first the start instant (its actual time is the barrier's skew),
	 * then the sources' planned end */
	return arm(d, t0_ns, err, errlen);
}

static int dry_fd(const struct rperf_engine *e)
{
	return dry_c(e)->tfd;
}

static bool dry_poll(struct rperf_engine *e)
{
	struct dry_engine *d = dry(e);
	uint64_t n;

	char err[128];

	if (read(d->tfd, &n, sizeof(n)) != (ssize_t)sizeof(n))
		return d->ended;
	if (d->started) {
		d->ended = true;
	} else {
		d->start_ns = rperf_mono_ns();
		d->started = true;
		/* sinks only: nothing ends (FINISHED went at GO) */
		if (d->nsources &&
		    arm(d, d->halted ? d->start_ns : d->t0_ns + d->end_ns, err,
			sizeof(err)))
			d->ended = true; /* no timer: end now */
	}
	return d->ended;
}

static void dry_stop(struct rperf_engine *e)
{
	struct itimerspec off = { 0 };

	(void)timerfd_settime(dry(e)->tfd, 0, &off, NULL);
}

/* HALT: the sources end now (not started yet: at their start). */
static void dry_halt(struct rperf_engine *e)
{
	struct dry_engine *d = dry(e);
	char err[128];

	d->halted = true;
	if (d->started && d->nsources && !d->ended &&
	    arm(d, rperf_mono_ns(), err, sizeof(err)))
		d->ended = true;
}

/* The next round: its timer re-armed at the next GO, nothing else kept. */
static int dry_round(struct rperf_engine *e, uint32_t k, char *err,
		     size_t errlen)
{
	struct dry_engine *d = dry(e);

	(void)k; /* the agent checked it against the plan */
	if (!d->went) {
		snprintf(err, errlen, "dry run: a round before any GO");
		return EINVAL;
	}
	dry_stop(e);
	if (d->armed)
		d->starter->release(d->starter_arg, d->slot);
	d->went = d->started = d->ended = d->armed = d->halted = false;
	d->go_rx_ns = d->t0_ns = d->start_ns = 0;
	return 0;
}

static int empty_hists(struct rperf_proto_result *r)
{
	int rc = rperf_hist_create(RPERF_HIST_DEFAULT_BITS, &r->rtt);

	if (!rc)
		rc = rperf_hist_create(RPERF_HIST_DEFAULT_BITS, &r->wire);
	if (!rc)
		rc = rperf_hist_create(RPERF_HIST_DEFAULT_BITS, &r->loop);
	return rc;
}

static int dry_report(struct rperf_engine *e, const char *host,
		      struct rperf_proto_report *out)
{
	struct dry_engine *d = dry(e);
	int rc = 0;

	memset(out, 0, sizeof(*out));
	snprintf(out->host, sizeof(out->host), "%s", host);
	out->dry_run = true;
	out->has_go_rx = d->went;
	out->go_rx_ns = d->go_rx_ns;
	out->has_start = d->started;
	out->start_ns = d->start_ns;
	if (d->armed) /* the shared timer's stamp, if it came */
		out->has_start = d->starter->fired(d->starter_arg, d->slot,
						   &out->start_ns);
	out->res = calloc(d->n ? d->n : 1, sizeof(*out->res));
	if (!out->res)
		return ENOMEM;
	for (size_t i = 0; i < d->n && !rc; i++) {
		struct rperf_proto_result *r = &out->res[i];

		out->n = i + 1;
		r->id = d->ends[i].id;
		r->role = d->ends[i].role;
		r->kind = d->ends[i].kind;
		if (r->role == RPERF_ROLE_SOURCE && rperf_gen_latency(r->kind))
			rc = empty_hists(r);
		r->has_raw = r->role == RPERF_ROLE_SOURCE && d->ends[i].raw;
	}
	if (rc)
		rperf_proto_report_fini(out);
	return rc;
}

const struct rperf_agent_engine rperf_agent_dry_engine = {
	.create = dry_create,
	.create_cfg = dry_create_cfg,
	.endpoints = dry_endpoints,
	.connect = dry_connect,
	.go = dry_go,
	.fd = dry_fd,
	.poll = dry_poll,
	.halt = dry_halt,
	.stop = dry_stop,
	.report = dry_report,
	.destroy = dry_destroy,
	.round = dry_round,
	.link_layer = NULL, /* no device: no link layer to name */
	.link_gbps = NULL, /* nor a rate */
};
