/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * --prom FILE: the results in the Prometheus text exposition format
 * (version 0.0.4, which node_exporter's textfile collector reads and
 * OpenMetrics parsers accept), rendered from the command's JSON document,
 * so that every figure is the JSON's (one source of truth):
 *   - rperf lat: per result (method, size, repeat) the RTT as a summary in
 *     seconds (quantiles 0.5, 0.99, 0.999, 0.9999, _sum, _count), its min
 *     and true max, samples, warm-up and non-positive samples;
 *   - rperf bw: per result (verb, size, qps) Gb/s, messages, bytes, window;
 *   - rperf run: per generator instance (generator, id, kind, host, peer,
 *     class) the RTT summary and max (LSG), Gb/s sent and received,
 *     messages and bytes (BSG), samples and whether it ran clean; per class
 *     the merged RTT summary and Gb/s; failed hosts, instances with errors,
 *     dry run, set-up and elapsed seconds, and per agent the estimated
 *     start skew and its uncertainty when the run measured them.
 *   - a mesh (rperf mesh, a job with [mesh]; its document has "mesh"):
 *     per cell (from, to) the RTT quantiles 0.1/0.5/0.99/0.999 and min in
 *     seconds, samples, whether it ran clean; per suspect (kind, host or
 *     from/to) the RTT it adds; cells measured/failed, the verdict's
 *     baseline and threshold, rounds, elapsed seconds, dry run
 *     (report_prom_mesh.c).
 * Every sample carries rperf_job (the job file's name, or the command; the
 * scrape's own "job" label is the collector's) and host labels. An empty
 * histogram (a dry run, nothing measured) gives NaN quantiles, never 0.
 */
#ifndef RPERF_REPORT_PROM_H
#define RPERF_REPORT_PROM_H

#include <stdio.h>

#include <jansson.h>

#include <rperf/report.h>

/* Render @doc (a "lat", "bw", "run" or mesh document): 0, EINVAL (another
 * command or a document without "results"/"generators"), EIO. */
int rperf_prom_from_json(FILE *f, const json_t *doc);
/* The same, written atomically to @path (a temporary file beside it,
 * "PATH.tmp.XXXXXX", renamed over it). */
int rperf_prom_write_json(const char *path, const json_t *doc);
/* rperf lat / rperf bw: @r as its JSON document, then as above. */
int rperf_prom_write_report(const char *path, const struct rperf_report *r);

#endif
