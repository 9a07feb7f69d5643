// SPDX-License-Identifier: BSD-2-Clause
/*
 * Host and platform metadata (rperf_platform_collect). Every field is best
 * effort: what cannot be read stays empty (or 0) and nothing fails.
 * The CPU model comes from the "model name" line of /proc/cpuinfo (on arm64,
 * which has none, from "CPU implementer"/"CPU part"); "cpu MHz" is never
 * read: it is the current, scaled frequency, not a property of the CPU.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>
#include <numa.h>

#include <rperf/platform.h>

#include "host/sysread.h"
#include "version.h"

/* Copy @src into @dst[@len], truncating, always terminated. */
static void copy_str(char *dst, size_t len, const char *src)
{
	size_t n = strlen(src);

	if (n >= len)
		n = len - 1;

	memcpy(dst, src, n);
	dst[n] = '\0';
}

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

/* Value of "key<spaces>:<value>" lines of /proc/cpuinfo; 0 if found. */
static int cpuinfo_value(const char *key, char *out, size_t len)
{
	char line[512];
	size_t klen = strlen(key);
	FILE *f = fopen("/proc/cpuinfo", "re");
	int rc = -1;

	if (!f)
		return -1;
	while (rc && fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (!colon || strncmp(line, key, klen) != 0)
			continue;
		*colon = '\0';
		if (strcmp(trim(line), key) != 0)
			continue;
		copy_str(out, len, trim(colon + 1));
		rc = 0;
	}
	fclose(f);
	return rc;
}

static void collect_cpu_model(struct rperf_platform *p)
{
	char impl[32] = "", part[32] = "";

	if (cpuinfo_value("model name", p->cpu_model, sizeof(p->cpu_model)) ==
	    0)
		return;
	if (cpuinfo_value("CPU implementer", impl, sizeof(impl)) == 0 &&
	    cpuinfo_value("CPU part", part, sizeof(part)) == 0) {
		if (snprintf(p->cpu_model, sizeof(p->cpu_model),
			     "CPU implementer %s part %s", impl, part) < 0)
			p->cpu_model[0] = '\0';
	}
}

/* PRETTY_NAME from os-release(5): KEY=value, value possibly quoted. */
static void collect_os(struct rperf_platform *p)
{
	static const char *const files[] = { "/etc/os-release",
					     "/usr/lib/os-release" };
	char line[512];
	size_t i;

	for (i = 0; i < sizeof(files) / sizeof(files[0]) && !p->os[0]; i++) {
		FILE *f = fopen(files[i], "re");

		if (!f)
			continue;
		while (fgets(line, sizeof(line), f)) {
			char *v, *e;

			if (strncmp(line, "PRETTY_NAME=", 12) != 0)
				continue;
			v = trim(line + 12);
			e = v + strlen(v);
			if ((*v == '"' || *v == '\'') && e > v + 1 &&
			    e[-1] == *v) {
				e[-1] = '\0';
				v++;
			}
			copy_str(p->os, sizeof(p->os), v);
			break;
		}
		fclose(f);
	}
}

static void collect_uname(struct rperf_platform *p)
{
	struct utsname u;

	if (gethostname(p->hostname, sizeof(p->hostname) - 1) != 0)
		p->hostname[0] = '\0';
	p->hostname[sizeof(p->hostname) - 1] = '\0';
	if (uname(&u) != 0)
		return;
	if (!p->hostname[0])
		copy_str(p->hostname, sizeof(p->hostname), u.nodename);
	if (snprintf(p->kernel, sizeof(p->kernel), "%s %s %s", u.sysname,
		     u.release, u.version) < 0)
		p->kernel[0] = '\0';
	copy_str(p->arch, sizeof(p->arch), u.machine);
}

static void collect_timestamp(struct rperf_platform *p)
{
	time_t now = time(NULL);
	struct tm tm;

	if (now == (time_t)-1 || !gmtime_r(&now, &tm))
		return;
	if (strftime(p->timestamp, sizeof(p->timestamp), "%Y-%m-%dT%H:%M:%SZ",
		     &tm) == 0)
		p->timestamp[0] = '\0';
}

/*
 * rdma-core's release from libibverbs' version: "1.14.44.0" is rdma-core
 * 44.0 (libibverbs 1.MINOR.RELEASE.PATCH since rdma-core v13).
 */
static void collect_rdma_core(struct rperf_platform *p)
{
	unsigned int maj, min, rel, patch;

	if (sscanf(p->ibverbs_version, "%u.%u.%u.%u", &maj, &min, &rel,
		   &patch) == 4 &&
	    snprintf(p->rdma_core_version, sizeof(p->rdma_core_version),
		     "%u.%u", rel, patch) < 0)
		p->rdma_core_version[0] = '\0';
}

/* "node0: cpus 0-7, 31.3 GiB; node1: ..." from libnuma. */
static void collect_numa(struct rperf_platform *p)
{
	struct bitmask *cpus;
	size_t used = 0, len = sizeof(p->numa_summary);
	int maxnode;

	if (numa_available() < 0)
		return;
	p->numa_nodes = numa_num_configured_nodes();
	cpus = numa_allocate_cpumask();
	if (!cpus)
		return;
	maxnode = numa_max_node();
	for (int n = 0; n <= maxnode && used < len; n++) {
		struct rperf_cpuset set = { { 0 } };
		char list[64];
		long long size = numa_node_size64(n, NULL);

		if (size < 0 || numa_node_to_cpus(n, cpus))
			continue;
		for (unsigned int c = 0; c < cpus->size && c < RPERF_MAX_CPUS;
		     c++)
			if (numa_bitmask_isbitset(cpus, c))
				rperf_cpuset_add(&set, (int)c);
		rperf_cpuset_format(&set, list, sizeof(list));
		used += (size_t)snprintf(p->numa_summary + used, len - used,
					 "%snode%d: cpus %s, %.1f GiB",
					 used ? "; " : "", n,
					 list[0] ? list : "none",
					 (double)size / (1 << 30));
	}
	numa_bitmask_free(cpus);
}

int rperf_platform_collect(struct rperf_platform *out)
{
	long n;

	memset(out, 0, sizeof(*out));
	collect_uname(out);
	collect_os(out);
	collect_cpu_model(out);
	n = sysconf(_SC_NPROCESSORS_ONLN);
	out->cpus_online = n > 0 ? n : 0;
	collect_numa(out);
	copy_str(out->rperf_version, sizeof(out->rperf_version), RPERF_VERSION);
	copy_str(out->ibverbs_version, sizeof(out->ibverbs_version),
		 RPERF_IBVERBS_VERSION);
	copy_str(out->rdmacm_version, sizeof(out->rdmacm_version),
		 RPERF_RDMACM_VERSION);
	copy_str(out->json_library, sizeof(out->json_library),
		 "jansson " JANSSON_VERSION);
	collect_rdma_core(out);
	collect_timestamp(out);
	return 0;
}
