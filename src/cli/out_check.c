/* SPDX-License-Identifier: BSD-2-Clause */
#include "cli/out_check.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rperf/report.h>

static int one(const char *opt, const char *path, char *err, size_t errlen)
{
	int rc;

	if (!path)
		return 0;
	rc = rperf_atomic_check(path);
	if (rc)
		snprintf(
			err, errlen,
			"%s: cannot write '%s' (%s); accepted: a file in an existing, writable directory (checked before the measurement)",
			opt, path,
			rc == EISDIR ? "it is a directory" : strerror(rc));
	return rc;
}

int rperf_cli_check_outputs(const struct rperf_cmdline *cfg, char *err,
			    size_t errlen)
{
	const char *json = cfg->out_json_file ? cfg->out_json_file :
			   cfg->out_json      ? "rperf.json" :
						NULL;
	int rc = one(cfg->out_json_file ? "--out_json_file" : "--out_json",
		     json, err, errlen);

	if (!rc)
		rc = one("--raw", cfg->raw_file, err, errlen);
	if (!rc)
		rc = one("--hist", cfg->hist_file, err, errlen);
	if (!rc)
		rc = one("--csv", cfg->csv_file, err, errlen);
	if (!rc)
		rc = one("--prom", cfg->prom_file, err, errlen);
	return rc;
}
