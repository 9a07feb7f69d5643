// SPDX-License-Identifier: BSD-2-Clause
/*
 * rperf lat --interval: each result's time series in the JSON (results[]
 * "intervals", the keys of rperf run's LSG intervals: start_s, samples,
 * p50_us, p99_us, max_us; null percentiles in an interval without
 * samples) and as text rows after the table; no key and no rows without
 * --interval.
 */
#include "report_fixture.h"

/* 3 intervals of 1 s: 1200 samples, none (a stall), 800 with an RTT <= 0 */
static const struct rperf_lsg_interval iv[3] = {
	{ 0, 1200, 2500, 9100, 15000 },
	{ 1000000000, 0, 0, 0, 0 },
	{ 2000000000, 800, -120, 2600, 3100 },
};

static void with_series(struct fixture *fx)
{
	fx->lat[0].interval_ns = 1000000000;
	fx->lat[0].intervals = iv;
	fx->lat[0].nintervals = 3;
}

static void test_json_intervals(void **state)
{
	struct fixture *fx = *state;
	static const char *const keys[] = { "start_s", "samples", "p50_us",
					    "p99_us", "max_us" };
	json_t *root, *a, *o;
	char *out;

	with_series(fx);
	out = render(rperf_report_json, &fx->r);
	root = parse(out);
	a = get(json_array_get(get(root, "results"), 0), "intervals");
	assert_int_equal(json_array_size(a), 3);
	for (size_t i = 0; i < 3; i++) {
		o = json_array_get(a, i);
		assert_int_equal(json_object_size(o), 5);
		for (size_t k = 0; k < 5; k++)
			get(o, keys[k]);
	}
	o = json_array_get(a, 0);
	assert_close(get_real(o, "start_s"), 0);
	assert_int_equal(get_int(o, "samples"), 1200);
	assert_close(get_real(o, "p50_us"), 2.5);
	assert_close(get_real(o, "p99_us"), 9.1);
	assert_close(get_real(o, "max_us"), 15.0);
	o = json_array_get(a, 1);
	assert_int_equal(get_int(o, "samples"), 0);
	assert_true(json_is_null(get(o, "p50_us")));
	assert_true(json_is_null(get(o, "max_us")));
	o = json_array_get(a, 2);
	assert_close(get_real(o, "start_s"), 2.0);
	assert_close(get_real(o, "p50_us"), -0.12);
	/* the other result had no --interval: no key */
	assert_null(json_object_get(json_array_get(get(root, "results"), 1),
				    "intervals"));
	json_decref(root);
	free(out);

	/* --interval with no measured sample: an empty list, not absent */
	fx->lat[0].nintervals = 0;
	out = render(rperf_report_json, &fx->r);
	root = parse(out);
	a = get(json_array_get(get(root, "results"), 0), "intervals");
	assert_true(json_is_array(a));
	assert_int_equal(json_array_size(a), 0);
	json_decref(root);
	free(out);
}

static void test_text_intervals(void **state)
{
	struct fixture *fx = *state;
	char *out = render(rperf_report_intervals_text, &fx->r);

	assert_string_equal(out, ""); /* no --interval: nothing */
	free(out);
	with_series(fx);
	out = render(rperf_report_intervals_text, &fx->r);
	print_message("%s", out);
	assert_non_null(strstr(out, "\nintervals (RTT of the samples"));
	assert_non_null(strstr(out, "start[s]"));
	assert_non_null(strstr(out, "p99[usec]"));
	assert_non_null(strstr(
		out,
		"  rperf          64      0.000      1200        2.500        9.100       15.000\n"));
	assert_non_null(strstr(
		out,
		"  rperf          64      1.000         0            -            -            -\n"));
	assert_non_null(
		strstr(out, "       -0.120        2.600        3.100\n"));
	assert_int_equal(count_lines(out), 6); /* blank, title, header, 3 */
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_json_intervals, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_text_intervals, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
