/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * `rperf compare BASE.json RUN.json`: the command layer of src/compare.
 * Prints the table, writes the JSON with --out_json[_file]. Exit 2 when a
 * file cannot be read or nothing in them is comparable.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rperf/report.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "compare/compare.h"

static int dump(FILE *f, void *arg)
{
	return json_dumpf((const json_t *)arg, f, JSON_INDENT(2)) ? EIO : 0;
}

static int write_json(const char *path, const struct rperf_cmp_result *r)
{
	json_t *doc = rperf_cmp_json(r);
	int rc;

	if (!doc)
		return ENOMEM;
	rc = rperf_atomic_write(path, dump, doc);
	json_decref(doc);
	return rc;
}

static int load_both(const struct rperf_cmdline *cfg,
		     struct rperf_cmp_doc **base, struct rperf_cmp_doc **run)
{
	char err[512];
	int rc;

	rc = rperf_cmp_load(cfg->cmp_base, base, err, sizeof(err));
	if (!rc) {
		rc = rperf_cmp_load(cfg->cmp_run, run, err, sizeof(err));
		if (rc)
			rperf_cmp_doc_free(*base);
	}
	if (rc)
		fprintf(stderr, "rperf compare: %s\n", err);
	return rc;
}

int rperf_cmd_compare(const struct rperf_cmdline *cfg)
{
	const char *json = cfg->out_json_file ? cfg->out_json_file :
			   cfg->out_json      ? "rperf-compare.json" :
						NULL;
	struct rperf_cmp_doc *base = NULL, *run = NULL;
	struct rperf_cmp_result *r = NULL;
	int rc, status = RPERF_EXIT_OK;
	char err[512];

	rc = load_both(cfg, &base, &run);
	if (rc)
		return rc == ENOMEM ? RPERF_EXIT_INTERNAL : RPERF_EXIT_USAGE;
	rc = rperf_cmp_compute(base, run, &r, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "rperf compare: %s\n",
			rc == ENOMEM ? "out of memory" : err);
		status = rc == ENOMEM ? RPERF_EXIT_INTERNAL : RPERF_EXIT_USAGE;
		goto free_docs;
	}
	rperf_cmp_text(stdout, r);
	fflush(stdout);
	rc = json ? write_json(json, r) : 0;
	if (rc) {
		fprintf(stderr, "rperf compare: writing %s: %s\n", json,
			strerror(rc));
		status = RPERF_EXIT_RUNTIME;
	}
	rperf_cmp_result_free(r);
free_docs:
	rperf_cmp_doc_free(base);
	rperf_cmp_doc_free(run);
	return status;
}
