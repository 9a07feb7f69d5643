/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Reading small sysfs/procfs files under an injectable root (unit tests
 * point it at fixture trees in tests/unit/fixtures), and CPU lists. Every
 * content is treated as hostile: bounded, validated, never trusted.
 */
#ifndef RPERF_HOST_SYSREAD_H
#define RPERF_HOST_SYSREAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RPERF_MAX_CPUS 1024

/* A set of CPU numbers below RPERF_MAX_CPUS. */
struct rperf_cpuset {
	uint64_t bits[RPERF_MAX_CPUS / 64];
};

/*
 * The first line of @root/@rel (trailing whitespace removed) into @buf.
 * 0, ENOENT/EACCES... (errno of open), EINVAL (@rel has "..", or the
 * content holds a NUL or is empty), ENAMETOOLONG.
 */
int rperf_read_line(const char *root, const char *rel, char *buf, size_t len);
/* A decimal integer file (e.g. numa_node: "-1"). 0 or an errno. */
int rperf_read_long(const char *root, const char *rel, long *out);

/* "0-3,8,10-11" into @set (added to it). 0 or EINVAL (malformed / too
 * large a CPU number). An empty string or "\n" is the empty set. */
int rperf_cpuset_parse(const char *s, struct rperf_cpuset *set);
void rperf_cpuset_add(struct rperf_cpuset *set, int cpu);
bool rperf_cpuset_has(const struct rperf_cpuset *set, int cpu);
bool rperf_cpuset_empty(const struct rperf_cpuset *set);
bool rperf_cpuset_intersects(const struct rperf_cpuset *a,
			     const struct rperf_cpuset *b);
/* The canonical list "0-3,8" ("" when empty), truncated to @len. */
void rperf_cpuset_format(const struct rperf_cpuset *set, char *buf, size_t len);

/* A name safe to put in a path (no '/', not "." or "..", not empty). */
bool rperf_safe_name(const char *name);

#endif
