/* SPDX-License-Identifier: BSD-2-Clause */
/* rperf compare: the loaded documents, shared by compare_load.c and
 * compare.c. */
#ifndef RPERF_COMPARE_PRIV_H
#define RPERF_COMPARE_PRIV_H

#include "compare/compare.h"

#define CMP_MAX_SERIES 256

/* One figure of a series: its key and value (ns). */
struct cmp_value {
	char key[16];
	int64_t v;
	bool exact; /* min, max: no bucket error */
	bool unreliable;
};

/* One RTT distribution of a report. */
struct cmp_stats {
	char name[RPERF_CMP_NAME_LEN];
	uint64_t count; /* 0: not reported */
	double rel_error; /* the histogram's relative bucket error */
	bool rel_assumed; /* the report did not say: default assumed */
	double clock_ppm; /* error of the clock that timed it */
	size_t nvalues;
	struct cmp_value values[RPERF_CMP_MAX_POINTS];
};

struct rperf_cmp_doc {
	char path[256];
	char command[8];
	char figure[16];
	bool clock_unknown; /* no clock error in the report: 0 assumed */
	size_t nstats;
	struct cmp_stats stats[CMP_MAX_SERIES];
};

/* Split "FILE#VALUE" (a point of a sweep) into @file and @value (NULL
 * without '#', or when @arg itself names a file): false when too long. */
bool rperf_cmp_split(const char *arg, char *file, size_t filelen,
		     const char **value);
/* The report to read from @root: @root itself, or the point of a sweep
 * report whose "value" is @value; 0 or EBADMSG with @err (a sweep without
 * a value, a value without a sweep, no such point). */
int rperf_cmp_pick(const json_t *root, const char *path, const char *value,
		   const json_t **out, char *err, size_t errlen);

#endif
