/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rperf clock: a calibrated, cheap timestamp source for the hot loop.
 *
 * Sources:
 *   RPERF_CLOCK_TSC    x86 TSC; start read "lfence; rdtsc; lfence", end read
 *                      "rdtscp; lfence". Trusted only when CPUID
 *                      80000007H:EDX[8] (invariant TSC) is set and the kernel
 *                      clocksource is "tsc".
 *   RPERF_CLOCK_ARM    aarch64 CNTVCT_EL0 with isb; nominal frequency from
 *                      CNTFRQ_EL0, cross-checked by calibration.
 *   RPERF_CLOCK_POSIX  clock_gettime(CLOCK_MONOTONIC_RAW); ticks are ns.
 *
 * The hot loop keeps raw ticks (rperf_clock_start/rperf_clock_end); deltas
 * are converted to nanoseconds afterwards with rperf_clock_ticks_to_ns().
 */
#ifndef RPERF_CLOCK_H
#define RPERF_CLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#ifdef __cplusplus
extern "C" {
#endif

enum rperf_clock_source {
	RPERF_CLOCK_AUTO = 0, /* pick the best trusted source */
	RPERF_CLOCK_TSC,
	RPERF_CLOCK_ARM,
	RPERF_CLOCK_POSIX,
};

/*
 * Platform facts the source decision is made from. rperf_clock_probe() reads
 * them from the machine; tests inject their own.
 */
struct rperf_clock_platform {
	bool is_x86; /* built for and running on x86_64 */
	bool is_arm64; /* built for aarch64 */
	bool has_rdtscp; /* CPUID 80000001H:EDX[27] */
	bool invariant_tsc; /* CPUID 80000007H:EDX[8] */
	bool hypervisor; /* CPUID 1:ECX[31] */
	char clocksource[32]; /* /sys/.../current_clocksource, "" if unknown */
	/* CPUID leaf 0x15 (TSC/crystal ratio) and 0x16, 0 when not populated */
	uint32_t cpuid15_eax, cpuid15_ebx, cpuid15_ecx;
	uint32_t cpuid16_eax; /* base frequency in MHz */
	uint64_t cntfrq; /* aarch64 CNTFRQ_EL0, 0 elsewhere */
};

/* The decision: which source to use, whether it can be trusted, and why. */
struct rperf_clock_choice {
	enum rperf_clock_source source;
	bool trusted; /* false: results are to be read with care */
	bool forced; /* the user asked for this source */
	char reason[192]; /* human-readable; names flags and clocksource */
};

/* A calibrated clock. Filled by rperf_clock_init(); read-only afterwards. */
struct rperf_clock {
	enum rperf_clock_source source;
	bool trusted;
	bool forced;
	double hz; /* ticks per second */
	double ns_per_tick; /* 1e9 / hz */
	char method[64]; /* e.g. "calibrated:CLOCK_MONOTONIC_RAW" */
	double error_ppm; /* estimated calibration error */
	double cpuid15_hz; /* CPUID 0x15 nominal TSC Hz, 0 if not populated */
	double cross_check_ppm; /* calibrated vs nominal (0x15 / CNTFRQ), 0 if none */
	double calib_window_ms; /* last calibration window, 0 for posix */
	unsigned int calib_rounds; /* calibration windows measured */
	struct rperf_clock_platform platform;
	char reason[192]; /* why this source (copied from the choice) */
};

/* Self-test figures (rperf info). */
struct rperf_clock_selftest {
	double overhead_ns_min; /* back-to-back start+end read pair */
	double overhead_ns_median;
	double resolution_ns; /* smallest non-zero delta observed */
	double max_gap_ns; /* largest gap between reads while spinning */
	double spin_ms; /* how long we spun */
	uint64_t reads; /* reads made while spinning */
};

/* Name of a source ("tsc", "arm", "posix", "auto"). */
const char *rperf_clock_source_name(enum rperf_clock_source src);

/* Parse "tsc|arm|posix|auto". Returns 0 or EINVAL. */
int rperf_clock_source_parse(const char *name, enum rperf_clock_source *out);

/* Read the platform facts of this machine. Always succeeds (unknown = 0). */
void rperf_clock_probe(struct rperf_clock_platform *out);

/*
 * Decide which source to use for @want on platform @p. Pure function, unit
 * tested with injected platforms. Returns 0, or ENOTSUP when @want is a source
 * this platform cannot provide (e.g. "arm" on x86).
 */
int rperf_clock_decide(const struct rperf_clock_platform *p,
		       enum rperf_clock_source want,
		       struct rperf_clock_choice *out);

/*
 * Probe, decide and calibrate. @want is RPERF_CLOCK_AUTO unless the user forced
 * a source. Returns 0, EINVAL, ENOTSUP (source unavailable) or EIO (the tick
 * source does not advance). On ENOTSUP/EIO @clk is still a usable posix clock,
 * marked untrusted, with the reason in clk->reason.
 *
 * A calibration that never converges (two successive estimates within
 * ~10 ppm before the 250 ms cap) is NOT an error: rc is 0, @clk holds the
 * best estimate (last, longest window), trusted is false and clk->reason
 * says so. Callers that need a trusted clock check clk->trusted.
 */
int rperf_clock_init(struct rperf_clock *clk, enum rperf_clock_source want);

/* Run the self-test: read overhead, resolution, largest gap in @spin_ms. */
int rperf_clock_selftest(const struct rperf_clock *clk, double spin_ms,
			 struct rperf_clock_selftest *out);

/* Convert a tick delta (may be negative) to nanoseconds. */
static inline double rperf_clock_ticks_to_ns(const struct rperf_clock *clk,
					     int64_t ticks)
{
	return (double)ticks * clk->ns_per_tick;
}

/* ---- hot-path reads ---------------------------------------------------- */

static inline uint64_t rperf_clock_posix_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

#if defined(__x86_64__) || defined(__i386__)
static inline uint64_t rperf_tsc_start(void)
{
	uint32_t lo, hi;

	__asm__ __volatile__("lfence\n\trdtsc\n\tlfence"
			     : "=a"(lo), "=d"(hi)
			     :
			     : "memory");
	return ((uint64_t)hi << 32) | lo;
}

static inline uint64_t rperf_tsc_end(void)
{
	uint32_t lo, hi, aux;

	__asm__ __volatile__("rdtscp\n\tlfence"
			     : "=a"(lo), "=d"(hi), "=c"(aux)
			     :
			     : "memory");
	return ((uint64_t)hi << 32) | lo;
}
#endif

#if defined(__aarch64__)
static inline uint64_t rperf_cntvct(void)
{
	uint64_t v;

	__asm__ __volatile__("isb\n\tmrs %0, cntvct_el0\n\tisb"
			     : "=r"(v)
			     :
			     : "memory");
	return v;
}
#endif

/* Timestamp taken before the event being timed (e.g. before a post). */
static inline uint64_t rperf_clock_start(const struct rperf_clock *clk)
{
#if defined(__x86_64__) || defined(__i386__)
	if (clk->source == RPERF_CLOCK_TSC)
		return rperf_tsc_start();
#elif defined(__aarch64__)
	if (clk->source == RPERF_CLOCK_ARM)
		return rperf_cntvct();
#endif
	(void)clk;
	return rperf_clock_posix_now();
}

/* Timestamp taken after the event (e.g. when the poll that returns it returns). */
static inline uint64_t rperf_clock_end(const struct rperf_clock *clk)
{
#if defined(__x86_64__) || defined(__i386__)
	if (clk->source == RPERF_CLOCK_TSC)
		return rperf_tsc_end();
#elif defined(__aarch64__)
	if (clk->source == RPERF_CLOCK_ARM)
		return rperf_cntvct();
#endif
	(void)clk;
	return rperf_clock_posix_now();
}

#ifdef __cplusplus
}
#endif
#endif /* RPERF_CLOCK_H */
