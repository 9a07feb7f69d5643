/* SPDX-License-Identifier: BSD-2-Clause */
/* CPU time (user + system) of the process or of the calling thread. */
#ifndef RPERF_HOST_CPUTIME_H
#define RPERF_HOST_CPUTIME_H

double rperf_cpu_seconds_thread(void); /* RUSAGE_THREAD */

#endif
