/* SPDX-License-Identifier: BSD-2-Clause */
#include "host/sysread.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool rperf_safe_name(const char *name)
{
	return name && *name && !strchr(name, '/') && strcmp(name, ".") != 0 &&
	       strcmp(name, "..") != 0;
}

int rperf_read_line(const char *root, const char *rel, char *buf, size_t len)
{
	char path[512];
	size_t n;
	FILE *f;
	int rc = 0;

	if (!len)
		return EINVAL;
	buf[0] = '\0';
	if (!rel || strstr(rel, ".."))
		return EINVAL;
	n = (size_t)snprintf(path, sizeof(path), "%s/%s", root ? root : "",
			     rel);
	if (n >= sizeof(path))
		return ENAMETOOLONG;
	f = fopen(path, "re");
	if (!f)
		return errno ? errno : ENOENT;
	n = fread(buf, 1, len - 1, f);
	if (ferror(f))
		rc = EIO;
	fclose(f);
	if (rc)
		return rc;
	buf[n] = '\0';
	if (strlen(buf) != n)
		return EINVAL; /* an embedded NUL */
	buf[strcspn(buf, "\n")] = '\0';
	n = strlen(buf);
	while (n && isspace((unsigned char)buf[n - 1]))
		buf[--n] = '\0';
	return n ? 0 : EINVAL;
}

int rperf_read_long(const char *root, const char *rel, long *out)
{
	char buf[64], *end;
	long v;
	int rc = rperf_read_line(root, rel, buf, sizeof(buf));

	if (rc)
		return rc;
	errno = 0;
	v = strtol(buf, &end, 10);
	if (errno || end == buf || *end)
		return EINVAL;
	*out = v;
	return 0;
}

void rperf_cpuset_add(struct rperf_cpuset *set, int cpu)
{
	if (cpu >= 0 && cpu < RPERF_MAX_CPUS)
		set->bits[cpu / 64] |= 1ull << (cpu % 64);
}

bool rperf_cpuset_has(const struct rperf_cpuset *set, int cpu)
{
	return cpu >= 0 && cpu < RPERF_MAX_CPUS &&
	       (set->bits[cpu / 64] >> (cpu % 64) & 1);
}

bool rperf_cpuset_empty(const struct rperf_cpuset *set)
{
	for (size_t i = 0; i < RPERF_MAX_CPUS / 64; i++)
		if (set->bits[i])
			return false;
	return true;
}

bool rperf_cpuset_intersects(const struct rperf_cpuset *a,
			     const struct rperf_cpuset *b)
{
	for (size_t i = 0; i < RPERF_MAX_CPUS / 64; i++)
		if (a->bits[i] & b->bits[i])
			return true;
	return false;
}

/* A CPU number at *@p (advanced past it); -1 if none or too large. */
static int cpu_number(const char **p)
{
	long v = 0;

	if (!isdigit((unsigned char)**p))
		return -1;
	while (isdigit((unsigned char)**p)) {
		v = v * 10 + (**p - '0');
		if (v >= RPERF_MAX_CPUS)
			return -1;
		(*p)++;
	}
	return (int)v;
}

int rperf_cpuset_parse(const char *s, struct rperf_cpuset *set)
{
	const char *p = s;

	while (*p && *p != '\n') {
		int lo = cpu_number(&p), hi = lo;

		if (lo < 0)
			return EINVAL;
		if (*p == '-') {
			p++;
			hi = cpu_number(&p);
			if (hi < lo)
				return EINVAL;
		}
		for (int c = lo; c <= hi; c++)
			rperf_cpuset_add(set, c);
		if (*p == ',')
			p++;
		else if (*p && *p != '\n')
			return EINVAL;
	}
	return 0;
}

void rperf_cpuset_format(const struct rperf_cpuset *set, char *buf, size_t len)
{
	size_t used = 0;

	if (!len)
		return;
	buf[0] = '\0';
	for (int c = 0; c < RPERF_MAX_CPUS && used < len; c++) {
		int e = c;

		if (!rperf_cpuset_has(set, c))
			continue;
		while (rperf_cpuset_has(set, e + 1))
			e++;
		if (e == c)
			used += (size_t)snprintf(buf + used, len - used, "%s%d",
						 used ? "," : "", c);
		else
			used += (size_t)snprintf(buf + used, len - used,
						 "%s%d-%d", used ? "," : "", c,
						 e);
		c = e;
	}
}
