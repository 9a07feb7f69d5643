// SPDX-License-Identifier: BSD-2-Clause
/*
 * Text report: a header block (command, figure, units, clock, sample counts)
 * and a table, one row per (method, size), figures in usec.
 *
 * The first nine columns are perftest's, in perftest's order, so that a
 * perftest user's scripts read them by position: #bytes, #iterations (the
 * samples recorded), t_min, t_max (the true maximum: no sample is ever
 * dropped), t_typical (= p50), t_avg, t_stdev, 99% and 99.9% percentile;
 * with --cpu_util, CPU_Util[%] tenth as in perftest. rperf's extras follow:
 * every other requested percentile, the method, the figure (only when rows
 * differ: RTT or RTT/2), then, when a row has them, wire (T_W - T_P) and
 * loop (T_L - T_P) p50 and p99.9. A percentile that fewer than 10/(1-p)
 * samples support ends with '*' (see the legend).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "report_int.h"

#define COL_MIN 12 /* minimum column width */

struct text_layout {
	const double *ps;
	size_t nps;
	bool wire_loop; /* some row has wire/loop histograms */
	bool mixed; /* rows differ in half_rtt: add a figure column */
	bool cpu_util; /* CPU_Util[%] tenth, as perftest's --cpu_util */
};

/* perftest's columns (RESULT_FMT_LAT), in its order. */
static const char *const perftest_cols[] = {
	"#bytes",	 "#iterations",		 "t_min[usec]",
	"t_max[usec]",	 "t_typical[usec]",	 "t_avg[usec]",
	"t_stdev[usec]", "99% percentile[usec]", "99.9% percentile[usec]",
};
#define NPERFTEST_COLS (sizeof(perftest_cols) / sizeof(perftest_cols[0]))
#define CPU_COL "CPU_Util[%]"
#define METHOD_COL "method"

static int col_width(const char *hdr)
{
	int w = (int)strlen(hdr);

	return w < COL_MIN ? COL_MIN : w;
}

static void cell(FILE *f, const char *hdr, const char *val)
{
	fprintf(f, " %*s", col_width(hdr), val);
}

static void cell_us(FILE *f, const char *hdr, double ns, bool unreliable)
{
	char buf[48];

	snprintf(buf, sizeof(buf), "%.3f%s", ns / 1000.0,
		 unreliable ? "*" : "");
	cell(f, hdr, buf);
}

static void pct_hdr(char *buf, size_t len, const char *pfx, double p)
{
	char key[32];

	rperf_rpt_pct_key(p, key, sizeof(key));
	snprintf(buf, len, "%sp%s[usec]", pfx, key);
}

static void cell_pct(FILE *f, const char *pfx, const struct rperf_hist *h,
		     double p)
{
	char hdr[64];

	pct_hdr(hdr, sizeof(hdr), pfx, p);
	if (!h) {
		cell(f, hdr, "-");
		return;
	}
	cell_us(f, hdr, (double)rperf_hist_percentile(h, p),
		!rperf_percentile_reliable(p, rperf_hist_count(h)));
}

static void print_clock(FILE *f, const struct rperf_clock *c)
{
	if (!c) {
		fprintf(f, "  clock source : unknown\n");
		return;
	}
	fprintf(f,
		"  clock source : %s (%s%s), %.0f Hz, method %s, error %.2f ppm\n",
		rperf_clock_source_name(c->source),
		c->trusted ? "trusted" : "UNTRUSTED",
		c->forced ? ", forced" : "", c->hz, c->method, c->error_ppm);
}

static void print_stamps(FILE *f, const struct rperf_report *r)
{
	if (!r->timestamps)
		return;
	if (r->nic_clock_hz > 0)
		fprintf(f,
			"  timestamps   : nic (the HCA's completion timestamps, %.0f Hz; posts on the clock above)\n",
			r->nic_clock_hz);
	else if (r->timestamps_note)
		fprintf(f, "  timestamps   : cpu (--timestamps auto: %s)\n",
			r->timestamps_note);
	else
		fprintf(f,
			"  timestamps   : cpu (each completion when the poll that returns it returns)\n");
}

static void print_figure(FILE *f, const struct rperf_report *r, bool mixed)
{
	const char *fig =
		"RTT (round-trip time) in every time column, not perftest's RTT/2";
	bool half = false;

	for (size_t i = 0; i < r->nlat; i++)
		half |= r->lat[i].half != NULL;
	if (mixed)
		fig = "per row, see the 'figure' column (RTT or one-way = RTT/2)";
	else if (r->nlat && r->lat[0].half_rtt)
		fig = "one-way latency = RTT/2 (half RTT, perftest-style)";
	fprintf(f, "  figures      : %s%s\n", fig,
		half ? "; pingpong's RTT/2 (perftest's figure) follows the table" :
		       "");
}

static void print_header(FILE *f, const struct rperf_report *r, bool mixed)
{
	uint64_t samples = 0, warmup = 0, nonpos = 0, precomp = 0;
	size_t i;

	for (i = 0; i < r->nlat; i++) {
		samples += r->lat[i].samples;
		warmup += r->lat[i].warmup;
		nonpos += r->lat[i].nonpositive;
		precomp += r->lat[i].precompleted;
	}
	fprintf(f, "rperf %s\n", r->command ? r->command : "");
	fprintf(f, "  command      : %s\n", r->command ? r->command : "");
	print_figure(f, r, mixed);
	fprintf(f, "  units        : usec (measured in ns)\n");
	print_clock(f, r->clock);
	print_stamps(f, r);
	rperf_rpt_text_host(f, r->placement, r->preflight);
	fprintf(f, "  samples      : %" PRIu64 " recorded%s\n", samples,
		r->nlat > 1 ? " (all rows)" : "");
	fprintf(f, "  warm-up      : %" PRIu64 " samples excluded\n", warmup);
	fprintf(f,
		"  nonpositive  : %" PRIu64
		" (RTT <= 0; recorded, never dropped)\n",
		nonpos);
	fprintf(f,
		"  precompleted : %" PRIu64
		" (completion already in the CQ when the post returned)\n",
		precomp);
	if (r->partial)
		fprintf(f, "  status       : PARTIAL (%s)\n",
			r->error ? r->error : "run ended early");
	fputc('\n', f);
}

/* Percentiles that have a column of their own among perftest's. */
static bool pct_in_perftest(double p)
{
	return p == 50 || p == 99 || p == 99.9;
}

static void print_columns(FILE *f, const struct text_layout *L)
{
	char hdr[64];
	size_t i;

	for (i = 0; i < NPERFTEST_COLS; i++)
		cell(f, perftest_cols[i], perftest_cols[i]);
	if (L->cpu_util)
		cell(f, CPU_COL, CPU_COL);
	for (i = 0; i < L->nps; i++) {
		if (pct_in_perftest(L->ps[i]))
			continue;
		pct_hdr(hdr, sizeof(hdr), "", L->ps[i]);
		cell(f, hdr, hdr);
	}
	cell(f, METHOD_COL, METHOD_COL);
	if (L->mixed)
		cell(f, "figure", "figure");
	if (L->wire_loop) {
		cell(f, "wire_p50[usec]", "wire_p50[usec]");
		cell(f, "wire_p99.9[usec]", "wire_p99.9[usec]");
		cell(f, "loop_p50[usec]", "loop_p50[usec]");
		cell(f, "loop_p99.9[usec]", "loop_p99.9[usec]");
	}
	fputc('\n', f);
}

/* #bytes .. 99.9% percentile: perftest's nine columns of one row. */
static void print_perftest_cells(FILE *f, const struct rperf_lat_result *l)
{
	const struct rperf_hist *h = l->rtt;
	uint64_t n = rperf_hist_count(h);
	const char *const *c = perftest_cols;
	char buf[32];

	snprintf(buf, sizeof(buf), "%" PRIu64, l->size);
	cell(f, c[0], buf);
	snprintf(buf, sizeof(buf), "%" PRIu64, l->samples);
	cell(f, c[1], buf);
	cell_us(f, c[2], (double)rperf_hist_min(h), false);
	cell_us(f, c[3], (double)rperf_hist_max(h), false);
	cell_us(f, c[4], (double)rperf_hist_percentile(h, 50),
		!rperf_percentile_reliable(50, n));
	cell_us(f, c[5], rperf_hist_mean(h), false);
	cell_us(f, c[6], rperf_hist_stdev(h), false);
	cell_us(f, c[7], (double)rperf_hist_percentile(h, 99),
		!rperf_percentile_reliable(99, n));
	cell_us(f, c[8], (double)rperf_hist_percentile(h, 99.9),
		!rperf_percentile_reliable(99.9, n));
}

static void print_row(FILE *f, const struct text_layout *L,
		      const struct rperf_lat_result *l)
{
	char buf[32];
	size_t i;

	print_perftest_cells(f, l);
	if (L->cpu_util) {
		snprintf(buf, sizeof(buf), "%.2f", l->cpu_pct);
		cell(f, CPU_COL, buf);
	}
	for (i = 0; i < L->nps; i++)
		if (!pct_in_perftest(L->ps[i]))
			cell_pct(f, "", l->rtt, L->ps[i]);
	cell(f, METHOD_COL, l->method ? l->method : "-");
	if (L->mixed)
		cell(f, "figure", l->half_rtt ? "RTT/2" : "RTT");
	if (L->wire_loop) {
		cell_pct(f, "wire_", l->wire, 50);
		cell_pct(f, "wire_", l->wire, 99.9);
		cell_pct(f, "loop_", l->loop, 50);
		cell_pct(f, "loop_", l->loop, 99.9);
	}
	fputc('\n', f);
}

static void print_legend(FILE *f, const struct text_layout *L)
{
	fprintf(f,
		"\n  columns 1-9 are perftest's, in its order; t_typical = p50 "
		"(median); t_max is the true maximum (no sample dropped)\n");
	if (L->cpu_util)
		fprintf(f,
			"  CPU_Util = this process's CPU time over the run's "
			"wall time, %% of one CPU (perftest: the whole host's)\n");
	fprintf(f, "  * unreliable: fewer than 10/(1-p) samples support this "
		   "percentile (p99 needs 1000, p99.9 10000, p99.99 100000)\n");
	if (L->wire_loop)
		fprintf(f, "  wire = T_W - T_P (wire SEND completion), "
			   "loop = T_L - T_P (loopback SEND completion)\n");
}

static void print_warnings(FILE *f, const struct rperf_report *r)
{
	size_t i, n = r->nwarnings;
	bool untrusted = r->clock && !r->clock->trusted;

	if (!n && !untrusted && !r->partial)
		return;
	fprintf(f, "\nwarnings:\n");
	if (untrusted)
		fprintf(f, "  - untrusted clock: %s\n", r->clock->reason);
	if (r->partial)
		fprintf(f,
			"  - partial results: the run ended early (%s); "
			"figures cover what was done\n",
			r->error ? r->error : "no reason given");
	for (i = 0; i < n; i++)
		fprintf(f, "  - %s\n", r->warnings[i] ? r->warnings[i] : "");
}

int rperf_report_text(FILE *f, const struct rperf_report *r)
{
	struct text_layout L = { 0 };
	size_t i;

	if (!f || !r || (r->nlat && !r->lat) || (r->nwarnings && !r->warnings))
		return EINVAL;
	for (i = 0; i < r->nlat; i++) {
		if (!r->lat[i].rtt)
			return EINVAL;
		if (r->lat[i].wire || r->lat[i].loop)
			L.wire_loop = true;
		if (r->lat[i].half_rtt != r->lat[0].half_rtt)
			L.mixed = true;
	}
	L.cpu_util = r->cpu_util;
	rperf_rpt_pcts(r, &L.ps, &L.nps);
	print_header(f, r, L.mixed);
	print_columns(f, &L);
	for (i = 0; i < r->nlat; i++)
		print_row(f, &L, &r->lat[i]);
	print_legend(f, &L);
	print_warnings(f, r);
	return rperf_rpt_io_status(f);
}
