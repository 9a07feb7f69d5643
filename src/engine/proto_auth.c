/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Agent authentication: a nonce from getrandom() in WELCOME, the
 * controller's HMAC-SHA256 over it in AUTH (OpenSSL libcrypto), checked in
 * constant time; the pre-shared key file; the WELCOME/AUTH payloads.
 */
#include "engine/proto.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include "util/regular.h"

int rperf_proto_nonce(uint8_t nonce[RPERF_PROTO_NONCE_LEN])
{
	size_t got = 0;

	while (got < RPERF_PROTO_NONCE_LEN) {
		ssize_t n =
			getrandom(nonce + got, RPERF_PROTO_NONCE_LEN - got, 0);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return errno;
		}
		got += (size_t)n;
	}
	return 0;
}

int rperf_proto_hmac_sha256(const uint8_t *key, size_t keylen,
			    const uint8_t *msg, size_t msglen,
			    uint8_t out[RPERF_PROTO_MAC_LEN])
{
	unsigned int len = 0;

	if (!key || !keylen || keylen > (size_t)INT32_MAX || !msg || !out)
		return EINVAL;
	if (!HMAC(EVP_sha256(), key, (int)keylen, msg, msglen, out, &len) ||
	    len != RPERF_PROTO_MAC_LEN)
		return EIO;
	return 0;
}

int rperf_proto_mac(const uint8_t *key, size_t keylen,
		    const uint8_t nonce[RPERF_PROTO_NONCE_LEN],
		    uint8_t out[RPERF_PROTO_MAC_LEN])
{
	uint8_t msg[RPERF_PROTO_NONCE_LEN + sizeof(RPERF_PROTO_AUTH_CONTEXT)];
	size_t ctx = strlen(RPERF_PROTO_AUTH_CONTEXT);

	if (!nonce)
		return EINVAL;
	memcpy(msg, nonce, RPERF_PROTO_NONCE_LEN);
	memcpy(msg + RPERF_PROTO_NONCE_LEN, RPERF_PROTO_AUTH_CONTEXT, ctx);
	return rperf_proto_hmac_sha256(key, keylen, msg,
				       RPERF_PROTO_NONCE_LEN + ctx, out);
}

bool rperf_proto_mac_ok(const uint8_t *key, size_t keylen,
			const uint8_t nonce[RPERF_PROTO_NONCE_LEN],
			const uint8_t mac[RPERF_PROTO_MAC_LEN])
{
	uint8_t want[RPERF_PROTO_MAC_LEN];
	bool ok;

	if (rperf_proto_mac(key, keylen, nonce, want))
		return false;
	ok = CRYPTO_memcmp(want, mac, RPERF_PROTO_MAC_LEN) == 0;
	OPENSSL_cleanse(want, sizeof(want));
	return ok;
}

static int key_read(int fd, const char *path, uint8_t *key, size_t *keylen,
		    char *err, size_t errlen)
{
	size_t n = 0;
	ssize_t r;

	for (;;) {
		uint8_t extra;

		if (n == RPERF_PROTO_MAX_KEY)
			r = read(fd, &extra, 1);
		else
			r = read(fd, key + n, RPERF_PROTO_MAX_KEY - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			snprintf(err, errlen, "key file %s: %s", path,
				 strerror(errno));
			return errno;
		}
		if (r == 0)
			break;
		if (n == RPERF_PROTO_MAX_KEY) {
			snprintf(err, errlen,
				 "key file %s is longer than %d bytes", path,
				 RPERF_PROTO_MAX_KEY);
			return EINVAL;
		}
		n += (size_t)r;
	}
	while (n && (key[n - 1] == '\n' || key[n - 1] == '\r' ||
		     key[n - 1] == ' ' || key[n - 1] == '\t'))
		n--;
	if (!n) {
		snprintf(err, errlen, "key file %s is empty", path);
		return EINVAL;
	}
	*keylen = n;
	return 0;
}

int rperf_proto_key_load(const char *path, uint8_t *key, size_t *keylen,
			 char *err, size_t errlen)
{
	struct stat st;
	const char *kind;
	int fd, rc;

	if (!path || !key || !keylen)
		return EINVAL;
	rc = rperf_open_regular(path, &fd, &kind);
	if (rc && kind[0]) {
		snprintf(err, errlen,
			 "key file %s is %s; accepted: a regular file", path,
			 kind);
		return rc;
	}
	if (rc) {
		snprintf(err, errlen, "cannot open key file %s: %s", path,
			 strerror(rc));
		return rc;
	}
	if (fstat(fd, &st)) {
		rc = errno;
		snprintf(err, errlen, "key file %s: %s", path, strerror(rc));
	} else if (st.st_mode & (S_IRWXG | S_IRWXO)) {
		rc = EACCES;
		snprintf(err, errlen,
			 "key file %s is accessible by group or others "
			 "(mode %03o); run: chmod 600 %s",
			 path, (unsigned int)(st.st_mode & 0777), path);
	} else {
		rc = key_read(fd, path, key, keylen, err, errlen);
	}
	close(fd);
	return rc;
}

int rperf_proto_welcome_encode(const struct rperf_ctrl_welcome *w,
			       const uint8_t nonce[RPERF_PROTO_NONCE_LEN],
			       bool auth, json_t **out)
{
	char hex[2 * RPERF_PROTO_NONCE_LEN + 1];
	json_t *o = NULL;
	int rc;

	if (!w || !nonce || !out)
		return EINVAL;
	rc = rperf_ctrl_welcome_encode(w, &o);
	if (rc)
		return rc;
	rperf_ctrl_hex(nonce, RPERF_PROTO_NONCE_LEN, hex);
	if (rperf_ctrl_set_str(o, "nonce", hex) ||
	    rperf_ctrl_set_bool(o, "auth", auth)) {
		json_decref(o);
		return ENOMEM;
	}
	*out = o;
	return 0;
}

int rperf_proto_welcome_decode(const struct rperf_ctrl_msg *m,
			       struct rperf_ctrl_welcome *w,
			       uint8_t nonce[RPERF_PROTO_NONCE_LEN], bool *auth)
{
	char hex[2 * RPERF_PROTO_NONCE_LEN + 1];
	int rc;

	if (!m || !w || !nonce || !auth)
		return EINVAL;
	rc = rperf_ctrl_welcome_decode(m, w);
	if (rc)
		return rc;
	if (rperf_ctrl_get_str(m->payload, "nonce", hex, sizeof(hex)) ||
	    rperf_ctrl_unhex(hex, nonce, RPERF_PROTO_NONCE_LEN) ||
	    rperf_ctrl_get_bool(m->payload, "auth", auth))
		return EBADMSG;
	return 0;
}

int rperf_proto_auth_encode(const uint8_t *mac, json_t **out)
{
	char hex[2 * RPERF_PROTO_MAC_LEN + 1] = "";
	json_t *o;

	if (!out)
		return EINVAL;
	if (mac)
		rperf_ctrl_hex(mac, RPERF_PROTO_MAC_LEN, hex);
	o = json_object();
	if (!o || rperf_ctrl_set_str(o, "mac", hex)) {
		json_decref(o);
		return ENOMEM;
	}
	*out = o;
	return 0;
}

int rperf_proto_auth_decode(const struct rperf_ctrl_msg *m,
			    uint8_t mac[RPERF_PROTO_MAC_LEN], bool *has_mac)
{
	char hex[2 * RPERF_PROTO_MAC_LEN + 1];

	if (!m || !mac || !has_mac)
		return EINVAL;
	if (m->type != RPERF_CTRL_AUTH)
		return EPROTO;
	if (!json_is_object(m->payload) ||
	    rperf_ctrl_get_str(m->payload, "mac", hex, sizeof(hex)))
		return EBADMSG;
	if (!hex[0]) {
		*has_mac = false;
		memset(mac, 0, RPERF_PROTO_MAC_LEN);
		return 0;
	}
	if (rperf_ctrl_unhex(hex, mac, RPERF_PROTO_MAC_LEN))
		return EBADMSG;
	*has_mac = true;
	return 0;
}
