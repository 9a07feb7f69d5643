/* SPDX-License-Identifier: BSD-2-Clause */
/* The MPI transport of rperf run --mpi (built with -DRPERF_MPI=ON). */
#include "mpi/mpi.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

bool rperf_mpi_built(void)
{
	return true;
}

int rperf_mpi_init(struct rperf_mpi *m, char *err, size_t errlen)
{
	char name[MPI_MAX_PROCESSOR_NAME] = "";
	int len = 0;

	memset(m, 0, sizeof(*m));
	if (MPI_Init(NULL, NULL) != MPI_SUCCESS) {
		snprintf(err, errlen, "MPI_Init failed");
		return EIO;
	}
	MPI_Comm_rank(MPI_COMM_WORLD, &m->rank);
	MPI_Comm_size(MPI_COMM_WORLD, &m->size);
	MPI_Get_processor_name(name, &len);
	snprintf(m->node, sizeof(m->node), "%s", name);
	return 0;
}

int rperf_mpi_bcast(struct rperf_mpi *m, void *buf, size_t len)
{
	(void)m;
	if (len > INT_MAX)
		return EINVAL;
	return MPI_Bcast(buf, (int)len, MPI_BYTE, 0, MPI_COMM_WORLD) ==
			       MPI_SUCCESS ?
		       0 :
		       EIO;
}

int rperf_mpi_gather(struct rperf_mpi *m, const void *mine, size_t len,
		     void *all)
{
	(void)m;
	if (len > INT_MAX)
		return EINVAL;
	return MPI_Gather(mine, (int)len, MPI_BYTE, all, (int)len, MPI_BYTE, 0,
			  MPI_COMM_WORLD) == MPI_SUCCESS ?
		       0 :
		       EIO;
}

int rperf_mpi_end_start(struct rperf_mpi *m, int32_t status)
{
	MPI_Request *req = malloc(sizeof(*req));

	if (!req)
		return ENOMEM;
	m->end_status = status;
	if (MPI_Ibcast(&m->end_status, 1, MPI_INT32_T, 0, MPI_COMM_WORLD,
		       req) != MPI_SUCCESS) {
		free(req);
		return EIO;
	}
	m->end_req = req;
	return 0;
}

int rperf_mpi_end_test(struct rperf_mpi *m, bool *done, int32_t *status)
{
	int flag = 0;

	*done = false;
	if (!m->end_req)
		return EINVAL;
	if (MPI_Test(m->end_req, &flag, MPI_STATUS_IGNORE) != MPI_SUCCESS)
		return EIO;
	if (flag) {
		free(m->end_req);
		m->end_req = NULL;
		*done = true;
		*status = m->end_status;
	}
	return 0;
}

void rperf_mpi_finalize(struct rperf_mpi *m)
{
	if (m->end_req) { /* never left in flight: wait for it */
		MPI_Wait(m->end_req, MPI_STATUS_IGNORE);
		free(m->end_req);
		m->end_req = NULL;
	}
	MPI_Finalize();
}
