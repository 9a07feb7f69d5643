/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * STOP: the engine stopped, every sample of an LSG with "raw" sent in
 * SAMPLES frames, then the REPORT (engine/proto.h).
 */
#include "agent/agent.h"

#include <errno.h>
#include <stdio.h>

#include "agent/agent_priv.h"
#include "gen/gen.h"
#include "report/report_json.h"

/* The samples of @res in frames of RPERF_PROTO_SAMPLES_PER_FRAME. */
static int send_samples(struct rperf_agent *a,
			const struct rperf_proto_result *res)
{
	int rc = 0;

	for (size_t i = 0; !rc && i < res->nraw;
	     i += RPERF_PROTO_SAMPLES_PER_FRAME) {
		size_t n = res->nraw - i;
		json_t *o = NULL;

		if (n > RPERF_PROTO_SAMPLES_PER_FRAME)
			n = RPERF_PROTO_SAMPLES_PER_FRAME;
		rc = rperf_proto_samples_encode(res->id, i, res->raw + i, n,
						&o);
		if (!rc)
			rc = agent_say(a, RPERF_CTRL_SAMPLES, o);
		json_decref(o);
	}
	return rc;
}

/* A REPORT too big for one control message loses its sinks' time series
 * (each marked, the controller says so), not the run's results. */
static void fit(struct rperf_agent *a, json_t *o)
{
	size_t n = 0;

	if (!rperf_proto_report_fit(o, RPERF_CTRL_MAX_PAYLOAD, &n) && n)
		agent_log(
			a,
			"REPORT: %zu sink(s) sent without their intervals (the REPORT would exceed %u bytes)",
			n, RPERF_CTRL_MAX_PAYLOAD);
}

/* cfg.log_sinks: what sink @r received this round, in the words of the
 * rperf lat / bw servers. */
static void log_sink(struct rperf_agent *a, const struct rperf_proto_result *r)
{
	const struct rperf_gen_spec *s = NULL;
	int m;

	for (size_t i = 0; i < a->exp.nsinks && !s; i++)
		if (a->exp.sinks[i].id == r->id)
			s = &a->exp.sinks[i];
	if (!s)
		return;
	m = s->round_methods.n > a->exp.round ?
		    s->round_methods.v[a->exp.round] :
		    s->test.method;
	if (rperf_gen_bandwidth(s->kind) && rperf_verb_responder_only(s->verb))
		agent_log(
			a,
			"controller %s: '%s': %s: answered by this host's NIC, unseen by its CPU",
			a->exp.peer, s->name, rperf_verb_name(s->verb));
	else if (rperf_gen_bandwidth(s->kind))
		agent_log(
			a,
			"controller %s: '%s': %llu messages received (%llu B)",
			a->exp.peer, s->name, (unsigned long long)r->messages,
			(unsigned long long)r->bytes);
	else if (s->verb == RPERF_VERB_SEND || m == RPERF_METHOD_PINGPONG)
		agent_log(a, "controller %s: %s: %llu %s received (%llu B)",
			  a->exp.peer, rperf_method_name(m),
			  (unsigned long long)r->messages,
			  s->verb == RPERF_VERB_SEND ? "SENDs" : "WRITEs",
			  (unsigned long long)r->bytes);
	else
		agent_log(
			a,
			"controller %s: %s: answered by this host's NIC, unseen by its CPU",
			a->exp.peer, rperf_method_name(m));
}

int agent_report(struct rperf_agent *a, size_t *nres, char *why, size_t whylen)
{
	struct rperf_proto_report r;
	json_t *o = NULL;
	int rc;

	a->engine->stop(a->exp.eng);
	rc = a->engine->report(a->exp.eng, a->exp.host, &r);
	if (rc) {
		snprintf(why, whylen, "building the report: out of memory");
		return rc;
	}
	agent_ctr_report(a, &r);
	for (size_t i = 0; a->cfg.log_sinks && i < r.n; i++)
		if (r.res[i].role == RPERF_ROLE_SINK)
			log_sink(a, &r.res[i]);
		else if (rperf_gen_bandwidth(
				 r.res[i].kind)) /* -b, --reversed */
			agent_log(a, "controller %s: %llu sent (%llu B)",
				  a->exp.peer,
				  (unsigned long long)r.res[i].messages,
				  (unsigned long long)r.res[i].bytes);
	for (size_t i = 0; !rc && i < r.n; i++)
		if (r.res[i].has_raw && r.res[i].nraw)
			rc = send_samples(a, &r.res[i]);
	if (!rc) {
		rc = rperf_proto_report_encode(&r, &o);
		if (rc)
			snprintf(why, whylen, "building the report failed");
	}
	if (!rc && a->cfg.clk)
		json_object_set_new(o, "clock",
				    rperf_rpt_json_clock(a->cfg.clk, NULL));
	if (!rc) {
		fit(a, o);
		rc = agent_say(a, RPERF_CTRL_REPORT, o);
	}
	json_decref(o);
	*nres = r.n;
	rperf_proto_report_fini(&r);
	return rc;
}
