/* SPDX-License-Identifier: BSD-2-Clause */
#define _GNU_SOURCE /* RUSAGE_THREAD */
#include "host/cputime.h"

#include <sys/resource.h>

static double cpu_seconds(int who)
{
	struct rusage ru;

	if (getrusage(who, &ru))
		return 0;
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
	       (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

double rperf_cpu_seconds_thread(void)
{
	return cpu_seconds(RUSAGE_THREAD);
}
