// SPDX-License-Identifier: BSD-2-Clause
/*
 * Text report: a header block (command, figure, units, clock, sample counts)
 * and a table, one row per (method, size), figures in usec.
 *
 * The first nine columns are perftest's, in perftest's order, so that a
 * perftest user's scripts read them by position: #bytes, #iterations (the
 * samples recorded), t_min, t_max (the true maximum: no sample is ever
 * dropped), t_typical (= p50), t_avg, t_stdev, 99% and 99.9% percentile;
 * with --cpu_util, CPU_Util[%] tenth as in perftest. Then the method and
 * the figure (RTT, or RTT/2 under --half-rtt or for a half-RTT generator).
 * The default table fits 120 columns (short names, units in the header);
 * --wide adds every other requested percentile and, when a row has them,
 * wire (T_W - T_P) and loop (T_L - T_P) p50 and p99.9, under perftest's
 * full names (user-chosen --percentiles show in both). Every cell is one
 * plain number or word: the percentiles that fewer than 10/(1-p) samples
 * support are named below the table, never marked in a cell.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "report_int.h"

#define COL_MIN 12 /* minimum column width with --wide */
#define LINE_MAX_COLS 118 /* notes wrap before 120 columns */

struct text_layout {
	const double *ps;
	size_t nps;
	bool extra_pcts; /* show the percentiles beyond perftest's */
	bool wire_loop; /* some row has wire/loop histograms (--wide) */
	bool cpu_util; /* CPU_Util[%] tenth, as perftest's --cpu_util */
	bool wide; /* --wide: every column, perftest's full names */
	bool half; /* --half-rtt: RTT rows shown as RTT/2 */
};

/*
 * perftest's columns (RESULT_FMT_LAT), in its order: the full names with
 * --wide, short names (units in the header block) in the default table,
 * which fits 120 columns.
 */
static const struct {
	const char *wide, *brief;
	int w; /* width in the default table */
} perftest_cols[] = {
	{ "#bytes", "#bytes", 7 },
	{ "#iterations", "#iterations", 11 },
	{ "t_min[usec]", "t_min", 10 },
	{ "t_max[usec]", "t_max", 10 },
	{ "t_typical[usec]", "t_typical", 10 },
	{ "t_avg[usec]", "t_avg", 10 },
	{ "t_stdev[usec]", "t_stdev", 10 },
	{ "99% percentile[usec]", "99%", 10 },
	{ "99.9% percentile[usec]", "99.9%", 10 },
};
#define NPERFTEST_COLS (sizeof(perftest_cols) / sizeof(perftest_cols[0]))
#define CPU_COL "CPU_Util[%]"

#define METHOD_COL "method"
#define FIGURE_COL "figure"

static int col_width(const struct text_layout *L, const char *hdr)
{
	int w = (int)strlen(hdr);

	if (!L->wide && !strcmp(hdr, METHOD_COL))
		return 8; /* "pingpong", "postpoll" */
	if (!L->wide && !strcmp(hdr, FIGURE_COL))
		return w; /* "RTT/2" */
	if (!L->wide) /* the times' width in the default table */
		return w < 10 ? 10 : w;
	return w < COL_MIN ? COL_MIN : w;
}

static void cell(FILE *f, const struct text_layout *L, const char *hdr,
		 const char *val)
{
	fprintf(f, " %*s", col_width(L, hdr), val);
}

/* One of perftest's columns: its name and width in this layout. */
static void pcell(FILE *f, const struct text_layout *L, size_t i,
		  const char *val)
{
	if (L->wide)
		cell(f, L, perftest_cols[i].wide, val);
	else
		fprintf(f, " %*s", perftest_cols[i].w, val);
}

/* A time in usec: an RTT of row @l (NULL: not an RTT, as wire and loop
 * times) halved for a whole-RTT row under --half-rtt. */
static double us(const struct text_layout *L, const struct rperf_lat_result *l,
		 double ns)
{
	return ns / 1000.0 * (L->half && l && !l->half_rtt ? 0.5 : 1.0);
}

static void fmt_us(char *buf, size_t len, double v)
{
	snprintf(buf, len, "%.3f", v);
}

static void pct_hdr(char *buf, size_t len, const char *pfx, double p)
{
	char key[32];

	rperf_rpt_pct_key(p, key, sizeof(key));
	snprintf(buf, len, "%sp%s[usec]", pfx, key);
}

static void cell_pct(FILE *f, const struct text_layout *L,
		     const struct rperf_lat_result *l, const char *pfx,
		     const struct rperf_hist *h, double p)
{
	char hdr[64], buf[48];

	pct_hdr(hdr, sizeof(hdr), pfx, p);
	if (!h) {
		cell(f, L, hdr, "-");
		return;
	}
	fmt_us(buf, sizeof(buf), us(L, l, (double)rperf_hist_percentile(h, p)));
	cell(f, L, hdr, buf);
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

static bool row_half(const struct text_layout *L,
		     const struct rperf_lat_result *l)
{
	return L->half || l->half_rtt;
}

static void print_figure(FILE *f, const struct rperf_report *r,
			 const struct text_layout *L)
{
	const char *fig =
		"RTT (round-trip time) in every time column, not perftest's RTT/2";
	bool half = false, mixed = false;

	for (size_t i = 0; i < r->nlat; i++) {
		half |= r->lat[i].half != NULL && !L->half;
		mixed |= row_half(L, &r->lat[i]) != row_half(L, &r->lat[0]);
	}
	if (mixed)
		fig = "per row, see the 'figure' column (RTT or one-way = RTT/2)";
	else if (L->half)
		fig = "RTT/2 in every time column (--half-rtt: perftest's figure, half the round trip; JSON keeps the RTT)";
	else if (r->nlat && r->lat[0].half_rtt)
		fig = "one-way latency = RTT/2 (half RTT, perftest-style)";
	fprintf(f, "  figures      : %s\n", fig);
	if (half)
		fprintf(f,
			"                 pingpong's RTT/2 (perftest's figure) "
			"follows the table\n");
}

static void print_header(FILE *f, const struct rperf_report *r,
			 const struct text_layout *L)
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
	print_figure(f, r, L);
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
		pcell(f, L, i,
		      L->wide ? perftest_cols[i].wide : perftest_cols[i].brief);
	if (L->cpu_util)
		cell(f, L, CPU_COL, CPU_COL);
	for (i = 0; L->extra_pcts && i < L->nps; i++) {
		if (pct_in_perftest(L->ps[i]))
			continue;
		pct_hdr(hdr, sizeof(hdr), "", L->ps[i]);
		cell(f, L, hdr, hdr);
	}
	cell(f, L, METHOD_COL, METHOD_COL);
	cell(f, L, FIGURE_COL, FIGURE_COL);
	if (L->wire_loop) {
		cell(f, L, "wire_p50[usec]", "wire_p50[usec]");
		cell(f, L, "wire_p99.9[usec]", "wire_p99.9[usec]");
		cell(f, L, "loop_p50[usec]", "loop_p50[usec]");
		cell(f, L, "loop_p99.9[usec]", "loop_p99.9[usec]");
	}
	fputc('\n', f);
}

/* #bytes .. 99.9% percentile: perftest's nine columns of one row, plain
 * numbers (a percentile with too few samples is named below the table). */
static void print_perftest_cells(FILE *f, const struct text_layout *L,
				 const struct rperf_lat_result *l)
{
	const struct rperf_hist *h = l->rtt;
	const double v[] = {
		(double)rperf_hist_min(h),
		(double)rperf_hist_max(h),
		(double)rperf_hist_percentile(h, 50),
		rperf_hist_mean(h),
		rperf_hist_stdev(h),
		(double)rperf_hist_percentile(h, 99),
		(double)rperf_hist_percentile(h, 99.9),
	};
	char buf[48];

	snprintf(buf, sizeof(buf), "%" PRIu64, l->size);
	pcell(f, L, 0, buf);
	snprintf(buf, sizeof(buf), "%" PRIu64, l->samples);
	pcell(f, L, 1, buf);
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		fmt_us(buf, sizeof(buf), us(L, l, v[i]));
		pcell(f, L, i + 2, buf);
	}
}

static void print_row(FILE *f, const struct text_layout *L,
		      const struct rperf_lat_result *l)
{
	char buf[32];
	size_t i;

	print_perftest_cells(f, L, l);
	if (L->cpu_util) {
		snprintf(buf, sizeof(buf), "%.2f", l->cpu_pct);
		cell(f, L, CPU_COL, buf);
	}
	for (i = 0; L->extra_pcts && i < L->nps; i++)
		if (!pct_in_perftest(L->ps[i]))
			cell_pct(f, L, l, "", l->rtt, L->ps[i]);
	/* wire and loop are no round trips: never halved (NULL row) */
	cell(f, L, METHOD_COL, l->method ? l->method : "-");
	cell(f, L, FIGURE_COL, row_half(L, l) ? "RTT/2" : "RTT");
	if (L->wire_loop) {
		cell_pct(f, L, NULL, "wire_", l->wire, 50);
		cell_pct(f, L, NULL, "wire_", l->wire, 99.9);
		cell_pct(f, L, NULL, "loop_", l->loop, 50);
		cell_pct(f, L, NULL, "loop_", l->loop, 99.9);
	}
	fputc('\n', f);
}

/* Prints @item after what the line holds (@col, @first item or not),
 * wrapping before 120 columns. */
static void wrap_item(FILE *f, int *col, bool first, const char *item)
{
	int n = (int)strlen(item);

	if (!first && *col + n + 2 > LINE_MAX_COLS) {
		fprintf(f, ",\n      %s", item);
		*col = 6 + n;
		return;
	}
	*col += fprintf(f, "%s%s", first ? "" : ", ", item);
}

/*
 * The percentiles that fewer than 10/(1-p) samples support, named under
 * the table (never glued to a number, so that every cell reads as one).
 */
static void print_unreliable(FILE *f, const struct rperf_report *r,
			     const struct text_layout *L)
{
	double ps[8 + RPERF_RPT_NDEFAULT_PCTS];
	size_t nps = 0;

	ps[nps++] = 50;
	ps[nps++] = 99;
	ps[nps++] = 99.9;
	for (size_t k = 0; L->extra_pcts && k < L->nps && nps < 8; k++)
		if (!pct_in_perftest(L->ps[k]))
			ps[nps++] = L->ps[k];
	for (size_t k = 0; k < nps; k++) {
		char key[32], item[96];
		size_t bad = 0, i;
		bool first = true;
		int col;

		for (i = 0; i < r->nlat; i++)
			bad += !rperf_percentile_reliable(
				ps[k], rperf_hist_count(r->lat[i].rtt));
		if (!bad)
			continue;
		rperf_rpt_pct_key(ps[k], key, sizeof(key));
		col = fprintf(f, "  too few samples for p%s (it needs %.0f): ",
			      key, 10.0 / (1.0 - ps[k] / 100.0));
		if (bad == r->nlat) {
			fprintf(f, "every row\n");
			continue;
		}
		col = col > 0 ? col : 0;
		for (i = 0; i < r->nlat; i++) {
			const struct rperf_lat_result *l = &r->lat[i];

			if (rperf_percentile_reliable(ps[k],
						      rperf_hist_count(l->rtt)))
				continue;
			snprintf(item, sizeof(item), "%" PRIu64 " B %s",
				 l->size, l->method ? l->method : "");
			wrap_item(f, &col, first, item);
			first = false;
		}
		fputc('\n', f);
	}
}

static void print_legend(FILE *f, const struct rperf_report *r,
			 const struct text_layout *L)
{
	fprintf(f,
		"\n  columns 1-9 are perftest's, in its order, times in usec; t_typical = p50 (median); t_max is the\n"
		"  true maximum (no sample dropped); figure: RTT = round trip, RTT/2 = perftest's half round trip\n");
	if (!L->wide)
		fprintf(f,
			"  --wide: every column (other percentiles, wire and loopback times) under perftest's full names\n");
	if (L->cpu_util)
		fprintf(f,
			"  CPU_Util = this process's CPU time over the run's "
			"wall time, %% of one CPU (perftest: the whole host's)\n");
	if (L->wire_loop)
		fprintf(f, "  wire = T_W - T_P (wire SEND completion), "
			   "loop = T_L - T_P (loopback SEND completion)\n");
	print_unreliable(f, r, L);
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

/* The user's --percentiles, when they differ from the default set. */
static bool custom_pcts(const double *ps, size_t n)
{
	if (n != RPERF_RPT_NDEFAULT_PCTS)
		return true;
	for (size_t i = 0; i < n; i++)
		if (ps[i] != rperf_rpt_default_pcts[i])
			return true;
	return false;
}

int rperf_report_text(FILE *f, const struct rperf_report *r)
{
	struct text_layout L = { 0 };
	size_t i;

	if (!f || !r || (r->nlat && !r->lat) || (r->nwarnings && !r->warnings))
		return EINVAL;
	L.wide = r->wide;
	L.half = r->half_rtt;
	for (i = 0; i < r->nlat; i++) {
		if (!r->lat[i].rtt)
			return EINVAL;
		if (L.wide && (r->lat[i].wire || r->lat[i].loop))
			L.wire_loop = true;
	}
	L.cpu_util = r->cpu_util;
	rperf_rpt_pcts(r, &L.ps, &L.nps);
	L.extra_pcts = L.wide || custom_pcts(L.ps, L.nps);
	print_header(f, r, &L);
	print_columns(f, &L);
	for (i = 0; i < r->nlat; i++)
		print_row(f, &L, &r->lat[i]);
	print_legend(f, r, &L);
	print_warnings(f, r);
	return rperf_rpt_io_status(f);
}
