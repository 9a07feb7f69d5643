/* SPDX-License-Identifier: BSD-2-Clause */
/* What the agent adds to a PLAN of its own (agent_priv.h). */
#include <stdio.h>
#include <string.h>

#include "agent/agent_priv.h"

/* What the job left open, the agent's own options fill in. */
static void fill_local(const struct rperf_agent *a, struct rperf_host_sel *d)
{
	const struct rperf_host_sel *l = &a->cfg.local;

	if (!l->port)
		return;
	if (!d->device[0] && l->device[0]) { /* its device: its port too */
		memcpy(d->device, l->device, sizeof(d->device));
		d->port = l->port;
	}
	if (d->gid_index < 0 && l->gid_index >= 0)
		d->gid_index = l->gid_index;
	if (d->cpu < 0 && l->cpu >= 0)
		d->cpu = l->cpu;
}

/* cfg.peers_at_controller: the other hosts' addresses are the control
 * connection's ("ADDR:PORT", or "[ADDR]:PORT"). */
static void at_controller(const struct rperf_agent *a,
			  struct rperf_proto_plan *p)
{
	char addr[RPERF_PROTO_ADDR_LEN];
	const char *peer = a->exp.peer;
	size_t n = strlen(peer);
	const char *colon = strrchr(peer, ':');

	if (colon)
		n = (size_t)(colon - peer);
	if (n && peer[0] == '[' && peer[n - 1] == ']') {
		peer++;
		n -= 2;
	}
	snprintf(addr, sizeof(addr), "%.*s", (int)n, peer);
	for (size_t i = 0; i < p->nhosts; i++)
		if (strcmp(p->hosts[i].name, p->host))
			memcpy(p->hosts[i].addr, addr, sizeof(addr));
	p->addrs_are_controller = true;
}

void agent_plan_local(const struct rperf_agent *a, struct rperf_proto_plan *p)
{
	fill_local(a, &p->device);
	p->stall_limit_ns = a->cfg.limits.stall_ns;
	if (a->cfg.peers_at_controller)
		at_controller(a, p);
}
