/* SPDX-License-Identifier: BSD-2-Clause */
/* A build without MPI (the default; -DRPERF_MPI=ON for mpi_comm.c): rperf
 * run --mpi is refused with the way to get it. */
#include "mpi/mpi.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

bool rperf_mpi_built(void)
{
	return false;
}

int rperf_mpi_init(struct rperf_mpi *m, char *err, size_t errlen)
{
	memset(m, 0, sizeof(*m));
	snprintf(
		err, errlen,
		"this rperf was built without MPI: rebuild with cmake -DRPERF_MPI=ON (Debian: apt-get install libopenmpi-dev openmpi-bin), or start `rperf agent` on every host and run without --mpi");
	return ENOTSUP;
}

int rperf_mpi_bcast(struct rperf_mpi *m, void *buf, size_t len)
{
	(void)m;
	(void)buf;
	(void)len;
	return ENOTSUP;
}

int rperf_mpi_gather(struct rperf_mpi *m, const void *mine, size_t len,
		     void *all)
{
	(void)m;
	(void)mine;
	(void)len;
	(void)all;
	return ENOTSUP;
}

int rperf_mpi_end_start(struct rperf_mpi *m, int32_t status)
{
	(void)m;
	(void)status;
	return ENOTSUP;
}

int rperf_mpi_end_test(struct rperf_mpi *m, bool *done, int32_t *status)
{
	(void)m;
	(void)status;
	*done = true;
	return ENOTSUP;
}

void rperf_mpi_finalize(struct rperf_mpi *m)
{
	(void)m;
}
