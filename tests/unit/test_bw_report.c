/* SPDX-License-Identifier: BSD-2-Clause */
/* rperf bw reports: JSON parsed back field by field, JSON lines, text. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include <rperf/report.h>

#include "table_fields.h"

static const struct rperf_bw_result results[] = {
	{ .verb = "send",
	  .size = 64,
	  .qps = 2,
	  .messages = 1000,
	  .bytes = 64000,
	  .seconds = 0.5,
	  .gbps = 64000 * 8 / 0.5 / 1e9,
	  .mpps = 1000 / 0.5 / 1e6,
	  .mtu = 1024,
	  .line_gbps = 10,
	  .wire_efficiency = 0.4,
	  .cpu_pct = 99.5,
	  .post_calls = 63,
	  .offered_gbps = 0.01,
	  .offered_mpps = 0.02,
	  .receiver_valid = true,
	  .rx_messages = 1000,
	  .rx_bytes = 64000,
	  .rx_seconds = 0.49,
	  .rx_gbps = 64000 * 8 / 0.49 / 1e9,
	  .rx_cpu_pct = 12.5 },
	{ .verb = "write",
	  .size = 65536,
	  .qps = 2,
	  .messages = 10,
	  .bytes = 655360,
	  .seconds = 0,
	  .mtu = 1024,
	  .wire_efficiency = 0.92,
	  .rx_cpu_pct = -1,
	  .receiver_note = "invisible" },
};

static json_t *render(const struct rperf_report *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	json_t *root;

	assert_non_null(m);
	assert_int_equal(rperf_report_bw_json(m, r), 0);
	fclose(m);
	root = json_loadb(buf, len, JSON_REJECT_DUPLICATES, NULL);
	free(buf);
	assert_non_null(root);
	return root;
}

static double num(const json_t *o, const char *k)
{
	const json_t *v = json_object_get(o, k);

	assert_true(json_is_number(v));
	return json_number_value(v);
}

#define NEAR(a, b) \
	assert_true(fabs((a) - (double)(b)) <= 1e-9 * fabs((double)(b)) + 1e-12)

static void json_fields(void **state)
{
	const char *warn[] = { "a warning" };
	struct rperf_report r = { .command = "bw",
				  .bw = results,
				  .nbw = 2,
				  .warnings = warn,
				  .nwarnings = 1 };
	json_t *root = render(&r), *a, *o, *rx, *lim;

	(void)state;
	assert_string_equal(json_string_value(json_object_get(root, "command")),
			    "bw");
	assert_int_equal(
		json_integer_value(json_object_get(root, "schema_version")),
		RPERF_SCHEMA_VERSION);
	assert_true(json_is_array(json_object_get(root, "warnings")));
	assert_true(json_is_false(json_object_get(root, "partial")));
	a = json_object_get(root, "results");
	assert_int_equal(json_array_size(a), 2);
	o = json_array_get(a, 0);
	assert_string_equal(json_string_value(json_object_get(o, "verb")),
			    "send");
	NEAR(num(o, "size"), 64);
	NEAR(num(o, "qps"), 2);
	NEAR(num(o, "messages"), 1000);
	NEAR(num(o, "bytes"), 64000);
	NEAR(num(o, "seconds"), 0.5);
	NEAR(num(o, "gbps"), 0.001024);
	NEAR(num(o, "mpps"), 0.002);
	NEAR(num(o, "mibps"), 64000 / 0.5 / 1048576);
	NEAR(num(o, "line_rate_gbps"), 10);
	NEAR(num(o, "line_rate_pct"), 0.01024);
	NEAR(num(o, "wire_efficiency"), 0.4);
	NEAR(num(o, "max_goodput_gbps"), 4);
	NEAR(num(o, "cpu_pct"), 99.5);
	NEAR(num(o, "post_calls"), 63);
	NEAR(num(o, "mtu"), 1024);
	lim = json_object_get(o, "rate_limit");
	NEAR(num(lim, "offered_gbps"), 0.01);
	NEAR(num(lim, "offered_mpps"), 0.02);
	NEAR(num(lim, "achieved_gbps"), 0.001024);
	rx = json_object_get(o, "receiver");
	NEAR(num(rx, "messages"), 1000);
	NEAR(num(rx, "bytes"), 64000);
	NEAR(num(rx, "seconds"), 0.49);
	NEAR(num(rx, "gbps"), 64000 * 8 / 0.49 / 1e9);
	NEAR(num(rx, "cpu_pct"), 12.5);
	assert_true(json_is_null(json_object_get(o, "receiver_note")));
	/* plain write: receiver null + note; unknown figures null, not 0 */
	o = json_array_get(a, 1);
	assert_true(json_is_null(json_object_get(o, "receiver")));
	assert_string_equal(
		json_string_value(json_object_get(o, "receiver_note")),
		"invisible");
	assert_true(json_is_null(json_object_get(o, "gbps")));
	assert_true(json_is_null(json_object_get(o, "line_rate_gbps")));
	assert_true(json_is_null(json_object_get(o, "line_rate_pct")));
	assert_true(json_is_null(json_object_get(o, "rate_limit")));
	json_decref(root);
}

static void jsonl_and_text(void **state)
{
	struct rperf_report r = { .command = "bw", .bw = results, .nbw = 2 };
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	json_t *o;

	(void)state;
	assert_int_equal(rperf_report_bw_jsonl(m, &results[0]), 0);
	fclose(m);
	assert_non_null(strchr(buf, '\n'));
	assert_ptr_equal(strchr(buf, '\n'), buf + len - 1); /* one line */
	o = json_loadb(buf, len, 0, NULL);
	assert_non_null(o);
	assert_string_equal(json_string_value(json_object_get(o, "type")),
			    "total");
	NEAR(num(o, "messages"), 1000);
	json_decref(o);
	free(buf);
	m = open_memstream(&buf, &len);
	assert_int_equal(rperf_report_bw_text(m, &r), 0);
	fclose(m);
	assert_non_null(strstr(buf, "MB/sec"));
	assert_non_null(strstr(buf, "invisible"));
	assert_non_null(strstr(buf, "offered"));
	free(buf);
	r.report_gbits = true;
	m = open_memstream(&buf, &len);
	assert_int_equal(rperf_report_bw_text(m, &r), 0);
	fclose(m);
	assert_non_null(strstr(buf, "Gb/sec"));
	free(buf);
	assert_int_equal(rperf_report_bw_json(NULL, &r), EINVAL);
	r.bw = NULL;
	assert_int_equal(rperf_report_bw_text(stdout, &r), EINVAL);
}

/* -b: "reverse" holds the server -> client direction with the same keys;
 * without -b there is no "reverse" key. */
static void reverse(void **state)
{
	struct rperf_bw_result fwd[2] = { results[0], results[1] };
	struct rperf_bw_result rev = results[0];
	struct rperf_report r = { .command = "bw", .bw = fwd, .nbw = 2 };
	json_t *root, *o, *rv;
	char *buf = NULL;
	size_t len = 0;
	FILE *m;

	(void)state;
	rev.messages = 900;
	rev.bytes = 57600;
	rev.rx_messages = 900;
	rev.rx_bytes = 57600;
	fwd[0].reverse = &rev;
	root = render(&r);
	o = json_array_get(json_object_get(root, "results"), 0);
	rv = json_object_get(o, "reverse");
	assert_true(json_is_object(rv));
	assert_string_equal(json_string_value(json_object_get(rv, "verb")),
			    "send");
	NEAR(num(rv, "size"), 64);
	NEAR(num(rv, "messages"), 900);
	NEAR(num(rv, "bytes"), 57600);
	NEAR(num(rv, "seconds"), 0.5);
	NEAR(num(rv, "gbps"), 0.001024);
	NEAR(num(rv, "mpps"), 0.002);
	NEAR(num(json_object_get(rv, "receiver"), "messages"), 900);
	NEAR(num(json_object_get(rv, "receiver"), "bytes"), 57600);
	assert_null(json_object_get(rv, "reverse"));
	NEAR(num(o, "messages"), 1000);
	o = json_array_get(json_object_get(root, "results"), 1);
	assert_null(json_object_get(o, "reverse"));
	json_decref(root);
	m = open_memstream(&buf, &len);
	assert_non_null(m);
	assert_int_equal(rperf_report_bw_text(m, &r), 0);
	fclose(m);
	assert_non_null(strstr(buf, "reverse (server -> client"));
	assert_non_null(strstr(buf, "900"));
	free(buf);
}

static char *bw_text(const struct rperf_report *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	assert_non_null(m);
	assert_int_equal(rperf_report_bw_text(m, r), 0);
	fclose(m);
	return buf;
}

/*
 * perftest's columns by position ($1..$5 as awk reads them): #bytes
 * #iterations "BW peak" "BW average" MsgRate, then rperf's extras;
 * --cpu_util puts CPU_Util[%] sixth, as perftest does.
 */
static void perftest_columns(void **state)
{
	struct rperf_bw_result b[2] = { results[0], results[1] };
	struct rperf_report r = { .command = "bw", .bw = b, .nbw = 2 };
	char *out, want[32];

	(void)state;
	b[0].peak_gbps = 0.002048; /* the best interval: 244.14 MB/s */
	out = bw_text(&r);
	assert_non_null(strstr(out, "#bytes #iterations BW peak[MB/sec] "
				    "BW average[MB/sec] MsgRate[Mpps]"));
	assert_null(strstr(out, "CPU_Util"));
	expect_field(out, "64", 2, "1000");
	expect_field(out, "64", 3, "0.24"); /* 2.048e6 b/s / 8 / 2^20 */
	snprintf(want, sizeof(want), "%.2f",
		 results[0].gbps * 1e9 / 8 / 1048576.0);
	expect_field(out, "64", 4, want);
	expect_field(out, "64", 5, "0.002000");
	expect_field(out, "64", 6, "send");
	expect_field(out, "64", 7, "99.5"); /* CPU% among the extras */
	expect_field(out, "64", 8, "1000"); /* rx_messages */
	assert_null(strstr(out, "line%  ")); /* --wide only */
	for (const char *l = out; l && *l; l = strchr(l, '\n') + 1) {
		const char *e = strchr(l, '\n');

		assert_true(e && e - l <= 120); /* the default: 120 columns */
	}
	/* no complete interval: the peak column shows the average */
	expect_field(out, "65536", 2, "10");
	expect_field(out, "65536", 3, "-"); /* no time at all: unknown */
	expect_field(out, "65536", 6, "write");
	free(out);

	r.cpu_util = true;
	r.report_gbits = true;
	out = bw_text(&r);
	assert_non_null(strstr(out, "#bytes #iterations BW peak[Gb/sec] "
				    "BW average[Gb/sec] MsgRate[Mpps] "
				    "CPU_Util[%]"));
	expect_field(out, "64", 3, "0.0020");
	expect_field(out, "64", 4, "0.0010");
	expect_field(out, "64", 6, "99.50");
	expect_field(out, "64", 7, "send");
	free(out);

	b[1].seconds = 0.5;
	b[1].gbps = 655360 * 8 / 0.5 / 1e9;
	r.cpu_util = false;
	r.report_gbits = false;
	out = bw_text(&r);
	snprintf(want, sizeof(want), "%.2f", b[1].gbps * 1e9 / 8 / 1048576.0);
	expect_field(out, "65536", 3, want); /* peak = average */
	expect_field(out, "65536", 4, want);
	free(out);

	r.no_peak = true; /* -N: perftest prints 0 for the peak */
	out = bw_text(&r);
	expect_field(out, "65536", 3, "0.00");
	expect_field(out, "65536", 4, want);
	free(out);

	r.wide = true; /* --wide: seconds, line%, wire before CPU% */
	out = bw_text(&r);
	expect_field(out, "64", 7, "0.500");
	expect_field(out, "64", 10, "99.5");
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(json_fields),
		cmocka_unit_test(jsonl_and_text),
		cmocka_unit_test(reverse),
		cmocka_unit_test(perftest_columns),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
