/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * `rperf run --mpi`: an existing launcher (mpirun, srun) starts the ranks;
 * MPI carries only the bootstrap, the barriers and the gathering, and the
 * experiment itself is the normal controller <-> agent protocol over TCP
 * (src/engine/proto.h).
 *
 * Rank mapping (rperf_mpi_plan_make): the job's hosts that take part (a
 * source or a sink), in file order, are H0..H(n-1).
 *   -np n:     rank i runs the agent of Hi; rank 0 is also the controller
 *   -np n + 1: rank 0 is only the controller; rank i runs the agent of
 *              H(i-1)
 * Any other rank count is refused. Each agent listens on its host's
 * `control` address (so a rank placed on the wrong node fails to bind, and
 * says so) on a port the kernel picks; the job's port is not used.
 *
 * Bootstrap: rank 0 loads the job, maps the ranks, takes the key
 * (--key-file, else 32 random bytes for this launch) and broadcasts the
 * plan (rperf_mpi_plan: each rank's host and bind address, the key, the
 * timeout). Every agent rank listens, calibrates its clock and the ranks
 * gather (rank 0) each one's port or failure: that gather is the start
 * barrier. Rank 0 then runs `rperf run` against those addresses and ends
 * with a non-blocking broadcast of its exit status (the end barrier; the
 * agents serve until it completes), then gathers how many experiments each
 * agent served. Every rank exits with the controller's status.
 *
 * The transport (mpi_comm.c with MPI; mpi_none.c in a build without it,
 * where rperf_mpi_init fails with ENOTSUP and a message naming the build
 * option) works on MPI_COMM_WORLD from one thread.
 */
#ifndef RPERF_MPI_H
#define RPERF_MPI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/proto.h"
#include "job/job.h"

#define RPERF_MPI_MAX_RANKS (RPERF_JOB_MAX_HOSTS + 1)
#define RPERF_MPI_MSG_LEN 256
#define RPERF_MPI_RANDOM_KEY_LEN 32

/* What rank 0 broadcasts. Plain bytes: every rank runs the same binary. */
struct rperf_mpi_plan {
	int32_t status; /* 0: go on; else every rank exits with it */
	uint32_t nranks;
	int32_t timeout_ms; /* the agents' control-plane timeout */
	uint32_t keylen;
	uint8_t key[RPERF_PROTO_MAX_KEY];
	bool ctl_only; /* rank 0 runs no agent */
	struct rperf_mpi_assign {
		char host[RPERF_NAME_LEN]; /* "": no agent (controller only) */
		char bind[256]; /* the host's control address */
	} rank[RPERF_MPI_MAX_RANKS];
};

/* What every rank sends back after listening (gathered at rank 0). */
struct rperf_mpi_hello {
	int32_t rc; /* 0, or errno: msg says why */
	uint16_t port; /* where its agent listens (0: no agent) */
	char node[RPERF_MPI_MSG_LEN]; /* MPI processor name */
	char msg[RPERF_MPI_MSG_LEN];
};

/* Map @nranks ranks to @job's hosts (the rule above). 0, or EINVAL with
 * @err saying which -np to use. @p: rank[], nranks, ctl_only. */
int rperf_mpi_plan_make(const struct rperf_job *job, int nranks,
			struct rperf_mpi_plan *p, char *err, size_t errlen);

/* ---- transport ---- */

struct rperf_mpi {
	int rank, size;
	char node[RPERF_MPI_MSG_LEN];
	void *end_req; /* the end broadcast in flight */
	int32_t end_status;
};

/* Was this rperf built with MPI (-DRPERF_MPI=ON)? */
bool rperf_mpi_built(void);
/* MPI_Init; rank, size, node. ENOTSUP (no MPI in this build) or EIO,
 * with @err. */
int rperf_mpi_init(struct rperf_mpi *m, char *err, size_t errlen);
/* Broadcast @len bytes from rank 0. 0 or EIO. */
int rperf_mpi_bcast(struct rperf_mpi *m, void *buf, size_t len);
/* Gather @len bytes of every rank into @all (rank 0: size x len). */
int rperf_mpi_gather(struct rperf_mpi *m, const void *mine, size_t len,
		     void *all);
/* The end barrier: a non-blocking broadcast of rank 0's @status. */
int rperf_mpi_end_start(struct rperf_mpi *m, int32_t status);
/* Has it completed? (*status then holds rank 0's.) 0 or EIO. */
int rperf_mpi_end_test(struct rperf_mpi *m, bool *done, int32_t *status);
void rperf_mpi_finalize(struct rperf_mpi *m);

#endif
