/* SPDX-License-Identifier: BSD-2-Clause */
/* SL->VL and VL arbitration tables (IBTA Vol 1, 14.2.5.8 and 14.2.5.9). */
#include "verbs/vl.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "util/err.h"

#define MAD_BASE_VERSION 1
#define MAD_CLASS_SMP_LID 0x01
#define MAD_CLASS_SMP_DR 0x81
#define MAD_METHOD_GET_RESP 0x81
#define MAD_STATUS_MASK 0x7fff /* DR SMPs carry the D bit in bit 15 */

static uint16_t be16_at(const uint8_t *p)
{
	return (uint16_t)((unsigned)p[0] << 8 | p[1]);
}

int rperf_sl2vl_decode(const uint8_t *data, size_t len, struct rperf_sl2vl *out)
{
	if (!data || !out || len < 8)
		return EINVAL;
	for (int i = 0; i < 8; i++) {
		out->vl[2 * i] = data[i] >> 4;
		out->vl[2 * i + 1] = data[i] & 0x0f;
	}
	return 0;
}

int rperf_vlarb_decode(const uint8_t *data, size_t len,
		       struct rperf_vlarb_block *out)
{
	if (!data || !out || len < 2 * RPERF_VLARB_ENTRIES)
		return EINVAL;
	for (int i = 0; i < RPERF_VLARB_ENTRIES; i++) {
		out->e[i].vl = data[2 * i] & 0x0f;
		out->e[i].weight = data[2 * i + 1];
	}
	return 0;
}

int rperf_smp_data(const uint8_t *mad, size_t len, uint16_t attr_id,
		   const uint8_t **data, char *msg, size_t msglen)
{
	uint16_t status;

	if (!mad || !data || len < RPERF_SMP_DATA_OFF + RPERF_SMP_DATA_LEN)
		return rperf_fail(msg, msglen, EINVAL,
				  "short MAD (%zu bytes, need %d)", len,
				  RPERF_SMP_DATA_OFF + RPERF_SMP_DATA_LEN);
	if (mad[0] != MAD_BASE_VERSION ||
	    (mad[1] != MAD_CLASS_SMP_LID && mad[1] != MAD_CLASS_SMP_DR) ||
	    mad[3] != MAD_METHOD_GET_RESP)
		return rperf_fail(
			msg, msglen, EINVAL,
			"not an SMP GetResp (base version %u, class 0x%02x, method 0x%02x)",
			mad[0], mad[1], mad[3]);
	if (be16_at(mad + 16) != attr_id)
		return rperf_fail(msg, msglen, EINVAL,
				  "attribute 0x%04x, expected 0x%04x",
				  be16_at(mad + 16), attr_id);
	status = be16_at(mad + 4) & MAD_STATUS_MASK;
	if (status)
		return rperf_fail(msg, msglen, EIO, "MAD status 0x%04x",
				  status);
	*data = mad + RPERF_SMP_DATA_OFF;
	return 0;
}

void rperf_sl2vl_format(const struct rperf_sl2vl *t, char *buf, size_t len)
{
	size_t used = 0;

	if (!len)
		return;
	buf[0] = '\0';
	for (int sl = 0; sl < 16 && used < len; sl++)
		used += (size_t)snprintf(buf + used, len - used, "%s%d:%u",
					 sl ? " " : "", sl, t->vl[sl]);
}

int rperf_vl_pick_sl(const struct rperf_sl2vl *t, int read_rc, const char *why,
		     int vl, int *sl, char *msg, size_t msglen)
{
	char tab[128];

	if (vl < 0 || vl >= RPERF_VL_MGMT)
		return rperf_fail(
			msg, msglen, EINVAL,
			"VL %d is not a data VL; accepted: 0..14 (VL15 carries subnet management only)",
			vl);
	if (!t) {
		snprintf(
			msg, msglen,
			"the port's SL to VL table cannot be read (%s); accepted: -S/--sl SL instead",
			why && *why ? why : "no reason given");
		return read_rc ? read_rc : ENODATA;
	}
	for (int s = 0; s < 16; s++) {
		if (t->vl[s] == vl) {
			*sl = s;
			return 0;
		}
	}
	rperf_sl2vl_format(t, tab, sizeof(tab));
	return rperf_fail(
		msg, msglen, ENOENT,
		"no SL maps to VL %d on this port (SL:VL %s); accepted: a VL of this table",
		vl, tab);
}
