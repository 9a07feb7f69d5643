/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Errors as values below the command layer: an errno, the class the command
 * layer maps to an exit status, and a one-line message. And the notes a
 * two-host client run collects for its report (warnings, partial, error).
 */
#ifndef RPERF_SESSION_ERR_H
#define RPERF_SESSION_ERR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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

/* The command layer's hook at the start of each round of a client run
 * (a size, a repeat, a method): its progress line. @start NULL: none. */
struct rperf_round_hook {
	void (*start)(void *arg, size_t i, size_t n, uint64_t size);
	void *arg;
};

static inline void rperf_round_start(const struct rperf_round_hook *h, size_t i,
				     size_t n, uint64_t size)
{
	if (h->start)
		h->start(h->arg, i, n, size);
}

#define RPERF_MAX_WARNINGS 16

/* What a client run tells its report besides the figures. */
struct rperf_session_notes {
	char warnings[RPERF_MAX_WARNINGS][256];
	size_t nwarnings;
	bool partial;
	char error[RPERF_ERR_MSG_LEN];
};

/* Add a warning; silently keeps the first ones when full. */
void rperf_session_warn(struct rperf_session_notes *n, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The report's view: @out[i] = n->warnings[i]; returns the count. */
size_t rperf_session_warnings(const struct rperf_session_notes *n,
			      const char *out[RPERF_MAX_WARNINGS]);

#endif
