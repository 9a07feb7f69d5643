/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Strict number parsing with unit suffixes. Every parser rejects empty input,
 * trailing junk, signs where they make no sense, overflow and values outside
 * [min, max]. On error it returns EINVAL or ERANGE and writes "<what is
 * wrong>; <what is accepted>" to @err (no option name, no newline).
 *
 *   sizes   binary: 64, 4K, 4KiB, 4Ki, 1M, 2G, 1T (K = KiB = 1024); optional B
 *   counts  plain decimal integers, optional decimal suffix k/M/G (10^3...)
 *   times   ns, us, ms, s, m (minutes); a bare number uses @bare_unit_ns
 *   rates   decimal bit/s: 10M = 10Mbit = 10Mbps = 10^7 bit/s; k, M, G, T
 */
#ifndef RPERF_UTIL_UNITS_H
#define RPERF_UTIL_UNITS_H

#include <stddef.h>
#include <stdint.h>

int rperf_parse_size(const char *s, uint64_t min, uint64_t max, uint64_t *out,
		     char *err, size_t errlen);
int rperf_parse_count(const char *s, uint64_t min, uint64_t max, uint64_t *out,
		      char *err, size_t errlen);
int rperf_parse_int(const char *s, int64_t min, int64_t max, int64_t *out,
		    char *err, size_t errlen);
/* @ns in the largest unit that divides it, as rperf_parse_time reads it
 * back: 1500us, 2s, 5m, 0ns */
void rperf_fmt_time(char *buf, size_t len, uint64_t ns);
int rperf_parse_time(const char *s, uint64_t bare_unit_ns, uint64_t min_ns,
		     uint64_t max_ns, uint64_t *out_ns, char *err,
		     size_t errlen);
int rperf_parse_rate(const char *s, double min, double max, double *out_bps,
		     char *err, size_t errlen);
int rperf_parse_double(const char *s, double min, double max, double *out,
		       char *err, size_t errlen);

#endif
