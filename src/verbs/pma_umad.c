/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The switch port facing a host's HCA, and its PMA counters (pma.h): one
 * directed-route hop out of the local port (NodeInfo: is it a switch, and
 * which of its ports we arrived on; PortInfo of its port 0: its LID), then
 * PerfMgt Gets of PortCounters and PortCountersExtended to that LID with
 * PortSelect = that port, through the GSI (QP1, the well-known Q_Key).
 */
#include "verbs/pma.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <arpa/inet.h>

#include "verbs/umad_priv.h"
#include "util/err.h"

#define ATTR_NODE_INFO 0x0011
#define ATTR_PORT_INFO 0x0015
#define NODE_TYPE_SWITCH 2
#define GSI_QKEY 0x80010000u
#define CLASS_PERF 0x04

int rperf_pma_find_peer(const char *dev, int port, struct rperf_pma_peer *p,
			char *why, size_t whylen)
{
	uint8_t ni[RPERF_SMP_DATA_LEN], pi[RPERF_SMP_DATA_LEN];
	uint32_t agent = 0;
	int fd, rc;

	memset(p, 0, sizeof(*p));
	if (port < 1 || port > 254)
		return EINVAL;
	fd = rperf_umad_open(dev, port, 0, 0, &agent, why, whylen);
	if (fd < 0)
		return -fd;
	rc = rperf_umad_smp_get(fd, agent, ATTR_NODE_INFO, 0, (uint8_t)port, ni,
				why, whylen);
	if (!rc)
		rc = rperf_umad_smp_get(fd, agent, ATTR_PORT_INFO, 0,
					(uint8_t)port, pi, why, whylen);
	rperf_umad_close(fd, agent);
	if (rc)
		return rc;
	p->is_switch = ni[2] == NODE_TYPE_SWITCH;
	p->port = ni[36]; /* LocalPortNum: where our SMP came in */
	p->lid = (uint16_t)((unsigned)pi[16] << 8 | pi[17]);
	if (!p->is_switch)
		return rperf_fail(
			why, whylen, ENODEV,
			"%s port %d is cabled to a host (node type %u), not a switch",
			dev, port, ni[2]);
	return 0;
}

static int pma_get(int fd, uint32_t agent, const struct rperf_pma_peer *p,
		   uint16_t attr, struct rperf_pma_counters *out, char *why,
		   size_t whylen)
{
	struct rperf_umad_msg m;
	size_t len;
	int rc;

	rperf_umad_get(&m, agent, CLASS_PERF, attr, 0);
	m.hdr.qpn = htonl(1);
	m.hdr.qkey = htonl(GSI_QKEY);
	m.hdr.lid = htons(p->lid);
	m.mad[RPERF_PMA_DATA_OFF + 1] = p->port; /* PortSelect */
	rc = rperf_umad_rpc(fd, &m, &len, why, whylen);
	return rc ? rc :
		    rperf_pma_decode(m.mad, len, attr, p->port, out, why,
				     whylen);
}

int rperf_pma_read(const char *dev, int port, const struct rperf_pma_peer *p,
		   struct rperf_pma_counters *out, char *why, size_t whylen)
{
	char ext_why[160];
	uint32_t agent = 0;
	int fd, rc;

	memset(out, 0, sizeof(*out));
	fd = rperf_umad_open(dev, port, 1, CLASS_PERF, &agent, why, whylen);
	if (fd < 0)
		return -fd;
	rc = pma_get(fd, agent, p, RPERF_ATTR_PORT_COUNTERS, out, why, whylen);
	/* without the extended counters the 32-bit ones stand */
	if (!rc)
		(void)pma_get(fd, agent, p, RPERF_ATTR_PORT_COUNTERS_EXT, out,
			      ext_why, sizeof(ext_why));
	rperf_umad_close(fd, agent);
	return rc;
}
