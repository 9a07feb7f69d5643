/* SPDX-License-Identifier: BSD-2-Clause */
#define _GNU_SOURCE
#include "host/place.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <numa.h>

#include "util/err.h"

#define SET(dst, src) snprintf((dst), sizeof(dst), "%s", (src))

/*
 * libnuma reports errors by printing (perror) from numa_error/numa_warn,
 * which it declares weak so that programs may replace them. Library code
 * never prints: rperf's callers get errnos and messages instead.
 */
void numa_error(char *where)
{
	(void)where;
}

void numa_warn(int num, char *fmt, ...)
{
	(void)num;
	(void)fmt;
}

static int check_node(const char *opt, int64_t node, int nnodes, char *msg,
		      size_t msglen)
{
	if (node < 0 || node < (nnodes ? nnodes : 1))
		return 0;
	if (nnodes)
		snprintf(msg, msglen,
			 "%s: node %lld does not exist; accepted: 0 to %d", opt,
			 (long long)node, nnodes - 1);
	else
		snprintf(
			msg, msglen,
			"%s: node %lld: this host has no NUMA support; accepted: 0",
			opt, (long long)node);
	return EINVAL;
}

static int decide_cpu(const struct rperf_place_req *req, int nic_node,
		      int node_of_cpu, struct rperf_placement *out, char *msg,
		      size_t msglen)
{
	if (req->cpu >= 0) {
		if (req->cpu_node >= 0 && node_of_cpu >= 0 &&
		    node_of_cpu != req->cpu_node)
			return rperf_fail(
				msg, msglen, EINVAL,
				"--cpu-node: %lld, but --cpu %lld is on node %d; accepted: one of them, or a CPU of that node",
				(long long)req->cpu_node, (long long)req->cpu,
				node_of_cpu);
		out->cpu = (int)req->cpu;
		out->cpu_node = node_of_cpu;
		SET(out->cpu_source, "--cpu");
	} else if (req->cpu_node >= 0) {
		out->cpu_node = (int)req->cpu_node;
		SET(out->cpu_source, "--cpu-node");
	} else if (req->inherited) {
		SET(out->cpu_source, "inherited affinity kept (taskset)");
	} else if (nic_node >= 0) {
		out->cpu_node = nic_node;
		SET(out->cpu_source, "the NIC's node");
	} else {
		SET(out->cpu_source, "not bound (NIC's node unknown)");
	}
	return 0;
}

int rperf_place_decide(const struct rperf_place_req *req, int nic_node,
		       int node_of_cpu, int nnodes, struct rperf_placement *out,
		       char *msg, size_t msglen)
{
	int rc;

	memset(out, 0, sizeof(*out));
	out->nic_node = nic_node >= 0 && nic_node < (nnodes ? nnodes : 1) ?
				nic_node :
				-1;
	out->cpu = -1;
	out->cpu_node = -1;
	out->mem_node = -1;
	SET(out->hugepages, "none");
	rc = check_node("--cpu-node", req->cpu_node, nnodes, msg, msglen);
	if (!rc)
		rc = check_node("--mem-node", req->mem_node, nnodes, msg,
				msglen);
	if (!rc)
		rc = decide_cpu(req, out->nic_node, node_of_cpu, out, msg,
				msglen);
	if (rc)
		return rc;
	if (req->mem_node >= 0) {
		out->mem_node = (int)req->mem_node;
		SET(out->mem_source, "--mem-node");
	} else if (out->nic_node >= 0) {
		out->mem_node = out->nic_node;
		SET(out->mem_source, "the NIC's node");
	} else {
		SET(out->mem_source, "first touch (NIC's node unknown)");
	}
	out->remote = out->nic_node >= 0 &&
		      ((out->cpu_node >= 0 && out->cpu_node != out->nic_node) ||
		       (out->mem_node >= 0 && out->mem_node != out->nic_node));
	return 0;
}

static int set_memory(const struct rperf_placement *p)
{
	struct bitmask *m;

	if (strcmp(p->mem_source, "--mem-node") != 0) {
		numa_set_preferred(p->mem_node);
		return 0;
	}
	m = numa_allocate_nodemask();
	if (!m)
		return ENOMEM;
	numa_bitmask_setbit(m, (unsigned int)p->mem_node);
	errno = 0;
	numa_set_membind(m);
	numa_bitmask_free(m);
	return errno == EINVAL || errno == EPERM ? errno : 0;
}

int rperf_place_pin(int64_t cpu)
{
	cpu_set_t set;

	if (cpu < 0)
		return 0;
	if (cpu >= CPU_SETSIZE)
		return EINVAL;
	CPU_ZERO(&set);
	CPU_SET((int)cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set) ? errno : 0;
}

int rperf_place_apply(const struct rperf_placement *p, char *msg, size_t msglen)
{
	int rc = 0;

	if (p->cpu >= 0) {
		rc = rperf_place_pin(p->cpu);
		if (rc)
			return rperf_fail(
				msg, msglen, rc,
				"--cpu: cannot pin to CPU %d: %s; accepted: a CPU this process may run on",
				p->cpu, strerror(rc));
	} else if (p->cpu_node >= 0 && numa_available() >= 0 &&
		   numa_run_on_node(p->cpu_node)) {
		rc = errno ? errno : EINVAL;
		return rperf_fail(msg, msglen, rc,
				  "cannot run on node %d (%s): %s", p->cpu_node,
				  p->cpu_source, strerror(rc));
	}
	if (p->mem_node < 0 || numa_available() < 0)
		return 0;
	rc = set_memory(p);
	if (rc)
		snprintf(msg, msglen, "cannot bind memory to node %d (%s): %s",
			 p->mem_node, p->mem_source, strerror(rc));
	return rc;
}

void rperf_place_mem_reset(void)
{
	if (numa_available() >= 0)
		numa_set_localalloc();
}

int rperf_place_node_of_cpu(int64_t cpu)
{
	if (cpu < 0 || cpu > 65535 || numa_available() < 0)
		return -1;
	return numa_node_of_cpu((int)cpu);
}

bool rperf_place_affinity_restricted(void)
{
	cpu_set_t set;
	long online = sysconf(_SC_NPROCESSORS_ONLN);

	if (sched_getaffinity(0, sizeof(set), &set))
		return false;
	return online > 0 && CPU_COUNT(&set) < online;
}

int rperf_place_nnodes(void)
{
	return numa_available() < 0 ? 0 : numa_num_configured_nodes();
}

static void node_str(int node, char *buf, size_t len)
{
	if (node < 0)
		snprintf(buf, len, "unknown");
	else
		snprintf(buf, len, "%d", node);
}

void rperf_place_format(const struct rperf_placement *p, char *buf, size_t len)
{
	char cn[16], mn[16], nn[16], cpu[24] = "";

	node_str(p->cpu_node, cn, sizeof(cn));
	node_str(p->mem_node, mn, sizeof(mn));
	node_str(p->nic_node, nn, sizeof(nn));
	if (p->cpu >= 0)
		snprintf(cpu, sizeof(cpu), "cpu %d, ", p->cpu);
	snprintf(buf, len,
		 "%scpu node %s (%s), memory node %s (%s), NIC node %s%s", cpu,
		 cn, p->cpu_source, mn, p->mem_source, nn,
		 p->remote ? " - REMOTE" : "");
}
