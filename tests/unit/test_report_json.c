// SPDX-License-Identifier: BSD-2-Clause
/*
 * Unit tests of the report module, JSON run report: rendered from real
 * histograms, parsed back with jansson and checked field by field; bad
 * input and write errors.
 */
#include "report_fixture.h"

/* ---- JSON run report --------------------------------------------------- */

static void check_stats(json_t *o, const struct rperf_hist *h, const double *ps,
			size_t n)
{
	static const double fixed[] = { 50, 99, 99.9, 99.99 };
	static const char *const keys[] = { "p50", "p99", "p999", "p9999" };
	json_t *map, *unrel;
	size_t i, nunrel = 0;
	char key[32];

	assert_true(json_is_object(o));
	assert_int_equal(get_int(o, "min"), rperf_hist_min(h));
	assert_int_equal(get_int(o, "max"), rperf_hist_max(h));
	for (i = 0; i < 4; i++)
		assert_int_equal(get_int(o, keys[i]),
				 rperf_hist_percentile(h, fixed[i]));
	assert_close(get_real(o, "mean"), rperf_hist_mean(h));
	assert_close(get_real(o, "stdev"), rperf_hist_stdev(h));
	map = get(o, "percentiles");
	unrel = get(o, "unreliable");
	assert_true(json_is_object(map));
	assert_true(json_is_array(unrel));
	assert_int_equal(json_object_size(map), n);
	for (i = 0; i < n; i++) {
		snprintf(key, sizeof(key), "%.10g", ps[i]);
		assert_int_equal(get_int(map, key),
				 rperf_hist_percentile(h, ps[i]));
		if (!rperf_percentile_reliable(ps[i], rperf_hist_count(h))) {
			json_t *u = json_array_get(unrel, nunrel++);

			assert_non_null(u);
			assert_close(json_number_value(u), ps[i]);
		}
	}
	assert_int_equal(json_array_size(unrel), nunrel);
}

static void check_config(json_t *c)
{
	json_t *a;

	assert_true(json_is_object(c));
	assert_int_equal(json_object_size(c), 9);
	assert_string_equal(get_str(c, "ib_dev"), "rxe0");
	assert_int_equal(get_int(c, "gid_index"), -3);
	assert_int_equal(get_int(c, "iters"), 5000);
	assert_close(get_real(c, "duration"), 1.5);
	assert_true(json_is_true(get(c, "half_rtt")));
	assert_true(json_is_null(get(c, "server")));
	a = get(c, "sizes");
	assert_int_equal(json_array_size(a), 2);
	assert_true(json_is_integer(json_array_get(a, 0)));
	assert_int_equal(json_integer_value(json_array_get(a, 0)), 64);
	assert_int_equal(json_integer_value(json_array_get(a, 1)), 4096);
	a = get(c, "percentiles");
	assert_int_equal(json_array_size(a), 2);
	assert_true(json_is_real(json_array_get(a, 1)));
	assert_close(json_real_value(json_array_get(a, 0)), 50);
	assert_close(json_real_value(json_array_get(a, 1)), 99.9);
	a = get(c, "empty");
	assert_true(json_is_array(a));
	assert_int_equal(json_array_size(a), 0);
}

static void check_result0(json_t *res, const struct fixture *fx,
			  const double *ps, size_t n)
{
	assert_string_equal(get_str(res, "method"), "rperf");
	assert_int_equal(get_int(res, "size"), 64);
	assert_int_equal(get_int(res, "samples"), 5001);
	assert_int_equal(get_int(res, "warmup"), 100);
	assert_int_equal(get_int(res, "nonpositive"), 1);
	assert_int_equal(get_int(res, "precompleted"), 3);
	assert_close(get_real(res, "seconds"), 0.25);
	assert_string_equal(get_str(res, "figure"), "rtt");
	assert_string_equal(get_str(res, "unit"), "ns");
	check_stats(get(res, "rtt_ns"), fx->rtt, ps, n);
	check_stats(get(res, "wire_ns"), fx->wire, ps, n);
	check_stats(get(res, "loop_ns"), fx->loop, ps, n);
}

static void test_json_report(void **state)
{
	struct fixture *fx = *state;
	static const double dflt[] = { 50, 99, 99.9, 99.99 };
	char *out = render(rperf_report_json, &fx->r);
	json_t *root = parse(out);
	json_t *results, *res, *w;

	assert_int_equal(get_int(root, "schema_version"), RPERF_SCHEMA_VERSION);
	assert_string_equal(get_str(root, "command"), "lat");
	assert_true(json_is_string(get(root, "rperf_version")));
	check_config(get(root, "config"));
	check_platform(get(root, "platform"));
	check_clock(get(root, "clock"), true);
	results = get(root, "results");
	assert_int_equal(json_array_size(results), 2);
	check_result0(json_array_get(results, 0), fx, dflt, 4);
	/* p99.9 of 5001 samples is unreliable, p99 is not */
	res = json_object_get(json_array_get(results, 0), "rtt_ns");
	assert_int_equal(json_array_size(get(res, "unreliable")), 2);
	res = json_array_get(results, 1);
	assert_string_equal(get_str(res, "method"), "pingpong");
	assert_int_equal(get_int(res, "size"), 4096);
	check_stats(get(res, "rtt_ns"), fx->rtt2, dflt, 4);
	assert_null(json_object_get(res, "wire_ns"));
	assert_null(json_object_get(res, "loop_ns"));
	w = get(root, "warnings");
	assert_int_equal(json_array_size(w), 2);
	assert_string_equal(json_string_value(json_array_get(w, 1)),
			    "second warning");
	assert_true(json_is_false(get(root, "partial")));
	assert_true(json_is_null(get(root, "error")));
	json_decref(root);
	free(out);
}

static void test_json_partial_custom_pcts(void **state)
{
	struct fixture *fx = *state;
	static const double ps[] = { 0, 90, 99.5, 100 };
	struct rperf_report r = fx->r;
	json_t *root, *res;
	char *out;

	r.percentiles = ps;
	r.npercentiles = 4;
	r.selftest = NULL;
	r.partial = true;
	r.error = "interrupted";
	r.warnings = NULL;
	r.nwarnings = 0;
	r.config = NULL;
	r.nconfig = 0;
	out = render(rperf_report_json, &r);
	root = parse(out);
	check_clock(get(root, "clock"), false);
	assert_int_equal(json_object_size(get(root, "config")), 0);
	res = json_array_get(get(root, "results"), 0);
	check_result0(res, fx, ps, 4);
	/* all of 0, 90, 99.5, 100 are reliable with 5001 samples */
	assert_int_equal(json_array_size(get(get(res, "rtt_ns"), "unreliable")),
			 0);
	assert_int_equal(json_array_size(get(root, "warnings")), 0);
	assert_true(json_is_true(get(root, "partial")));
	assert_string_equal(get_str(root, "error"), "interrupted");
	json_decref(root);
	free(out);
}

static void test_json_bad_input(void **state)
{
	struct fixture *fx = *state;
	struct rperf_report r = fx->r;
	struct rperf_lat_result lat = fx->lat[0];
	struct rperf_kv kv = { .key = NULL, .type = RPERF_KV_INT };
	FILE *f = tmpfile();

	assert_non_null(f);
	lat.rtt = NULL;
	r.lat = &lat;
	r.nlat = 1;
	assert_int_equal(rperf_report_json(f, &r), EINVAL);
	assert_int_equal(rperf_report_csv(f, &r), EINVAL);
	assert_int_equal(rperf_report_text(f, &r), EINVAL);
	r = fx->r;
	r.config = &kv;
	r.nconfig = 1;
	assert_int_equal(rperf_report_json(f, &r), EINVAL);
	assert_int_equal(rperf_report_json(NULL, &fx->r), EINVAL);
	fclose(f);
}

/* Which completion stamps: "cpu" (with auto's note) or "nic" and its Hz;
 * absent when the report does not say (not a lat report). */
static void test_json_timestamps(void **state)
{
	struct fixture *fx = *state;
	struct rperf_report r = fx->r;
	json_t *root;
	char *out = render(rperf_report_json, &r);

	root = parse(out);
	assert_null(json_object_get(root, "timestamps"));
	assert_null(json_object_get(root, "nic_clock_hz"));
	json_decref(root);
	free(out);
	r.timestamps = "cpu";
	r.timestamps_note = "rxe_h2 has no NIC completion timestamps";
	out = render(rperf_report_json, &r);
	root = parse(out);
	assert_string_equal(get_str(root, "timestamps"), "cpu");
	assert_true(json_is_null(get(root, "nic_clock_hz")));
	assert_string_equal(get_str(root, "timestamps_note"),
			    "rxe_h2 has no NIC completion timestamps");
	json_decref(root);
	free(out);
	out = render(rperf_report_text, &r);
	assert_non_null(strstr(out, "timestamps   : cpu"));
	assert_non_null(strstr(out, "rxe_h2 has no NIC completion timestamps"));
	free(out);
	r.timestamps = "nic";
	r.nic_clock_hz = 156250000;
	r.timestamps_note = NULL;
	out = render(rperf_report_json, &r);
	root = parse(out);
	assert_string_equal(get_str(root, "timestamps"), "nic");
	assert_close(get_real(root, "nic_clock_hz"), 156250000);
	assert_true(json_is_null(get(root, "timestamps_note")));
	json_decref(root);
	free(out);
	out = render(rperf_report_text, &r);
	assert_non_null(strstr(out, "timestamps   : nic"));
	assert_non_null(strstr(out, "156250000 Hz"));
	free(out);
}

/* A stream that fails every write: renderers must report EIO. */
static void test_write_error(void **state)
{
	struct fixture *fx = *state;
	FILE *f = fopen("/dev/full", "w");

	if (!f)
		skip();
	assert_int_equal(rperf_report_json(f, &fx->r), EIO);
	fclose(f);
	f = fopen("/dev/full", "w");
	assert_non_null(f);
	assert_int_equal(rperf_report_text(f, &fx->r), EIO);
	fclose(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_json_report, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_json_partial_custom_pcts,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_json_bad_input, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_json_timestamps, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_write_error, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
