// SPDX-License-Identifier: BSD-2-Clause
/* Strict getters and setters for control payload objects. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ctrl/ctrl.h"

/* Look @key up in @obj: EINVAL (not an object), ENOENT (absent). */
static int lookup(const json_t *obj, const char *key, json_t **v)
{
	if (!json_is_object(obj) || !key)
		return EINVAL;
	*v = json_object_get(obj, key);
	return *v ? 0 : ENOENT;
}

/* "0".."18446744073709551615": decimal digits only, no sign or spaces. */
static int parse_u64_text(const char *s, size_t len, uint64_t *out)
{
	uint64_t v = 0;
	size_t i;

	if (len == 0 || len > 20)
		return EBADMSG;
	for (i = 0; i < len; i++) {
		unsigned int d;

		if (s[i] < '0' || s[i] > '9')
			return EBADMSG;
		d = (unsigned int)(s[i] - '0');
		if (v > (UINT64_MAX - d) / 10)
			return EBADMSG;
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

static int value_u64(const json_t *v, uint64_t min, uint64_t max, uint64_t *out)
{
	uint64_t u;

	if (json_is_integer(v)) {
		json_int_t i = json_integer_value(v);

		if (i < 0)
			return EBADMSG;
		u = (uint64_t)i;
	} else if (json_is_string(v)) {
		/* Only for what an integer cannot hold (canonical form). */
		if (parse_u64_text(json_string_value(v), json_string_length(v),
				   &u) ||
		    u <= INT64_MAX)
			return EBADMSG;
	} else {
		return EBADMSG;
	}
	if (u < min || u > max)
		return EBADMSG;
	*out = u;
	return 0;
}

int rperf_ctrl_get_u64(const json_t *obj, const char *key, uint64_t min,
		       uint64_t max, uint64_t *out)
{
	json_t *v;
	int ret = lookup(obj, key, &v);

	return ret ? ret : value_u64(v, min, max, out);
}

int rperf_ctrl_get_i64(const json_t *obj, const char *key, int64_t min,
		       int64_t max, int64_t *out)
{
	json_int_t i;
	json_t *v;
	int ret = lookup(obj, key, &v);

	if (ret)
		return ret;
	if (!json_is_integer(v))
		return EBADMSG;
	i = json_integer_value(v);
	if (i < min || i > max)
		return EBADMSG;
	*out = i;
	return 0;
}

int rperf_ctrl_get_double(const json_t *obj, const char *key, double min,
			  double max, double *out)
{
	double d;
	json_t *v;
	int ret = lookup(obj, key, &v);

	if (ret)
		return ret;
	if (!json_is_number(v))
		return EBADMSG;
	d = json_number_value(v);
	if (!isfinite(d) || d < min || d > max)
		return EBADMSG;
	*out = d;
	return 0;
}

int rperf_ctrl_get_bool(const json_t *obj, const char *key, bool *out)
{
	json_t *v;
	int ret = lookup(obj, key, &v);

	if (ret)
		return ret;
	if (!json_is_boolean(v))
		return EBADMSG;
	*out = json_is_true(v);
	return 0;
}

void rperf_ctrl_text_clean(char *s)
{
	unsigned char *p = (unsigned char *)s;

	for (; *p; p++) {
		if (*p < ' ' || *p == 0x7f) {
			*p = '?';
		} else if (*p == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f) {
			p[0] = p[1] = '?';
			p++;
		}
	}
}

int rperf_ctrl_get_str(const json_t *obj, const char *key, char *buf,
		       size_t buflen)
{
	const char *s;
	size_t len;
	json_t *v;
	int ret = lookup(obj, key, &v);

	if (ret)
		return ret;
	if (!buf || buflen == 0)
		return EINVAL;
	if (!json_is_string(v))
		return EBADMSG;
	s = json_string_value(v);
	len = json_string_length(v);
	if (strlen(s) != len || len >= buflen) /* embedded NUL, too long */
		return EBADMSG;
	memcpy(buf, s, len + 1);
	rperf_ctrl_text_clean(buf);
	return 0;
}

int rperf_ctrl_get_u64_array(const json_t *obj, const char *key, uint64_t min,
			     uint64_t max, uint64_t *out, size_t cap, size_t *n)
{
	size_t i, size;
	json_t *v;
	int ret = lookup(obj, key, &v);

	if (ret)
		return ret;
	if (!json_is_array(v))
		return EBADMSG;
	size = json_array_size(v);
	if (size > cap)
		return EBADMSG;
	for (i = 0; i < size; i++) {
		ret = value_u64(json_array_get(v, i), min, max, &out[i]);
		if (ret)
			return ret;
	}
	*n = size;
	return 0;
}

/* json_object_set_new() steals @v even on failure. */
static int set_new(json_t *obj, const char *key, json_t *v)
{
	if (!json_is_object(obj) || !key) {
		json_decref(v);
		return EINVAL;
	}
	if (!v)
		return ENOMEM;
	return json_object_set_new(obj, key, v) ? ENOMEM : 0;
}

static json_t *u64_value(uint64_t v)
{
	char text[24];

	if (v <= INT64_MAX)
		return json_integer((json_int_t)v);
	snprintf(text, sizeof(text), "%llu", (unsigned long long)v);
	return json_string(text);
}

int rperf_ctrl_set_u64(json_t *obj, const char *key, uint64_t v)
{
	return set_new(obj, key, u64_value(v));
}

int rperf_ctrl_set_i64(json_t *obj, const char *key, int64_t v)
{
	return set_new(obj, key, json_integer(v));
}

int rperf_ctrl_set_double(json_t *obj, const char *key, double v)
{
	if (!isfinite(v))
		return EINVAL;
	return set_new(obj, key, json_real(v));
}

int rperf_ctrl_set_bool(json_t *obj, const char *key, bool v)
{
	return set_new(obj, key, json_boolean(v));
}

int rperf_ctrl_set_str(json_t *obj, const char *key, const char *v)
{
	if (!v)
		return EINVAL;
	return set_new(obj, key, json_string(v)); /* NULL if not UTF-8 */
}

int rperf_ctrl_set_u64_array(json_t *obj, const char *key, const uint64_t *v,
			     size_t n)
{
	json_t *a = json_array();
	size_t i;

	if (!a)
		return ENOMEM;
	for (i = 0; i < n; i++) {
		if (json_array_append_new(a, u64_value(v[i]))) {
			json_decref(a);
			return ENOMEM;
		}
	}
	return set_new(obj, key, a);
}

int rperf_ctrl_json_out(json_t *obj, int rc, json_t **out)
{
	if (rc) {
		json_decref(obj);
		return rc;
	}
	*out = obj;
	return 0;
}

void rperf_ctrl_hex(const uint8_t *b, size_t n, char *s)
{
	static const char digits[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < n; i++) {
		s[2 * i] = digits[b[i] >> 4];
		s[2 * i + 1] = digits[b[i] & 15];
	}
	s[2 * n] = '\0';
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int rperf_ctrl_unhex(const char *s, uint8_t *b, size_t n)
{
	size_t i;

	if (!s || strlen(s) != 2 * n)
		return EBADMSG;
	for (i = 0; i < n; i++) {
		int hi = hex_digit(s[2 * i]), lo = hex_digit(s[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return EBADMSG;
		b[i] = (uint8_t)(hi << 4 | lo);
	}
	return 0;
}
