/* SPDX-License-Identifier: BSD-2-Clause */
/* PMA PortCounters and PortCountersExtended decoding (pma.h). */
#include "verbs/pma.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "util/err.h"

#define MAD_BASE_VERSION 1
#define MAD_CLASS_PERF 0x04
#define MAD_METHOD_GET_RESP 0x81

static uint16_t be16(const uint8_t *p)
{
	return (uint16_t)((unsigned)p[0] << 8 | p[1]);
}

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static uint64_t be64(const uint8_t *p)
{
	return (uint64_t)be32(p) << 32 | be32(p + 4);
}

static int header_ok(const uint8_t *mad, size_t len, uint16_t attr, char *msg,
		     size_t msglen)
{
	uint16_t status;

	if (!mad || len < RPERF_PMA_DATA_OFF + RPERF_PMA_DATA_LEN)
		return rperf_fail(msg, msglen, EINVAL,
				  "short MAD (%zu bytes, need %d)", len,
				  RPERF_PMA_DATA_OFF + RPERF_PMA_DATA_LEN);
	if (mad[0] != MAD_BASE_VERSION || mad[1] != MAD_CLASS_PERF ||
	    mad[3] != MAD_METHOD_GET_RESP)
		return rperf_fail(
			msg, msglen, EINVAL,
			"not a PerfMgt GetResp (base version %u, class 0x%02x, method 0x%02x)",
			mad[0], mad[1], mad[3]);
	status = be16(mad + 4);
	if (status)
		return rperf_fail(msg, msglen, EIO,
				  "PMA answered status 0x%04x%s", status,
				  (status & 0x1c) == 0x08 ?
					  " (attribute not supported)" :
					  "");
	if (be16(mad + 16) != attr)
		return rperf_fail(msg, msglen, EINVAL,
				  "attribute 0x%04x, asked 0x%04x",
				  be16(mad + 16), attr);
	return 0;
}

int rperf_pma_decode(const uint8_t *mad, size_t len, uint16_t attr,
		     uint8_t port, struct rperf_pma_counters *out, char *msg,
		     size_t msglen)
{
	const uint8_t *d;
	int rc;

	if (!out || (attr != RPERF_ATTR_PORT_COUNTERS &&
		     attr != RPERF_ATTR_PORT_COUNTERS_EXT))
		return EINVAL;
	rc = header_ok(mad, len, attr, msg, msglen);
	if (rc)
		return rc;
	d = mad + RPERF_PMA_DATA_OFF;
	if (d[1] != port)
		return rperf_fail(msg, msglen, EINVAL,
				  "PortSelect %u, asked port %u", d[1], port);
	out->port = d[1];
	if (attr == RPERF_ATTR_PORT_COUNTERS) {
		out->xmit_discards = be16(d + 14);
		out->xmit_data = be32(d + 24);
		out->rcv_data = be32(d + 28);
		out->xmit_pkts = be32(d + 32);
		out->rcv_pkts = be32(d + 36);
		out->xmit_wait = be32(d + 40);
		return 0;
	}
	out->has_ext = true;
	out->ext_xmit_data = be64(d + 8);
	out->ext_rcv_data = be64(d + 16);
	out->ext_xmit_pkts = be64(d + 24);
	out->ext_rcv_pkts = be64(d + 32);
	return 0;
}

uint64_t rperf_pma_widen(struct rperf_pma_wide *w, uint32_t raw)
{
	if (!w->primed) {
		w->primed = true;
		w->total = raw;
	} else if (raw >= w->last) {
		w->total += raw - w->last;
	} else { /* wrapped past 2^32 */
		w->total += (uint64_t)(UINT32_MAX - w->last) + raw + 1;
	}
	w->saturated = raw == UINT32_MAX;
	w->last = raw;
	return w->total;
}

int rperf_pma_to_reading(const struct rperf_pma_counters *c,
			 struct rperf_pma_wide wide[6], const char *prefix,
			 struct rperf_ctr_reading *r)
{
	static const char *const names[6] = {
		"PortXmitWait", "PortXmitData", "PortRcvData",
		"PortXmitPkts", "PortRcvPkts",	"PortXmitDiscards"
	};
	uint64_t v[6];
	char name[RPERF_CTR_NAME];
	int rc = 0;

	v[0] = rperf_pma_widen(&wide[0], c->xmit_wait);
	v[1] = 4 * rperf_pma_widen(&wide[1], c->xmit_data);
	v[2] = 4 * rperf_pma_widen(&wide[2], c->rcv_data);
	v[3] = rperf_pma_widen(&wide[3], c->xmit_pkts);
	v[4] = rperf_pma_widen(&wide[4], c->rcv_pkts);
	v[5] = c->xmit_discards; /* 16 bits that saturate: as read */
	if (c->has_ext) {
		v[1] = 4 * c->ext_xmit_data;
		v[2] = 4 * c->ext_rcv_data;
		v[3] = c->ext_xmit_pkts;
		v[4] = c->ext_rcv_pkts;
	}
	for (int i = 0; i < 6 && !rc; i++) {
		snprintf(name, sizeof(name), "%s%s", prefix, names[i]);
		rc = rperf_ctr_add(r, name, v[i], false);
	}
	return rc;
}

bool rperf_pma_skip_why(const char *dev, int port, const char *link_layer,
			char *buf, size_t len)
{
	if (!link_layer || strcmp(link_layer, "ethernet"))
		return false;
	snprintf(
		buf, len,
		"IB PMA counters skipped: %s port %d is RoCE (Ethernet link layer): no InfiniBand subnet to send PMA MADs through; read Ethernet switches with [switch NAME] counters = CMD",
		dev, port);
	return true;
}
