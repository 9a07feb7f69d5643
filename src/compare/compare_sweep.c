/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rperf compare: one point of a sweep report (`rperf run --sweep`), named
 * FILE#VALUE, where VALUE is the point's "value" as the sweep wrote it
 * (its assignments, e.g. "3" or "1K, 2").
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "compare/compare_priv.h"

bool rperf_cmp_split(const char *arg, char *file, size_t filelen,
		     const char **value)
{
	const char *hash = strrchr(arg, '#');
	struct stat st;
	size_t n;

	*value = NULL;
	snprintf(file, filelen, "%s", arg);
	if (!hash || stat(arg, &st) == 0)
		return strlen(arg) < filelen; /* a file named with '#' */
	n = (size_t)(hash - arg);
	if (n >= filelen)
		return false;
	memcpy(file, arg, n);
	file[n] = '\0';
	*value = hash + 1;
	return true;
}

static bool is_sweep(const json_t *root)
{
	return json_is_array(json_object_get(root, "points")) &&
	       (json_object_get(root, "sweep") ||
		json_object_get(root, "sweeps")) &&
	       !json_object_get(root, "generators");
}

/* The values of @pts, ", "-separated in quotes, into @buf. */
static void list_values(const json_t *pts, char *buf, size_t len)
{
	size_t i, at = 0;
	json_t *p;

	buf[0] = '\0';
	json_array_foreach(pts, i, p)
	{
		const char *v = json_string_value(json_object_get(p, "value"));
		int k;

		if (!v || at >= len)
			continue;
		k = snprintf(buf + at, len - at, "%s\"%.40s\"", i ? ", " : "",
			     v);
		at += k > 0 ? (size_t)k : 0;
	}
}

int rperf_cmp_pick(const json_t *root, const char *path, const char *value,
		   const json_t **out, char *err, size_t errlen)
{
	const json_t *pts = json_object_get(root, "points"), *rep;
	char vals[160];
	size_t i;
	json_t *p;

	*out = root;
	if (!is_sweep(root)) {
		if (!value)
			return 0;
		snprintf(
			err, errlen,
			"%s: '#%.40s' names a point of a sweep, but this is not a sweep report; accepted: SWEEP.json#VALUE",
			path, value);
		return EBADMSG;
	}
	list_values(pts, vals, sizeof(vals));
	if (!value) {
		snprintf(
			err, errlen,
			"%s: a sweep report of %zu points: name one as %s#VALUE, VALUE one of %s",
			path, json_array_size(pts), path, vals);
		return EBADMSG;
	}
	json_array_foreach(pts, i, p)
	{
		const char *v = json_string_value(json_object_get(p, "value"));

		if (!v || strcmp(v, value) != 0)
			continue;
		rep = json_object_get(p, "report");
		if (!json_is_object(rep)) {
			const char *st =
				json_string_value(json_object_get(p, "status"));

			snprintf(
				err, errlen,
				"%s#%s: the point has no report (status %.20s)",
				path, value, st ? st : "unknown");
			return EBADMSG;
		}
		*out = rep;
		return 0;
	}
	snprintf(err, errlen, "%s: no point with value \"%.40s\"; values: %s",
		 path, value, vals);
	return EBADMSG;
}
