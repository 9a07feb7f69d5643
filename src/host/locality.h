/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Where an RDMA device sits: its NUMA node, PCIe link and the CPUs its
 * interrupts are steered to, from sysfs and procfs under injectable roots.
 */
#ifndef RPERF_HOST_LOCALITY_H
#define RPERF_HOST_LOCALITY_H

#include "host/sysread.h"

struct rperf_nic_locality {
	int numa_node; /* -1: no NUMA, or the device does not say */
	char fw_ver[64]; /* class/infiniband/DEV/fw_ver, "" if unknown */
	char pcie_speed[48]; /* current_link_speed, e.g. "8.0 GT/s PCIe"; "" */
	int pcie_width; /* current_link_width (lanes); 0 if unknown */
	int nirqs; /* MSI/MSI-X vectors found */
	struct rperf_cpuset irq_cpus; /* union of their smp_affinity_list */
	char irq_cpus_str[128]; /* the same as a list, "" if none */
};

/*
 * Fill @out for RDMA device @dev (a name under class/infiniband). @sys and
 * @proc are the roots of sysfs and procfs ("/sys", "/proc"). Missing facts
 * stay unknown (Soft-RoCE has no PCI device: node -1, no PCIe, no IRQs).
 * 0, or EINVAL for an unsafe device name.
 */
int rperf_nic_locality(const char *sys, const char *proc, const char *dev,
		       struct rperf_nic_locality *out);

#endif
