// SPDX-License-Identifier: BSD-2-Clause
/*
 * Unit tests of the report module: text and CSV run reports, raw sample
 * CSV, atomic file writes and the percentile reliability rule.
 */
#include <dirent.h>
#include <unistd.h>

#include "report_fixture.h"
#include "table_fields.h"

/* ---- text -------------------------------------------------------------- */

/* The table row whose method (an extra column) is @method. */
static char *row_of(const char *out, const char *method)
{
	char pat[32];
	const char *p, *e;

	snprintf(pat, sizeof(pat), " %s", method);
	for (p = strstr(out, pat); p; p = strstr(p + 1, pat))
		if (p[strlen(pat)] == ' ' || p[strlen(pat)] == '\n')
			break;
	assert_non_null(p);
	while (p > out && p[-1] != '\n')
		p--;
	e = strchr(p, '\n');
	assert_non_null(e);
	return strndup(p, (size_t)(e - p));
}

/* @v (ns) as the table prints it (usec, 3 decimals): a plain number even
 * where too few samples support it (@unrel: the note below names it). */
static void expect_us(const char *out, const char *bytes, int col, double v,
		      bool unrel)
{
	char want[48];
	char *got = field_of(out, bytes, col);

	(void)unrel;
	snprintf(want, sizeof(want), "%.3f", v / 1000.0);
	assert_string_equal(got, want);
	free(got);
}

/*
 * perftest's columns by position ($1..$9 as awk reads them): #bytes
 * #iterations t_min t_max t_typical t_avg t_stdev 99% 99.9%, then rperf's
 * extras; --cpu_util puts CPU_Util[%] tenth, as perftest does. --wide
 * (this test) has perftest's full names and every extra column.
 */
static void test_text_perftest_columns(void **state)
{
	struct fixture *fx = *state;
	struct rperf_report r = fx->r;
	struct rperf_lat_result lat[2] = { fx->lat[0], fx->lat[1] };
	const struct rperf_hist *h = fx->rtt, *h2 = fx->rtt2;
	char *out, *hdr;

	r.wide = true;
	out = render(rperf_report_text, &r);

	hdr = strstr(out, "#bytes");
	assert_non_null(hdr);
	assert_memory_equal(strstr(hdr, "#iterations"), "#iterations", 11);
	assert_true(strstr(hdr, "t_min[usec]") < strstr(hdr, "t_max[usec]"));
	assert_true(strstr(hdr, "t_max[usec]") <
		    strstr(hdr, "t_typical[usec]"));
	assert_true(strstr(hdr, "t_typical[usec]") <
		    strstr(hdr, "t_avg[usec]"));
	assert_true(strstr(hdr, "t_avg[usec]") < strstr(hdr, "t_stdev[usec]"));
	assert_true(strstr(hdr, "t_stdev[usec]") <
		    strstr(hdr, " 99% percentile[usec]"));
	assert_true(strstr(hdr, " 99% percentile[usec]") <
		    strstr(hdr, "99.9% percentile[usec]"));
	assert_true(strstr(hdr, "99.9% percentile[usec]") <
		    strstr(hdr, "p99.99[usec]"));
	assert_true(strstr(hdr, "p99.99[usec]") < strstr(hdr, "method"));
	assert_null(strstr(hdr, "CPU_Util"));
	assert_non_null(strstr(out, "figures      : RTT (round-trip time)"));
	/* rperf 64 B, 5001 samples: p99.9 unreliable */
	expect_field(out, "64", 2, "5001");
	expect_us(out, "64", 3, -7, false);
	expect_us(out, "64", 4, (double)rperf_hist_max(h), false);
	expect_us(out, "64", 5, (double)rperf_hist_percentile(h, 50), false);
	expect_us(out, "64", 6, rperf_hist_mean(h), false);
	expect_us(out, "64", 7, rperf_hist_stdev(h), false);
	expect_us(out, "64", 8, (double)rperf_hist_percentile(h, 99), false);
	expect_us(out, "64", 9, (double)rperf_hist_percentile(h, 99.9), true);
	expect_us(out, "64", 10, (double)rperf_hist_percentile(h, 99.99), true);
	expect_field(out, "64", 11, "rperf");
	expect_field(out, "64", 12, "RTT");
	expect_us(out, "64", 13, (double)rperf_hist_percentile(fx->wire, 50),
		  false);
	assert_non_null(strstr(out, "too few samples for p99.9 (it needs "
				    "10000): every row\n"));
	assert_non_null(strstr(out, "too few samples for p99.99 (it needs "
				    "100000): every row\n"));
	assert_null(strstr(out, "too few samples for p99 ("));
	/* pingpong 4096 B, 2000 samples: p99 reliable, p99.9 not */
	expect_field(out, "4096", 2, "2000");
	expect_us(out, "4096", 3, (double)rperf_hist_min(h2), false);
	expect_us(out, "4096", 8, (double)rperf_hist_percentile(h2, 99), false);
	expect_field(out, "4096", 11, "pingpong");
	expect_field(out, "4096", 13, "-"); /* no wire/loop */
	free(out);

	/* --cpu_util: CPU_Util[%] is the tenth column, as in perftest */
	lat[0].cpu_pct = 98.765;
	lat[1].cpu_pct = 3.5;
	r.lat = lat;
	r.cpu_util = true;
	out = render(rperf_report_text, &r);
	hdr = strstr(out, "#bytes");
	assert_true(strstr(hdr, "99.9% percentile[usec]") <
		    strstr(hdr, "CPU_Util[%]"));
	assert_true(strstr(hdr, "CPU_Util[%]") < strstr(hdr, "p99.99[usec]"));
	expect_us(out, "64", 9, (double)rperf_hist_percentile(h, 99.9), true);
	expect_field(out, "64", 10, "98.77");
	expect_field(out, "4096", 10, "3.50");
	expect_field(out, "64", 12, "rperf");
	free(out);

	/* the default table: perftest's nine, method, figure; 120 columns */
	r.wide = false;
	r.cpu_util = false;
	out = render(rperf_report_text, &r);
	hdr = strstr(out, "#bytes");
	assert_non_null(strstr(hdr, "t_typical "));
	assert_null(strstr(out, "wire_p50"));
	assert_null(strstr(out, "p99.99[usec]"));
	expect_us(out, "64", 5, (double)rperf_hist_percentile(h, 50), false);
	expect_us(out, "64", 9, (double)rperf_hist_percentile(h, 99.9), true);
	expect_field(out, "64", 10, "rperf");
	expect_field(out, "64", 11, "RTT");
	expect_field(out, "4096", 10, "pingpong");
	for (const char *l = out; l && *l; l = strchr(l, '\n') + 1) {
		const char *e = strchr(l, '\n');

		assert_true(e && e - l <= 120);
	}
	free(out);

	/* --half-rtt: perftest's figure, RTT/2, in the time columns */
	r.half_rtt = true;
	out = render(rperf_report_text, &r);
	expect_us(out, "64", 3, -3.5, false);
	expect_us(out, "64", 5, (double)rperf_hist_percentile(h, 50) / 2,
		  false);
	expect_field(out, "64", 11, "RTT/2");
	assert_non_null(strstr(out, "figures      : RTT/2 in every time"));
	free(out);
}

static void test_text_report(void **state)
{
	struct fixture *fx = *state;
	struct rperf_report r = fx->r;
	char *out, *row;

	r.wide = true;
	out = render(rperf_report_text, &r);
	assert_non_null(strstr(out, "RTT"));
	assert_non_null(strstr(out, "command      : lat"));
	assert_non_null(strstr(out, "usec"));
	assert_non_null(strstr(out, "clock source : tsc (trusted)"));
	assert_non_null(strstr(out, "2400000000 Hz"));
	assert_non_null(strstr(out, "calibrated:CLOCK_MONOTONIC_RAW"));
	assert_non_null(strstr(out, "0.75 ppm"));
	assert_non_null(strstr(out, "7001 recorded"));
	assert_non_null(strstr(out, "110 samples excluded"));
	assert_non_null(strstr(out, "nonpositive  : 1"));
	assert_non_null(strstr(out, "precompleted : 3"));
	assert_non_null(strstr(out, "t_min[usec]"));
	assert_non_null(strstr(out, "t_typical[usec]"));
	assert_non_null(strstr(out, "t_max[usec]"));
	assert_non_null(strstr(out, "t_avg[usec]"));
	assert_non_null(strstr(out, "t_stdev[usec]"));
	assert_non_null(strstr(out, "99% percentile[usec]"));
	assert_non_null(strstr(out, "99.9% percentile[usec]"));
	assert_non_null(strstr(out, "p99.99[usec]"));
	assert_non_null(strstr(out, "wire_p50[usec]"));
	assert_non_null(strstr(out, "loop_p99.9[usec]"));
	assert_non_null(strstr(out, "too few samples for p99.9"));
	assert_non_null(strstr(out, "first warning"));
	assert_null(strstr(out, "untrusted clock"));
	assert_null(strstr(out, "partial"));
	/* 5001 samples: p99.9 is named below, the cell stays a number;
	 * t_max shows the exact max */
	row = row_of(out, "rperf");
	assert_null(strstr(row, "*"));
	assert_non_null(strstr(row, " -0.007 ")); /* t_min = -7 ns */
	free(row);
	row = row_of(out, "pingpong");
	assert_non_null(strstr(row, " - ")); /* no wire/loop */
	free(row);
	free(out);
}

static void test_text_reliable_and_warnings(void **state)
{
	struct fixture *fx = *state;
	static const double ps[] = { 50, 99, 99.9 };
	struct rperf_report r = fx->r;
	struct rperf_lat_result lat = fx->lat[1];
	struct rperf_clock clk = fx->clk;
	struct rperf_hist *h = make_hist(10000, 1000, 1);
	char *out, *row;

	lat.rtt = h;
	lat.samples = 10000;
	lat.half_rtt = true;
	r.lat = &lat;
	r.nlat = 1;
	r.percentiles = ps;
	r.npercentiles = 3;
	clk.trusted = false;
	snprintf(clk.reason, sizeof(clk.reason), "no invariant TSC");
	r.clock = &clk;
	r.partial = true;
	r.error = "peer went away";
	out = render(rperf_report_text, &r);
	assert_non_null(strstr(out, "one-way"));
	assert_non_null(strstr(out, "half RTT"));
	assert_non_null(strstr(out, "UNTRUSTED"));
	assert_non_null(strstr(out, "untrusted clock: no invariant TSC"));
	assert_non_null(strstr(out, "partial results"));
	assert_non_null(strstr(out, "peer went away"));
	assert_null(strstr(out, "p99.99[usec]"));
	/* 10000 samples support p99.9: no marker in the row */
	row = row_of(out, "pingpong");
	assert_null(strstr(row, "*"));
	free(row);
	free(out);
	rperf_hist_destroy(h);
}

/* ---- CSV --------------------------------------------------------------- */

static void test_csv(void **state)
{
	struct fixture *fx = *state;
	static const double ps[] = { 50, 99.5 };
	struct rperf_report r = fx->r;
	char *out = render(rperf_report_csv, &fx->r);
	char want[64];
	const char *line;
	size_t commas;

	assert_int_equal(count_lines(out), 3);
	assert_memory_equal(out,
			    "method,size,samples,warmup,nonpositive,"
			    "precompleted,seconds,figure,rtt_min_ns,",
			    strlen("method,size,samples,warmup,nonpositive,"
				   "precompleted,seconds,figure,rtt_min_ns,"));
	assert_non_null(strstr(out, "wire_p50_ns"));
	assert_non_null(strstr(out, "loop_p999_ns"));
	assert_non_null(strstr(out, "rtt_unreliable"));
	/* every line has as many fields as the header */
	commas = count_char(out, (size_t)(strchr(out, '\n') - out), ',');
	for (line = strchr(out, '\n') + 1; *line; line = strchr(line, '\n') + 1)
		assert_int_equal(count_char(line,
					    (size_t)(strchr(line, '\n') - line),
					    ','),
				 commas);
	snprintf(want, sizeof(want),
		 "\nrperf,64,5001,100,1,3,0.250000,rtt,-7,%lld,",
		 (long long)rperf_hist_percentile(fx->rtt, 50));
	assert_non_null(strstr(out, want));
	assert_non_null(strstr(out, ",99.9 99.99"));
	free(out);

	r.percentiles = ps;
	r.npercentiles = 2;
	out = render(rperf_report_csv, &r);
	assert_non_null(strstr(out, ",rtt_p99.5_ns,"));
	assert_int_equal(count_lines(out), 3);
	free(out);
}

static int raw_fn(FILE *f, const struct rperf_report *r)
{
	static const struct rperf_raw_sample s[] = {
		{ 1500, 1100, 400, 64 },
		{ 1000, 1010, -10, 64 },
		{ 2000, 1500, 500, 4096 },
	};

	(void)r;
	return rperf_report_raw_csv(f, s, 3);
}

static void test_raw_csv(void **state)
{
	char *out = render(raw_fn, NULL);

	(void)state;
	assert_string_equal(out, "size,wire_ns,loop_ns,rtt_ns\n"
				 "64,1500,1100,400\n"
				 "64,1000,1010,-10\n"
				 "4096,2000,1500,500\n");
	free(out);
}

/* ---- atomic writes ----------------------------------------------------- */

static int write_hello(FILE *f, void *arg)
{
	(void)arg;
	return fputs("hello\n", f) == EOF ? EIO : 0;
}

static int write_then_fail(FILE *f, void *arg)
{
	(void)arg;
	fputs("garbage that must never reach the target\n", f);
	return EPROTO;
}

static char *read_file(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	assert_true(n >= 0);
	rewind(f);
	buf = calloc(1, (size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	return buf;
}

/* Entries of @dir other than "." and ".." (the temp files would show). */
static int dir_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	assert_non_null(d);
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			n++;
	closedir(d);
	return n;
}

static void test_atomic_write(void **state)
{
	char dir[] = "/tmp/rperf-report-XXXXXX";
	char path[128], missing[160];
	char *content;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/out.txt", dir);

	assert_int_equal(rperf_atomic_write(path, write_hello, NULL), 0);
	content = read_file(path);
	assert_string_equal(content, "hello\n");
	free(content);
	assert_int_equal(dir_entries(dir), 1);

	/* a failing writer: the target stays byte-identical, no temp left */
	assert_int_equal(rperf_atomic_write(path, write_then_fail, NULL),
			 EPROTO);
	content = read_file(path);
	assert_string_equal(content, "hello\n");
	free(content);
	assert_int_equal(dir_entries(dir), 1);

	/* a failing writer with no target: nothing is created */
	unlink(path);
	assert_int_equal(rperf_atomic_write(path, write_then_fail, NULL),
			 EPROTO);
	assert_int_equal(dir_entries(dir), 0);

	snprintf(missing, sizeof(missing), "%s/no/such/dir/out.txt", dir);
	assert_int_equal(rperf_atomic_write(missing, write_hello, NULL),
			 ENOENT);
	assert_int_equal(rperf_atomic_write(NULL, write_hello, NULL), EINVAL);
	assert_int_equal(dir_entries(dir), 0);
	assert_int_equal(rmdir(dir), 0);
}

static void test_write_file(void **state)
{
	struct fixture *fx = *state;
	char dir[] = "/tmp/rperf-report-XXXXXX";
	char path[128];
	char *content;
	json_t *root;

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/r.json", dir);
	assert_int_equal(rperf_report_write_file(path, RPERF_FMT_JSON, &fx->r),
			 0);
	content = read_file(path);
	root = parse(content);
	assert_string_equal(get_str(root, "command"), "lat");
	json_decref(root);
	free(content);
	assert_int_equal(rperf_report_write_file(path, RPERF_FMT_CSV, &fx->r),
			 0);
	content = read_file(path);
	assert_int_equal(count_lines(content), 3);
	free(content);
	assert_int_equal(rperf_report_write_file(path, RPERF_FMT_TEXT, &fx->r),
			 0);
	content = read_file(path);
	assert_non_null(strstr(content, "t_typical"));
	free(content);
	assert_int_equal(rperf_report_write_file(
				 path, RPERF_FMT_TEXT | RPERF_FMT_JSON, &fx->r),
			 EINVAL);
	assert_int_equal(dir_entries(dir), 1);
	unlink(path);
	assert_int_equal(rmdir(dir), 0);
}

/* ---- reliability ------------------------------------------------------- */

static void test_percentile_reliable(void **state)
{
	(void)state;
	assert_false(rperf_percentile_reliable(99.9, 9999));
	assert_true(rperf_percentile_reliable(99.9, 10000));
	assert_false(rperf_percentile_reliable(99.99, 99999));
	assert_true(rperf_percentile_reliable(99.99, 100000));
	assert_false(rperf_percentile_reliable(99, 999));
	assert_true(rperf_percentile_reliable(99, 1000));
	assert_false(rperf_percentile_reliable(50, 19));
	assert_true(rperf_percentile_reliable(50, 20));
	assert_true(rperf_percentile_reliable(100, 1));
	assert_true(rperf_percentile_reliable(0, 1));
	assert_false(rperf_percentile_reliable(100, 0));
	assert_false(rperf_percentile_reliable(NAN, 1000000));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_text_report, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_text_reliable_and_warnings,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_text_perftest_columns,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_csv, setup, teardown),
		cmocka_unit_test(test_raw_csv),
		cmocka_unit_test(test_atomic_write),
		cmocka_unit_test_setup_teardown(test_write_file, setup,
						teardown),
		cmocka_unit_test(test_percentile_reliable),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
