/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * InfiniBand Performance Management (PMA) counters of a port (IBTA Vol 1,
 * 16.1.3.5 PortCounters, attribute 0x0012, and 16.1.4.11
 * PortCountersExtended, 0x001D): decoding of a captured GetResp MAD, the
 * 32-bit counters made monotonic 64-bit ones across wraps, and (pma_umad.c)
 * reading the switch port that faces a host's HCA through the user MAD
 * ABI, as vl_umad.c reads SL->VL. RoCE ports have no subnet and no PMA:
 * rperf_pma_skip_why() says so in one line.
 */
#ifndef RPERF_VERBS_PMA_H
#define RPERF_VERBS_PMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "counters/counters.h"

#define RPERF_PMA_DATA_OFF 64 /* 24-byte MAD header + 40 reserved */
#define RPERF_PMA_DATA_LEN 192
#define RPERF_ATTR_PORT_COUNTERS 0x0012
#define RPERF_ATTR_PORT_COUNTERS_EXT 0x001d

/* One port's figures: PortCounters' 32-bit ones (data counted in 4-byte
 * words, as the spec counts them) and, when the device answers
 * PortCountersExtended, its 64-bit ones. */
struct rperf_pma_counters {
	uint8_t port; /* PortSelect of the answer */
	uint16_t xmit_discards;
	uint32_t xmit_data, rcv_data, xmit_pkts, rcv_pkts, xmit_wait;
	bool has_ext;
	uint64_t ext_xmit_data, ext_rcv_data, ext_xmit_pkts, ext_rcv_pkts;
};

/*
 * Check a captured PMA response (@len bytes, a whole MAD) for attribute
 * @attr and port @port: base version 1, class PerfMgt (0x04), method
 * GetResp (0x81), status 0, the attribute, PortSelect == @port. Fills the
 * PortCounters or the PortCountersExtended fields of @out. 0, EINVAL
 * (malformed, with @msg) or EIO (a non-zero MAD status, with @msg).
 */
int rperf_pma_decode(const uint8_t *mad, size_t len, uint16_t attr,
		     uint8_t port, struct rperf_pma_counters *out, char *msg,
		     size_t msglen);

/* A 32-bit counter made monotonic: the running total of its increments.
 * A raw value below the previous one is one wrap past 2^32 (the spec lets
 * PortCounters saturate at all ones; devices that wrap are counted right,
 * and a saturated one shows no more increments, which @saturated says). */
struct rperf_pma_wide {
	bool primed, saturated;
	uint32_t last;
	uint64_t total;
};
uint64_t rperf_pma_widen(struct rperf_pma_wide *w, uint32_t raw);

/* The figures into @r as "@prefix" + the spec's names (PortXmitWait,
 * PortXmitData, PortRcvData, PortXmitPkts, PortRcvPkts, PortXmitDiscards:
 * the extended 64-bit ones when there, else the widened 32-bit ones;
 * data in bytes = 4 x the spec's words). @wide[6] tracks the 32-bit ones
 * between calls. 0 or an rperf_ctr_add() error. */
int rperf_pma_to_reading(const struct rperf_pma_counters *c,
			 struct rperf_pma_wide wide[6], const char *prefix,
			 struct rperf_ctr_reading *r);

/* Why PMA counters are not read on a port of @link_layer ("ethernet"):
 * one line into @buf; false when they can be (InfiniBand). */
bool rperf_pma_skip_why(const char *dev, int port, const char *link_layer,
			char *buf, size_t len);

/* The switch port that faces @dev's port @port (one directed-route hop):
 * its LID and port number. */
struct rperf_pma_peer {
	uint16_t lid;
	uint8_t port;
	bool is_switch;
};
/* pma_umad.c: find the peer (SMPs) and read its PMA counters (GMPs to the
 * peer's LID). 0, or an errno with @why (ENODEV, EACCES, ETIMEDOUT, ...). */
int rperf_pma_find_peer(const char *dev, int port, struct rperf_pma_peer *p,
			char *why, size_t whylen);
int rperf_pma_read(const char *dev, int port, const struct rperf_pma_peer *p,
		   struct rperf_pma_counters *out, char *why, size_t whylen);

#endif
