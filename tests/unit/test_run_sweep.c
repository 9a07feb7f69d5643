/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Sweeps of `rperf run` (no network): parsing --sweep, each point's summary
 * from its merged results, the JSON keys of the contract (run_sweep.h) and
 * the text table.
 */
#include <unistd.h>

#include "run/run_sweep.h"
#include "run_fixture.h"

/* Point with @nbsg BSGs (h3.., 1 Gb/s each, tclass 0) and an LSG h2 -> h1
 * (tclass 96) whose RTTs are 1000 + 100 * nbsg ns + 0..9999; the BSGs of
 * host h5 never report (its host failed) when @fail. */
static void fill_point(struct rperf_sweep *s, size_t i, size_t nbsg, bool fail)
{
	struct rperf_job *job = s->pt[i].job; /* a repeat: the point's */
	struct rperf_run_results *r = NULL;
	struct rperf_proto_report rep;

	if (!job) {
		job = fx_job(6);
		fx_inst(job, RPERF_GEN_LSG, "probe", "h2", "h1", 1, 96);
		for (size_t k = 0; k < nbsg; k++) {
			char from[8];

			snprintf(from, sizeof(from), "h%zu", k + 3);
			fx_inst(job, RPERF_GEN_BSG, k == 2 ? "pretend" : "load",
				from, "h1", 0, k == 2 ? 96 : 0);
		}
		s->pt[i].job = job;
	}
	assert_int_equal(rperf_run_results_create(job, &r), 0);
	for (size_t k = 1; k <= 6; k++) { /* classes named by tclass */
		char host[8];

		snprintf(host, sizeof(host), "h%zu", k);
		rperf_run_results_set_link(r, host, "ethernet");
	}
	fx_report(&rep, "h2", 1);
	fx_lsg(&rep, 0, fx_hist(1000 + 100 * (int64_t)nbsg, 1, 10000));
	fx_add(r, &rep);
	for (size_t k = 0; k < nbsg; k++) {
		char host[8];

		snprintf(host, sizeof(host), "h%zu", k + 3);
		if (fail && k == 2) {
			rperf_run_results_host_failed(r, host, "gone");
			continue;
		}
		fx_report(&rep, host, 1);
		/* 125e6 bytes in 1 s = 1 Gb/s */
		fx_counts(&rep, (uint32_t)(k + 1), RPERF_ROLE_SOURCE,
			  RPERF_GEN_BSG, 125000000ull, 1.0);
		fx_add(r, &rep);
	}
	assert_int_equal(rperf_run_results_finish(r), 0);
	rperf_sweep_set_result(s, i, r);
}

static void test_create_errors(void **state)
{
	static const struct {
		const char *spec, *want;
	} cases[] = {
		{ "bsg.load.from=a,b",
		  "--sweep bsg.load.from=a,b: 'from' takes a list itself" },
		{ "bsg.load.count=",
		  "--sweep bsg.load.count=: the value list has an empty item" },
		{ "bsg.load.count=1,,2", "the value list has an empty item" },
		{ "bsg.load.count=1,", "the value list has an empty item" },
		{ ",bsg.load.count=1", "is not a section type" },
		{ "bsg.load.count", "is not SECTION.NAME.KEY=VALUE" },
		{ "load.count=1", "'load' is not a section type" },
		{ "bsg.load.count=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50,51,52,53,54,55,56,57,58,59,60,61,62,63,64",
		  "more than 64 values; split the sweep" },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct rperf_sweep *s = (void *)1;
		char err[512] = "";

		assert_int_equal(rperf_sweep_create(cases[i].spec, &s, err,
						    sizeof(err)),
				 EINVAL);
		assert_null(s);
		if (!strstr(err, cases[i].want))
			fail_msg("%s: got '%s'", cases[i].spec, err);
	}
}

static void test_create_points(void **state)
{
	struct rperf_sweep *s = NULL;
	char err[256] = "";

	(void)state;
	assert_int_equal(rperf_sweep_create("bsg.my.load.size=64,4K,1M", &s,
					    err, sizeof(err)),
			 0);
	assert_string_equal(s->key, "bsg.my.load.size");
	assert_string_equal(s->target.name, "my.load");
	assert_int_equal(s->npt, 3);
	assert_string_equal(s->pt[1].value, "4K");
	assert_string_equal(s->pt[1].assign, "bsg.my.load.size=4K");
	assert_string_equal(s->pt[2].origin,
			    "--sweep bsg.my.load.size=1M (value 3 of 3)");
	assert_true(s->pt[1].has_x);
	assert_true(s->pt[1].x == 4096);
	assert_true(s->pt[2].x == 1048576);
	rperf_sweep_free(s);
	/* a choice has no x */
	assert_int_equal(rperf_sweep_create("bsg.b.verb=send,write", &s, err,
					    sizeof(err)),
			 0);
	assert_false(s->pt[0].has_x);
	rperf_sweep_free(s);
}

static struct rperf_sweep *three_points(void)
{
	struct rperf_sweep *s = NULL;
	char err[256] = "";

	assert_int_equal(rperf_sweep_create("bsg.load.count=0,1,3,5", &s, err,
					    sizeof(err)),
			 0);
	s->job_path = "fig7.ini";
	s->hosts_map = "lab-hosts.ini";
	fill_point(s, 0, 0, false);
	fill_point(s, 1, 1, false);
	fill_point(s, 2, 3, true);
	/* point 3 not run (interrupted) */
	s->interrupted = true;
	return s;
}

static void test_summary(void **state)
{
	struct rperf_sweep *s = three_points();
	struct rperf_sweep_sum m;
	double g;

	(void)state;
	rperf_sweep_summary(&s->pt[1], &m);
	assert_int_equal(m.nlsg, 1);
	assert_int_equal(m.nbsg, 1);
	assert_int_equal(m.lsg_samples, 10000);
	assert_true(m.have_rtt);
	/* 1100 .. 11099 ns: p50 ~ 6100 within the histogram's resolution */
	assert_true(m.p50 > 6000 && m.p50 < 6200);
	assert_true(m.p999 > 11000 && m.p999 < 11200);
	assert_true(m.bsg_gbps > 0.999 && m.bsg_gbps < 1.001);
	assert_int_equal(s->pt[1].status, RPERF_SWEEP_OK);
	rperf_sweep_summary(&s->pt[2], &m);
	assert_int_equal(m.nbsg, 3);
	assert_int_equal(m.nfailed, 1);
	assert_int_equal(s->pt[2].status, RPERF_SWEEP_FAILED);
	assert_true(rperf_sweep_gbps_by_name(&s->pt[2], "load", &g));
	assert_true(g > 1.999 && g < 2.001);
	assert_true(rperf_sweep_gbps_by_name(&s->pt[2], "pretend", &g));
	assert_true(g == 0); /* its host failed: nothing sent counted */
	assert_false(rperf_sweep_gbps_by_name(&s->pt[0], "load", &g));
	rperf_sweep_summary(&s->pt[3], &m);
	assert_false(m.have_rtt);
	assert_int_equal(s->pt[3].status, RPERF_SWEEP_NOT_RUN);
	rperf_sweep_free(s);
}

static void test_json(void **state)
{
	struct rperf_sweep *s = three_points();
	json_t *root = NULL, *p;
	const char *sets[] = { "global.duration=3s" };

	(void)state;
	s->sets = sets;
	s->nsets = 1;
	assert_int_equal(rperf_sweep_report_json(s, &root), 0);
	assert_int_equal(
		json_integer_value(json_object_get(root, "schema_version")), 1);
	assert_string_equal(json_string_value(json_object_get(root, "command")),
			    "run");
	assert_string_equal(json_string_value(json_object_get(root, "job")),
			    "fig7.ini");
	assert_string_equal(
		json_string_value(json_object_get(root, "hosts_map")),
		"lab-hosts.ini");
	assert_string_equal(json_string_value(json_array_get(
				    json_object_get(root, "sets"), 0)),
			    "global.duration=3s");
	assert_true(json_is_true(json_object_get(root, "interrupted")));
	p = json_object_get(root, "sweep");
	assert_string_equal(json_string_value(json_object_get(p, "key")),
			    "bsg.load.count");
	assert_string_equal(json_string_value(json_object_get(p, "section")),
			    "bsg");
	assert_string_equal(json_string_value(json_object_get(p, "name")),
			    "load");
	assert_string_equal(json_string_value(json_object_get(p, "param")),
			    "count");
	assert_int_equal(json_array_size(json_object_get(p, "values")), 4);
	assert_int_equal(json_array_size(json_object_get(root, "points")), 4);
	/* point 1: ok */
	p = json_array_get(json_object_get(root, "points"), 1);
	assert_int_equal(json_integer_value(json_object_get(p, "index")), 1);
	assert_string_equal(json_string_value(json_object_get(p, "value")),
			    "1");
	assert_true(json_real_value(json_object_get(p, "x")) == 1.0);
	assert_string_equal(json_string_value(json_object_get(p, "status")),
			    "ok");
	assert_int_equal(json_integer_value(json_object_get(p, "exit_status")),
			 0);
	assert_int_equal(json_integer_value(json_object_get(p, "lsg_count")),
			 1);
	assert_int_equal(json_integer_value(json_object_get(p, "lsg_samples")),
			 10000);
	assert_true(json_integer_value(json_object_get(
			    json_object_get(p, "lsg_rtt_ns"), "p50")) > 6000);
	assert_non_null(
		json_object_get(json_object_get(p, "lsg_rtt_ns"), "p99"));
	assert_non_null(
		json_object_get(json_object_get(p, "lsg_rtt_ns"), "p999"));
	assert_int_equal(json_integer_value(json_object_get(p, "bsg_count")),
			 1);
	assert_true(json_real_value(json_object_get(p, "bsg_gbps")) > 0.999);
	assert_non_null(json_object_get(p, "bsg_receiver_gbps"));
	assert_true(json_real_value(json_object_get(
			    json_object_get(p, "bsg_gbps_by_name"), "load")) >
		    0.999);
	assert_true(json_real_value(json_object_get(
			    json_object_get(p, "bsg_gbps_by_class"),
			    "tclass 0")) > 0.999);
	assert_int_equal(json_array_size(json_object_get(p, "failed_hosts")),
			 0);
	assert_int_equal(
		json_integer_value(json_object_get(p, "instances_with_errors")),
		0);
	assert_string_equal(json_string_value(json_object_get(
				    json_object_get(p, "report"), "command")),
			    "run");
	/* point 2: failed, h5 named */
	p = json_array_get(json_object_get(root, "points"), 2);
	assert_string_equal(json_string_value(json_object_get(p, "status")),
			    "failed");
	assert_int_equal(json_integer_value(json_object_get(p, "exit_status")),
			 3);
	assert_string_equal(json_string_value(json_array_get(
				    json_object_get(p, "failed_hosts"), 0)),
			    "h5");
	/* point 3: not run: no figures, no report */
	p = json_array_get(json_object_get(root, "points"), 3);
	assert_string_equal(json_string_value(json_object_get(p, "status")),
			    "not_run");
	assert_true(json_is_null(json_object_get(p, "lsg_rtt_ns")));
	assert_true(json_is_null(json_object_get(p, "bsg_gbps")));
	assert_true(json_is_null(json_object_get(p, "report")));
	json_decref(root);
	rperf_sweep_free(s);
}

static void test_text(void **state)
{
	struct rperf_sweep *s = three_points();
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(f);
	assert_int_equal(rperf_sweep_report_text(f, s), 0);
	fclose(f);
	assert_non_null(
		strstr(buf, "sweep bsg.load.count: 4 points of fig7.ini\n"));
	assert_non_null(strstr(buf, "p50_us"));
	assert_non_null(strstr(buf, "p99.9_us"));
	/* per-section and per-class columns: two of each exist */
	assert_non_null(strstr(buf, "        load"));
	assert_non_null(strstr(buf, "     pretend"));
	assert_non_null(strstr(buf, "   tclass 96"));
	assert_non_null(
		strstr(buf, "\n1            ok          1    1      10000"));
	assert_non_null(strstr(buf, "\n3            failed      1    3"));
	assert_non_null(strstr(buf, "1 host, 1 instance\n"));
	assert_non_null(strstr(
		buf,
		"\n5            not_run     0    0          0          -"));
	assert_non_null(strstr(
		buf, "interrupted: the points marked not_run did not run"));
	free(buf);
	rperf_sweep_free(s);
}

/* Two --sweep: the cartesian product, the last key fastest, each point
 * with both assignments; --zip pairs the i-th values; errors. */
static void test_multi_plan(void **state)
{
	const char *two[] = { "bsg.b.size=64,4K,64K", "bsg.b.count=1,2" };
	const char *dup[] = { "bsg.b.size=64", "bsg.b.size=4K" };
	const char *big[] = { "bsg.b.size=1,2,3,4,5,6,7,8,9",
			      "bsg.b.count=1,2,3,4,5,6,7,8" };
	struct rperf_sweep *s = NULL;
	char err[512] = "";

	(void)state;
	assert_int_equal(rperf_sweep_create_multi(two, 2, false, 1, &s, err,
						  sizeof(err)),
			 0);
	assert_int_equal(s->npt, 6);
	assert_int_equal(s->nax, 2);
	assert_string_equal(s->key, "bsg.b.size");
	assert_string_equal(s->pt[0].value, "64, 1");
	assert_string_equal(s->pt[1].value, "64, 2");
	assert_string_equal(s->pt[2].value, "4K, 1");
	assert_string_equal(s->pt[5].value, "64K, 2");
	assert_int_equal(s->pt[3].nassign, 2);
	assert_string_equal(s->pt[3].assigns[0], "bsg.b.size=4K");
	assert_string_equal(s->pt[3].assigns[1], "bsg.b.count=2");
	assert_string_equal(s->pt[3].origins[1],
			    "--sweep bsg.b.count=2 (value 2 of 2)");
	assert_true(s->pt[4].has_x && s->pt[4].x == 65536);
	assert_true(s->pt[4].has_xs[1] && s->pt[4].xs[1] == 1);
	rperf_sweep_free(s);
	/* zip: 3 with 3 */
	two[1] = "bsg.b.count=1,2,3";
	assert_int_equal(rperf_sweep_create_multi(two, 2, true, 3, &s, err,
						  sizeof(err)),
			 0);
	assert_int_equal(s->npt, 3);
	assert_int_equal(s->repeat, 3);
	assert_string_equal(s->pt[1].value, "4K, 2");
	assert_string_equal(s->pt[2].assigns[1], "bsg.b.count=3");
	rperf_sweep_free(s);
	/* zip with unequal lengths, a key twice, too many points, repeats */
	two[1] = "bsg.b.count=1,2";
	assert_int_equal(rperf_sweep_create_multi(two, 2, true, 1, &s, err,
						  sizeof(err)),
			 EINVAL);
	assert_non_null(strstr(err, "--zip pairs the i-th values"));
	assert_int_equal(rperf_sweep_create_multi(dup, 2, false, 1, &s, err,
						  sizeof(err)),
			 EINVAL);
	assert_non_null(strstr(err, "swept twice"));
	assert_int_equal(rperf_sweep_create_multi(big, 2, false, 1, &s, err,
						  sizeof(err)),
			 EINVAL);
	assert_non_null(strstr(err, "more than 64 points"));
	assert_int_equal(rperf_sweep_create_multi(two, 2, false, 101, &s, err,
						  sizeof(err)),
			 EINVAL);
	assert_null(s);
	assert_non_null(
		strstr(err, "--repeat 101 with rperf run; accepted: 1 to 100"));
	/* no --sweep (--repeat alone): one point */
	assert_int_equal(rperf_sweep_create_multi(NULL, 0, false, 2, &s, err,
						  sizeof(err)),
			 0);
	assert_int_equal(s->npt, 1);
	assert_int_equal(s->pt[0].nassign, 0);
	rperf_sweep_free(s);
}

/* Repeats: mean and Student-t interval per figure, in the table and the
 * JSON; a failed repeat makes the point failed. */
static void test_repeat_stats(void **state)
{
	const double v[3] = { 1, 2, 6 };
	struct rperf_sweep *s = NULL;
	struct rperf_sweep_stat st;
	char err[256] = "", *buf = NULL;
	double mean, ci;
	json_t *root = NULL, *p;
	size_t len = 0;
	FILE *f;

	(void)state;
	rperf_mean_ci95(v, 3, &mean, &ci);
	assert_true(mean == 3.0);
	/* sd = sqrt(7), t(2) = 4.303: 4.303 * sqrt(7) / sqrt(3) = 6.5728 */
	assert_true(ci > 6.572 && ci < 6.574);
	rperf_mean_ci95(v, 1, &mean, &ci);
	assert_true(mean == 1.0 && ci != ci);
	assert_int_equal(rperf_sweep_create("bsg.load.count=1,3", &s, err,
					    sizeof(err)),
			 0);
	s->repeat = 3;
	fill_point(s, 0, 1, false);
	fill_point(s, 0, 1, false); /* a second repeat of the same job */
	assert_int_equal(s->pt[0].nrep, 2);
	assert_int_equal(s->pt[0].status, RPERF_SWEEP_OK);
	fill_point(s, 1, 3, true);
	assert_int_equal(s->pt[1].status, RPERF_SWEEP_FAILED);
	rperf_sweep_stat(&s->pt[0], RPERF_SWEEP_GBPS, &st);
	assert_int_equal(st.n, 2);
	assert_true(st.mean > 0.999 && st.mean < 1.001);
	assert_true(st.ci95 >= 0 && st.ci95 < 1e-9);
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(rperf_sweep_report_text(f, s), 0);
	fclose(f);
	assert_non_null(strstr(buf, "mean ± 95 % interval over 3 repeats"));
	assert_non_null(strstr(buf, "1.000000±0.000000"));
	free(buf);
	assert_int_equal(rperf_sweep_report_json(s, &root), 0);
	assert_int_equal(json_integer_value(json_object_get(root, "repeat")),
			 3);
	p = json_array_get(json_object_get(root, "points"), 0);
	assert_int_equal(json_integer_value(json_object_get(p, "repeats")), 2);
	assert_int_equal(json_array_size(json_object_get(p, "reports")), 2);
	assert_true(json_real_value(json_object_get(
			    json_object_get(json_object_get(p, "stats"),
					    "bsg_gbps"),
			    "mean")) > 0.999);
	assert_non_null(json_object_get(
		json_object_get(json_object_get(p, "stats"), "lsg_p50_ns"),
		"ci95"));
	json_decref(root);
	rperf_sweep_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_create_errors),
		cmocka_unit_test(test_create_points),
		cmocka_unit_test(test_summary),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_multi_plan),
		cmocka_unit_test(test_repeat_stats),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
