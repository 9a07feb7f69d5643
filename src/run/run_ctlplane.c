/* SPDX-License-Identifier: BSD-2-Clause */
/* The control plane's figures and the dry-run marks (run_ctlplane.h). */
#include "run/run_ctlplane.h"

#include <string.h>

#include "run/run_barrier.h"

size_t run_ctlplane_go_spread(const struct rperf_run_results *r,
			      uint64_t *spread_ns, bool *comparable)
{
	uint64_t lo = UINT64_MAX, hi = 0;
	size_t n = 0;

	for (size_t i = 0; i < r->job->nhosts; i++) {
		const struct rperf_run_host *h = &r->hosts[i];

		if (!h->has_go_rx)
			continue;
		n++;
		lo = h->go_rx_ns < lo ? h->go_rx_ns : lo;
		hi = h->go_rx_ns > hi ? h->go_rx_ns : hi;
	}
	*spread_ns = n ? hi - lo : 0;
	*comparable = (double)*spread_ns <=
		      r->go_send_seconds * 1e9 + RUN_CTLPLANE_SAME_CLOCK_NS;
	return n;
}

static size_t ndry(const struct rperf_run_results *r)
{
	size_t n = 0;

	for (size_t i = 0; i < r->job->nhosts; i++)
		n += r->hosts[i].dry_run;
	return n;
}

static size_t nagents(const struct rperf_run_results *r)
{
	size_t n = 0;

	for (size_t i = 0; i < r->job->nhosts; i++)
		n += r->hosts[i].involved;
	return n;
}

static const char *channel_words(const struct rperf_run_results *r)
{
	if (!r->channel || !strcmp(r->channel, "plain"))
		return "plain TCP (INSECURE)";
	return !strcmp(r->channel, "tls-psk") ? "TLS 1.3 (pre-shared key)" :
						"TLS 1.3 (certificates)";
}

void run_ctlplane_banner(FILE *f, const struct rperf_run_results *r)
{
	if (r->insecure)
		fprintf(f,
			"INSECURE: the control channel to the agents was plain TCP (--insecure): not authenticated, not encrypted; anyone on the path could have read or changed the plan and the results\n\n");
	if (!r->dry_run)
		return;
	fprintf(f,
		"DRY RUN: %zu of %zu agent(s) ran `rperf agent --dry-run`: no RDMA device, no QP, no traffic; every figure of theirs below is empty: NOT A MEASUREMENT\n\n",
		ndry(r), nagents(r));
}

void run_ctlplane_text(FILE *f, const struct rperf_run_results *r)
{
	uint64_t spread = 0;
	bool same = false;
	size_t ngo = run_ctlplane_go_spread(r, &spread, &same);

	fprintf(f,
		"\nControl plane%s: %zu agent(s) over %s, connected in %.3f s, ",
		r->dry_run ? " (DRY RUN: nothing above was measured)" : "",
		nagents(r), channel_words(r), r->connect_seconds);
	if (r->setup_seconds > 0)
		fprintf(f, "set-up (connect to all ARMED) %.3f s",
			r->setup_seconds);
	else
		fprintf(f, "never all ARMED");
	if (ngo && !same)
		fprintf(f,
			"; GO receipt times not comparable (the agents' clocks differ: different hosts)");
	else if (ngo)
		fprintf(f,
			"; GO receipt spread over %zu agent(s) %.1f us (their CLOCK_MONOTONIC: one host's clock only)",
			ngo, (double)spread / 1e3);
	fprintf(f, "\n");
	run_barrier_text(f, r);
}

static int put(json_t *o, const char *k, json_t *v)
{
	return json_object_set_new(o, k, v) ? -1 : 0;
}

int run_ctlplane_json(json_t *root, const struct rperf_run_results *r)
{
	json_t *cp = json_object(), *go = json_array();
	uint64_t spread = 0, lo = UINT64_MAX;
	bool same = false;
	size_t ngo = run_ctlplane_go_spread(r, &spread, &same);
	int e = cp && go ? 0 : -1;

	for (size_t i = 0; i < r->job->nhosts; i++)
		if (r->hosts[i].has_go_rx && r->hosts[i].go_rx_ns < lo)
			lo = r->hosts[i].go_rx_ns;
	for (size_t i = 0; !e && same && i < r->job->nhosts; i++) {
		const struct rperf_run_host *h = &r->hosts[i];

		if (h->has_go_rx)
			e |= json_array_append_new(
				go, json_pack("{s:s, s:I}", "host",
					      h->host->name, "offset_ns",
					      (json_int_t)(h->go_rx_ns - lo)));
	}
	if (!e) {
		e |= put(cp, "agents", json_integer((json_int_t)nagents(r)));
		e |= put(cp, "dry_run_agents",
			 json_integer((json_int_t)ndry(r)));
		e |= put(cp, "connect_seconds", json_real(r->connect_seconds));
		e |= put(cp, "setup_seconds",
			 r->setup_seconds > 0 ? json_real(r->setup_seconds) :
						json_null());
		e |= put(cp, "go_rx_agents", json_integer((json_int_t)ngo));
		e |= put(cp, "go_send_seconds", json_real(r->go_send_seconds));
		e |= put(cp, "go_rx_comparable", json_boolean(ngo && same));
		e |= put(cp, "go_rx_spread_ns",
			 ngo && same ? json_integer((json_int_t)spread) :
				       json_null());
		e |= put(cp, "go_rx", go);
		e |= run_barrier_json(cp, r);
		e |= put(cp, "channel",
			 json_string(r->channel ? r->channel : "plain"));
		e |= put(cp, "heartbeat_seconds",
			 json_real(r->heartbeat_seconds));
		go = NULL;
		e |= put(root, "control_plane", cp);
		cp = NULL;
		e |= put(root, "dry_run", json_boolean(r->dry_run));
		e |= put(root, "insecure", json_boolean(r->insecure));
	}
	json_decref(cp);
	json_decref(go);
	return e;
}
