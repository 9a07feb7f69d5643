/* SPDX-License-Identifier: BSD-2-Clause */
/* The controller's agents: one per host of the job with an end on it, and
 * their control connections dialled all at once (run_ctl.h). */
#include "run/run_ctl.h"
#include "run/run_plan.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* One agent per host with a source or a sink. */
int run_make_agents(struct run_ctl *c)
{
	const struct rperf_job *job = c->job;

	c->ag = calloc(job->nhosts ? job->nhosts : 1, sizeof(*c->ag));
	if (!c->ag)
		return ENOMEM;
	for (size_t i = 0; i < job->nhosts; i++) {
		const struct rperf_job_host *h = &job->hosts[i];
		struct run_agent *a;
		size_t src, dst;

		rperf_run_host_roles(job, h, &src, &dst);
		if (!src && !dst)
			continue;
		a = &c->ag[c->nag++];
		a->host = h;
		a->has_sources = src > 0;
		run_conn_init(&a->conn);
		rperf_proto_session_init(&a->sess, RPERF_PROTO_CONTROLLER);
	}
	return 0;
}

/* Where @a's agent listens: the launcher's address, else this process's
 * agent of a local host, else the job's. */
static int agent_addr(struct run_ctl *c, const struct run_agent *a,
		      struct run_dial *d)
{
	const struct rperf_run_boot *b = c->opts->boot;

	if (!b && a->host->local && !(b = c->opts->local))
		return ENOENT;
	d->addr = a->host->control;
	d->port = a->host->control_port;
	for (size_t i = 0; b && i < b->n; i++) {
		if (!strcmp(b->hosts[i].name, a->host->name)) {
			d->addr = b->hosts[i].addr;
			d->port = b->hosts[i].port;
			return 0;
		}
	}
	return b ? ENOENT : 0;
}

int run_dial_agents(struct run_ctl *c)
{
	struct run_dial *d = calloc(c->nag ? c->nag : 1, sizeof(*d));
	char why[RPERF_RUN_WHY_LEN];
	size_t i;
	int rc;

	if (!d)
		return ENOMEM;
	for (i = 0; i < c->nag; i++) {
		if (agent_addr(c, &c->ag[i], &d[i]))
			run_fail(
				c, &c->ag[i],
				c->opts->boot ?
					"the launcher started no agent for this host" :
					"control = local, but this process runs no agent for it");
		d[i].given = -1;
		for (size_t k = 0; c->opts->dialled && k < c->opts->dialled->n;
		     k++)
			if (!strcmp(c->opts->dialled->hosts[k].name,
				    c->ag[i].host->name))
				d[i].given = c->opts->dialled->hosts[k].fd;
		d[i].timeout_ns = c->timeout_ns;
		d[i].stop = c->stop;
		d[i].tls_ctx = c->tls;
	}
	c->t_start = rperf_mono_ns();
	rc = run_dial_all(d, c->nag);
	c->res->connect_seconds = (double)(rperf_mono_ns() - c->t_start) / 1e9;
	for (i = 0; i < c->nag; i++) {
		if (c->ag[i].ph == AG_FAILED) { /* no address of its own */
			rperf_ctrl_tls_free(d[i].tls);
			if (d[i].fd >= 0)
				close(d[i].fd);
			continue;
		}
		c->ag[i].conn.fd = d[i].fd;
		c->ag[i].conn.tls = d[i].tls;
		if (d[i].fd < 0) {
			run_dial_why(&d[i], why, sizeof(why));
			run_fail(c, &c->ag[i], "%s", why);
		} else if ((rc = run_peer_addr(d[i].fd, &c->ag[i].addr,
					       c->ag[i].addr_text,
					       sizeof(c->ag[i].addr_text)))) {
			run_fail(c, &c->ag[i], "no peer address: %s",
				 strerror(rc));
			rc = 0;
		}
	}
	free(d);
	return rc;
}
