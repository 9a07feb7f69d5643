// SPDX-License-Identifier: BSD-2-Clause
/* Typed control messages: strict encode/decode of each payload. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "ctrl/ctrl.h"

/* m is a received message of type @t with an object payload. */
static int check_msg(const struct rperf_ctrl_msg *m, enum rperf_ctrl_type t)
{
	if (!m)
		return EINVAL;
	if (m->type != t)
		return EPROTO;
	return json_is_object(m->payload) ? 0 : EBADMSG;
}

/* Non-empty printable ASCII without spaces, shorter than @len. */
static int check_name(const char *s, size_t len)
{
	size_t i, n = strlen(s);

	if (n == 0 || n >= len)
		return EBADMSG;
	for (i = 0; i < n; i++)
		if (s[i] <= ' ' || s[i] > '~')
			return EBADMSG;
	return 0;
}

static int get_name(const json_t *obj, const char *key,
		    char buf[RPERF_CTRL_NAME_LEN])
{
	int ret = rperf_ctrl_get_str(obj, key, buf, RPERF_CTRL_NAME_LEN);

	if (ret == ENOENT)
		return EBADMSG; /* required */
	return ret ? ret : check_name(buf, RPERF_CTRL_NAME_LEN);
}

static int get_features(const json_t *obj, unsigned int *n,
			char (*f)[RPERF_CTRL_NAME_LEN])
{
	const json_t *a = json_object_get(obj, "features");
	size_t i, size;

	if (!json_is_array(a))
		return EBADMSG;
	size = json_array_size(a);
	if (size > RPERF_CTRL_MAX_FEATURES)
		return EBADMSG;
	for (i = 0; i < size; i++) {
		const json_t *v = json_array_get(a, i);

		if (!json_is_string(v) ||
		    json_string_length(v) >= RPERF_CTRL_NAME_LEN ||
		    strlen(json_string_value(v)) != json_string_length(v))
			return EBADMSG;
		memcpy(f[i], json_string_value(v), json_string_length(v) + 1);
		if (check_name(f[i], RPERF_CTRL_NAME_LEN))
			return EBADMSG;
	}
	*n = (unsigned int)size;
	return 0;
}

static json_t *features_array(unsigned int n,
			      const char (*f)[RPERF_CTRL_NAME_LEN])
{
	json_t *a = json_array();
	unsigned int i;

	if (!a || n > RPERF_CTRL_MAX_FEATURES)
		goto fail;
	for (i = 0; i < n; i++) {
		if (check_name(f[i], RPERF_CTRL_NAME_LEN) ||
		    json_array_append_new(a, json_string(f[i])))
			goto fail;
	}
	return a;
fail:
	json_decref(a);
	return NULL;
}

bool rperf_ctrl_has_feature(const char (*features)[RPERF_CTRL_NAME_LEN],
			    unsigned int n, const char *name)
{
	unsigned int i;

	for (i = 0; i < n && i < RPERF_CTRL_MAX_FEATURES; i++)
		if (strcmp(features[i], name) == 0)
			return true;
	return false;
}

/* Add "version" and "features" to @obj (consumed), which holds its first
 * key unless @ret (that key's error), and return it in *out. */
static int hello_like(uint16_t version, unsigned int n,
		      const char (*f)[RPERF_CTRL_NAME_LEN], json_t *obj,
		      int ret, json_t **out)
{
	json_t *a = ret ? NULL : features_array(n, f);

	if (!ret && !a)
		ret = EINVAL;
	if (!ret)
		ret = rperf_ctrl_set_u64(obj, "version", version);
	if (!ret)
		ret = json_object_set(obj, "features", a) ? ENOMEM : 0;
	json_decref(a);
	return rperf_ctrl_json_out(obj, ret, out);
}

/* The keys HELLO and WELCOME share: "version" (1..65535), "features". */
static int get_hello_like(const json_t *obj, uint16_t *version, unsigned int *n,
			  char (*f)[RPERF_CTRL_NAME_LEN])
{
	uint64_t v;

	if (rperf_ctrl_get_u64(obj, "version", 1, UINT16_MAX, &v))
		return EBADMSG;
	*version = (uint16_t)v;
	return get_features(obj, n, f);
}

int rperf_ctrl_hello_encode(const struct rperf_ctrl_hello *h, json_t **out)
{
	json_t *obj;

	if (check_name(h->command, RPERF_CTRL_NAME_LEN))
		return EINVAL;
	obj = json_object();
	if (!obj)
		return ENOMEM;
	return hello_like(h->version, h->nfeatures, h->features, obj,
			  rperf_ctrl_set_str(obj, "command", h->command), out);
}

int rperf_ctrl_hello_decode(const struct rperf_ctrl_msg *m,
			    struct rperf_ctrl_hello *out)
{
	int ret = check_msg(m, RPERF_CTRL_HELLO);

	if (ret)
		return ret;
	memset(out, 0, sizeof(*out));
	ret = get_name(m->payload, "command", out->command);
	return ret ? ret :
		     get_hello_like(m->payload, &out->version, &out->nfeatures,
				    out->features);
}

int rperf_ctrl_welcome_encode(const struct rperf_ctrl_welcome *w, json_t **out)
{
	json_t *obj = json_object();

	if (!obj)
		return ENOMEM;
	return hello_like(w->version, w->nfeatures, w->features, obj,
			  rperf_ctrl_set_u64(obj, "max_size", w->max_size),
			  out);
}

int rperf_ctrl_welcome_decode(const struct rperf_ctrl_msg *m,
			      struct rperf_ctrl_welcome *out)
{
	int ret = check_msg(m, RPERF_CTRL_WELCOME);

	if (ret)
		return ret;
	memset(out, 0, sizeof(*out));
	if (rperf_ctrl_get_u64(m->payload, "max_size", 0, UINT64_MAX,
			       &out->max_size))
		return EBADMSG;
	return get_hello_like(m->payload, &out->version, &out->nfeatures,
			      out->features);
}

int rperf_ctrl_reason_encode(const char *reason, json_t **out)
{
	json_t *obj = json_object();
	int ret;

	if (!obj)
		return ENOMEM;
	ret = rperf_ctrl_set_str(obj, "reason", reason ? reason : "");
	return rperf_ctrl_json_out(obj, ret, out);
}

/* Copy at most buflen - 1 bytes; control characters become '?' (the reason
 * ends up on a terminal). */
int rperf_ctrl_reason_decode(const struct rperf_ctrl_msg *m, char *buf,
			     size_t buflen)
{
	const json_t *v;
	size_t n;
	int ret;

	if (!m || !buf || buflen == 0)
		return EINVAL;
	ret = check_msg(m, m->type == RPERF_CTRL_REFUSE ? RPERF_CTRL_REFUSE :
							  RPERF_CTRL_ERROR);
	if (ret)
		return ret;
	v = json_object_get(m->payload, "reason");
	if (!json_is_string(v))
		return EBADMSG;
	n = json_string_length(v);
	if (n >= buflen)
		n = buflen - 1;
	memcpy(buf, json_string_value(v), n);
	buf[n] = '\0';
	rperf_ctrl_text_clean(buf);
	return 0;
}
