/* SPDX-License-Identifier: BSD-2-Clause */
/* Ranks to hosts (the rule in mpi.h); pure, no MPI. */
#include "mpi/mpi.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

int rperf_mpi_plan_make(const struct rperf_job *job, int nranks,
			struct rperf_mpi_plan *p, char *err, size_t errlen)
{
	size_t n = 0, r;

	for (size_t i = 0; i < job->nhosts; i++)
		n += rperf_job_involves(job, job->hosts[i].name);
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

		if (!rperf_job_involves(job, h->name))
			continue;
		snprintf(p->rank[r].host, sizeof(p->rank[r].host), "%s",
			 h->name);
		snprintf(p->rank[r].bind, sizeof(p->rank[r].bind), "%s",
			 h->control);
		r++;
	}
	return 0;
}
