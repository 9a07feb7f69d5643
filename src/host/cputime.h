/* SPDX-License-Identifier: BSD-2-Clause */
/* CPU time (user + system) of the process or of the calling thread. */
#ifndef RPERF_HOST_CPUTIME_H
#define RPERF_HOST_CPUTIME_H

/* Seconds of CPU used so far; 0 when the kernel cannot tell. */
double rperf_cpu_seconds_process(void);
double rperf_cpu_seconds_thread(void); /* RUSAGE_THREAD */

#endif
