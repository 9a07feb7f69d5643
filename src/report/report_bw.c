// SPDX-License-Identifier: BSD-2-Clause
/*
 * rperf bw reports. JSON: the layout of report_json.c (schema_version,
 * command, rperf_version, config, platform, clock, warnings, partial, error)
 * with "results" holding one object per size:
 *
 *   { verb, size, qps, messages, bytes, seconds, gbps, mpps, mibps, mtu,
 *     line_rate_gbps, line_rate_pct, wire_efficiency, max_goodput_gbps,
 *     cpu_pct, post_calls, rate_limit: null | {offered_gbps, offered_mpps,
 *     achieved_gbps, achieved_mpps}, receiver: null | {messages, bytes,
 *     seconds, gbps, cpu_pct}, receiver_note: null | string,
 *     reverse (only with -b): the same keys for the server -> client
 *     direction (the server's sender counts, the client's receiver view) }
 *
 * Unknown figures (no line rate, no time) are null, never 0.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report_int.h"

static json_t *real_or_null(double d, bool known)
{
	return known ? rperf_rpt_json_real(d) : json_null();
}

static json_t *json_limit(const struct rperf_bw_result *b)
{
	if (b->offered_gbps <= 0)
		return json_null();
	return json_pack("{s:o, s:o, s:o, s:o}", "offered_gbps",
			 rperf_rpt_json_real(b->offered_gbps), "offered_mpps",
			 rperf_rpt_json_real(b->offered_mpps), "achieved_gbps",
			 rperf_rpt_json_real(b->gbps), "achieved_mpps",
			 rperf_rpt_json_real(b->mpps));
}

static json_t *json_receiver(const struct rperf_bw_result *b)
{
	if (!b->receiver_valid)
		return json_null();
	return json_pack("{s:o, s:o, s:o, s:o, s:o}", "messages",
			 rperf_rpt_json_uint(b->rx_messages), "bytes",
			 rperf_rpt_json_uint(b->rx_bytes), "seconds",
			 rperf_rpt_json_real(b->rx_seconds), "gbps",
			 real_or_null(b->rx_gbps, b->rx_seconds > 0), "cpu_pct",
			 real_or_null(b->rx_cpu_pct, b->rx_cpu_pct >= 0));
}

static json_t *result_json(const struct rperf_bw_result *b)
{
	bool t = b->seconds > 0, line = b->line_gbps > 0;
	json_t *o = json_object();
	int err = o ? 0 : -1;

#define SET(k, v) err |= o ? json_object_set_new(o, k, v) : -1
	SET("verb", rperf_rpt_json_str(b->verb));
	SET("size", rperf_rpt_json_uint(b->size));
	SET("qps", rperf_rpt_json_uint(b->qps));
	SET("messages", rperf_rpt_json_uint(b->messages));
	SET("bytes", rperf_rpt_json_uint(b->bytes));
	SET("seconds", rperf_rpt_json_real(b->seconds));
	SET("gbps", real_or_null(b->gbps, t));
	SET("mpps", real_or_null(b->mpps, t));
	SET("mibps", real_or_null(b->gbps * 1e9 / 8 / 1048576.0, t));
	SET("mtu", json_integer(b->mtu));
	SET("line_rate_gbps", real_or_null(b->line_gbps, line));
	SET("line_rate_pct",
	    real_or_null(100.0 * b->gbps / b->line_gbps, line && t));
	SET("wire_efficiency",
	    real_or_null(b->wire_efficiency, b->wire_efficiency > 0));
	SET("max_goodput_gbps", real_or_null(b->line_gbps * b->wire_efficiency,
					     line && b->wire_efficiency > 0));
	SET("cpu_pct", real_or_null(b->cpu_pct, t));
	SET("post_calls", rperf_rpt_json_uint(b->post_calls));
	SET("rate_limit", json_limit(b));
	SET("receiver", json_receiver(b));
	SET("receiver_note", rperf_rpt_json_str(b->receiver_note));
	if (b->reverse && b->reverse != b)
		SET("reverse", result_json(b->reverse));
#undef SET
	if (err) {
		json_decref(o);
		return NULL;
	}
	return o;
}

int rperf_report_bw_jsonl(FILE *f, const struct rperf_bw_result *b)
{
	json_t *o;

	if (!f || !b)
		return EINVAL;
	o = result_json(b);
	if (!o || json_object_set_new(o, "type", json_string("total"))) {
		json_decref(o);
		return ENOMEM;
	}
	if (json_dumpf(o, f, JSON_COMPACT) || fputc('\n', f) == EOF) {
		json_decref(o);
		return EIO;
	}
	json_decref(o);
	return rperf_rpt_io_status(f);
}

/* The common part (config, platform, clock, warnings...) as JSON. */
static int base_json(const struct rperf_report *r, json_t **out)
{
	struct rperf_report base = *r;
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	int rc;

	if (!m)
		return ENOMEM;
	base.lat = NULL;
	base.nlat = 0;
	rc = rperf_report_json(m, &base);
	if (fclose(m) && !rc)
		rc = EIO;
	if (!rc) {
		*out = json_loadb(buf, len, 0, NULL);
		rc = *out ? 0 : ENOMEM;
	}
	free(buf);
	return rc;
}

int rperf_report_bw_json(FILE *f, const struct rperf_report *r)
{
	json_t *root = NULL, *a;
	int rc;

	if (!f || !r || (r->nbw && !r->bw))
		return EINVAL;
	rc = base_json(r, &root);
	if (rc)
		return rc;
	a = json_array();
	for (size_t i = 0; a && i < r->nbw; i++)
		if (json_array_append_new(a, result_json(&r->bw[i])))
			rc = ENOMEM;
	if (!a || rc || json_object_set_new(root, "results", a)) {
		json_decref(root);
		return ENOMEM;
	}
	return rperf_rpt_json_emit(f, root);
}

static int write_fn(FILE *f, void *arg)
{
	return rperf_report_bw_json(f, arg);
}

int rperf_report_bw_write_json(const char *path, const struct rperf_report *r)
{
	return rperf_atomic_write(path, write_fn, (void *)(uintptr_t)r);
}

/* ---- text ---- */

static void rate(FILE *f, const struct rperf_report *r, double gbps, bool known)
{
	if (!known)
		fprintf(f, " %11s", "-");
	else if (r->report_gbits)
		fprintf(f, " %11.4f", gbps);
	else
		fprintf(f, " %11.2f", gbps * 1e9 / 8 / 1048576.0);
}

static void text_row(FILE *f, const struct rperf_report *r,
		     const struct rperf_bw_result *b)
{
	bool t = b->seconds > 0;

	fprintf(f, "  %-9s %9" PRIu64 " %12" PRIu64 " %8.3f", b->verb, b->size,
		b->messages, b->seconds);
	rate(f, r, b->gbps, t);
	fprintf(f, " %8.4f", b->mpps);
	if (b->line_gbps > 0 && t)
		fprintf(f, " %6.2f", 100.0 * b->gbps / b->line_gbps);
	else
		fprintf(f, " %6s", "-");
	fprintf(f, " %6.3f %6.1f", b->wire_efficiency, b->cpu_pct);
	if (b->receiver_valid) {
		fprintf(f, " %12" PRIu64, b->rx_messages);
		rate(f, r, b->rx_gbps, b->rx_seconds > 0);
	} else {
		fprintf(f, " %12s %11s", "n/a", "n/a");
	}
	fputc('\n', f);
}

/* -b: the server -> client direction, same columns. */
static void text_reverse(FILE *f, const struct rperf_report *r)
{
	bool any = false;

	for (size_t i = 0; i < r->nbw; i++)
		any |= r->bw[i].reverse != NULL;
	if (!any)
		return;
	fprintf(f, "\n  reverse (server -> client; rx = this side's count):\n");
	for (size_t i = 0; i < r->nbw; i++)
		if (r->bw[i].reverse)
			text_row(f, r, r->bw[i].reverse);
}

static void text_limits(FILE *f, const struct rperf_report *r)
{
	for (size_t i = 0; i < r->nbw; i++) {
		const struct rperf_bw_result *b = &r->bw[i];

		if (b->offered_gbps > 0)
			fprintf(f,
				"  rate limit %" PRIu64
				" B: offered %.6f Gb/s (%.6f Mpps), achieved %.6f Gb/s (%.6f Mpps), %.2f %% of offered\n",
				b->size, b->offered_gbps, b->offered_mpps,
				b->gbps, b->mpps,
				100.0 * b->gbps / b->offered_gbps);
		if (!b->receiver_valid && b->receiver_note)
			fprintf(f, "  receiver %" PRIu64 " B: %s\n", b->size,
				b->receiver_note);
	}
}

static void text_warnings(FILE *f, const struct rperf_report *r)
{
	if (!r->nwarnings && !r->partial)
		return;
	fprintf(f, "\nwarnings:\n");
	if (r->partial)
		fprintf(f,
			"  - partial results: the run ended early (%s); figures cover what was done\n",
			r->error ? r->error : "no reason given");
	for (size_t i = 0; i < r->nwarnings; i++)
		fprintf(f, "  - %s\n", r->warnings[i] ? r->warnings[i] : "");
}

int rperf_report_bw_text(FILE *f, const struct rperf_report *r)
{
	const char *u = r && r->report_gbits ? "Gb/s" : "MiB/s";
	const struct rperf_bw_result *b0 = r && r->nbw ? &r->bw[0] : NULL;

	if (!f || !r || (r->nbw && !r->bw) || (r->nwarnings && !r->warnings))
		return EINVAL;
	fprintf(f, "rperf %s\n", r->command ? r->command : "bw");
	if (b0)
		fprintf(f,
			"  QPs %" PRIu64
			", path MTU %d B, line rate %.2f Gb/s%s\n",
			b0->qps, b0->mtu, b0->line_gbps,
			b0->line_gbps > 0 ? "" : " (unknown)");
	rperf_rpt_text_host(f, r->placement, r->preflight);
	if (r->partial)
		fprintf(f, "  status: PARTIAL (%s)\n",
			r->error ? r->error : "run ended early");
	fprintf(f, "\n  %-9s %9s %12s %8s %11s %8s %6s %6s %6s %12s %11s\n",
		"verb", "bytes", "messages", "seconds", u, "Mpps", "line%",
		"wire", "CPU%", "rx messages", u);
	for (size_t i = 0; i < r->nbw; i++)
		text_row(f, r, &r->bw[i]);
	text_reverse(f, r);
	fprintf(f,
		"\n  %s = payload (%s); line%% = payload rate / the port's data rate; wire = payload share of the bytes on the wire for the size and path MTU; rx = the receiver's count (the destination's view)\n",
		u, r->report_gbits ? "10^9 bit/s" : "2^20 B/s");
	text_limits(f, r);
	text_warnings(f, r);
	return rperf_rpt_io_status(f);
}
