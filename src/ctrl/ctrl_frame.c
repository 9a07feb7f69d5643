// SPDX-License-Identifier: BSD-2-Clause
/* Control frames: header pack/parse, whole-frame encode/decode. No I/O. */
#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ctrl/ctrl.h"
#include "ctrl/ctrl_priv.h"

static const char *const type_names[] = {
	[RPERF_CTRL_HELLO] = "HELLO",
	[RPERF_CTRL_WELCOME] = "WELCOME",
	[RPERF_CTRL_REFUSE] = "REFUSE",
	[RPERF_CTRL_PARAMS] = "PARAMS",
	[RPERF_CTRL_ENDPOINT] = "ENDPOINT",
	[RPERF_CTRL_READY] = "READY",
	[RPERF_CTRL_START] = "START",
	[RPERF_CTRL_DONE] = "DONE",
	[RPERF_CTRL_RESULT] = "RESULT",
	[RPERF_CTRL_BYE] = "BYE",
	[RPERF_CTRL_ERROR] = "ERROR",
	[RPERF_CTRL_AUTH] = "AUTH",
	[RPERF_CTRL_PLAN] = "PLAN",
	[RPERF_CTRL_ENDPOINTS] = "ENDPOINTS",
	[RPERF_CTRL_CONNECT] = "CONNECT",
	[RPERF_CTRL_ARMED] = "ARMED",
	[RPERF_CTRL_GO] = "GO",
	[RPERF_CTRL_FINISHED] = "FINISHED",
	[RPERF_CTRL_STOP] = "STOP",
	[RPERF_CTRL_REPORT] = "REPORT",
	[RPERF_CTRL_HEARTBEAT] = "HEARTBEAT",
	[RPERF_CTRL_CLOCK] = "CLOCK",
	[RPERF_CTRL_SAMPLES] = "SAMPLES",
	[RPERF_CTRL_HALT] = "HALT",
};

const char *rperf_ctrl_type_name(int type)
{
	if (type < RPERF_CTRL_TYPE_MIN || type > RPERF_CTRL_TYPE_MAX)
		return "?";
	return type_names[type];
}

void rperf_ctrl_msg_release(struct rperf_ctrl_msg *m)
{
	if (!m)
		return;
	json_decref(m->payload);
	memset(m, 0, sizeof(*m));
}

static void put_be32(uint8_t *p, uint32_t v)
{
	v = htonl(v);
	memcpy(p, &v, sizeof(v));
}

static void put_be16(uint8_t *p, uint16_t v)
{
	v = htons(v);
	memcpy(p, &v, sizeof(v));
}

static uint32_t get_be32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return ntohl(v);
}

static uint16_t get_be16(const uint8_t *p)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return ntohs(v);
}

void rperf_ctrl_hdr_pack(const struct rperf_ctrl_hdr *h,
			 uint8_t out[RPERF_CTRL_HDR_LEN])
{
	put_be32(out, h->magic);
	put_be16(out + 4, h->version);
	put_be16(out + 6, h->type);
	put_be32(out + 8, h->length);
}

int rperf_ctrl_hdr_parse(const uint8_t in[RPERF_CTRL_HDR_LEN],
			 struct rperf_ctrl_hdr *out)
{
	out->magic = get_be32(in);
	out->version = get_be16(in + 4);
	out->type = get_be16(in + 6);
	out->length = get_be32(in + 8);
	if (out->magic != RPERF_CTRL_MAGIC)
		return EBADMSG;
	if (out->version != RPERF_CTRL_VERSION)
		return EPROTONOSUPPORT;
	if (out->type < RPERF_CTRL_TYPE_MIN || out->type > RPERF_CTRL_TYPE_MAX)
		return EBADMSG;
	if (out->length > RPERF_CTRL_MAX_PAYLOAD)
		return EMSGSIZE;
	return 0;
}

int rperf_ctrl_encode(enum rperf_ctrl_type t, const json_t *payload,
		      uint8_t **buf, size_t *len)
{
	struct rperf_ctrl_hdr h = { .magic = RPERF_CTRL_MAGIC,
				    .version = RPERF_CTRL_VERSION,
				    .type = (uint16_t)t };
	json_t *empty = NULL;
	char *text = NULL;
	uint8_t *frame;
	size_t n;
	int ret;

	if ((int)t < RPERF_CTRL_TYPE_MIN || (int)t > RPERF_CTRL_TYPE_MAX)
		return EINVAL;
	if (!payload) {
		empty = json_object();
		if (!empty)
			return ENOMEM;
		payload = empty;
	}
	if (!json_is_object(payload)) {
		ret = EINVAL;
		goto out_empty;
	}
	text = json_dumps(payload, JSON_COMPACT | JSON_ENSURE_ASCII);
	if (!text) {
		ret = ENOMEM; /* also a NaN/Inf real, which dumps refuses */
		goto out_empty;
	}
	n = strlen(text);
	if (n > RPERF_CTRL_MAX_PAYLOAD) {
		ret = EMSGSIZE;
		goto out_text;
	}
	frame = malloc(RPERF_CTRL_HDR_LEN + n);
	if (!frame) {
		ret = ENOMEM;
		goto out_text;
	}
	h.length = (uint32_t)n;
	rperf_ctrl_hdr_pack(&h, frame);
	memcpy(frame + RPERF_CTRL_HDR_LEN, text, n);
	*buf = frame;
	*len = RPERF_CTRL_HDR_LEN + n;
	ret = 0;
out_text:
	free(text);
out_empty:
	json_decref(empty);
	return ret;
}

int rperf_ctrl_parse_payload(const uint8_t *p, size_t len, json_t **out)
{
	json_error_t err;
	json_t *j;

	j = json_loadb((const char *)p, len, JSON_REJECT_DUPLICATES, &err);
	if (!j)
		return EBADMSG;
	if (!json_is_object(j)) {
		json_decref(j);
		return EBADMSG;
	}
	*out = j;
	return 0;
}

int rperf_ctrl_decode(const uint8_t *buf, size_t len,
		      struct rperf_ctrl_msg *out)
{
	struct rperf_ctrl_hdr h;
	int ret;

	memset(out, 0, sizeof(*out));
	if (!buf || len < RPERF_CTRL_HDR_LEN)
		return EBADMSG;
	ret = rperf_ctrl_hdr_parse(buf, &h);
	if (ret == EPROTONOSUPPORT) {
		out->version = h.version;
		out->type = (enum rperf_ctrl_type)h.type;
	}
	if (ret)
		return ret;
	if (len - RPERF_CTRL_HDR_LEN != h.length)
		return EBADMSG;
	ret = rperf_ctrl_parse_payload(buf + RPERF_CTRL_HDR_LEN, h.length,
				       &out->payload);
	if (ret)
		return ret;
	out->version = h.version;
	out->type = (enum rperf_ctrl_type)h.type;
	return 0;
}
