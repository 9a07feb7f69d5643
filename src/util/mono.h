/* SPDX-License-Identifier: BSD-2-Clause */
/* CLOCK_MONOTONIC in ns: the one clock of deadlines, intervals and waits
 * (not of measurements: those use src/clock). */
#ifndef RPERF_UTIL_MONO_H
#define RPERF_UTIL_MONO_H

#include <stdint.h>
#include <time.h>

static inline uint64_t rperf_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

#endif
