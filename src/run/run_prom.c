/* SPDX-License-Identifier: BSD-2-Clause */
/* rperf run --prom FILE: the run's (or the mesh's) JSON document in the
 * Prometheus text format (src/report/report_prom.h), so both carry the
 * same figures. */
#include <errno.h>

#include "report/report_prom.h"
#include "run/mesh.h"
#include "run/run.h"

/* Write the document a report function made (its rc), then free it. */
static int write_doc(const char *path, int rc, json_t *doc)
{
	if (!rc)
		rc = rperf_prom_write_json(path, doc);
	json_decref(doc);
	return rc;
}

int rperf_run_write_prom(const char *path, const struct rperf_run_results *r)
{
	json_t *doc = NULL;
	int rc = rperf_run_report_json(r, &doc);

	return write_doc(path, rc, doc);
}

int rperf_mesh_write_prom(const char *path, const struct rperf_mesh_result *m)
{
	json_t *doc = NULL;
	int rc = rperf_mesh_report_json(m, &doc);

	return write_doc(path, rc, doc);
}
