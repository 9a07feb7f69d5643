/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The host's counters as a time series: from GO's start instant
 * to STOP, at the smallest interval of the host's generators, the agent
 * reads the sysfs counters of the RDMA device its plan names (else the
 * first one in sysfs) and its netdevs' pause/PFC statistics
 * (src/counters) and sends the per-interval deltas in its
 * REPORT ("counters", rows from the start instant on its own clock).
 * On InfiniBand it also reads the PMA counters of the switch port facing
 * its HCA (pma.h; the port is found once, at PLAN; a read that fails turns
 * them off for the run, since a MAD that gets no answer blocks for
 * seconds); on RoCE it logs one line saying why not. A dry run reads
 * nothing. Reading failures leave missing rows, never an error of the
 * experiment.
 */
#include "agent/agent_priv.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The device the plan names, else the first one in sysfs. */
static void plan_dev(const struct rperf_proto_plan *p, char *dev, size_t len)
{
	struct dirent **ents;
	int n;

	snprintf(dev, len, "%s", p->device.device);
	if (*dev)
		return;
	n = scandir(RPERF_CTR_SYSFS, &ents, NULL, alphasort);
	for (int i = 0; i < n; i++) {
		if (!*dev && ents[i]->d_name[0] != '.')
			snprintf(dev, len, "%.63s", ents[i]->d_name);
		free(ents[i]);
	}
	if (n >= 0)
		free(ents);
}

/* Find the switch port facing our HCA (InfiniBand), or say why not. */
static void pma_plan(struct rperf_agent *a)
{
	struct agent_ctr *c = &a->exp.ctr;
	const char *ll = a->engine->link_layer ?
				 a->engine->link_layer(a->exp.eng) :
				 NULL;
	char why[300];

	if (!c->dev[0] || !ll)
		return;
	if (rperf_pma_skip_why(c->dev, c->port, ll, why, sizeof(why))) {
		agent_log(a, "controller %s: %s", a->exp.peer, why);
		return;
	}
	if (rperf_pma_find_peer(c->dev, c->port, &c->peer, why, sizeof(why))) {
		agent_log(a, "controller %s: IB PMA counters not read: %s",
			  a->exp.peer, why);
		return;
	}
	snprintf(c->pma_prefix, sizeof(c->pma_prefix), "lid%u/%u/", c->peer.lid,
		 c->peer.port);
	c->pma = true;
}

static void pma_sample(struct rperf_agent *a)
{
	struct agent_ctr *c = &a->exp.ctr;
	struct rperf_pma_counters pc;
	char why[200];

	if (!c->pma)
		return;
	if (rperf_pma_read(c->dev, c->port, &c->peer, &pc, why, sizeof(why))) {
		agent_log(
			a,
			"controller %s: IB PMA counters of LID %u port %u: %s; not read again in this run",
			a->exp.peer, c->peer.lid, c->peer.port, why);
		c->pma = false;
		return;
	}
	(void)rperf_pma_to_reading(&pc, c->wide, c->pma_prefix, c->rd);
}

void agent_ctr_plan(struct rperf_agent *a, const struct rperf_proto_plan *p)
{
	struct agent_ctr *c = &a->exp.ctr;
	uint64_t iv = 0;

	agent_ctr_fini(a);
	for (size_t i = 0; i < p->nsources + p->nsinks; i++) {
		const struct rperf_gen_spec *s =
			i < p->nsources ? &p->sources[i] :
					  &p->sinks[i - p->nsources];

		if (s->interval_ns && (!iv || s->interval_ns < iv))
			iv = s->interval_ns;
	}
	if (a->engine == &rperf_agent_dry_engine || !iv || a->cfg.counters_off)
		return;
	c->rd = malloc(sizeof(*c->rd));
	c->interval_ns = c->rd ? iv : 0;
	plan_dev(p, c->dev, sizeof(c->dev)); /* the device the engine opens */
	c->port = p->device.port > 0 ? p->device.port : 1;
	if (c->rd)
		pma_plan(a);
}

/* One reading at @now (the agent's clock). */
static void sample(struct rperf_agent *a, uint64_t now)
{
	struct agent_ctr *c = &a->exp.ctr;
	char err[160];
	int rc;

	c->rd->n = 0;
	rc = rperf_ctr_read_host(c->sysroot, c->dev, c->rd, err, sizeof(err));
	if (!rc)
		pma_sample(a);
	if (rc && !c->said) {
		agent_log(a, "controller %s: counters: %s", a->exp.peer, err);
		c->said = true;
	}
	(void)rperf_ctr_series_sample(&c->s, now > c->t0 ? now - c->t0 : 0,
				      rc ? NULL : c->rd);
}

void agent_ctr_go(struct rperf_agent *a, uint64_t t0)
{
	struct agent_ctr *c = &a->exp.ctr;

	c->t0 = t0;
	c->next = t0;
	c->running = c->interval_ns != 0;
}

uint64_t agent_ctr_wake_ns(const struct rperf_agent *a)
{
	return a->exp.ctr.running ? a->exp.ctr.next : UINT64_MAX;
}

void agent_ctr_tick(struct rperf_agent *a, uint64_t now)
{
	struct agent_ctr *c = &a->exp.ctr;

	if (!c->running || now < c->next)
		return;
	sample(a, now);
	while (c->next <= now) /* a late wake-up skips ticks, never bunches */
		c->next += c->interval_ns;
}

void agent_ctr_report(struct rperf_agent *a, struct rperf_proto_report *r)
{
	struct agent_ctr *c = &a->exp.ctr;
	uint64_t now = rperf_mono_ns();

	if (!c->running)
		return;
	if (now > c->t0) /* the last (partial) interval up to STOP */
		sample(a, now);
	c->running = false;
	rperf_ctr_series_move(&r->counters, &c->s);
}

void agent_ctr_fini(struct rperf_agent *a)
{
	struct agent_ctr *c = &a->exp.ctr;
	const char *root = c->sysroot;

	rperf_ctr_series_fini(&c->s);
	free(c->rd);
	memset(c, 0, sizeof(*c));
	c->sysroot = root;
}
