/* SPDX-License-Identifier: BSD-2-Clause */
/* RDMA devices and ports as seen through libibverbs (rperf info). */
#ifndef RPERF_DEVINFO_H
#define RPERF_DEVINFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct rperf_gid_info {
	int index;
	char gid[40]; /* "fe80:0000:...", colon-separated 16-bit groups */
	char type[16]; /* "IB", "RoCE v1", "RoCE v2", "" if unknown */
	char netdev[32]; /* associated netdev, "" if none */
};

struct rperf_port_info {
	int port;
	char state[16]; /* "ACTIVE", "DOWN", ... */
	char link_layer[16]; /* "InfiniBand", "Ethernet" */
	double rate_gbps; /* data rate (after link encoding); 0 if unknown */
	int mtu; /* active MTU in bytes */
	int max_vl_num; /* number of data VLs the port supports */
	int lid; /* base LID (InfiniBand), 0 if none */
	char speed[8]; /* "SDR".."XDR" (InfiniBand), "" if unknown */
	char width[8]; /* "1x".."12x" (InfiniBand), "" if unknown */
	char encoding[16]; /* "8b/10b", "64b/66b", "PAM4/FEC", "" */
	bool has_sl2vl; /* sl2vl[] was read (SMP through umad) */
	uint8_t sl2vl[16];
	bool has_vlarb; /* VL arbitration, [0] low and [1] high priority */
	uint8_t vlarb_vl[2][32];
	uint8_t vlarb_weight[2][32]; /* 0: entry unused */
	char vl_note[224]; /* why the VL tables are not shown, "" if shown */
	size_t ngids;
	struct rperf_gid_info *gids; /* non-zero GIDs only */
};

struct rperf_device_info {
	char name[64];
	int numa_node; /* -1 if unknown */
	char node_guid[24];
	char fw_ver[64]; /* "" if unknown */
	char pcie_speed[48]; /* PCIe link speed, "" if unknown (Soft-RoCE) */
	int pcie_width; /* lanes, 0 if unknown */
	char irq_cpus[128]; /* CPUs of the device's interrupts, "" if none */
	size_t nports;
	struct rperf_port_info *ports;
};

struct rperf_device_list {
	size_t n;
	struct rperf_device_info *dev;
	int list_errno; /* errno of ibv_get_device_list (ENOSYS: no kernel RDMA) */
};

/*
 * List RDMA devices. Returns 0 with an empty list (and list_errno set) when
 * the kernel has no RDMA support; ENOMEM on allocation failure.
 */
int rperf_devices_list(struct rperf_device_list *out);
void rperf_devices_free(struct rperf_device_list *l);

#ifdef __cplusplus
}
#endif
#endif
