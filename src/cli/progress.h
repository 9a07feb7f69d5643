/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The progress line of long runs (-a, --sizes, --repeat, -D, rperf run
 * --sweep): what runs, k of N, elapsed and an estimate of what is left, on
 * stderr when it is a terminal and --quiet is not given, redrawn in place
 * every second from the second second on, and erased at the end; never on
 * stdout, in JSON or in a file.
 */
#ifndef RPERF_CLI_PROGRESS_H
#define RPERF_CLI_PROGRESS_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "job/cmdline.h"

struct rperf_progress {
	FILE *f; /* NULL: off (every call is then a no-op) */
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	bool stop, drawn, paused;
	char what[32]; /* "rperf lat" */
	char item[64]; /* "256 B rperf" */
	size_t k, n; /* item k (1-based) of n; k = 0: not started */
	double t0, tk; /* monotonic s: the start, item k's start */
	double per_item_s; /* an item's known length (-D), 0: unknown */
};

/* The line is wanted: stderr is a terminal and no --quiet. */
bool rperf_progress_wanted(const struct rperf_cmdline *cfg);

/* Start the line for @n items of @per_item_s each (0: unknown) on @f
 * (NULL: off). 0 or an errno (the line is then off). */
int rperf_progress_start(struct rperf_progress *p, FILE *f, const char *what,
			 size_t n, double per_item_s);
/* Item @k (0-based) begins, described by @item. */
void rperf_progress_item(struct rperf_progress *p, size_t k, const char *item);
/* Erase the line and draw nothing until the next item (the caller prints
 * to the terminal meanwhile). */
void rperf_progress_pause(struct rperf_progress *p);
/* Stop the thread and erase the line. */
void rperf_progress_end(struct rperf_progress *p);

/* "about 1 min 5 s left" etc.: the line's text (tested) at time @now. */
void rperf_progress_text(const struct rperf_progress *p, double now, char *buf,
			 size_t len);

#endif
