/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The pre-shared key of `rperf run`/`rperf agent` (--key-file) and random
 * keys (rperf run --mpi's launch key). The key authenticates the TLS 1.3
 * channel (src/ctrl/ctrl_tls.h); no MAC of our own any more.
 */
#include "engine/proto.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/regular.h"
#include "util/err.h"

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
		if (n == RPERF_PROTO_MAX_KEY)
			return rperf_fail(err, errlen, EINVAL,
					  "key file %s is longer than %d bytes",
					  path, RPERF_PROTO_MAX_KEY);
		n += (size_t)r;
	}
	while (n && (key[n - 1] == '\n' || key[n - 1] == '\r' ||
		     key[n - 1] == ' ' || key[n - 1] == '\t'))
		n--;
	if (!n)
		return rperf_fail(err, errlen, EINVAL, "key file %s is empty",
				  path);
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
	if (rc && kind[0])
		return rperf_fail(err, errlen, rc,
				  "key file %s is %s; accepted: a regular file",
				  path, kind);
	if (rc)
		return rperf_fail(err, errlen, rc,
				  "cannot open key file %s: %s", path,
				  strerror(rc));
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
