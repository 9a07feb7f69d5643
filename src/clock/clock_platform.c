// SPDX-License-Identifier: BSD-2-Clause
/*
 * rperf clock: read the platform facts (CPUID, kernel clocksource, CNTFRQ).
 * Never reads "cpu MHz".
 */
#include <stdio.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "clock/clock_priv.h"

#define RPERF_CLOCKSOURCE_PATH \
	"/sys/devices/system/clocksource/clocksource0/current_clocksource"

static void probe_clocksource(char *buf, size_t size)
{
	FILE *f = fopen(RPERF_CLOCKSOURCE_PATH, "re");
	size_t len;

	buf[0] = '\0';
	if (!f)
		return;
	if (!fgets(buf, (int)size, f))
		buf[0] = '\0';
	fclose(f);
	len = strcspn(buf, " \t\r\n");
	buf[len] = '\0';
}

#if defined(__x86_64__) || defined(__i386__)
static void probe_x86(struct rperf_clock_platform *out)
{
	unsigned int eax, ebx, ecx, edx;
	unsigned int max_std = __get_cpuid_max(0, NULL);
	unsigned int max_ext = __get_cpuid_max(0x80000000u, NULL);

	out->is_x86 = true;
	if (__get_cpuid(1, &eax, &ebx, &ecx, &edx))
		out->hypervisor = (ecx >> 31) & 1u;
	if (max_ext >= 0x80000001u &&
	    __get_cpuid(0x80000001u, &eax, &ebx, &ecx, &edx))
		out->has_rdtscp = (edx >> 27) & 1u;
	if (max_ext >= 0x80000007u &&
	    __get_cpuid(0x80000007u, &eax, &ebx, &ecx, &edx))
		out->invariant_tsc = (edx >> 8) & 1u;
	if (max_std >= 0x15 &&
	    __get_cpuid_count(0x15, 0, &eax, &ebx, &ecx, &edx)) {
		out->cpuid15_eax = eax;
		out->cpuid15_ebx = ebx;
		out->cpuid15_ecx = ecx;
	}
	if (max_std >= 0x16 &&
	    __get_cpuid_count(0x16, 0, &eax, &ebx, &ecx, &edx))
		out->cpuid16_eax = eax & 0xffffu;
}
#endif

#if defined(__aarch64__)
static void probe_arm64(struct rperf_clock_platform *out)
{
	uint64_t frq;

	__asm__ __volatile__("mrs %0, cntfrq_el0" : "=r"(frq));
	out->is_arm64 = true;
	out->cntfrq = frq & 0xffffffffull; /* upper 32 bits are RES0 */
}
#endif

void rperf_clock_probe(struct rperf_clock_platform *out)
{
	memset(out, 0, sizeof(*out));
#if defined(__x86_64__) || defined(__i386__)
	probe_x86(out);
#endif
#if defined(__aarch64__)
	probe_arm64(out);
#endif
	probe_clocksource(out->clocksource, sizeof(out->clocksource));
}

double rperf_clock_cpuid15_hz(const struct rperf_clock_platform *p)
{
	if (!p->cpuid15_eax || !p->cpuid15_ebx)
		return 0.0; /* ratio not enumerated */
	if (p->cpuid15_ecx)
		return (double)p->cpuid15_ecx * (double)p->cpuid15_ebx /
		       (double)p->cpuid15_eax;
	/*
	 * Crystal not enumerated: as Linux does, derive it from the 0x16 base
	 * frequency, which makes the nominal TSC the base frequency itself.
	 */
	if (p->cpuid16_eax)
		return (double)p->cpuid16_eax * 1e6;
	return 0.0;
}
