// SPDX-License-Identifier: BSD-2-Clause
/*
 * rperf bw reports. JSON: the layout of report_json.c (schema_version,
 * command, rperf_version, config, platform, clock, warnings, partial, error)
 * with "results" holding one object per size:
 *
 *   { verb, size, qps, messages, bytes, seconds, gbps, peak_gbps (the best
 *     interval's: null when none completed), mpps, mibps, mtu,
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
	SET("peak_gbps", real_or_null(b->peak_gbps, b->peak_gbps > 0));
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
	return rperf_rpt_json_done(o, err);
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

/*
 * The table: perftest's five columns first, in its order (RESULT_FMT of
 * ib_*_bw: #bytes, #iterations, BW peak, BW average, MsgRate), with
 * --cpu_util its CPU_Util[%] sixth; rperf's extras after them: verb, CPU%,
 * the receiver's count and rate by default (the table fits 120 columns),
 * with --wide also seconds, line% and wire efficiency.
 */
struct bw_cols {
	char peak[32], avg[32], rx[32];
	bool cpu_util, wide;
};

static void bw_cols_init(struct bw_cols *c, const struct rperf_report *r)
{
	const char *u = r->report_gbits ? "Gb/sec" : "MB/sec";

	snprintf(c->peak, sizeof(c->peak), "BW peak[%s]", u);
	snprintf(c->avg, sizeof(c->avg), "BW average[%s]", u);
	snprintf(c->rx, sizeof(c->rx), "rx_BW[%s]", u);
	c->cpu_util = r->cpu_util;
	c->wide = r->wide;
}

static void bcell(FILE *f, const char *hdr, const char *val)
{
	int w = (int)strlen(hdr);

	fprintf(f, " %*s", w < 9 ? 9 : w, val);
}

static void brate(FILE *f, const struct rperf_report *r, const char *hdr,
		  double gbps, bool known)
{
	char buf[32] = "-";

	if (known && r->report_gbits)
		snprintf(buf, sizeof(buf), "%.4f", gbps);
	else if (known)
		snprintf(buf, sizeof(buf), "%.2f", gbps * 1e9 / 8 / 1048576.0);
	bcell(f, hdr, buf);
}

/* An extra column @name shown in this layout? */
static bool shown(const struct bw_cols *c, const char *name)
{
	static const char *const wide_only[] = { "seconds", "line%", "wire" };

	if (c->cpu_util && !strcmp(name, "CPU%"))
		return false; /* CPU_Util[%] sixth instead */
	for (size_t i = 0; !c->wide && i < 3; i++)
		if (!strcmp(name, wide_only[i]))
			return false;
	return true;
}

static void text_head(FILE *f, const struct bw_cols *c)
{
	static const char *const extras[] = {
		"verb", "seconds", "line%", "wire", "CPU%", "rx_messages"
	};

	bcell(f, "#bytes", "#bytes");
	bcell(f, "#iterations", "#iterations");
	bcell(f, c->peak, c->peak);
	bcell(f, c->avg, c->avg);
	bcell(f, "MsgRate[Mpps]", "MsgRate[Mpps]");
	if (c->cpu_util)
		bcell(f, "CPU_Util[%]", "CPU_Util[%]");
	for (size_t i = 0; i < sizeof(extras) / sizeof(extras[0]); i++)
		if (shown(c, extras[i]))
			bcell(f, extras[i], extras[i]);
	bcell(f, c->rx, c->rx);
	fputc('\n', f);
}

/* verb .. rx_messages of one row, those this layout shows. */
static void text_extras(FILE *f, const struct bw_cols *c,
			const struct rperf_bw_result *b)
{
	bool t = b->seconds > 0;
	char buf[32];

	bcell(f, "verb", b->verb ? b->verb : "-");
	snprintf(buf, sizeof(buf), "%.3f", b->seconds);
	if (shown(c, "seconds"))
		bcell(f, "seconds", buf);
	snprintf(buf, sizeof(buf), "%.2f", 100.0 * b->gbps / b->line_gbps);
	if (shown(c, "line%"))
		bcell(f, "line%", b->line_gbps > 0 && t ? buf : "-");
	snprintf(buf, sizeof(buf), "%.3f", b->wire_efficiency);
	if (shown(c, "wire"))
		bcell(f, "wire", buf);
	snprintf(buf, sizeof(buf), "%.1f", b->cpu_pct);
	if (shown(c, "CPU%"))
		bcell(f, "CPU%", buf);
	snprintf(buf, sizeof(buf), "%" PRIu64, b->rx_messages);
	bcell(f, "rx_messages", b->receiver_valid ? buf : "n/a");
}

static void text_row(FILE *f, const struct rperf_report *r,
		     const struct bw_cols *c, const struct rperf_bw_result *b)
{
	bool t = b->seconds > 0;
	char buf[32];

	snprintf(buf, sizeof(buf), "%" PRIu64, b->size);
	bcell(f, "#bytes", buf);
	snprintf(buf, sizeof(buf), "%" PRIu64, b->messages);
	bcell(f, "#iterations", buf);
	/* no complete interval (a short run, the server's direction): the
	 * average is the only rate there is, and the legend says so */
	brate(f, r, c->peak,
	      r->no_peak       ? 0 :
	      b->peak_gbps > 0 ? b->peak_gbps :
				 b->gbps,
	      t);
	brate(f, r, c->avg, b->gbps, t);
	snprintf(buf, sizeof(buf), "%.6f", b->mpps);
	bcell(f, "MsgRate[Mpps]", buf);
	snprintf(buf, sizeof(buf), "%.2f", b->cpu_pct);
	if (c->cpu_util)
		bcell(f, "CPU_Util[%]", buf);
	text_extras(f, c, b);
	if (b->receiver_valid)
		brate(f, r, c->rx, b->rx_gbps, b->rx_seconds > 0);
	else
		bcell(f, c->rx, "n/a");
	fputc('\n', f);
}

/* -b: the server -> client direction, same columns. */
static void text_reverse(FILE *f, const struct rperf_report *r,
			 const struct bw_cols *c)
{
	bool any = false;

	for (size_t i = 0; i < r->nbw; i++)
		any |= r->bw[i].reverse != NULL;
	if (!any)
		return;
	fprintf(f, "\n  reverse (server -> client; rx = this side's count):\n");
	for (size_t i = 0; i < r->nbw; i++)
		if (r->bw[i].reverse)
			text_row(f, r, c, r->bw[i].reverse);
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

static void text_legend(FILE *f, const struct rperf_report *r,
			const struct bw_cols *c)
{
	fprintf(f,
		"\n  columns 1-5 are perftest's (ib_*_bw), in its order: #iterations = messages completed;\n"
		"  %s = payload, %s\n"
		"  BW peak = the best rate of a window between --interval ticks (100 ms without one) that holds at\n"
		"  least %d signaled completions per QP (-Q), so that a batch of completions does not inflate it;\n"
		"  never below the average; a run without such a window, and the reverse direction, show the average\n",
		r->report_gbits ? "Gb/sec" : "MB/sec",
		r->report_gbits ?
			"10^9 bit/s" :
			"2^20 B/s (perftest 4.5's MB/sec, newer perftest's MiB/sec)",
		RPERF_BW_PEAK_MIN_SIGNALS);
	if (c->cpu_util)
		fprintf(f,
			"  CPU_Util = the sender's CPU time over the run's wall time, %% of one CPU (perftest: the whole host's)\n");
	fprintf(f,
		"  rx = the receiver's count (the destination's view), n/a where the receiver cannot count\n");
	if (c->wide)
		fprintf(f,
			"  line%% = payload rate / the port's data rate; wire = payload share of the bytes on the wire\n"
			"  for the size and path MTU\n");
	else
		fprintf(f,
			"  --wide adds seconds, line%% (of the port's data rate) and wire efficiency\n");
}

int rperf_report_bw_text(FILE *f, const struct rperf_report *r)
{
	const struct rperf_bw_result *b0 = r && r->nbw ? &r->bw[0] : NULL;
	struct bw_cols c = { 0 };

	if (!f || !r || (r->nbw && !r->bw) || (r->nwarnings && !r->warnings))
		return EINVAL;
	bw_cols_init(&c, r);
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
	fputc('\n', f);
	text_head(f, &c);
	for (size_t i = 0; i < r->nbw; i++)
		text_row(f, r, &c, &r->bw[i]);
	text_reverse(f, r, &c);
	text_legend(f, r, &c);
	text_limits(f, r);
	text_warnings(f, r);
	return rperf_rpt_io_status(f);
}
