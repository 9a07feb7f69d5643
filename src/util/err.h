/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Errors as values below the command layer: an errno, the class the command
 * layer maps to an exit status, and a one-line message; and the command
 * layer's printer of lines that cannot wait for a return value.
 */
#ifndef RPERF_UTIL_ERR_H
#define RPERF_UTIL_ERR_H

#include <stddef.h>

/* What kind of failure: the command layer maps these to exit statuses. */
enum rperf_err_class {
	RPERF_ERRC_OK = 0,
	RPERF_ERRC_THRESHOLD, /* a --max-* threshold exceeded */
	RPERF_ERRC_USAGE, /* bad input, or refused by the peer's checks */
	RPERF_ERRC_RUNTIME, /* runtime or peer failure */
	RPERF_ERRC_INTERNAL, /* out of memory, a bug */
};

#define RPERF_ERR_MSG_LEN 320

struct rperf_err {
	int rc; /* 0 or a positive errno */
	enum rperf_err_class cls;
	char msg[RPERF_ERR_MSG_LEN];
};

/* Set @e (@rc <= 0 becomes EIO) and return its rc. */
int rperf_err_set(struct rperf_err *e, enum rperf_err_class cls, int rc,
		  const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* Format a one-line message into @buf (when @buf and @len) and return @rc:
 * say why, then fail. */
int rperf_fail(char *buf, size_t len, int rc, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* The command layer's printer of one-line messages that cannot wait for a
 * return value (a file that could not be written, a threshold crossed, a
 * warning worth saying before a long run ends): library code never prints
 * them itself. @line NULL: the messages are dropped. */
struct rperf_say {
	void (*line)(void *arg, const char *msg);
	void *arg;
};

void rperf_say(const struct rperf_say *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
