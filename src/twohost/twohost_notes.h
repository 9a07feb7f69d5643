/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What a two-host client run (rperf lat, rperf bw) tells its report besides
 * the figures, and the command layer's hook at the start of each round.
 */
#ifndef RPERF_TWOHOST_NOTES_H
#define RPERF_TWOHOST_NOTES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/err.h"

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

struct rperf_twohost_notes {
	char warnings[RPERF_MAX_WARNINGS][256];
	size_t nwarnings;
	bool partial;
	char error[RPERF_ERR_MSG_LEN];
};

/* Add a warning; silently keeps the first ones when full. */
void rperf_twohost_warn(struct rperf_twohost_notes *n, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The report's view: @out[i] = n->warnings[i]; returns the count. */
size_t rperf_twohost_warnings(const struct rperf_twohost_notes *n,
			      const char *out[RPERF_MAX_WARNINGS]);

#endif
