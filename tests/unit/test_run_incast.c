/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * [incast NAME] (issue 22): the job section and its errors, and the
 * controller's per-burst completion, percentiles and shares from the
 * senders' bursts (run_incast.c), text and the JSON contract keys.
 */
#include <unistd.h>

#include "run/run.h"
#include "run_fixture.h"

#define MS 1000000ull

static void job_section(void **state)
{
	static const struct {
		const char *keys, *want;
	} bad[] = {
		{ "from = h2\nto = h1\nperiod = 1s\n", "no 'burst' key" },
		{ "from = h2\nto = h1\nburst = 64K\n", "no 'period' key" },
		{ "from = h2\nto = h1\nburst = 64K\nperiod = 10ms\njitter = 10ms\n",
		  "[incast i] jitter: 10.000 ms is not below the period" },
		{ "from = h2, h3\nto = *\nburst = 64K\nperiod = 10ms\n",
		  "an incast has one destination" },
		{ "from = h2\nto = h1\nburst = 64K\nperiod = 0.5ms\n",
		  "period" },
		{ "from = h2\nto = h1\nburst = 0\nperiod = 1s\n", "burst" },
		{ "from = h2\nto = h1\nburst = 1K\nperiod = 1s\nstop = 1s\n",
		  "stop: applies to [bsg] sections only" },
	};
	const char *hosts = "[host h1]\ncontrol = 10.0.0.1\n"
			    "[host h2]\ncontrol = 10.0.0.2\n"
			    "[host h3]\ncontrol = 10.0.0.3\n";
	struct rperf_job *job = NULL;
	char text[1024], err[512] = "";

	(void)state;
	snprintf(text, sizeof(text),
		 "%s[incast i]\nfrom = h2, h3\nto = h1\nburst = 64K\n"
		 "period = 500ms\njitter = 1ms\nsize = 4K\ntx_depth = 16\n"
		 "[bsg i2]\nfrom = h3\nto = h2\n",
		 hosts);
	assert_int_equal(rperf_job_parse(text, "t.ini", &job, err, sizeof(err)),
			 0);
	assert_int_equal(job->ninst, 3);
	assert_int_equal(job->inst[1].kind, RPERF_GEN_BSG);
	assert_int_equal(job->inst[1].burst_bytes, 65536);
	assert_int_equal(job->inst[1].period_ns, 500 * MS);
	assert_int_equal(job->inst[1].jitter_ns, MS);
	assert_int_equal(job->inst[1].tx_depth, 16);
	assert_int_equal(job->inst[2].burst_bytes, 0);
	rperf_job_free(job);
	/* --set / --sweep reach an incast's keys */
	{
		struct rperf_job_assign a = { .text = "incast.i.burst=16K" };
		struct rperf_job_edit ed = { .assigns = &a, .nassigns = 1 };
		struct rperf_job_target t;
		double x = 0;
		char path[] = "/tmp/rperf-incast-XXXXXX";
		int fd = mkstemp(path);

		assert_true(fd >= 0);
		assert_int_equal(write(fd, text, strlen(text)),
				 (ssize_t)strlen(text));
		close(fd);
		assert_int_equal(rperf_job_load_edit(path, &ed, &job, err,
						     sizeof(err)),
				 0);
		unlink(path);
		assert_int_equal(job->inst[0].burst_bytes, 16384);
		rperf_job_free(job);
		assert_int_equal(rperf_job_assign_parse("incast.i.period=1s",
							&t, err, sizeof(err)),
				 0);
		assert_int_equal(rperf_job_target_number(&t, "2s", &x), 0);
		assert_true(x == 2e9);
	}
	/* one name space with the generators */
	snprintf(
		text, sizeof(text),
		"%s[bsg i]\nfrom = h3\nto = h2\n[incast i]\nfrom = h2\nto = h1\nburst = 1K\nperiod = 1s\n",
		hosts);
	assert_int_equal(rperf_job_parse(text, "t.ini", &job, err, sizeof(err)),
			 EINVAL);
	assert_non_null(strstr(err, "duplicate section"));
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(text, sizeof(text), "%s[incast i]\n%s", hosts,
			 bad[i].keys);
		job = NULL;
		assert_int_equal(rperf_job_parse(text, "t.ini", &job, err,
						 sizeof(err)),
				 EINVAL);
		if (!strstr(err, bad[i].want))
			fail_msg("case %zu: '%s', want '%s'", i, err,
				 bad[i].want);
	}
}

/* Sender @id on @host with bursts [start, end] ms (pairs). */
static void sender(struct rperf_run_results *r, const char *host, uint32_t id,
		   const uint64_t *ms, size_t n)
{
	struct rperf_proto_report rep;
	struct rperf_proto_result *p;

	fx_report(&rep, host, 1);
	fx_counts(&rep, id, RPERF_ROLE_SOURCE, RPERF_GEN_BSG, 65536 * n, 0.1);
	p = &rep.res[0];
	p->bursts = calloc(2 * n, sizeof(*p->bursts));
	assert_non_null(p->bursts);
	for (size_t i = 0; i < 2 * n; i++)
		p->bursts[i] = ms[i] * MS;
	p->nbursts = n;
	fx_add(r, &rep);
}

static void merge(void **state)
{
	/* h2 finishes each burst first (twice the rate of h3 and h4) */
	const uint64_t b2[] = { 0, 50, 500, 560, 1000, 1050, 1500, 1550 };
	const uint64_t b3[] = { 1, 101, 500, 600, 1000, 1100, 1500, 1700 };
	const uint64_t b4[] = { 2, 102, 501, 601, 1000, 1100 }; /* 3 bursts */
	struct rperf_job *job = fx_job(4);
	struct rperf_run_results *r = NULL;
	json_t *root = NULL, *ic, *share;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	fx_inst(job, RPERF_GEN_BSG, "in", "h2", "h1", 0, 0);
	fx_inst(job, RPERF_GEN_BSG, "in", "h3", "h1", 0, 0);
	fx_inst(job, RPERF_GEN_BSG, "in", "h4", "h1", 0, 0);
	fx_inst(job, RPERF_GEN_BSG, "bulk", "h4", "h2", 0, 0);
	for (size_t i = 0; i < 3; i++) {
		job->inst[i].burst_bytes = 65536;
		job->inst[i].period_ns = 500 * MS;
	}
	assert_int_equal(rperf_run_results_create(job, &r), 0);
	sender(r, "h2", 0, b2, 4);
	sender(r, "h3", 1, b3, 4);
	sender(r, "h4", 2, b4, 3);
	assert_int_equal(rperf_run_results_finish(r), 0);
	assert_int_equal(rperf_run_report_json(r, &root), 0);
	assert_int_equal(json_array_size(json_object_get(root, "incasts")), 1);
	ic = json_array_get(json_object_get(root, "incasts"), 0);
	assert_string_equal(json_string_value(json_object_get(ic, "name")),
			    "in");
	assert_string_equal(json_string_value(json_object_get(ic, "to")), "h1");
	assert_int_equal(json_integer_value(json_object_get(ic, "senders")), 3);
	/* only the bursts every sender completed: 3; completions 102, 101,
	 * 100 ms (the barriers taken as one instant: no go_rx here) */
	assert_int_equal(json_integer_value(json_object_get(ic, "bursts")), 3);
	assert_int_equal(json_integer_value(json_array_get(
				 json_object_get(ic, "completion_ns"), 0)),
			 102 * MS);
	assert_int_equal(json_integer_value(json_object_get(
				 json_object_get(ic, "burst_ns"), "p50")),
			 101 * MS);
	assert_int_equal(json_integer_value(json_object_get(
				 json_object_get(ic, "burst_ns"), "max")),
			 102 * MS);
	assert_string_equal(json_string_value(json_object_get(ic, "aligned")),
			    "barrier");
	/* rates over 3 bursts: h2 64K per ~53.3 ms, h3 and h4 per 100 ms */
	share = json_object_get(ic, "share");
	assert_true(json_real_value(json_object_get(share, "h2")) > 0.48 &&
		    json_real_value(json_object_get(share, "h2")) < 0.49);
	assert_true(json_real_value(json_object_get(share, "h3")) > 0.25 &&
		    json_real_value(json_object_get(share, "h3")) < 0.26);
	json_decref(root);
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(rperf_run_report_text(f, r), 0);
	fclose(f);
	assert_non_null(strstr(
		buf,
		"incast in -> h1: 3 senders (3 reported), 65536 B each per burst, 3 bursts"));
	assert_non_null(
		strstr(buf, "p50 101.000 ms, p99 102.000 ms, max 102.000 ms"));
	free(buf);
	rperf_run_results_free(r);
	fx_job_free(job);
}

/* Which alignment: agents on one clock whose GO arrived 60 ms apart. With
 * the start barrier (every GO carried the start instant) their times are
 * aligned already: the completion is the bursts' own (100 ms), not moved
 * by the GO skew; without it, the GO receipts align them (150 ms). */
static void alignment(void **state)
{
	const uint64_t b2[] = { 0, 100 }, b3[] = { 0, 90 };
	static const bool barrier[] = { true, false };
	static const uint64_t want[] = { 100 * MS, 150 * MS };

	(void)state;
	for (size_t c = 0; c < 2; c++) {
		struct rperf_job *job = fx_job(3);
		struct rperf_run_results *r = NULL;
		json_t *root = NULL, *ic;

		fx_inst(job, RPERF_GEN_BSG, "in", "h2", "h1", 0, 0);
		fx_inst(job, RPERF_GEN_BSG, "in", "h3", "h1", 0, 0);
		for (size_t i = 0; i < 2; i++) {
			job->inst[i].burst_bytes = 65536;
			job->inst[i].period_ns = 500 * MS;
		}
		assert_int_equal(rperf_run_results_create(job, &r), 0);
		sender(r, "h2", 0, b2, 1);
		sender(r, "h3", 1, b3, 1);
		for (size_t h = 0; h < 3; h++) {
			r->hosts[h].has_go_rx = true;
			r->hosts[h].go_rx_ns =
				5000 * MS + (h == 2 ? 60 * MS : 0);
			r->hosts[h].start_at_ctrl_ns = barrier[c] ? 7000 * MS :
								    0;
		}
		r->go_send_seconds = 0.001;
		assert_int_equal(rperf_run_results_finish(r), 0);
		assert_int_equal(rperf_run_report_json(r, &root), 0);
		ic = json_array_get(json_object_get(root, "incasts"), 0);
		assert_string_equal(
			json_string_value(json_object_get(ic, "aligned")),
			barrier[c] ? "barrier" : "go_rx");
		assert_int_equal(
			json_integer_value(json_array_get(
				json_object_get(ic, "completion_ns"), 0)),
			want[c]);
		json_decref(root);
		rperf_run_results_free(r);
		fx_job_free(job);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(job_section),
		cmocka_unit_test(merge),
		cmocka_unit_test(alignment),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
