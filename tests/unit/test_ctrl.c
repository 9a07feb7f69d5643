// SPDX-License-Identifier: BSD-2-Clause
/*
 * Unit tests of the control channel without sockets: frame header checks,
 * whole-frame decode, every typed payload decoder (wrong types, missing keys,
 * out-of-range values) and the getters. Socket I/O and connections are in
 * test_ctrl_io.c.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ctrl/ctrl.h"

/* Header + payload text with chosen header fields into buf; returns size. */
static size_t frame(uint8_t *buf, uint32_t magic, uint16_t version,
		    uint16_t type, const char *payload)
{
	size_t n = payload ? strlen(payload) : 0;
	struct rperf_ctrl_hdr h = { magic, version, type, (uint32_t)n };

	rperf_ctrl_hdr_pack(&h, buf);
	if (n)
		memcpy(buf + RPERF_CTRL_HDR_LEN, payload, n);
	return RPERF_CTRL_HDR_LEN + n;
}

/* Decode a valid frame of type t with payload text p (must succeed). */
static void load(struct rperf_ctrl_msg *m, enum rperf_ctrl_type t,
		 const char *p)
{
	uint8_t buf[1024];
	size_t n = frame(buf, RPERF_CTRL_MAGIC, RPERF_CTRL_VERSION, t, p);

	assert_int_equal(rperf_ctrl_decode(buf, n, m), 0);
}

static int decode_text(enum rperf_ctrl_type t, const char *p)
{
	struct rperf_ctrl_msg m;
	uint8_t buf[1024];
	size_t n = frame(buf, RPERF_CTRL_MAGIC, RPERF_CTRL_VERSION, t, p);
	int ret = rperf_ctrl_decode(buf, n, &m);

	if (ret)
		assert_null(m.payload);
	rperf_ctrl_msg_release(&m);
	return ret;
}

static void test_header(void **state)
{
	struct rperf_ctrl_msg m;
	uint8_t buf[64];
	size_t n;

	(void)state;
	n = frame(buf, RPERF_CTRL_MAGIC, 1, RPERF_CTRL_BYE, "{}");
	assert_int_equal(rperf_ctrl_decode(buf, n, &m), 0);
	assert_int_equal(m.type, RPERF_CTRL_BYE);
	assert_int_equal(m.version, 1);
	assert_true(json_is_object(m.payload));
	rperf_ctrl_msg_release(&m);
	rperf_ctrl_msg_release(&m); /* idempotent */
	rperf_ctrl_msg_release(NULL);

	n = frame(buf, 0x52504653, 1, RPERF_CTRL_BYE, "{}");
	assert_int_equal(rperf_ctrl_decode(buf, n, &m), EBADMSG);
	n = frame(buf, RPERF_CTRL_MAGIC, 2, RPERF_CTRL_BYE, "{}");
	assert_int_equal(rperf_ctrl_decode(buf, n, &m), EPROTONOSUPPORT);
	assert_int_equal(m.version, 2);
	assert_null(m.payload);
	/* The version is checked before the type and the length. */
	n = frame(buf, RPERF_CTRL_MAGIC, 0, 999, "{}");
	assert_int_equal(rperf_ctrl_decode(buf, n, &m), EPROTONOSUPPORT);
	n = frame(buf, RPERF_CTRL_MAGIC, 1, 0, "{}");
	assert_int_equal(rperf_ctrl_decode(buf, n, &m), EBADMSG);
	n = frame(buf, RPERF_CTRL_MAGIC, 1, RPERF_CTRL_TYPE_MAX + 1, "{}");
	assert_int_equal(rperf_ctrl_decode(buf, n, &m), EBADMSG);

	/* Length above the bound: refused from the header alone. */
	{
		struct rperf_ctrl_hdr h = { RPERF_CTRL_MAGIC, 1, RPERF_CTRL_BYE,
					    RPERF_CTRL_MAX_PAYLOAD + 1 };
		struct rperf_ctrl_hdr out;

		rperf_ctrl_hdr_pack(&h, buf);
		assert_int_equal(rperf_ctrl_decode(buf, 12, &m), EMSGSIZE);
		assert_int_equal(rperf_ctrl_hdr_parse(buf, &out), EMSGSIZE);
		assert_int_equal(out.length, RPERF_CTRL_MAX_PAYLOAD + 1);
		h.length = 0xffffffffu;
		rperf_ctrl_hdr_pack(&h, buf);
		assert_int_equal(rperf_ctrl_decode(buf, 12, &m), EMSGSIZE);
	}
	/* Truncated header, truncated payload, extra bytes. */
	n = frame(buf, RPERF_CTRL_MAGIC, 1, RPERF_CTRL_BYE, "{}");
	assert_int_equal(rperf_ctrl_decode(buf, 0, &m), EBADMSG);
	assert_int_equal(rperf_ctrl_decode(NULL, 0, &m), EBADMSG);
	assert_int_equal(rperf_ctrl_decode(buf, 11, &m), EBADMSG);
	assert_int_equal(rperf_ctrl_decode(buf, n - 1, &m), EBADMSG);
	assert_int_equal(rperf_ctrl_decode(buf, n + 1, &m), EBADMSG);
	/* Network byte order on the wire. */
	assert_memory_equal(buf, "RPFR\0\1\0\12\0\0\0\2{}", 14);
}

static void test_payload_json(void **state)
{
	(void)state;
	assert_int_equal(decode_text(RPERF_CTRL_BYE, "{}"), 0);
	assert_int_equal(decode_text(RPERF_CTRL_BYE, " { } "), 0);
	assert_int_equal(decode_text(RPERF_CTRL_BYE, ""), EBADMSG);
	assert_int_equal(decode_text(RPERF_CTRL_BYE, "[]"), EBADMSG);
	assert_int_equal(decode_text(RPERF_CTRL_BYE, "1"), EBADMSG);
	assert_int_equal(decode_text(RPERF_CTRL_BYE, "null"), EBADMSG);
	assert_int_equal(decode_text(RPERF_CTRL_BYE, "{"), EBADMSG);
	assert_int_equal(decode_text(RPERF_CTRL_BYE, "{} {}"), EBADMSG);
	assert_int_equal(decode_text(RPERF_CTRL_BYE, "{}x"), EBADMSG);
	assert_int_equal(decode_text(RPERF_CTRL_BYE, "{\"a\":1,\"a\":2}"),
			 EBADMSG);
	assert_int_equal(decode_text(RPERF_CTRL_BYE, "{\"a\":\"\\u0000\"}"),
			 EBADMSG);
	assert_int_equal(decode_text(RPERF_CTRL_BYE, "{\"a\":\"\xff\"}"),
			 EBADMSG); /* not UTF-8 */
	assert_int_equal(decode_text(RPERF_CTRL_BYE, "{\"a\":\"\xc3\xa9\"}"),
			 0);
}

static void test_encode(void **state)
{
	json_t *arr = json_array(), *obj = json_pack("{s:i}", "x", 7);
	struct rperf_ctrl_msg m;
	uint8_t *buf;
	size_t len;

	(void)state;
	assert_int_equal(rperf_ctrl_encode(RPERF_CTRL_START, NULL, &buf, &len),
			 0);
	assert_int_equal(len, 14);
	assert_memory_equal(buf + 12, "{}", 2);
	free(buf);
	assert_int_equal(rperf_ctrl_encode(0, NULL, &buf, &len), EINVAL);
	assert_int_equal(rperf_ctrl_encode(RPERF_CTRL_TYPE_MAX + 1, NULL, &buf,
					   &len),
			 EINVAL);
	assert_int_equal(rperf_ctrl_encode(RPERF_CTRL_START, arr, &buf, &len),
			 EINVAL);
	assert_int_equal(rperf_ctrl_encode(RPERF_CTRL_DONE, obj, &buf, &len),
			 0);
	assert_int_equal(rperf_ctrl_decode(buf, len, &m), 0);
	assert_int_equal(m.type, RPERF_CTRL_DONE);
	assert_true(json_equal(m.payload, obj));
	rperf_ctrl_msg_release(&m);
	free(buf);
	json_decref(arr);
	json_decref(obj);

	assert_string_equal(rperf_ctrl_type_name(RPERF_CTRL_HELLO), "HELLO");
	assert_string_equal(rperf_ctrl_type_name(RPERF_CTRL_ERROR), "ERROR");
	assert_string_equal(rperf_ctrl_type_name(0), "?");
	assert_string_equal(rperf_ctrl_type_name(RPERF_CTRL_TYPE_MAX + 1), "?");
	assert_string_equal(rperf_ctrl_type_name(-1), "?");
}

static void test_hello(void **state)
{
	struct rperf_ctrl_hello h = { .version = 1,
				      .command = "lat",
				      .nfeatures = 2,
				      .features = { "rdma-write", "gid" } };
	struct rperf_ctrl_hello out;
	struct rperf_ctrl_msg m = { .type = RPERF_CTRL_HELLO };
	static const char *const bad[] = {
		"{\"command\":\"lat\",\"features\":[]}",
		"{\"version\":0,\"command\":\"lat\",\"features\":[]}",
		"{\"version\":65536,\"command\":\"lat\",\"features\":[]}",
		"{\"version\":\"1\",\"command\":\"lat\",\"features\":[]}",
		"{\"version\":1,\"features\":[]}",
		"{\"version\":1,\"command\":\"\",\"features\":[]}",
		"{\"version\":1,\"command\":7,\"features\":[]}",
		"{\"version\":1,\"command\":\"l t\",\"features\":[]}",
		"{\"version\":1,\"command\":\"0123456789012345678901234567890123\","
		"\"features\":[]}",
		"{\"version\":1,\"command\":\"lat\"}",
		"{\"version\":1,\"command\":\"lat\",\"features\":{}}",
		"{\"version\":1,\"command\":\"lat\",\"features\":[1]}",
		"{\"version\":1,\"command\":\"lat\",\"features\":[\"\"]}",
		"{\"version\":1,\"command\":\"lat\",\"features\":[\"a\",\"a\","
		"\"a\",\"a\",\"a\",\"a\",\"a\",\"a\",\"a\",\"a\",\"a\",\"a\","
		"\"a\",\"a\",\"a\",\"a\",\"a\"]}",
	};
	size_t i;

	(void)state;
	assert_int_equal(rperf_ctrl_hello_encode(&h, &m.payload), 0);
	assert_int_equal(rperf_ctrl_hello_decode(&m, &out), 0);
	assert_int_equal(out.version, 1);
	assert_string_equal(out.command, "lat");
	assert_int_equal(out.nfeatures, 2);
	assert_true(rperf_ctrl_has_feature(out.features, out.nfeatures, "gid"));
	assert_false(rperf_ctrl_has_feature(out.features, out.nfeatures, "x"));
	m.type = RPERF_CTRL_WELCOME;
	assert_int_equal(rperf_ctrl_hello_decode(&m, &out), EPROTO);
	rperf_ctrl_msg_release(&m);
	h.command[0] = '\0';
	assert_int_equal(rperf_ctrl_hello_encode(&h, &m.payload), EINVAL);

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		load(&m, RPERF_CTRL_HELLO, bad[i]);
		if (rperf_ctrl_hello_decode(&m, &out) != EBADMSG)
			fail_msg("accepted %s", bad[i]);
		rperf_ctrl_msg_release(&m);
	}
	/* Unknown extra keys are ignored. */
	load(&m, RPERF_CTRL_HELLO,
	     "{\"version\":1,\"command\":\"lat\",\"features\":[],\"x\":null}");
	assert_int_equal(rperf_ctrl_hello_decode(&m, &out), 0);
	rperf_ctrl_msg_release(&m);
}

static void test_welcome(void **state)
{
	struct rperf_ctrl_welcome w = { .version = 1,
					.max_size = 1 << 20,
					.nfeatures = 1,
					.features = { "x" } };
	struct rperf_ctrl_welcome out;
	struct rperf_ctrl_msg m = { .type = RPERF_CTRL_WELCOME };

	(void)state;
	assert_int_equal(rperf_ctrl_welcome_encode(&w, &m.payload), 0);
	assert_int_equal(rperf_ctrl_welcome_decode(&m, &out), 0);
	assert_int_equal(out.max_size, 1 << 20);
	assert_string_equal(out.features[0], "x");
	rperf_ctrl_msg_release(&m);
	load(&m, RPERF_CTRL_WELCOME,
	     "{\"version\":1,\"max_size\":-1,\"features\":[]}");
	assert_int_equal(rperf_ctrl_welcome_decode(&m, &out), EBADMSG);
	rperf_ctrl_msg_release(&m);
	load(&m, RPERF_CTRL_WELCOME, "{\"version\":1,\"features\":[]}");
	assert_int_equal(rperf_ctrl_welcome_decode(&m, &out), EBADMSG);
	rperf_ctrl_msg_release(&m);
}

static void test_reason(void **state)
{
	struct rperf_ctrl_msg m = { .type = RPERF_CTRL_REFUSE };
	char buf[8];

	(void)state;
	assert_int_equal(rperf_ctrl_reason_encode("busy", &m.payload), 0);
	assert_int_equal(rperf_ctrl_reason_decode(&m, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "busy");
	m.type = RPERF_CTRL_ERROR;
	assert_int_equal(rperf_ctrl_reason_decode(&m, buf, sizeof(buf)), 0);
	m.type = RPERF_CTRL_BYE;
	assert_int_equal(rperf_ctrl_reason_decode(&m, buf, sizeof(buf)),
			 EPROTO);
	rperf_ctrl_msg_release(&m);
	load(&m, RPERF_CTRL_ERROR, "{\"reason\":\"a\\u001b[2Jbcdefgh\"}");
	assert_int_equal(rperf_ctrl_reason_decode(&m, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "a?[2Jbc"); /* cut, escape neutralized */
	rperf_ctrl_msg_release(&m);
	load(&m, RPERF_CTRL_ERROR, "{\"reason\":3}");
	assert_int_equal(rperf_ctrl_reason_decode(&m, buf, sizeof(buf)),
			 EBADMSG);
	rperf_ctrl_msg_release(&m);
	load(&m, RPERF_CTRL_REFUSE, "{}");
	assert_int_equal(rperf_ctrl_reason_decode(&m, buf, sizeof(buf)),
			 EBADMSG);
	rperf_ctrl_msg_release(&m);
}

#define EP_OK                                                      \
	"\"qpn\":291,\"psn\":16777215,\"lid\":65535,\"mtu\":4096," \
	"\"rkey\":4294967295,\"addr\":\"18446744073709551615\",\"size\":4096"
#define GID_OK "\"gid\":\"fe800000000000000202c9fffe0a0b0c\""

static void test_endpoint(void **state)
{
	struct rperf_ctrl_endpoint ep = { .qpn = 0xffffff,
					  .psn = 0xabcdef,
					  .lid = 7,
					  .mtu = 1024,
					  .rkey = 0xdeadbeef,
					  .addr = 0xffff800012345678ull,
					  .size = 1ull << 40 };
	struct rperf_ctrl_endpoint out;
	struct rperf_ctrl_msg m = { .type = RPERF_CTRL_ENDPOINT };
	static const char *const bad[] = {
		"{\"qpn\":16777216,\"psn\":0,\"lid\":0,\"mtu\":256,\"rkey\":0,"
		"\"addr\":0,\"size\":0," GID_OK "}",
		"{\"qpn\":0,\"psn\":16777216,\"lid\":0,\"mtu\":256,\"rkey\":0,"
		"\"addr\":0,\"size\":0," GID_OK "}",
		"{\"qpn\":0,\"psn\":0,\"lid\":65536,\"mtu\":256,\"rkey\":0,"
		"\"addr\":0,\"size\":0," GID_OK "}",
		"{\"qpn\":0,\"psn\":0,\"lid\":0,\"mtu\":1000,\"rkey\":0,"
		"\"addr\":0,\"size\":0," GID_OK "}",
		"{\"qpn\":0,\"psn\":0,\"lid\":0,\"mtu\":128,\"rkey\":0,"
		"\"addr\":0,\"size\":0," GID_OK "}",
		"{\"qpn\":0,\"psn\":0,\"lid\":0,\"mtu\":8192,\"rkey\":0,"
		"\"addr\":0,\"size\":0," GID_OK "}",
		"{\"qpn\":0,\"psn\":0,\"lid\":0,\"mtu\":256,\"rkey\":4294967296,"
		"\"addr\":0,\"size\":0," GID_OK "}",
		"{\"qpn\":-1,\"psn\":0,\"lid\":0,\"mtu\":256,\"rkey\":0,"
		"\"addr\":0,\"size\":0," GID_OK "}",
		"{\"qpn\":1.5,\"psn\":0,\"lid\":0,\"mtu\":256,\"rkey\":0,"
		"\"addr\":0,\"size\":0," GID_OK "}",
		"{\"qpn\":true,\"psn\":0,\"lid\":0,\"mtu\":256,\"rkey\":0,"
		"\"addr\":0,\"size\":0," GID_OK "}",
		"{\"qpn\":0,\"psn\":0,\"lid\":0,\"mtu\":256,\"rkey\":0,"
		"\"addr\":\"18446744073709551616\",\"size\":0," GID_OK "}",
		"{\"qpn\":0,\"psn\":0,\"lid\":0,\"mtu\":256,\"rkey\":0,"
		"\"addr\":\"-1\",\"size\":0," GID_OK "}",
		"{\"qpn\":0,\"psn\":0,\"lid\":0,\"mtu\":256,\"rkey\":0,"
		"\"addr\":\"\",\"size\":0," GID_OK "}",
		"{" EP_OK "}",
		"{" EP_OK ",\"gid\":\"fe800000000000000202c9fffe0a0b0\"}",
		"{" EP_OK ",\"gid\":\"fe800000000000000202c9fffe0a0b0c0\"}",
		"{" EP_OK ",\"gid\":\"fe80000000000000x202c9fffe0a0b0c\"}",
		"{" EP_OK ",\"gid\":\"fe80::202:c9ff:fe0a:b0c\"}",
		"{" EP_OK ",\"gid\":16}",
		/* the optional rdma_cm port: 1..65535 when said */
		"{" EP_OK "," GID_OK ",\"cm_port\":0}",
		"{" EP_OK "," GID_OK ",\"cm_port\":65536}",
		"{" EP_OK "," GID_OK ",\"cm_port\":\"18515\"}",
		"{\"psn\":0,\"lid\":0,\"mtu\":256,\"rkey\":0,"
		"\"addr\":0,\"size\":0," GID_OK "}",
	};
	size_t i;

	(void)state;
	memcpy(ep.gid, "\xfe\x80\0\0\0\0\0\0\x02\x02\xc9\xff\xfe\x0a\x0b\x0c",
	       16);
	assert_int_equal(rperf_ctrl_endpoint_encode(&ep, &m.payload), 0);
	assert_string_equal(
		json_string_value(json_object_get(m.payload, "gid")),
		"fe800000000000000202c9fffe0a0b0c");
	assert_int_equal(rperf_ctrl_endpoint_decode(&m, &out), 0);
	assert_memory_equal(&out, &ep, sizeof(ep));
	assert_null(json_object_get(m.payload, "cm_port")); /* 0: not said */
	rperf_ctrl_msg_release(&m);
	ep.cm_port = 40123; /* an end listening on rdma_cm */
	m.type = RPERF_CTRL_ENDPOINT;
	assert_int_equal(rperf_ctrl_endpoint_encode(&ep, &m.payload), 0);
	assert_int_equal(rperf_ctrl_endpoint_decode(&m, &out), 0);
	assert_int_equal(out.cm_port, 40123);
	ep.cm_port = 0;
	m.type = RPERF_CTRL_READY;
	assert_int_equal(rperf_ctrl_endpoint_decode(&m, &out), EPROTO);
	rperf_ctrl_msg_release(&m);

	load(&m, RPERF_CTRL_ENDPOINT,
	     "{" EP_OK ",\"gid\":\"FE800000000000000202C9FFFE0A0B0C\"}");
	assert_int_equal(rperf_ctrl_endpoint_decode(&m, &out), 0);
	assert_int_equal(out.addr, UINT64_MAX);
	assert_int_equal(out.qpn, 291);
	assert_memory_equal(out.gid, ep.gid, 16);
	rperf_ctrl_msg_release(&m);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		load(&m, RPERF_CTRL_ENDPOINT, bad[i]);
		if (rperf_ctrl_endpoint_decode(&m, &out) != EBADMSG)
			fail_msg("accepted %s", bad[i]);
		rperf_ctrl_msg_release(&m);
	}
	ep.qpn = 0x1000000;
	assert_int_equal(rperf_ctrl_endpoint_encode(&ep, &m.payload), EINVAL);
	ep.qpn = 1;
	ep.mtu = 1000;
	assert_int_equal(rperf_ctrl_endpoint_encode(&ep, &m.payload), EINVAL);
}

static void test_getters(void **state)
{
	json_t *o = json_loads(
		"{\"u\":5,\"neg\":-3,\"big\":\"18446744073709551615\","
		"\"s\":\"abc\",\"b\":true,\"d\":2.5,\"a\":[1,2,3],\"as\":[1,\"2\"],"
		"\"bad\":[1,-2],\"n\":null,\"str9\":\"0x10\",\"small\":\"5\"}",
		0, NULL);
	uint64_t u, arr[3];
	int64_t i;
	double d;
	bool b;
	char s[4];
	size_t n;

	(void)state;
	assert_non_null(o);
	assert_int_equal(rperf_ctrl_get_u64(o, "u", 0, 10, &u), 0);
	assert_int_equal(u, 5);
	assert_int_equal(rperf_ctrl_get_u64(o, "u", 6, 10, &u), EBADMSG);
	assert_int_equal(rperf_ctrl_get_u64(o, "u", 0, 4, &u), EBADMSG);
	assert_int_equal(rperf_ctrl_get_u64(o, "neg", 0, 10, &u), EBADMSG);
	assert_int_equal(rperf_ctrl_get_u64(o, "big", 0, UINT64_MAX, &u), 0);
	assert_int_equal(u, UINT64_MAX);
	assert_int_equal(rperf_ctrl_get_u64(o, "str9", 0, UINT64_MAX, &u),
			 EBADMSG);
	assert_int_equal(rperf_ctrl_get_u64(o, "small", 0, 10, &u), EBADMSG);
	assert_int_equal(rperf_ctrl_get_u64(o, "d", 0, 10, &u), EBADMSG);
	assert_int_equal(rperf_ctrl_get_u64(o, "n", 0, 10, &u), EBADMSG);
	assert_int_equal(rperf_ctrl_get_u64(o, "none", 0, 10, &u), ENOENT);
	assert_int_equal(rperf_ctrl_get_u64(NULL, "u", 0, 10, &u), EINVAL);
	assert_int_equal(rperf_ctrl_get_i64(o, "neg", -3, 0, &i), 0);
	assert_int_equal(i, -3);
	assert_int_equal(rperf_ctrl_get_i64(o, "neg", -2, 0, &i), EBADMSG);
	assert_int_equal(rperf_ctrl_get_i64(o, "s", -2, 0, &i), EBADMSG);
	assert_int_equal(rperf_ctrl_get_double(o, "d", 0, 3, &d), 0);
	assert_true(d == 2.5);
	assert_int_equal(rperf_ctrl_get_double(o, "u", 0, 10, &d), 0);
	assert_int_equal(rperf_ctrl_get_double(o, "d", 0, 2, &d), EBADMSG);
	assert_int_equal(rperf_ctrl_get_double(o, "b", 0, 2, &d), EBADMSG);
	assert_int_equal(rperf_ctrl_get_bool(o, "b", &b), 0);
	assert_true(b);
	assert_int_equal(rperf_ctrl_get_bool(o, "u", &b), EBADMSG);
	assert_int_equal(rperf_ctrl_get_str(o, "s", s, sizeof(s)), 0);
	assert_string_equal(s, "abc");
	assert_int_equal(rperf_ctrl_get_str(o, "s", s, 3), EBADMSG);
	assert_int_equal(rperf_ctrl_get_str(o, "u", s, sizeof(s)), EBADMSG);
	assert_int_equal(rperf_ctrl_get_u64_array(o, "a", 1, 3, arr, 3, &n), 0);
	assert_int_equal(n, 3);
	assert_int_equal(arr[1], 2);
	assert_int_equal(rperf_ctrl_get_u64_array(o, "a", 1, 3, arr, 2, &n),
			 EBADMSG);
	assert_int_equal(rperf_ctrl_get_u64_array(o, "a", 1, 2, arr, 3, &n),
			 EBADMSG);
	assert_int_equal(rperf_ctrl_get_u64_array(o, "bad", 0, 9, arr, 3, &n),
			 EBADMSG);
	assert_int_equal(rperf_ctrl_get_u64_array(o, "as", 0, 9, arr, 3, &n),
			 EBADMSG);
	assert_int_equal(rperf_ctrl_get_u64_array(o, "u", 0, 9, arr, 3, &n),
			 EBADMSG);
	json_decref(o);

	/* Setters round-trip through the getters. */
	o = json_object();
	assert_int_equal(rperf_ctrl_set_u64(o, "x", UINT64_MAX - 1), 0);
	assert_int_equal(rperf_ctrl_get_u64(o, "x", 0, UINT64_MAX, &u), 0);
	assert_int_equal(u, UINT64_MAX - 1);
	arr[0] = 0;
	arr[1] = UINT64_MAX;
	assert_int_equal(rperf_ctrl_set_u64_array(o, "a", arr, 2), 0);
	assert_int_equal(
		rperf_ctrl_get_u64_array(o, "a", 0, UINT64_MAX, arr, 3, &n), 0);
	assert_int_equal(arr[1], UINT64_MAX);
	assert_int_equal(rperf_ctrl_set_i64(o, "i", INT64_MIN), 0);
	assert_int_equal(rperf_ctrl_set_bool(o, "b", false), 0);
	assert_int_equal(rperf_ctrl_set_str(o, "s", "v"), 0);
	assert_int_equal(rperf_ctrl_set_double(o, "d", 0.25), 0);
	assert_int_equal(rperf_ctrl_set_double(o, "d", 1.0 / 0.0), EINVAL);
	assert_int_equal(rperf_ctrl_set_u64(NULL, "x", 1), EINVAL);
	assert_int_equal(rperf_ctrl_get_i64(o, "i", INT64_MIN, 0, &i), 0);
	assert_int_equal(rperf_ctrl_get_bool(o, "b", &b), 0);
	assert_false(b);
	json_decref(o);
}

/* Every seed of the fuzz corpus is a valid frame its typed decoder takes. */
static void test_fuzz_corpus(void **state)
{
	static const char *const names[] = {
		"",	    "hello",	 "welcome", "refuse",	"params",
		"endpoint", "ready",	 "start",   "done",	"result",
		"bye",	    "error",	 "auth",    "plan",	"endpoints",
		"connect",  "armed",	 "go",	    "finished", "stop",
		"report",   "heartbeat", "clock",   "samples",	"halt",
	};
	const char *src = getenv("RPERF_SRC");
	struct rperf_ctrl_endpoint ep;
	struct rperf_ctrl_welcome w;
	struct rperf_ctrl_hello h;
	struct rperf_ctrl_msg m;
	char path[4096], r[64];
	uint8_t buf[4096];
	int t;

	(void)state;
	if (!src)
		skip();
	for (t = RPERF_CTRL_TYPE_MIN; t <= RPERF_CTRL_TYPE_MAX; t++) {
		FILE *f;
		size_t n;
		int ret;

		snprintf(path, sizeof(path), "%s/tests/fuzz/corpus/ctrl/%s",
			 src, names[t]);
		f = fopen(path, "rb");
		assert_non_null(f);
		n = fread(buf, 1, sizeof(buf), f);
		fclose(f);
		assert_int_equal(rperf_ctrl_decode(buf, n, &m), 0);
		assert_int_equal(m.type, t);
		switch (t) {
		case RPERF_CTRL_HELLO:
			ret = rperf_ctrl_hello_decode(&m, &h);
			break;
		case RPERF_CTRL_WELCOME:
			ret = rperf_ctrl_welcome_decode(&m, &w);
			break;
		case RPERF_CTRL_ENDPOINT:
			ret = rperf_ctrl_endpoint_decode(&m, &ep);
			break;
		case RPERF_CTRL_REFUSE:
		case RPERF_CTRL_ERROR:
			ret = rperf_ctrl_reason_decode(&m, r, sizeof(r));
			break;
		default: /* the engine's messages: test_proto.c */
			ret = m.payload && !json_is_object(m.payload);
		}
		if (ret)
			fail_msg("%s: %d", names[t], ret);
		rperf_ctrl_msg_release(&m);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_header),
		cmocka_unit_test(test_payload_json),
		cmocka_unit_test(test_encode),
		cmocka_unit_test(test_hello),
		cmocka_unit_test(test_welcome),
		cmocka_unit_test(test_reason),
		cmocka_unit_test(test_endpoint),
		cmocka_unit_test(test_getters),
		cmocka_unit_test(test_fuzz_corpus),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
