/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The mesh's document (src/run/mesh_report.c) in the Prometheus text
 * format (report_prom.h): per measured cell (from = the source host, to =
 * the destination) its RPerf RTT quantiles in seconds (a round trip, the
 * end hosts' time subtracted), min, samples and whether it ran clean; per
 * suspect (a port or a pair the localization names) the RTT it adds; the
 * localization's counts and threshold; rounds, elapsed seconds, dry run,
 * interrupted. Every figure is the JSON's; a null one is NaN.
 */
#include <stdbool.h>
#include <string.h>

#include "report/report_prom_priv.h"

static const struct {
	const char *q, *key;
} cell_q[] = { { "0.1", "p10_ns" },
	       { "0.5", "p50_ns" },
	       { "0.99", "p99_ns" },
	       { "0.999", "p999_ns" } };

static void mesh_labels(const struct prom *p, const json_t *mesh, char *buf,
			size_t len)
{
	buf[0] = '\0';
	prom_base_labels(p, buf, len);
	prom_label(buf, len, "mesh",
		   json_string_value(json_object_get(mesh, "name")));
}

static void cell_labels(const struct prom *p, const json_t *mesh,
			const char *from, const char *to, char *buf, size_t len)
{
	mesh_labels(p, mesh, buf, len);
	prom_label(buf, len, "from", from);
	prom_label(buf, len, "to", to);
}

static double is_ok(const json_t *cell)
{
	const char *st = json_string_value(json_object_get(cell, "status"));

	return st && !strcmp(st, "ok");
}

/* @what: 0 quantiles, 1 min, 2 samples, 3 ok; one family over every cell */
static void cells(const struct prom *p, const json_t *mesh, int what)
{
	const json_t *hosts = json_object_get(mesh, "hosts");
	const json_t *rows = json_object_get(mesh, "matrix"), *row, *c;
	char labels[LABELS_LEN], q[32];
	size_t i, j, k;

	json_array_foreach(rows, i, row)
	{
		json_array_foreach(row, j, c)
		{
			const char *from =
				json_string_value(json_array_get(hosts, i));
			const char *to =
				json_string_value(json_array_get(hosts, j));

			if (!json_is_object(c) || !from || !to)
				continue;
			cell_labels(p, mesh, from, to, labels, sizeof(labels));
			for (k = 0; what == 0 && k < 4; k++) {
				snprintf(q, sizeof(q), "quantile=\"%s\"",
					 cell_q[k].q);
				prom_sample(p, "rtt_seconds", labels, q,
					    prom_num(c, cell_q[k].key) / 1e9);
			}
			if (what == 0) /* the cell has no mean: no _sum */
				prom_sample(p, "rtt_seconds_count", labels,
					    NULL, prom_num(c, "samples"));
			if (what == 1)
				prom_sample(p, "rtt_min_seconds", labels, NULL,
					    prom_num(c, "min_ns") / 1e9);
			if (what == 2)
				prom_sample(p, "samples", labels, NULL,
					    prom_num(c, "samples"));
			if (what == 3)
				prom_sample(p, "cell_ok", labels, NULL,
					    is_ok(c));
		}
	}
}

static void suspects(const struct prom *p, const json_t *mesh)
{
	const json_t *sus = json_object_get(mesh, "suspects"), *s;
	char labels[LABELS_LEN];
	size_t i;

	prom_family(
		p, "suspect_added_seconds", "gauge",
		"RTT a suspect port or pair adds above the mesh's baseline, seconds (round trip); kind=port names host, kind=pair names from and to.");
	json_array_foreach(sus, i, s)
	{
		mesh_labels(p, mesh, labels, sizeof(labels));
		prom_label(labels, sizeof(labels), "kind",
			   json_string_value(json_object_get(s, "kind")));
		prom_label(labels, sizeof(labels), "host",
			   json_string_value(json_object_get(s, "host")));
		prom_label(labels, sizeof(labels), "from",
			   json_string_value(json_object_get(s, "from")));
		prom_label(labels, sizeof(labels), "to",
			   json_string_value(json_object_get(s, "to")));
		prom_sample(p, "suspect_added_seconds", labels, NULL,
			    prom_num(s, "added_ns") / 1e9);
	}
	mesh_labels(p, mesh, labels, sizeof(labels));
	prom_family(p, "suspects", "gauge",
		    "Ports and pairs the localization names as suspects.");
	prom_sample(p, "suspects", labels, NULL, (double)json_array_size(sus));
}

static void scalars(const struct prom *p, const json_t *mesh)
{
	static const struct {
		const char *name, *key, *help;
		double scale;
		bool loc; /* in "localization" */
	} s[] = {
		{ "cells_measured", "cells_measured",
		  "Cells (ordered host pairs) measured.", 1, true },
		{ "cells_failed", "cells_failed",
		  "Cells not measured (an agent or an experiment failed).", 1,
		  true },
		{ "decided", "decided",
		  "1 when enough cells were measured for a verdict.", 1, true },
		{ "baseline_seconds", "baseline_ns",
		  "The cells' baseline RTT, seconds (round trip).", 1e-9,
		  true },
		{ "threshold_seconds", "threshold_ns",
		  "Added RTT above which a port or pair is a suspect, seconds.",
		  1e-9, true },
		{ "rounds_run", "rounds_run", "Rounds of the schedule run.", 1,
		  false },
		{ "elapsed_seconds", "elapsed", "Wall seconds of the mesh.", 1,
		  false },
		{ "dry_run", "dry_run",
		  "1 when an agent ran --dry-run: no figure is a measurement.",
		  1, false },
		{ "interrupted", "interrupted",
		  "1 when the mesh was interrupted (SIGINT/SIGTERM).", 1,
		  false },
	};
	const json_t *loc = json_object_get(mesh, "localization");
	char labels[LABELS_LEN];

	mesh_labels(p, mesh, labels, sizeof(labels));
	for (size_t i = 0; i < sizeof(s) / sizeof(s[0]); i++) {
		const json_t *o = s[i].loc ? loc : mesh;

		if (!json_object_get(o, s[i].key))
			continue;
		prom_family(p, s[i].name, "gauge", s[i].help);
		prom_sample(p, s[i].name, labels, NULL,
			    prom_num(o, s[i].key) * s[i].scale);
	}
}

void prom_render_mesh(const struct prom *p, const json_t *doc)
{
	const json_t *mesh = json_object_get(doc, "mesh");

	prom_family(
		p, "rtt_seconds", "summary",
		"RPerf RTT of a cell (from = source host, to = destination), seconds: a round trip, the end hosts' time subtracted; quantile 0.1, 0.5, 0.99, 0.999 of its samples (NaN: not measured), _count its samples.");
	cells(p, mesh, 0);
	prom_family(p, "rtt_min_seconds", "gauge",
		    "The least RPerf RTT of a cell, seconds (round trip).");
	cells(p, mesh, 1);
	prom_family(p, "samples", "gauge", "RTT samples a cell measured.");
	cells(p, mesh, 2);
	prom_family(p, "cell_ok", "gauge",
		    "1 when a cell was measured and clean, else 0.");
	cells(p, mesh, 3);
	suspects(p, mesh);
	scalars(p, mesh);
}
