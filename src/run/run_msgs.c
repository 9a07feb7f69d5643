/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The controller's answers to each agent message: WELCOME -> PLAN,
 * ENDPOINTS (-> CONNECT to all once every agent sent its
 * own), ARMED, FINISHED, REPORT -> BYE, BYE. Every message first passes the
 * protocol state machine; anything out of order fails that agent.
 */
#include "run/run_ctl.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/limits.h"

static void send_plan(struct run_ctl *c, struct run_agent *a);

/* WELCOME @w announced @feature. */
static bool has(const struct rperf_ctrl_welcome *w, const char *feature)
{
	return rperf_ctrl_has_feature(
		(const char(*)[RPERF_CTRL_NAME_LEN])w->features, w->nfeatures,
		feature);
}

/* Does @host run an LSG source of @j (its samples: --raw)? */
static bool lsg_from(const struct rperf_job *j, const char *host)
{
	for (size_t i = 0; i < j->ninst; i++)
		if (rperf_gen_latency(j->inst[i].kind) &&
		    !strcmp(j->inst[i].from, host))
			return true;
	return false;
}

/* Does an instance of @j change its method between rounds? */
static bool round_methods(const struct rperf_job *j)
{
	for (size_t i = 0; i < j->ninst; i++)
		if (j->inst[i].round_methods.n)
			return true;
	return false;
}

static void on_welcome(struct run_ctl *c, struct run_agent *a,
		       const struct rperf_ctrl_msg *m)
{
	struct rperf_ctrl_welcome w;
	int rc;

	rc = rperf_ctrl_welcome_decode(m, &w);
	if (rc) {
		run_fail(c, a, "bad WELCOME: %s", strerror(rc));
		return;
	}
	a->heartbeat = has(&w, RPERF_PROTO_FEATURE_HEARTBEAT);
	a->halt = has(&w, RPERF_PROTO_FEATURE_HALT);
	a->clock_sync = has(&w, RPERF_PROTO_FEATURE_CLOCK_SYNC);
	if (c->opts->raw && lsg_from(c->job, a->host->name) &&
	    !has(&w, RPERF_PROTO_FEATURE_SAMPLES)) {
		run_fail(
			c, a,
			"the agent cannot send every sample (an older rperf agent?): run without --raw");
		return;
	}
	if (c->nrounds > 1 && !has(&w, RPERF_PROTO_FEATURE_ROUNDS)) {
		run_fail(
			c, a,
			"the agent runs no rounds on the same QPs (an older rperf agent?): run the sweep without --same-qps");
		return;
	}
	if (c->nrounds > 1 && round_methods(c->job) &&
	    !has(&w, RPERF_PROTO_FEATURE_ROUND_METHODS)) {
		run_fail(
			c, a,
			"the agent changes no method between rounds (an older rperf agent?): run the sweep over 'method' without --same-qps");
		return;
	}
	for (size_t i = 0; i < c->job->ninst; i++) {
		const struct rperf_gen_spec *s = &c->job->inst[i];

		if ((!strcmp(s->from, a->host->name) ||
		     !strcmp(s->to, a->host->name)) &&
		    s->size > w.max_size) {
			run_fail(
				c, a,
				"%s: size %llu is above the agent's maximum %llu",
				s->name, (unsigned long long)s->size,
				(unsigned long long)w.max_size);
			return;
		}
	}
	send_plan(c, a); /* the channel authenticated both ends already */
}

/* Copies of the specs with @pick(spec) true. */
static int pick_specs(const struct rperf_job *job, const char *host, bool sinks,
		      struct rperf_gen_spec **out, size_t *n)
{
	size_t i;

	*n = 0;
	*out = calloc(job->ninst ? job->ninst : 1, sizeof(**out));
	if (!*out)
		return ENOMEM;
	for (i = 0; i < job->ninst; i++)
		if (!strcmp(sinks ? job->inst[i].to : job->inst[i].from, host))
			(*out)[(*n)++] = job->inst[i];
	return 0;
}

/* Add host @name's address to @p (once). */
static void plan_host(struct run_ctl *c, struct rperf_proto_plan *p,
		      const char *name)
{
	const struct run_agent *o = run_agent_of(c, name);

	if (!o || !o->addr_text[0] || rperf_proto_plan_addr(p, name))
		return;
	snprintf(p->hosts[p->nhosts].name, sizeof(p->hosts[0].name), "%s",
		 name);
	snprintf(p->hosts[p->nhosts].addr, sizeof(p->hosts[0].addr), "%s",
		 o->addr_text);
	p->nhosts++;
}

/* PLAN "hosts": @a's and every host at the other end of its instances,
 * with the addresses their control connections reached. */
static int plan_hosts(struct run_ctl *c, struct run_agent *a,
		      struct rperf_proto_plan *p)
{
	p->hosts = calloc(c->nag ? c->nag : 1, sizeof(*p->hosts));
	if (!p->hosts)
		return ENOMEM;
	plan_host(c, p, a->host->name);
	for (size_t i = 0; i < p->nsources; i++)
		plan_host(c, p, p->sources[i].to);
	for (size_t i = 0; i < p->nsinks; i++)
		plan_host(c, p, p->sinks[i].from);
	return 0;
}

static void send_plan(struct run_ctl *c, struct run_agent *a)
{
	struct rperf_proto_plan plan;
	json_t *p = NULL;
	int rc;

	memset(&plan, 0, sizeof(plan));
	snprintf(plan.experiment, sizeof(plan.experiment), "%s", c->job->path);
	snprintf(plan.host, sizeof(plan.host), "%s", a->host->name);
	plan.device = a->host->sel;
	plan.rounds = (uint32_t)c->nrounds;
	rc = pick_specs(c->job, a->host->name, false, &plan.sources,
			&plan.nsources);
	if (!rc)
		rc = pick_specs(c->job, a->host->name, true, &plan.sinks,
				&plan.nsinks);
	for (size_t i = 0; !rc && i < plan.nsources; i++)
		plan.sources[i].raw = c->opts->raw &&
				      rperf_gen_latency(plan.sources[i].kind);
	if (!rc)
		rc = plan_hosts(c, a, &plan);
	if (!rc)
		rc = rperf_proto_plan_encode(&plan, &p);
	if (!rc && c->opts->plan_options && !a->host->local &&
	    json_object_set(p, "options", (json_t *)c->opts->plan_options))
		rc = ENOMEM;
	rperf_proto_plan_fini(&plan);
	if (rc) {
		run_fail(c, a, "cannot build PLAN: %s", strerror(rc));
		return;
	}
	if (!run_send(c, a, RPERF_CTRL_PLAN, p))
		a->ph = AG_ENDPOINTS;
	json_decref(p);
}

/* Every entry is an end on @a's host (no stranger's endpoints relayed). */
static bool eps_own(struct run_ctl *c, struct run_agent *a)
{
	for (size_t i = 0; i < a->eps.n; i++) {
		const struct rperf_proto_inst_eps *e = &a->eps.inst[i];
		const struct rperf_gen_spec *s;

		s = e->id < c->job->ninst ? &c->job->inst[e->id] : NULL;
		if (!s || strcmp(e->role == RPERF_ROLE_SOURCE ? s->from : s->to,
				 a->host->name)) {
			run_fail(
				c, a,
				"ENDPOINTS for instance %u as %s: not an end on this host",
				e->id, rperf_proto_role_name(e->role));
			return false;
		}
	}
	return true;
}

/* RoCE: every GID @a sent is its address (a third party's endpoint is
 * never relayed). InfiniBand GIDs carry no address: the agents check the
 * subnet themselves. */
static bool eps_addr(struct run_ctl *c, struct run_agent *a, const char *ll)
{
	char g[64];

	if (!ll || strcmp(ll, "ethernet"))
		return true;
	for (size_t i = 0; i < a->eps.n; i++) {
		const struct rperf_proto_inst_eps *e = &a->eps.inst[i];

		for (size_t j = 0; j < e->nqps; j++) {
			if (rperf_limits_gid_is_addr(e->qps[j].gid, &a->addr))
				continue;
			rperf_limits_gid_text(e->qps[j].gid, g, sizeof(g));
			run_fail(
				c, a,
				"ENDPOINTS: instance %u has GID %s, not this agent's address %s: not relayed (the job's device/gid_index of this host must be the RDMA address its control address names)",
				e->id, g, a->addr_text);
			return false;
		}
	}
	return true;
}

/* Every instance end on @a's host has its endpoints? */
static bool eps_complete(struct run_ctl *c, struct run_agent *a)
{
	size_t ends = 0;

	for (size_t i = 0; i < c->job->ninst; i++) {
		const struct rperf_gen_spec *s = &c->job->inst[i];

		ends += !strcmp(s->from, a->host->name) +
			!strcmp(s->to, a->host->name);
		if ((!strcmp(s->from, a->host->name) &&
		     !rperf_proto_eps_find(&a->eps, s->id,
					   RPERF_ROLE_SOURCE)) ||
		    (!strcmp(s->to, a->host->name) &&
		     !rperf_proto_eps_find(&a->eps, s->id, RPERF_ROLE_SINK))) {
			run_fail(c, a, "ENDPOINTS without instance %u (%s)",
				 s->id, s->name);
			return false;
		}
	}
	if (a->eps.n != ends) {
		run_fail(c, a, "ENDPOINTS with %zu entries for %zu ends",
			 a->eps.n, ends);
		return false;
	}
	return true;
}

static void on_endpoints(struct run_ctl *c, struct run_agent *a,
			 const struct rperf_ctrl_msg *m)
{
	const json_t *ll = json_object_get(m->payload, "link_layer");
	const json_t *gbps = json_object_get(m->payload, "link_gbps");
	char why[256] = "";
	size_t i;
	int rc;

	rc = rperf_proto_endpoints_decode(m, &a->eps, why, sizeof(why));
	if (rc) {
		run_fail(c, a, "bad ENDPOINTS: %s",
			 why[0] ? why : strerror(rc));
		return;
	}
	if (!eps_own(c, a) || !eps_complete(c, a) ||
	    !eps_addr(c, a, json_string_value(ll)))
		return;
	for (i = 0; i < c->nrounds; i++) {
		if (json_is_string(ll))
			rperf_run_results_set_link(c->rs[i], a->host->name,
						   json_string_value(ll));
		if (json_is_number(gbps))
			rperf_run_results_set_link_gbps(
				c->rs[i], a->host->name,
				json_number_value(gbps));
	}
	a->ph = AG_PLANNED;
	for (i = 0; i < c->nag; i++)
		if (c->ag[i].ph != AG_PLANNED)
			return;
	run_send_connects(c);
}

/* CONNECT of @a: for each of its ends, the other end's endpoints. */
static int build_connect(struct run_ctl *c, struct run_agent *a,
			 struct rperf_proto_eps *out)
{
	size_t i;

	out->n = 0;
	out->inst = calloc(a->eps.n ? a->eps.n : 1, sizeof(*out->inst));
	if (!out->inst)
		return ENOMEM;
	for (i = 0; i < a->eps.n; i++) {
		const struct rperf_proto_inst_eps *mine = &a->eps.inst[i];
		const struct rperf_gen_spec *s;
		const struct rperf_proto_inst_eps *theirs;
		struct run_agent *o;
		bool src = mine->role == RPERF_ROLE_SOURCE;

		if (mine->id >= c->job->ninst)
			return EBADMSG;
		s = &c->job->inst[mine->id];
		o = run_agent_of(c, src ? s->to : s->from);
		theirs = o ? rperf_proto_eps_find(&o->eps, mine->id,
						  src ? RPERF_ROLE_SINK :
							RPERF_ROLE_SOURCE) :
			     NULL;
		if (!theirs)
			return EBADMSG;
		out->inst[out->n].id = mine->id;
		out->inst[out->n].role = mine->role;
		/* borrowed: freed with the other agent's ENDPOINTS */
		out->inst[out->n].qps = theirs->qps;
		out->inst[out->n].nqps = theirs->nqps;
		out->n++;
	}
	return 0;
}

void run_send_connects(struct run_ctl *c)
{
	for (size_t i = 0; i < c->nag; i++) {
		struct run_agent *a = &c->ag[i];
		struct rperf_proto_eps e = { 0 };
		json_t *p = NULL;
		int rc;

		rc = build_connect(c, a, &e);
		if (!rc)
			rc = rperf_proto_connect_encode(&e, &p);
		free(e.inst);
		if (rc) {
			run_fail(c, a, "cannot build CONNECT: %s",
				 strerror(rc));
			return;
		}
		if (!run_send(c, a, RPERF_CTRL_CONNECT, p))
			a->ph = AG_ARMING;
		json_decref(p);
		if (a->ph != AG_ARMING)
			return;
	}
}

static void on_report(struct run_ctl *c, struct run_agent *a,
		      const struct rperf_ctrl_msg *m)
{
	struct rperf_proto_report rep;
	char why[256] = "";
	int rc;

	memset(&rep, 0, sizeof(rep));
	rc = rperf_proto_report_decode(m, &rep, why, sizeof(why));
	if (!rc && strcmp(rep.host, a->host->name)) {
		snprintf(why, sizeof(why), "REPORT names host '%s'", rep.host);
		rc = EBADMSG;
	}
	if (!rc && !run_raw_complete(c, a, &rep)) {
		rperf_proto_report_fini(&rep);
		return;
	}
	if (!rc)
		rc = rperf_run_results_add_report(c->res, a->host->name, &rep,
						  m->payload, why, sizeof(why));
	rperf_proto_report_fini(&rep);
	if (rc) {
		run_fail(c, a, "bad REPORT: %s", why[0] ? why : strerror(rc));
		return;
	}
	a->reported = true;
	if (c->round + 1 < c->nrounds)
		a->ph = AG_REPORTED; /* the next round's GO, or BYE, comes */
	else if (!run_send(c, a, RPERF_CTRL_BYE, NULL))
		a->ph = AG_BYE;
}

static void on_other(struct run_ctl *c, struct run_agent *a,
		     const struct rperf_ctrl_msg *m)
{
	char reason[RPERF_CTRL_REASON_LEN] = "";

	switch (m->type) {
	case RPERF_CTRL_REFUSE:
	case RPERF_CTRL_ERROR:
		if (rperf_ctrl_reason_decode(m, reason, sizeof(reason)))
			snprintf(reason, sizeof(reason), "(no reason)");
		run_fail(c, a, "%s: %s",
			 m->type == RPERF_CTRL_REFUSE ? "refused" : "error",
			 reason);
		break;
	case RPERF_CTRL_ARMED:
		a->ph = AG_ARMED;
		break;
	case RPERF_CTRL_FINISHED:
		a->finished = true;
		break;
	case RPERF_CTRL_HEARTBEAT: /* heard_ns is set: alive */
		run_live_heartbeat(c, a, m);
		break;
	case RPERF_CTRL_BYE:
		a->ph = AG_DONE;
		run_conn_close(&a->conn);
		break;
	default:
		run_fail(c, a, "unexpected %s", rperf_ctrl_type_name(m->type));
	}
}

void run_on_msg(struct run_ctl *c, struct run_agent *a,
		const struct rperf_ctrl_msg *m)
{
	int rc = rperf_proto_session_check(&a->sess, RPERF_CTRL_RECV, m->type);

	a->deadline = 0; /* an answer sent below sets the next one */
	if (m->type == RPERF_CTRL_REFUSE || m->type == RPERF_CTRL_ERROR) {
		on_other(c, a, m); /* its reason says more than the order */
		return;
	}
	if (rc) {
		run_fail(c, a, "%s out of order (state %s)",
			 rperf_ctrl_type_name(m->type),
			 rperf_proto_state_name(a->sess.state));
		return;
	}
	switch (m->type) {
	case RPERF_CTRL_WELCOME:
		on_welcome(c, a, m);
		break;
	case RPERF_CTRL_ENDPOINTS:
		on_endpoints(c, a, m);
		break;
	case RPERF_CTRL_REPORT:
		on_report(c, a, m);
		break;
	case RPERF_CTRL_CLOCK:
		run_on_clock(c, a, m);
		break;
	case RPERF_CTRL_SAMPLES:
		run_raw_samples(c, a, m);
		break;
	default:
		on_other(c, a, m);
	}
}
