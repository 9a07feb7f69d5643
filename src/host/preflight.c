/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The checks and what they look at:
 *   governor      cpu/cpuN/cpufreq/scaling_governor is "performance"
 *   cstates       no cpuidle state with exit latency > 5 us is enabled
 *   hypervisor    the "hypervisor" CPU flag is absent
 *   invariant_tsc constant_tsc + nonstop_tsc flags, clocksource "tsc"
 *   nic_local     the generator and its buffers are on the NIC's node
 *   irq_core      the generator's core takes none of the NIC's interrupts
 *   busy_cpu      the generator's CPU was < 10 % busy just before the run
 */
#include "host/preflight.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define DEEP_CSTATE_US 5
#define BUSY_PCT 10.0
#define STAT_MAX 65536

static void add(struct rperf_preflight *out, const char *check, bool ok,
		const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void add(struct rperf_preflight *out, const char *check, bool ok,
		const char *fmt, ...)
{
	struct rperf_check *c;
	va_list ap;

	if (out->n >= RPERF_MAX_CHECKS)
		return;
	c = &out->c[out->n++];
	snprintf(c->check, sizeof(c->check), "%s", check);
	c->ok = ok;
	va_start(ap, fmt);
	vsnprintf(c->detail, sizeof(c->detail), fmt, ap);
	va_end(ap);
}

static int cpu_of(const struct rperf_preflight_in *in)
{
	return in->cpu >= 0 && in->cpu < RPERF_MAX_CPUS ? in->cpu : 0;
}

static void check_governor(const struct rperf_preflight_in *in,
			   struct rperf_preflight *out)
{
	char rel[96], gov[64];
	int cpu = cpu_of(in);

	snprintf(rel, sizeof(rel),
		 "devices/system/cpu/cpu%d/cpufreq/scaling_governor", cpu);
	if (rperf_read_line(in->sys, rel, gov, sizeof(gov)))
		add(out, "governor", true,
		    "cpu %d: no cpufreq governor (frequency not scaled by the OS)",
		    cpu);
	else if (strcmp(gov, "performance") != 0)
		add(out, "governor", false,
		    "cpu %d: frequency governor '%s', not 'performance' (cpupower frequency-set -g performance)",
		    cpu, gov);
	else
		add(out, "governor", true, "cpu %d: performance", cpu);
}

static void check_cstates(const struct rperf_preflight_in *in,
			  struct rperf_preflight *out)
{
	char rel[128], name[32], deep[96] = "";
	long lat, dis;
	int cpu = cpu_of(in), s, found = 0;

	for (s = 0; s < 16; s++) {
		snprintf(rel, sizeof(rel),
			 "devices/system/cpu/cpu%d/cpuidle/state%d/latency",
			 cpu, s);
		if (rperf_read_long(in->sys, rel, &lat))
			break;
		snprintf(rel, sizeof(rel),
			 "devices/system/cpu/cpu%d/cpuidle/state%d/disable",
			 cpu, s);
		if (rperf_read_long(in->sys, rel, &dis))
			dis = 0;
		snprintf(rel, sizeof(rel),
			 "devices/system/cpu/cpu%d/cpuidle/state%d/name", cpu,
			 s);
		if (rperf_read_line(in->sys, rel, name, sizeof(name)))
			snprintf(name, sizeof(name), "state%d", s);
		if (lat > DEEP_CSTATE_US && !dis && !found++)
			snprintf(deep, sizeof(deep), "%s (exit latency %ld us)",
				 name, lat);
	}
	if (s == 0)
		add(out, "cstates", true, "cpu %d: no cpuidle states exposed",
		    cpu);
	else if (found)
		add(out, "cstates", false,
		    "cpu %d: deep C-state %s enabled (cpupower idle-set -D %d)",
		    cpu, deep, DEEP_CSTATE_US);
	else
		add(out, "cstates", true, "cpu %d: no state deeper than %d us",
		    cpu, DEEP_CSTATE_US);
}

/* Whether the "flags" line of cpuinfo has @flag; *@x86 if it has a line. */
static bool has_flag(const char *flags, const char *flag)
{
	size_t n = strlen(flag);
	const char *p = flags;

	while ((p = strstr(p, flag)) != NULL) {
		if ((p == flags || p[-1] == ' ' || p[-1] == '\t') &&
		    (p[n] == '\0' || p[n] == ' ' || p[n] == '\n'))
			return true;
		p += n;
	}
	return false;
}

/* The first "flags" line of cpuinfo into @buf; 0 if found. */
static int cpu_flags(const char *proc, char *buf, size_t len)
{
	char path[512];
	FILE *f;
	int rc = ENOENT;

	snprintf(path, sizeof(path), "%s/cpuinfo", proc);
	f = fopen(path, "re");
	if (!f)
		return errno ? errno : ENOENT;
	while (rc && fgets(buf, (int)len, f))
		if (strncmp(buf, "flags", 5) == 0 && strchr(buf, ':')) {
			memmove(buf, strchr(buf, ':') + 1,
				strlen(strchr(buf, ':') + 1) + 1);
			rc = 0;
		}
	fclose(f);
	return rc;
}

static void check_cpu_flags(const struct rperf_preflight_in *in,
			    struct rperf_preflight *out)
{
	char flags[4096];
	char cs[32] = "unknown";
	bool inv;

	(void)rperf_read_line(
		in->sys,
		"devices/system/clocksource/clocksource0/current_clocksource",
		cs, sizeof(cs));
	if (cpu_flags(in->proc, flags, sizeof(flags))) {
		add(out, "hypervisor", true, "no CPU flags to inspect");
		add(out, "invariant_tsc", true,
		    "no x86 TSC flags (not x86?); clocksource %s", cs);
		return;
	}
	if (has_flag(flags, "hypervisor"))
		add(out, "hypervisor", false,
		    "running under a hypervisor (CPU flag 'hypervisor'): timers and interrupts are virtual, never compare with bare metal");
	else
		add(out, "hypervisor", true,
		    "bare metal (no 'hypervisor' flag)");
	inv = has_flag(flags, "constant_tsc") && has_flag(flags, "nonstop_tsc");
	if (!inv || strcmp(cs, "tsc") != 0)
		add(out, "invariant_tsc", false,
		    "%s%s; kernel clocksource '%s'%s: the TSC is not trusted, rperf falls back to clock_gettime",
		    inv ? "invariant TSC" : "TSC not invariant (no ",
		    inv ? "" : "constant_tsc/nonstop_tsc flags)", cs,
		    strcmp(cs, "tsc") ? ", not 'tsc'" : "");
	else
		add(out, "invariant_tsc", true,
		    "invariant TSC, clocksource tsc");
}

static void check_nic(const struct rperf_preflight_in *in,
		      struct rperf_preflight *out)
{
	const struct rperf_placement *p = in->place;

	if (!in->nic) {
		add(out, "nic_local", true, "no RDMA device chosen");
		return;
	}
	if (in->nic->numa_node < 0) {
		add(out, "nic_local", true,
		    "the NIC's NUMA node is unknown (-1: no NUMA, or a device without one such as Soft-RoCE)");
		return;
	}
	if (!p)
		add(out, "nic_local", true,
		    "the NIC is on node %d (rperf lat/bw place themselves there by default)",
		    in->nic->numa_node);
	else if (p->remote)
		add(out, "nic_local", false,
		    "the NIC is on node %d, the generator on node %d and its buffers on node %d: remote placement (costs up to ~27%% of bandwidth)",
		    in->nic->numa_node, p->cpu_node, p->mem_node);
	else
		add(out, "nic_local", true, "generator and buffers on node %d",
		    in->nic->numa_node);
}

static void check_irq(const struct rperf_preflight_in *in,
		      struct rperf_preflight *out)
{
	struct rperf_cpuset core = { { 0 } };
	char rel[96], list[256];
	int cpu = cpu_of(in);

	if (!in->nic || rperf_cpuset_empty(&in->nic->irq_cpus)) {
		add(out, "irq_core", true, "no NIC interrupts found");
		return;
	}
	snprintf(rel, sizeof(rel),
		 "devices/system/cpu/cpu%d/topology/thread_siblings_list", cpu);
	if (rperf_read_line(in->sys, rel, list, sizeof(list)) ||
	    rperf_cpuset_parse(list, &core))
		rperf_cpuset_add(&core, cpu);
	if (rperf_cpuset_intersects(&core, &in->nic->irq_cpus))
		add(out, "irq_core", false,
		    "cpu %d shares a core (cpus %s) with the NIC's interrupts (cpus %s): pin with --cpu elsewhere or move the IRQs",
		    cpu, list[0] ? list : "?", in->nic->irq_cpus_str);
	else
		add(out, "irq_core", true,
		    "cpu %d: NIC interrupts on other cores (cpus %s)", cpu,
		    in->nic->irq_cpus_str);
}

/* Fields of the "cpuN " line of a /proc/stat snapshot: total and idle. */
static int stat_line(const char *stat, int cpu, uint64_t *total, uint64_t *idle)
{
	char key[24];
	const char *p;
	uint64_t v[8] = { 0 };
	int n = 0;

	snprintf(key, sizeof(key), "\ncpu%d ", cpu);
	if (strncmp(stat, key + 1, strlen(key + 1)) == 0) {
		p = stat + strlen(key + 1);
	} else {
		p = strstr(stat, key);
		if (!p)
			return EINVAL;
		p += strlen(key);
	}
	for (n = 0; n < 8; n++) {
		char *end;

		while (*p == ' ')
			p++;
		if (*p < '0' || *p > '9')
			break;
		v[n] = strtoull(p, &end, 10);
		p = end;
	}
	if (n < 4)
		return EINVAL;
	*total = 0;
	for (int i = 0; i < n; i++)
		*total += v[i];
	*idle = v[3] + v[4]; /* idle + iowait */
	return 0;
}

int rperf_stat_busy_pct(const char *before, const char *after, int cpu,
			double *pct)
{
	uint64_t t0, i0, t1, i1;

	if (stat_line(before, cpu, &t0, &i0) || stat_line(after, cpu, &t1, &i1))
		return EINVAL;
	if (t1 <= t0 || i1 < i0 || i1 - i0 > t1 - t0)
		return ENODATA;
	*pct = 100.0 * (double)((t1 - t0) - (i1 - i0)) / (double)(t1 - t0);
	return 0;
}

static int read_stat(const char *proc, char *buf, size_t len)
{
	char path[512];
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "%s/stat", proc);
	f = fopen(path, "re");
	if (!f)
		return errno ? errno : ENOENT;
	n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = '\0';
	return n ? 0 : EINVAL;
}

static void check_busy(const struct rperf_preflight_in *in,
		       struct rperf_preflight *out)
{
	struct timespec ts = { .tv_sec = in->busy_sample_ms / 1000,
			       .tv_nsec = (long)(in->busy_sample_ms % 1000) *
					  1000000L };
	char *a = malloc(STAT_MAX), *b = malloc(STAT_MAX);
	int cpu = cpu_of(in), rc = (a && b) ? 0 : ENOMEM;
	double pct = 0;

	if (!rc)
		rc = read_stat(in->proc, a, STAT_MAX);
	if (!rc && in->busy_sample_ms)
		nanosleep(&ts, NULL);
	if (!rc)
		rc = read_stat(in->proc, b, STAT_MAX);
	if (!rc)
		rc = rperf_stat_busy_pct(a, b, cpu, &pct);
	free(a);
	free(b);
	if (rc)
		add(out, "busy_cpu", true, "cpu %d: load not measured (%s)",
		    cpu, rc == ENODATA ? "no time passed" : strerror(rc));
	else if (pct >= BUSY_PCT)
		add(out, "busy_cpu", false,
		    "cpu %d was %.0f%% busy over %u ms before the run: another process runs there (pin with --cpu elsewhere)",
		    cpu, pct, in->busy_sample_ms);
	else
		add(out, "busy_cpu", true, "cpu %d: %.0f%% busy over %u ms",
		    cpu, pct, in->busy_sample_ms);
}

void rperf_preflight_run(const struct rperf_preflight_in *in,
			 struct rperf_preflight *out)
{
	memset(out, 0, sizeof(*out));
	check_governor(in, out);
	check_cstates(in, out);
	check_cpu_flags(in, out);
	check_nic(in, out);
	check_irq(in, out);
	check_busy(in, out);
}
