/* SPDX-License-Identifier: BSD-2-Clause */
/* Host and platform metadata carried by every report. */
#ifndef RPERF_PLATFORM_H
#define RPERF_PLATFORM_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

struct rperf_platform {
	char hostname[256];
	char kernel[160]; /* uname: sysname release version */
	char arch[32]; /* uname machine */
	char os[128]; /* PRETTY_NAME from /etc/os-release, "" if unknown */
	char cpu_model[128]; /* model name (never its "cpu MHz") */
	long cpus_online;
	int numa_nodes; /* 0 if unknown */
	char rperf_version[32];
	char ibverbs_version[32]; /* from pkg-config at build time */
	char rdmacm_version[32];
	char json_library[48]; /* e.g. "jansson 2.14" */
	char timestamp[40]; /* ISO 8601 UTC at collection */
	char rdma_core_version[32]; /* from libibverbs' version, "" unknown */
	char numa_summary[192]; /* "node0: cpus 0-7, 31.3 GiB; node1: ..." */
	/* the RDMA device of a run ("" in rperf info: see its devices) */
	char device[64];
	char fw_ver[64];
	char pcie_speed[48]; /* the device's PCIe link, "" if unknown */
	int pcie_width;
};

/* Where the generator and its buffers were placed (rperf lat/bw). */
struct rperf_placement {
	int nic_node; /* -1: unknown or no NUMA */
	int cpu_node; /* -1: not bound to a node */
	int mem_node; /* -1: no memory policy (first touch) */
	int cpu; /* --cpu, -1: none */
	char cpu_source[48]; /* "--cpu", "--cpu-node", "NIC's node", ... */
	char mem_source[48];
	bool remote; /* the generator or its buffers are off the NIC's node */
	char hugepages[16]; /* "2M", "1G" or "none" */
	char buffers_note[192]; /* hugepage fallback, mlock failure; "" */
};

#define RPERF_MAX_CHECKS 12

/* One preflight check: a condition of the host that distorts measurement. */
struct rperf_check {
	char check[32]; /* "governor", "cstates", "hypervisor", ... */
	bool ok;
	char detail[224];
};

struct rperf_preflight {
	size_t n;
	struct rperf_check c[RPERF_MAX_CHECKS];
};

/* Fill @out. Unknown fields are left empty; returns 0 (never fails hard). */
int rperf_platform_collect(struct rperf_platform *out);

#ifdef __cplusplus
}
#endif
#endif
