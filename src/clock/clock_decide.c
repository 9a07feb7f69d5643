// SPDX-License-Identifier: BSD-2-Clause
/*
 * rperf clock: source names and the (pure) source decision.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "clock/clock_priv.h"

static const char *const source_names[] = {
	[RPERF_CLOCK_AUTO] = "auto",
	[RPERF_CLOCK_TSC] = "tsc",
	[RPERF_CLOCK_ARM] = "arm",
	[RPERF_CLOCK_POSIX] = "posix",
};

#define N_SOURCES (sizeof(source_names) / sizeof(source_names[0]))

const char *rperf_clock_source_name(enum rperf_clock_source src)
{
	if ((unsigned int)src >= N_SOURCES)
		return "unknown";
	return source_names[src];
}

int rperf_clock_source_parse(const char *name, enum rperf_clock_source *out)
{
	size_t i;

	if (!name || !out)
		return EINVAL;
	for (i = 0; i < N_SOURCES; i++) {
		if (strcmp(name, source_names[i]) == 0) {
			*out = (enum rperf_clock_source)i;
			return 0;
		}
	}
	return EINVAL;
}

void rperf_clock_reason_add(char *buf, size_t size, const char *fmt, ...)
{
	size_t len = strnlen(buf, size);
	va_list ap;

	if (len + 1 >= size)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + len, size - len, fmt, ap);
	va_end(ap);
}

static bool tsc_trustworthy(const struct rperf_clock_platform *p)
{
	return p->invariant_tsc && strcmp(p->clocksource, "tsc") == 0;
}

/* "TSC not invariant (...); clocksource hpet" -- why the TSC is not trusted. */
static void tsc_distrust(const struct rperf_clock_platform *p, char *buf,
			 size_t size)
{
	const char *sep = "";

	if (!p->invariant_tsc) {
		rperf_clock_reason_add(
			buf, size,
			"TSC not invariant (no CPUID 80000007H:EDX[8])");
		sep = "; ";
	}
	if (strcmp(p->clocksource, "tsc") != 0)
		rperf_clock_reason_add(
			buf, size, "%skernel clocksource %s (not tsc)", sep,
			p->clocksource[0] ? p->clocksource : "unknown");
}

/* clock_gettime(CLOCK_MONOTONIC_RAW), trusted, for the reason @why. */
static int decide_posix(struct rperf_clock_choice *out, const char *why)
{
	out->source = RPERF_CLOCK_POSIX;
	out->trusted = true;
	rperf_clock_reason_add(out->reason, sizeof(out->reason), "%s", why);
	return 0;
}

static int decide_x86(const struct rperf_clock_platform *p, bool forced,
		      struct rperf_clock_choice *out)
{
	const char *hv = p->hypervisor ? " under a hypervisor" : "";

	if (!p->has_rdtscp) {
		rperf_clock_reason_add(out->reason, sizeof(out->reason),
				       "no RDTSCP (CPUID 80000001H:EDX[27]); ");
		if (forced)
			return ENOTSUP;
	} else if (tsc_trustworthy(p)) {
		out->source = RPERF_CLOCK_TSC;
		out->trusted = true;
		rperf_clock_reason_add(
			out->reason, sizeof(out->reason),
			"%sinvariant TSC (CPUID 80000007H:EDX[8]) and kernel clocksource tsc%s",
			forced ? "forced tsc: " : "", hv);
		return 0;
	} else if (forced) {
		out->source = RPERF_CLOCK_TSC;
		rperf_clock_reason_add(out->reason, sizeof(out->reason),
				       "forced tsc, NOT trusted: ");
		tsc_distrust(p, out->reason, sizeof(out->reason));
		rperf_clock_reason_add(out->reason, sizeof(out->reason), "%s",
				       hv);
		return 0;
	} else {
		tsc_distrust(p, out->reason, sizeof(out->reason));
		rperf_clock_reason_add(out->reason, sizeof(out->reason), "%s; ",
				       hv);
	}
	return decide_posix(out, "using clock_gettime(CLOCK_MONOTONIC_RAW)");
}

static void decide_arm(const struct rperf_clock_platform *p, bool forced,
		       struct rperf_clock_choice *out)
{
	out->source = RPERF_CLOCK_ARM;
	out->trusted = p->cntfrq != 0;
	if (p->cntfrq)
		rperf_clock_reason_add(
			out->reason, sizeof(out->reason),
			"%sgeneric timer CNTVCT_EL0, CNTFRQ_EL0 %llu Hz (%.1f ns resolution)",
			forced ? "forced arm: " : "",
			(unsigned long long)p->cntfrq, 1e9 / (double)p->cntfrq);
	else
		rperf_clock_reason_add(
			out->reason, sizeof(out->reason),
			"%sgeneric timer CNTVCT_EL0, NOT trusted: CNTFRQ_EL0 is 0 (frequency from calibration only)",
			forced ? "forced arm: " : "");
}

static int decide_unavailable(const struct rperf_clock_platform *p,
			      enum rperf_clock_source want,
			      struct rperf_clock_choice *out)
{
	rperf_clock_reason_add(out->reason, sizeof(out->reason),
			       "source %s not available on this platform (%s)",
			       rperf_clock_source_name(want),
			       p->is_x86   ? "x86_64" :
			       p->is_arm64 ? "aarch64" :
					     "no cycle counter");
	out->source = RPERF_CLOCK_POSIX;
	out->trusted = false;
	return ENOTSUP;
}

int rperf_clock_decide(const struct rperf_clock_platform *p,
		       enum rperf_clock_source want,
		       struct rperf_clock_choice *out)
{
	if (!p || !out || (unsigned int)want >= N_SOURCES)
		return EINVAL;
	memset(out, 0, sizeof(*out));
	out->forced = want != RPERF_CLOCK_AUTO;
	switch (want) {
	case RPERF_CLOCK_POSIX:
		return decide_posix(
			out,
			"forced posix: clock_gettime(CLOCK_MONOTONIC_RAW)");
	case RPERF_CLOCK_TSC:
		if (!p->is_x86)
			return decide_unavailable(p, want, out);
		if (decide_x86(p, true, out) == 0)
			return 0;
		out->source = RPERF_CLOCK_POSIX;
		return decide_unavailable(p, want, out);
	case RPERF_CLOCK_ARM:
		if (!p->is_arm64)
			return decide_unavailable(p, want, out);
		decide_arm(p, true, out);
		return 0;
	case RPERF_CLOCK_AUTO:
	default:
		break;
	}
	if (p->is_arm64) {
		decide_arm(p, false, out);
		return 0;
	}
	if (p->is_x86)
		return decide_x86(p, false, out);
	return decide_posix(
		out,
		"no cycle counter on this platform; using clock_gettime(CLOCK_MONOTONIC_RAW)");
}
