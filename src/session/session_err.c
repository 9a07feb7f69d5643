/* SPDX-License-Identifier: BSD-2-Clause */
#include "session/session_err.h"

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

void rperf_session_warn(struct rperf_session_notes *n, const char *fmt, ...)
{
	va_list ap;

	if (n->nwarnings >= RPERF_MAX_WARNINGS)
		return;
	va_start(ap, fmt);
	vsnprintf(n->warnings[n->nwarnings++], sizeof(n->warnings[0]), fmt, ap);
	va_end(ap);
}

size_t rperf_session_warnings(const struct rperf_session_notes *n,
			      const char *out[RPERF_MAX_WARNINGS])
{
	for (size_t i = 0; i < n->nwarnings; i++)
		out[i] = n->warnings[i];
	return n->nwarnings;
}
