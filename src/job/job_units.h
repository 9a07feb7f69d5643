/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The unit parsers the job file needs. They are defined in src/cli/units.c
 * (same library); the declarations are repeated here so that the job module
 * does not include the command layer's headers. They belong below the
 * command layer: once units.c moves to a shared module, include its header
 * here instead. tests/unit/test_job.c includes both headers, so a change of
 * signature in cli/units.h breaks that build instead of going unnoticed.
 */
#ifndef RPERF_JOB_UNITS_H
#define RPERF_JOB_UNITS_H

#include <stddef.h>
#include <stdint.h>

int rperf_parse_size(const char *s, uint64_t min, uint64_t max, uint64_t *out,
		     char *err, size_t errlen);
int rperf_parse_count(const char *s, uint64_t min, uint64_t max, uint64_t *out,
		      char *err, size_t errlen);
int rperf_parse_int(const char *s, int64_t min, int64_t max, int64_t *out,
		    char *err, size_t errlen);
int rperf_parse_time(const char *s, uint64_t bare_unit_ns, uint64_t min_ns,
		     uint64_t max_ns, uint64_t *out_ns, char *err,
		     size_t errlen);
int rperf_parse_rate(const char *s, double min, double max, double *out_bps,
		     char *err, size_t errlen);

#endif
