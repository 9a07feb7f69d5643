/* SPDX-License-Identifier: BSD-2-Clause */
/* Options, group "scale and launch" (see options.h for the order). */
#include "job/options_priv.h"

const struct rperf_opt rperf_opts_scale[] = {
	{ .name = "dry-run",
	  .type = RPERF_OT_FLAG,
	  .cmds = A | R,
	  .off = OFF(dry_run),
	  .help = "agent: the whole protocol with no RDMA device, QP or traffic (control-plane tests; reports are marked dry run, every figure empty). run: the agents it starts run dry: with --mpi the launched ones, else those of the hosts with control = local." },
	{ .name = "mpi",
	  .type = RPERF_OT_FLAG,
	  .cmds = R,
	  .off = OFF(mpi),
	  .help = "Launched by mpirun or srun: rank i runs the agent of the job's i-th host (rank 0 also the controller; with one rank more than hosts, rank 0 only the controller); MPI only carries the bootstrap." },
};

const size_t rperf_nopts_scale =
	sizeof(rperf_opts_scale) / sizeof(rperf_opts_scale[0]);
