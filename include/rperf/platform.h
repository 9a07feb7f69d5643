/* SPDX-License-Identifier: BSD-2-Clause */
/* Host and platform metadata carried by every report. */
#ifndef RPERF_PLATFORM_H
#define RPERF_PLATFORM_H

#ifdef __cplusplus
extern "C" {
#endif

struct rperf_platform {
	char hostname[256];
	char kernel[160]; /* uname: sysname release version */
	char arch[32]; /* uname machine */
	char os[128]; /* PRETTY_NAME from /etc/os-release, "" if unknown */
	char cpu_model[128]; /* model name (never its "cpu MHz") */
	long cpus_online;
	int numa_nodes; /* 0 if unknown */
	char rperf_version[32];
	char ibverbs_version[32]; /* from pkg-config at build time */
	char rdmacm_version[32];
	char json_library[48]; /* e.g. "jansson 2.14" */
	char timestamp[40]; /* ISO 8601 UTC at collection */
};

/* Fill @out. Unknown fields are left empty; returns 0 (never fails hard). */
int rperf_platform_collect(struct rperf_platform *out);

#ifdef __cplusplus
}
#endif
#endif
