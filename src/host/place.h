/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Placement of the generator thread and its buffers: by default on the
 * NIC's NUMA node; --cpu, --cpu-node and --mem-node override. The decision
 * is pure (unit tested); applying it uses libnuma.
 */
#ifndef RPERF_HOST_PLACE_H
#define RPERF_HOST_PLACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rperf/platform.h>

struct rperf_place_req {
	int64_t cpu; /* --cpu, -1 unset */
	int64_t cpu_node; /* --cpu-node, -1 unset */
	int64_t mem_node; /* --mem-node, -1 unset */
	bool inherited; /* the process already has a restricted CPU affinity
			 * (taskset, cgroup): the default keeps it */
};

/*
 * Decide. @nic_node: the device's node (-1 unknown); @node_of_cpu: the node
 * of req->cpu (-1 unknown or no --cpu); @nnodes: NUMA nodes of the host (0:
 * no NUMA support). 0, or EINVAL with @msg (a node that does not exist,
 * --cpu and --cpu-node disagreeing).
 */
int rperf_place_decide(const struct rperf_place_req *req, int nic_node,
		       int node_of_cpu, int nnodes, struct rperf_placement *out,
		       char *msg, size_t msglen);

/*
 * Apply @p to the calling thread: pin to p->cpu, else run on p->cpu_node;
 * memory policy: bind to p->mem_node when it came from --mem-node,
 * preferred otherwise. 0 or an errno with @msg.
 */
int rperf_place_apply(const struct rperf_placement *p, char *msg,
		      size_t msglen);

/* Pin the calling thread to @cpu (-1: no pinning). 0 or an errno. */
int rperf_place_pin(int64_t cpu);

/* Give the calling thread back the default memory policy (local
 * allocation); after allocating buffers for a placement applied with
 * cpu = cpu_node = -1 (memory only). No-op without NUMA. */
void rperf_place_mem_reset(void);

/* Whether the calling thread may run on fewer CPUs than are online. */
bool rperf_place_affinity_restricted(void);

/* The NUMA node of @cpu, -1 if unknown. Host NUMA nodes, 0 if no NUMA. */
int rperf_place_node_of_cpu(int64_t cpu);
int rperf_place_nnodes(void);

/* One line: "cpu node 0 (NIC's node), memory node 0 (...), NIC node 0". */
void rperf_place_format(const struct rperf_placement *p, char *buf, size_t len);

#endif
