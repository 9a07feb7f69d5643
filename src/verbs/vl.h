/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Virtual lanes: decoding of the SMP attributes SLtoVLMappingTable (0x0017)
 * and VLArbitrationTable (0x0018) from a captured MAD, and the --vl choice
 * of a service level. Pure functions, unit tested; the MADs themselves are
 * fetched (when umad access is allowed) elsewhere.
 */
#ifndef RPERF_VERBS_VL_H
#define RPERF_VERBS_VL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RPERF_MAD_SIZE 256
#define RPERF_SMP_DATA_OFF 64 /* LID-routed and directed-route SMPs alike */
#define RPERF_SMP_DATA_LEN 64
#define RPERF_ATTR_SL2VL 0x0017
#define RPERF_ATTR_VLARB 0x0018
#define RPERF_VLARB_ENTRIES 32 /* per block */
#define RPERF_VL_MGMT 15 /* VL15: subnet management; an SL mapped there drops */

/* SL -> VL of one port (16 entries, 0..15). */
struct rperf_sl2vl {
	uint8_t vl[16];
};

struct rperf_vlarb_entry {
	uint8_t vl; /* 0..15 */
	uint8_t weight; /* 0: the entry is unused */
};

/* One 32-entry block of a VL arbitration table. */
struct rperf_vlarb_block {
	struct rperf_vlarb_entry e[RPERF_VLARB_ENTRIES];
};

/*
 * The SLtoVLMappingTable attribute data (8 bytes, two SLs per byte, the
 * even SL in the high nibble) into @out. 0, or EINVAL when @len < 8.
 */
int rperf_sl2vl_decode(const uint8_t *data, size_t len,
		       struct rperf_sl2vl *out);

/* VLArbitrationTable attribute data (32 x {4 reserved bits, VL; weight}). */
int rperf_vlarb_decode(const uint8_t *data, size_t len,
		       struct rperf_vlarb_block *out);

/*
 * Check a captured SMP response (@len bytes, a whole MAD) for attribute
 * @attr_id: base version 1, class SubnMgmt (LID-routed 0x01 or directed
 * route 0x81), method GetResp (0x81), status 0. On success *@data points to
 * its 64 bytes of SMP data. 0, EINVAL (malformed, with @msg) or EIO (a
 * non-zero MAD status, with @msg).
 */
int rperf_smp_data(const uint8_t *mad, size_t len, uint16_t attr_id,
		   const uint8_t **data, char *msg, size_t msglen);

/*
 * --vl N: the lowest SL that @t maps to @vl, in *@sl. @t NULL: the table
 * could not be read, @why says why. 0; EINVAL (@vl not a data VL);
 * ENOENT (no SL maps to @vl; @msg shows the table); the errno given in
 * @read_rc when @t is NULL (default ENODATA). @msg always explains a failure.
 */
int rperf_vl_pick_sl(const struct rperf_sl2vl *t, int read_rc, const char *why,
		     int vl, int *sl, char *msg, size_t msglen);

/*
 * Read @dev port @port's SL->VL table into @t and, when non-NULL, the low
 * and high priority VL arbitration blocks (entries 0..31; left zeroed when
 * that SMP fails) with directed-route SMPs through /dev/infiniband/umadN.
 * 0, or an errno with @why (ENODEV: no umad device, EACCES: no access,
 * ETIMEDOUT...). InfiniBand ports only (vl_umad.c).
 */
int rperf_vl_read_tables(const char *dev, int port, struct rperf_sl2vl *t,
			 struct rperf_vlarb_block *low,
			 struct rperf_vlarb_block *high, char *why,
			 size_t whylen);

/* What --vl needs to know about a port. */
struct rperf_vl_port {
	char dev[64]; /* the device resolved (NULL want: the first one) */
	bool roce; /* Ethernet link layer: no VLs */
	bool has_table; /* t was read */
	struct rperf_sl2vl t;
	int read_rc; /* why not (errno), with why */
	char why[160];
};

/*
 * Open @want (NULL or "": the first device), query @port's link layer and, on
 * InfiniBand, read its SL->VL table. 0 (has_table tells whether the table
 * was read), or ENODEV/EIO when the device or port cannot be queried.
 */
int rperf_vl_port_query(const char *want, int port, struct rperf_vl_port *out);

/* "0:0 1:1 ..." (SL:VL pairs) into @buf. */
void rperf_sl2vl_format(const struct rperf_sl2vl *t, char *buf, size_t len);

#endif
