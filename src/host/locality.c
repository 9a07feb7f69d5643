/* SPDX-License-Identifier: BSD-2-Clause */
#include "host/locality.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void read_pcie(const char *sys, const char *dev,
		      struct rperf_nic_locality *out)
{
	char rel[256];
	long w;

	snprintf(rel, sizeof(rel),
		 "class/infiniband/%s/device/current_link_speed", dev);
	if (rperf_read_line(sys, rel, out->pcie_speed,
			    sizeof(out->pcie_speed)) ||
	    strstr(out->pcie_speed, "Unknown"))
		out->pcie_speed[0] = '\0';
	snprintf(rel, sizeof(rel),
		 "class/infiniband/%s/device/current_link_width", dev);
	if (!rperf_read_long(sys, rel, &w) && w > 0 && w <= 32)
		out->pcie_width = (int)w;
}

/* A directory entry that is a plain IRQ number; -1 otherwise. */
static long irq_number(const char *name)
{
	char *end;
	long v;

	if (name[0] < '0' || name[0] > '9')
		return -1;
	v = strtol(name, &end, 10);
	return *end || v < 0 || v > 1000000 ? -1 : v;
}

static void read_irqs(const char *sys, const char *proc, const char *dev,
		      struct rperf_nic_locality *out)
{
	char path[512], rel[64], list[512];
	struct dirent *e;
	DIR *d;

	snprintf(path, sizeof(path), "%s/class/infiniband/%s/device/msi_irqs",
		 sys, dev);
	d = opendir(path);
	if (!d)
		return;
	while ((e = readdir(d)) != NULL) {
		long irq = irq_number(e->d_name);
		struct rperf_cpuset one = { { 0 } };

		if (irq < 0)
			continue;
		out->nirqs++;
		snprintf(rel, sizeof(rel), "irq/%ld/smp_affinity_list", irq);
		if (rperf_read_line(proc, rel, list, sizeof(list)) ||
		    rperf_cpuset_parse(list, &one))
			continue;
		for (size_t i = 0; i < RPERF_MAX_CPUS / 64; i++)
			out->irq_cpus.bits[i] |= one.bits[i];
	}
	closedir(d);
	rperf_cpuset_format(&out->irq_cpus, out->irq_cpus_str,
			    sizeof(out->irq_cpus_str));
}

int rperf_nic_locality(const char *sys, const char *proc, const char *dev,
		       struct rperf_nic_locality *out)
{
	char rel[256];
	long node;

	memset(out, 0, sizeof(*out));
	out->numa_node = -1;
	if (!rperf_safe_name(dev))
		return EINVAL;
	snprintf(rel, sizeof(rel), "class/infiniband/%s/device/numa_node", dev);
	if (!rperf_read_long(sys, rel, &node) && node >= 0 && node < 4096)
		out->numa_node = (int)node;
	snprintf(rel, sizeof(rel), "class/infiniband/%s/fw_ver", dev);
	if (rperf_read_line(sys, rel, out->fw_ver, sizeof(out->fw_ver)))
		out->fw_ver[0] = '\0';
	read_pcie(sys, dev, out);
	read_irqs(sys, proc, dev, out);
	return 0;
}
