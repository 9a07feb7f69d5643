/* SPDX-License-Identifier: BSD-2-Clause */
/* The Prometheus text writer's pieces (report_prom.c), shared with the
 * mesh's families (report_prom_mesh.c). */
#ifndef RPERF_REPORT_PROM_PRIV_H
#define RPERF_REPORT_PROM_PRIV_H

#include <stdio.h>

#include <jansson.h>

#define LABELS_LEN 1536

struct prom {
	FILE *f;
	const char *cmd; /* "lat", "bw", "run", "mesh": the metric prefix */
	char job[256]; /* rperf_job label */
	char host[256]; /* this machine (lat, bw) */
	const json_t *classes; /* run: "classes" (class of a generator) */
};

/* Append `,key="value"` (escaped) to the label list @buf; NULL: nothing. */
void prom_label(char *buf, size_t len, const char *key, const char *value);
/* The same with a JSON integer (anything else: nothing). */
void prom_label_num(char *buf, size_t len, const char *key, const json_t *v);
/* "# HELP rperf_CMD_NAME ..." and "# TYPE ...". */
void prom_family(const struct prom *p, const char *name, const char *type,
		 const char *help);
/* One sample: rperf_CMD_NAME{labels,extra} value (NaN as "NaN"). */
void prom_sample(const struct prom *p, const char *name, const char *labels,
		 const char *extra, double v);
/* A JSON number or boolean (null or absent: NaN). */
double prom_num(const json_t *o, const char *key);
/* rperf_job="...". */
void prom_base_labels(const struct prom *p, char *buf, size_t len);
/* A mesh document (rperf mesh, a job with [mesh]): report_prom_mesh.c. */
void prom_render_mesh(const struct prom *p, const json_t *doc);

#endif
