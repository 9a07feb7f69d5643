/* SPDX-License-Identifier: BSD-2-Clause */
#include "twohost/twohost_notes.h"

#include <stdarg.h>
#include <stdio.h>

void rperf_twohost_warn(struct rperf_twohost_notes *n, const char *fmt, ...)
{
	va_list ap;

	if (n->nwarnings >= RPERF_MAX_WARNINGS)
		return;
	va_start(ap, fmt);
	vsnprintf(n->warnings[n->nwarnings++], sizeof(n->warnings[0]), fmt, ap);
	va_end(ap);
}

size_t rperf_twohost_warnings(const struct rperf_twohost_notes *n,
			      const char *out[RPERF_MAX_WARNINGS])
{
	for (size_t i = 0; i < n->nwarnings; i++)
		out[i] = n->warnings[i];
	return n->nwarnings;
}
