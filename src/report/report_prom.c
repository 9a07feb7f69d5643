/* SPDX-License-Identifier: BSD-2-Clause */
/* The Prometheus text format of a JSON report (report_prom.h). */
#include "report/report_prom.h"
#include "report/report_prom_priv.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* A label list: each item appends `,key="value"` (escaped). */
void prom_label(char *buf, size_t len, const char *key, const char *value)
{
	size_t n = strlen(buf);

	if (!value || n + 4 >= len)
		return;
	n += (size_t)snprintf(buf + n, len - n, "%s%s=\"", n ? "," : "", key);
	for (; *value && n + 3 < len; value++) {
		char c = *value;

		if (c == '\\' || c == '"' || c == '\n') {
			buf[n++] = '\\';
			c = c == '\n' ? 'n' : c;
		}
		buf[n++] = c;
	}
	if (n + 2 > len)
		n = len - 2;
	buf[n++] = '"';
	buf[n] = '\0';
}

void prom_label_num(char *buf, size_t len, const char *key, const json_t *v)
{
	char s[32];

	if (!json_is_integer(v))
		return;
	snprintf(s, sizeof(s), "%lld", (long long)json_integer_value(v));
	prom_label(buf, len, key, s);
}

void prom_family(const struct prom *p, const char *name, const char *type,
		 const char *help)
{
	fprintf(p->f, "# HELP rperf_%s_%s %s\n# TYPE rperf_%s_%s %s\n", p->cmd,
		name, help, p->cmd, name, type);
}

void prom_sample(const struct prom *p, const char *name, const char *labels,
		 const char *extra, double v)
{
	fprintf(p->f, "rperf_%s_%s{%s%s%s} ", p->cmd, name, labels,
		extra && labels[0] ? "," : "", extra ? extra : "");
	if (isnan(v))
		fputs("NaN\n", p->f);
	else
		fprintf(p->f, "%.10g\n", v);
}

/* A JSON number (null or absent: NaN). */
double prom_num(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	if (json_is_boolean(v))
		return json_is_true(v);
	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* ---- families over an array of items (results or generators) ---- */

typedef void (*label_fn)(const struct prom *p, const json_t *item, char *buf,
			 size_t len);

struct gauge {
	const char *name;
	const char *key; /* in the item */
	const char *kind; /* run: only generators of this kind; NULL all */
	double scale; /* value * scale */
	const char *help;
};

static bool of_kind(const json_t *item, const char *kind)
{
	const char *k = json_string_value(json_object_get(item, "kind"));

	return !kind || (k && !strcmp(k, kind));
}

static void gauges(const struct prom *p, const json_t *arr, label_fn lf,
		   const struct gauge *g, size_t ng)
{
	char labels[LABELS_LEN];

	for (size_t i = 0; i < ng; i++) {
		bool any = false;
		size_t j;
		const json_t *it;

		json_array_foreach(arr, j, it)
		{
			if (!of_kind(it, g[i].kind) ||
			    !json_object_get(it, g[i].key))
				continue;
			if (!any)
				prom_family(p, g[i].name, "gauge", g[i].help);
			any = true;
			labels[0] = '\0';
			lf(p, it, labels, sizeof(labels));
			prom_sample(p, g[i].name, labels, NULL,
				    prom_num(it, g[i].key) * g[i].scale);
		}
	}
}

/* One histogram's statistics (rtt_ns) as a summary in seconds; an empty
 * one has NaN quantiles. */
static void summary_samples(const struct prom *p, const char *name,
			    const char *labels, const json_t *st)
{
	static const struct {
		const char *q, *key;
	} qs[] = { { "0.5", "p50" },
		   { "0.99", "p99" },
		   { "0.999", "p999" },
		   { "0.9999", "p9999" } };
	double count = prom_num(st, "count");
	bool empty = !(count > 0);
	char extra[32], sum_name[96];

	for (size_t i = 0; i < sizeof(qs) / sizeof(qs[0]); i++) {
		snprintf(extra, sizeof(extra), "quantile=\"%s\"", qs[i].q);
		prom_sample(p, name, labels, extra,
			    empty ? NAN : prom_num(st, qs[i].key) / 1e9);
	}
	snprintf(sum_name, sizeof(sum_name), "%s_sum", name);
	prom_sample(p, sum_name, labels, NULL,
		    empty ? 0 : prom_num(st, "mean") * count / 1e9);
	snprintf(sum_name, sizeof(sum_name), "%s_count", name);
	prom_sample(p, sum_name, labels, NULL, empty ? 0 : count);
}

/* An LSG, or a class or host with LSGs: its RTT histogram may be null
 * (nothing arrived) and is then reported as empty (NaN), not left out. */
static bool has_lsg(const json_t *item)
{
	if (json_object_get(item, "kind"))
		return of_kind(item, "lsg");
	return prom_num(item, "lsg_count") > 0;
}

/* Summary @name of each item's @key histogram object. */
static void summaries(const struct prom *p, const json_t *arr, label_fn lf,
		      const char *name, const char *key, const char *help)
{
	char labels[LABELS_LEN];
	bool any = false;
	size_t j;
	const json_t *it;

	json_array_foreach(arr, j, it)
	{
		const json_t *st = json_object_get(it, key);

		if (!json_is_object(st) && !has_lsg(it))
			continue;
		if (!any)
			prom_family(p, name, "summary", help);
		any = true;
		labels[0] = '\0';
		lf(p, it, labels, sizeof(labels));
		summary_samples(p, name, labels, st);
	}
}

/* The min and max of each item's @key histogram, in seconds. */
static void extremes(const struct prom *p, const json_t *arr, label_fn lf,
		     const char *prefix, const char *key)
{
	static const char *const which[] = { "min", "max" };
	char labels[LABELS_LEN], name[96], help[160];

	for (size_t w = 0; w < 2; w++) {
		bool any = false;
		size_t j;
		const json_t *it;

		snprintf(name, sizeof(name), "%s_%s_seconds", prefix, which[w]);
		snprintf(help, sizeof(help),
			 "The %s RTT, seconds (NaN when nothing was measured).",
			 w ? "largest (the true max)" : "smallest");
		json_array_foreach(arr, j, it)
		{
			const json_t *st = json_object_get(it, key);

			if (!json_is_object(st) && !has_lsg(it))
				continue;
			if (!any)
				prom_family(p, name, "gauge", help);
			any = true;
			labels[0] = '\0';
			lf(p, it, labels, sizeof(labels));
			prom_sample(p, name, labels, NULL,
				    prom_num(st, "count") > 0 ?
					    prom_num(st, which[w]) / 1e9 :
					    NAN);
		}
	}
}

void prom_base_labels(const struct prom *p, char *buf, size_t len)
{
	prom_label(buf, len, "rperf_job", p->job);
}

/* ---- rperf lat / rperf bw ---- */

static void local_labels(const struct prom *p, const json_t *item, char *buf,
			 size_t len)
{
	const json_t *cfg = json_object_get(item, "_config");

	prom_base_labels(p, buf, len);
	prom_label(buf, len, "host", p->host);
	prom_label(buf, len, "peer",
		   json_string_value(json_object_get(cfg, "host")));
}

static void lat_labels(const struct prom *p, const json_t *item, char *buf,
		       size_t len)
{
	local_labels(p, item, buf, len);
	prom_label(buf, len, "method",
		   json_string_value(json_object_get(item, "method")));
	prom_label_num(buf, len, "size", json_object_get(item, "size"));
	prom_label_num(buf, len, "repeat", json_object_get(item, "repeat"));
}

static void bw_labels(const struct prom *p, const json_t *item, char *buf,
		      size_t len)
{
	local_labels(p, item, buf, len);
	prom_label(buf, len, "verb",
		   json_string_value(json_object_get(item, "verb")));
	prom_label_num(buf, len, "size", json_object_get(item, "size"));
	prom_label_num(buf, len, "qps", json_object_get(item, "qps"));
}

static const struct gauge lat_gauges[] = {
	{ "samples", "samples", NULL, 1,
	  "RTT samples measured (after warm-up)." },
	{ "warmup_samples", "warmup", NULL, 1,
	  "Warm-up samples, not counted." },
	{ "nonpositive_samples", "nonpositive", NULL, 1,
	  "Samples whose RTT was not positive (counted, never dropped)." },
	{ "window_seconds", "seconds", NULL, 1, "Measured window, seconds." },
};

static const struct gauge bw_gauges[] = {
	{ "gbps", "gbps", NULL, 1, "Payload Gb/s (10^9 bit/s) sent." },
	{ "messages", "messages", NULL, 1, "Messages sent." },
	{ "payload_bytes", "bytes", NULL, 1, "Payload bytes sent." },
	{ "window_seconds", "seconds", NULL, 1, "Measured window, seconds." },
};

/* ---- rperf run ---- */

/* The class name of a generator (its sl, tclass in "classes"). */
static const char *class_of(const struct prom *p, const json_t *g)
{
	size_t i;
	const json_t *c;

	json_array_foreach(p->classes, i, c)
	{
		if (json_equal(json_object_get(c, "sl"),
			       json_object_get(g, "sl")) &&
		    json_equal(json_object_get(c, "tclass"),
			       json_object_get(g, "tclass")))
			return json_string_value(json_object_get(c, "name"));
	}
	return NULL;
}

static void gen_labels(const struct prom *p, const json_t *g, char *buf,
		       size_t len)
{
	prom_base_labels(p, buf, len);
	prom_label(buf, len, "generator",
		   json_string_value(json_object_get(g, "name")));
	prom_label_num(buf, len, "id", json_object_get(g, "id"));
	prom_label(buf, len, "kind",
		   json_string_value(json_object_get(g, "kind")));
	prom_label(buf, len, "host",
		   json_string_value(json_object_get(g, "host")));
	prom_label(buf, len, "peer",
		   json_string_value(json_object_get(g, "to")));
	prom_label(buf, len, "class", class_of(p, g));
}

static void class_labels(const struct prom *p, const json_t *c, char *buf,
			 size_t len)
{
	prom_base_labels(p, buf, len);
	prom_label(buf, len, "class",
		   json_string_value(json_object_get(c, "name")));
}

static void host_labels(const struct prom *p, const json_t *h, char *buf,
			size_t len)
{
	prom_base_labels(p, buf, len);
	prom_label(buf, len, "host",
		   json_string_value(json_object_get(h, "name")));
	if (!json_object_get(h, "name"))
		prom_label(buf, len, "host",
			   json_string_value(json_object_get(h, "host")));
}

static const struct gauge gen_gauges[] = {
	{ "lsg_samples", "samples", "lsg", 1,
	  "RTT samples an LSG measured (after warm-up)." },
	{ "lsg_nonpositive_samples", "nonpositive", "lsg", 1,
	  "LSG samples whose RTT was not positive (counted, never dropped)." },
	{ "bsg_sent_gbps", "gbps", "bsg", 1,
	  "Payload Gb/s (10^9 bit/s) a BSG sent." },
	{ "bsg_received_gbps", "receiver_gbps", "bsg", 1,
	  "Payload Gb/s its destination received (NaN: not countable, RDMA WRITE)." },
	{ "bsg_messages", "messages", "bsg", 1, "Messages a BSG sent." },
	{ "bsg_payload_bytes", "bytes", "bsg", 1, "Payload bytes a BSG sent." },
	{ "generator_window_seconds", "seconds", NULL, 1,
	  "The source's measured window, seconds." },
};

static const struct gauge class_gauges[] = {
	{ "class_bsg_sent_gbps", "gbps", NULL, 1,
	  "Payload Gb/s the BSGs of a class sent, summed." },
};

static const struct gauge host_gauges[] = {
	{ "host_failed", "failed", NULL, 1,
	  "1 when the host's agent failed (its reason is in the JSON)." },
	{ "start_skew_seconds", "skew_ns", NULL, 1e-9,
	  "Estimated start instant of the agent minus the intended one, on the controller's clock through the measured offset, seconds." },
	{ "start_skew_uncertainty_seconds", "uncertainty_ns", NULL, 1e-9,
	  "Uncertainty of the clock offset behind the start skew (half the kept exchange's RTT), seconds." },
};

/* 1 when a generator ran clean ("status": "ok"), else 0. */
static void gen_ok(const struct prom *p, const json_t *gens)
{
	char labels[LABELS_LEN];
	size_t j;
	const json_t *g;

	prom_family(
		p, "generator_ok", "gauge",
		"1 when the generator instance ran to its end without an error, else 0 (status in the JSON).");
	json_array_foreach(gens, j, g)
	{
		const char *st =
			json_string_value(json_object_get(g, "status"));

		labels[0] = '\0';
		gen_labels(p, g, labels, sizeof(labels));
		prom_sample(p, "generator_ok", labels, NULL,
			    st && !strcmp(st, "ok"));
	}
}

static void run_scalars(const struct prom *p, const json_t *doc)
{
	static const struct {
		const char *name, *obj, *key, *help;
	} s[] = {
		{ "instances_with_errors", "warnings", "instances_with_errors",
		  "Generator instances with an error or missing." },
		{ "elapsed_seconds", NULL, "elapsed_seconds",
		  "Wall seconds from GO to the last REPORT." },
		{ "setup_seconds", "control_plane", "setup_seconds",
		  "Dial start to every agent ARMED, seconds." },
		{ "agents", "control_plane", "agents", "Agents contacted." },
	};
	char labels[LABELS_LEN] = "";
	const json_t *fh = json_object_get(doc, "failed_hosts");

	prom_base_labels(p, labels, sizeof(labels));
	for (size_t i = 0; i < sizeof(s) / sizeof(s[0]); i++) {
		const json_t *o = s[i].obj ? json_object_get(doc, s[i].obj) :
					     doc;

		if (!json_object_get(o, s[i].key))
			continue;
		prom_family(p, s[i].name, "gauge", s[i].help);
		prom_sample(p, s[i].name, labels, NULL, prom_num(o, s[i].key));
	}
	prom_family(p, "aborted", "gauge",
		    "1 when the run failed before GO: nothing was measured.");
	prom_sample(p, "aborted", labels, NULL,
		    json_is_true(json_object_get(doc, "aborted")));
	prom_family(p, "failed_hosts", "gauge", "Hosts whose agent failed.");
	prom_sample(p, "failed_hosts", labels, NULL,
		    (double)json_array_size(fh));
	prom_family(
		p, "dry_run", "gauge",
		"1 when an agent ran --dry-run: no figure is a measurement.");
	prom_sample(p, "dry_run", labels, NULL,
		    json_is_true(json_object_get(doc, "dry_run")));
}

static void render_run(struct prom *p, const json_t *doc)
{
	const json_t *gens = json_object_get(doc, "generators");
	const json_t *cp = json_object_get(doc, "control_plane");

	p->classes = json_object_get(doc, "classes");
	summaries(p, gens, gen_labels, "rtt_seconds", "rtt_ns",
		  "RTT of an LSG instance, seconds (RPerf's, Equation 1).");
	extremes(p, gens, gen_labels, "rtt", "rtt_ns");
	gauges(p, gens, gen_labels, gen_gauges,
	       sizeof(gen_gauges) / sizeof(gen_gauges[0]));
	gen_ok(p, gens);
	summaries(p, p->classes, class_labels, "class_rtt_seconds", "rtt_ns",
		  "RTT of a class's LSGs merged, seconds.");
	gauges(p, p->classes, class_labels, class_gauges,
	       sizeof(class_gauges) / sizeof(class_gauges[0]));
	gauges(p, json_object_get(doc, "hosts"), host_labels, host_gauges, 1);
	gauges(p, json_object_get(cp, "start"), host_labels, host_gauges + 1,
	       2);
	run_scalars(p, doc);
}

/* The config object rides along with each result for local_labels. */
static int render_local(struct prom *p, const json_t *doc)
{
	const json_t *res = json_object_get(doc, "results");
	json_t *copy = json_array();
	bool lat = !strcmp(p->cmd, "lat");
	size_t i;
	const json_t *it;
	int rc = 0;

	if (!copy)
		return ENOMEM;
	json_array_foreach(res, i, it)
	{
		json_t *c = json_copy((json_t *)it);

		if (!c ||
		    json_object_set(c, "_config",
				    json_object_get(doc, "config")) ||
		    json_array_append_new(copy, c)) {
			json_decref(c);
			rc = ENOMEM;
			break;
		}
	}
	if (!rc && lat) {
		summaries(p, copy, lat_labels, "rtt_seconds", "rtt_ns",
			  "RTT, seconds (RPerf's, Equation 1).");
		extremes(p, copy, lat_labels, "rtt", "rtt_ns");
		gauges(p, copy, lat_labels, lat_gauges,
		       sizeof(lat_gauges) / sizeof(lat_gauges[0]));
	} else if (!rc) {
		gauges(p, copy, bw_labels, bw_gauges,
		       sizeof(bw_gauges) / sizeof(bw_gauges[0]));
	}
	json_decref(copy);
	return rc;
}

int rperf_prom_from_json(FILE *f, const json_t *doc)
{
	struct prom p = { .f = f };
	const char *cmd = json_string_value(json_object_get(doc, "command"));
	const char *job = json_string_value(json_object_get(doc, "job"));
	char labels[LABELS_LEN] = "";
	int rc;

	if (!cmd && json_is_object(json_object_get(doc, "mesh")))
		cmd = "mesh"; /* a mesh's document has no "command" */
	if (!cmd || (strcmp(cmd, "lat") && strcmp(cmd, "bw") &&
		     strcmp(cmd, "run") && strcmp(cmd, "mesh")))
		return EINVAL;
	p.cmd = cmd;
	if (job) {
		const char *b = strrchr(job, '/');

		snprintf(p.job, sizeof(p.job), "%s", b ? b + 1 : job);
	} else {
		snprintf(p.job, sizeof(p.job), "%s", cmd);
	}
	if (gethostname(p.host, sizeof(p.host)))
		snprintf(p.host, sizeof(p.host), "unknown");
	p.host[sizeof(p.host) - 1] = '\0';
	if (!strcmp(cmd, "mesh")) {
		prom_render_mesh(&p, doc);
		rc = 0;
	} else if (!strcmp(cmd, "run")) {
		if (!json_is_array(json_object_get(doc, "generators")))
			return EINVAL;
		render_run(&p, doc);
		rc = 0;
	} else {
		if (!json_is_array(json_object_get(doc, "results")))
			return EINVAL;
		rc = render_local(&p, doc);
	}
	if (rc)
		return rc;
	prom_base_labels(&p, labels, sizeof(labels));
	prom_family(
		&p, "timestamp_seconds", "gauge",
		"When this file was written, seconds since the Unix epoch.");
	prom_sample(&p, "timestamp_seconds", labels, NULL, (double)time(NULL));
	return ferror(f) ? EIO : 0;
}

static int write_cb(FILE *f, void *arg)
{
	return rperf_prom_from_json(f, arg);
}

int rperf_prom_write_json(const char *path, const json_t *doc)
{
	return rperf_atomic_write(path, write_cb, (void *)doc);
}

int rperf_prom_write_report(const char *path, const struct rperf_report *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	json_t *doc;
	int rc;

	if (!m)
		return errno ? errno : ENOMEM;
	rc = r->command && !strcmp(r->command, "bw") ?
		     rperf_report_bw_json(m, r) :
		     rperf_report_json(m, r);
	if (fclose(m) && !rc)
		rc = EIO;
	if (rc) {
		free(buf);
		return rc;
	}
	doc = json_loadb(buf, len, 0, NULL);
	free(buf);
	if (!doc)
		return EINVAL;
	rc = rperf_prom_write_json(path, doc);
	json_decref(doc);
	return rc;
}
