// SPDX-License-Identifier: BSD-2-Clause
/*
 * The NIC clock's check beside an LSG's NIC-stamped RTTs (rperf lat's
 * warning, now in the REPORT): the warning's threshold and words, the
 * REPORT's "nic_clock" round trip and its refusals, and `rperf run`'s
 * JSON keys and text WARNING line.
 */
#include "run_fixture.h"

#include "gen/nic_ts.h"

static void warning(void **state)
{
	char w[256] = "";

	(void)state;
	/* not measured, or within 1000 ppm: no warning */
	assert_false(rperf_nic_clock_warning(1e9, 0, 5000, w, sizeof(w)));
	assert_false(rperf_nic_clock_warning(1e9, 1.001e9, 1000, w, sizeof(w)));
	assert_false(
		rperf_nic_clock_warning(1e9, 0.9995e9, -500, w, sizeof(w)));
	assert_true(rperf_nic_clock_warning(1e9, 1.0015e9, 1500, w, sizeof(w)));
	assert_string_equal(
		w,
		"the NIC clock runs at 1001500000 Hz, hca_core_clock says 1000000000 Hz (+1500 ppm): NIC-stamped RTTs scale by that much");
	assert_true(rperf_nic_clock_warning(1e9, 0.998e9, -2000, w, sizeof(w)));
}

/* One LSG source result of h1 with NIC stamps and @c, through the codec. */
static int round_trip(const struct rperf_proto_nic_clock *c,
		      struct rperf_proto_report *out, json_t **json)
{
	struct rperf_proto_report rep;
	struct rperf_ctrl_msg m = { .type = RPERF_CTRL_REPORT,
				    .version = RPERF_CTRL_VERSION };
	char why[256] = "";
	int rc;

	fx_report(&rep, "h1", 1);
	fx_lsg(&rep, 0, fx_hist(1000, 3, 100));
	rep.res[0].nic_ts = true;
	rep.res[0].nic_clock = *c;
	assert_int_equal(rperf_proto_report_encode(&rep, json), 0);
	rperf_proto_report_fini(&rep);
	m.payload = *json;
	rc = rperf_proto_report_decode(&m, out, why, sizeof(why));
	if (rc)
		assert_non_null(strstr(why, "nic_clock"));
	return rc;
}

static void codec(void **state)
{
	struct rperf_proto_nic_clock c = { 1e9, 1.002e9, 2000 };
	struct rperf_proto_report out;
	struct rperf_ctrl_msg m = { .type = RPERF_CTRL_REPORT,
				    .version = RPERF_CTRL_VERSION };
	json_t *o = NULL, *n;
	char why[256];

	(void)state;
	assert_int_equal(round_trip(&c, &out, &o), 0);
	assert_true(out.res[0].nic_ts);
	assert_true(out.res[0].nic_clock.hz == 1e9);
	assert_true(out.res[0].nic_clock.measured_hz == 1.002e9);
	assert_true(out.res[0].nic_clock.ppm == 2000);
	rperf_proto_report_fini(&out);
	/* hostile: a zero or huge clock, a ppm out of range, not an object,
	 * a NIC clock beside CPU stamps */
	n = json_object_get(json_array_get(json_object_get(o, "instances"), 0),
			    "nic_clock");
	assert_non_null(n);
	m.payload = o;
	json_object_set_new(n, "hz", json_real(0));
	assert_int_equal(rperf_proto_report_decode(&m, &out, why, sizeof(why)),
			 EBADMSG);
	json_object_set_new(n, "hz", json_real(1e13));
	assert_int_equal(rperf_proto_report_decode(&m, &out, why, sizeof(why)),
			 EBADMSG);
	json_object_set_new(n, "hz", json_real(1e9));
	json_object_set_new(n, "ppm", json_real(2e6));
	assert_int_equal(rperf_proto_report_decode(&m, &out, why, sizeof(why)),
			 EBADMSG);
	json_object_set_new(n, "ppm", json_string("2000"));
	assert_int_equal(rperf_proto_report_decode(&m, &out, why, sizeof(why)),
			 EBADMSG);
	json_object_set_new(n, "ppm", json_real(2000));
	json_object_set_new(json_array_get(json_object_get(o, "instances"), 0),
			    "timestamps", json_string("cpu"));
	assert_int_equal(rperf_proto_report_decode(&m, &out, why, sizeof(why)),
			 EBADMSG);
	json_decref(o);
	/* hz 0 (CPU stamps' results): nothing on the wire */
	c = (struct rperf_proto_nic_clock){ 0 };
	assert_int_equal(round_trip(&c, &out, &o), 0);
	assert_null(json_object_get(
		json_array_get(json_object_get(o, "instances"), 0),
		"nic_clock"));
	rperf_proto_report_fini(&out);
	json_decref(o);
}

/* rperf run: lat's "nic_clock_hz" and the check's "nic_clock_ppm" per
 * generator; the text's WARNING line when the clock is off */
static void run_report(void **state)
{
	struct rperf_job *job = fx_job(2);
	struct rperf_run_results *r = NULL;
	struct rperf_proto_report rep;
	json_t *o = NULL, *g;
	char *text = NULL, err[256] = "";
	size_t len = 0;
	FILE *f;

	(void)state;
	fx_inst(job, RPERF_GEN_LSG, "probe", "h1", "h2", 0, 0);
	assert_int_equal(rperf_run_results_create(job, &r), 0);
	fx_report(&rep, "h1", 1);
	fx_lsg(&rep, 0, fx_hist(1000, 3, 100));
	rep.res[0].nic_ts = true;
	rep.res[0].nic_clock =
		(struct rperf_proto_nic_clock){ 1e9, 1.002e9, 2000 };
	/* the agent's clock object: the text's clock section shows h1 */
	o = json_pack("{s:{s:s}}", "clock", "source", "tsc");
	assert_int_equal(rperf_run_results_add_report(r, "h1", &rep, o, err,
						      sizeof(err)),
			 0);
	rperf_proto_report_fini(&rep);
	json_decref(o);
	assert_int_equal(rperf_run_results_finish(r), 0);
	assert_int_equal(rperf_run_report_json(r, &o), 0);
	g = json_array_get(json_object_get(o, "generators"), 0);
	assert_string_equal(json_string_value(json_object_get(g, "timestamps")),
			    "nic");
	assert_true(json_real_value(json_object_get(g, "nic_clock_hz")) == 1e9);
	assert_true(json_real_value(json_object_get(g, "nic_clock_ppm")) ==
		    2000);
	json_decref(o);
	f = open_memstream(&text, &len);
	assert_non_null(f);
	assert_int_equal(rperf_run_report_text(f, r), 0);
	fclose(f);
	if (!strstr(text, "h1: probe: WARNING: the NIC clock runs at "
			  "1002000000 Hz, hca_core_clock says 1000000000 Hz "
			  "(+2000 ppm)"))
		fail_msg("no WARNING line in:\n%s", text);
	free(text);
	rperf_run_results_free(r);
	fx_job_free(job);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(warning),
		cmocka_unit_test(codec),
		cmocka_unit_test(run_report),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
