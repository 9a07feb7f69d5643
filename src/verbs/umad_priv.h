/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The kernel's user MAD interface (/dev/infiniband/umadN, the ABI of
 * <rdma/ib_user_mad.h>; no libibumad/libibmad needed), shared by the
 * SL->VL reader (vl_umad.c) and the PMA reader (pma_umad.c). Needs
 * read/write access to the umad device: root, or the rdma group on most
 * distributions.
 */
#ifndef RPERF_VERBS_UMAD_PRIV_H
#define RPERF_VERBS_UMAD_PRIV_H

#include <stddef.h>
#include <stdint.h>

#include <rdma/ib_user_mad.h>

#include "verbs/vl.h"

#define RPERF_UMAD_TIMEOUT_MS 1000
#define RPERF_PERMISSIVE_LID 0xffff

struct rperf_umad_msg {
	struct ib_user_mad_hdr hdr;
	uint8_t mad[RPERF_MAD_SIZE];
};

/* Open the umad device of (@dev, @port) and register an agent: @qpn 0
 * (SMI: SMPs) or 1 (GSI, then for @mgmt_class, e.g. 0x04 PerfMgt). The fd
 * (>= 0) and *@agent, or -errno with @why. */
int rperf_umad_open(const char *dev, int port, int qpn, uint8_t mgmt_class,
		    uint32_t *agent, char *why, size_t whylen);
void rperf_umad_close(int fd, uint32_t agent);
/* A Get MAD's common header into @m (@class, @attr, @mod; a fresh TID). */
void rperf_umad_get(struct rperf_umad_msg *m, uint32_t agent, uint8_t class,
		    uint16_t attr, uint32_t mod);
/* Send @m, read the answer into @m: 0, or an errno with @why. The answer's
 * MAD length (bytes) in *@len. */
int rperf_umad_rpc(int fd, struct rperf_umad_msg *m, size_t *len, char *why,
		   size_t whylen);
/* A directed-route SubnGet(@attr, @mod): to the local port (@hop_port 0)
 * or one hop out through @hop_port; the 64 data bytes into @data. */
int rperf_umad_smp_get(int fd, uint32_t agent, uint16_t attr, uint32_t mod,
		       uint8_t hop_port, uint8_t *data, char *why,
		       size_t whylen);

#endif
