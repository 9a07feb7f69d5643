/* SPDX-License-Identifier: BSD-2-Clause */
/* Ranks to hosts (the rule in mpi.h); pure, no MPI. */
#include "mpi/mpi.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static bool involved(const struct rperf_job *job, const char *name)
{
	for (size_t i = 0; job->mesh && i < job->mesh->nhosts; i++)
		if (!strcmp(job->hosts[job->mesh->hosts[i]].name, name))
			return true; /* a [mesh]'s host */
	for (size_t i = 0; i < job->ninst; i++)
		if (!strcmp(job->inst[i].from, name) ||
		    !strcmp(job->inst[i].to, name))
			return true;
	return false;
}

int rperf_mpi_plan_make(const struct rperf_job *job, int nranks,
			struct rperf_mpi_plan *p, char *err, size_t errlen)
{
	size_t n = 0, r;

	for (size_t i = 0; i < job->nhosts; i++)
		n += involved(job, job->hosts[i].name);
	if (nranks <= 0 || ((size_t)nranks != n && (size_t)nranks != n + 1)) {
		snprintf(
			err, errlen,
			"%d MPI rank(s) for the %zu host(s) of %s: launch %zu (rank i runs the i-th host's agent, rank 0 also the controller) or %zu (rank 0 only the controller), e.g. mpirun -np %zu",
			nranks, n, job->path, n, n + 1, n);
		return EINVAL;
	}
	memset(p->rank, 0, sizeof(p->rank));
	p->nranks = (uint32_t)nranks;
	p->ctl_only = (size_t)nranks == n + 1;
	r = p->ctl_only ? 1 : 0;
	for (size_t i = 0; i < job->nhosts; i++) {
		const struct rperf_job_host *h = &job->hosts[i];

		if (!involved(job, h->name))
			continue;
		snprintf(p->rank[r].host, sizeof(p->rank[r].host), "%s",
			 h->name);
		snprintf(p->rank[r].bind, sizeof(p->rank[r].bind), "%s",
			 h->control);
		r++;
	}
	return 0;
}
