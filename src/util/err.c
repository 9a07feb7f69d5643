/* SPDX-License-Identifier: BSD-2-Clause */
#include "util/err.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

int rperf_err_set(struct rperf_err *e, enum rperf_err_class cls, int rc,
		  const char *fmt, ...)
{
	va_list ap;

	e->rc = rc > 0 ? rc : EIO;
	e->cls = cls;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	return e->rc;
}

int rperf_fail(char *buf, size_t len, int rc, const char *fmt, ...)
{
	if (buf && len) {
		va_list ap;

		va_start(ap, fmt);
		vsnprintf(buf, len, fmt, ap);
		va_end(ap);
	}
	return rc;
}

void rperf_say(const struct rperf_say *s, const char *fmt, ...)
{
	char msg[RPERF_ERR_MSG_LEN + 128];
	va_list ap;

	if (!s || !s->line)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	s->line(s->arg, msg);
}
