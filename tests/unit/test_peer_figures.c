/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What a peer sends is bounded and checked before rperf prints or adds it
 * (issue 19): control characters stripped from every decoded string, an
 * oversized "clock" object dropped, merged counts never wrap silently, and
 * a BSG figure above what its path can carry is flagged (status error, left
 * out of the aggregates, the run's exit status 3).
 */
#include "run_fixture.h"

#include <rperf/hist.h>

#include "ctrl/ctrl.h"

/* ESC sequences, CR/LF, DEL and C1 (U+009B, CSI) all become '?'. */
static void strings_cleaned(void **state)
{
	char s[] = "ok\x1b[31mred\r\nfake line\x7f \xc2\x9b"
		   "2J é";
	json_t *o = json_pack("{s:s}", "k", s);
	char buf[64];

	(void)state;
	rperf_ctrl_text_clean(s);
	assert_string_equal(s, "ok?[31mred??fake line? ??2J é");
	assert_int_equal(rperf_ctrl_get_str(o, "k", buf, sizeof(buf)), 0);
	assert_string_equal(buf, s);
	json_decref(o);
}

/* A histogram whose counts would wrap is not merged: EOVERFLOW, dst
 * unchanged. */
static void hist_merge_overflow(void **state)
{
	struct rperf_hist *a = NULL, *b = NULL;

	(void)state;
	assert_int_equal(rperf_hist_create(RPERF_HIST_DEFAULT_BITS, &a), 0);
	assert_int_equal(rperf_hist_create(RPERF_HIST_DEFAULT_BITS, &b), 0);
	rperf_hist_record_n(a, 1000, UINT64_MAX - 5);
	rperf_hist_record_n(b, 1000, 10);
	assert_int_equal(rperf_hist_merge(a, b), EOVERFLOW);
	assert_int_equal(rperf_hist_count(a), UINT64_MAX - 5);
	rperf_hist_reset(b);
	rperf_hist_record_n(b, 1000, 5);
	assert_int_equal(rperf_hist_merge(a, b), 0);
	assert_int_equal(rperf_hist_count(a), UINT64_MAX);
	rperf_hist_destroy(a);
	rperf_hist_destroy(b);
}

/* Two LSGs whose counts together wrap: the total leaves one out and the
 * run says overflow (JSON warnings.overflow, text, no silent wrap). */
static void run_merge_overflow(void **state)
{
	struct rperf_job *job = fx_job(3);
	struct rperf_run_results *r = NULL;
	struct rperf_proto_report rep;
	struct rperf_hist *h;
	json_t *root = NULL;
	char *buf = NULL;
	size_t len = 0;
	FILE *mem;

	(void)state;
	fx_inst(job, RPERF_GEN_LSG, "a", "h1", "h3", 0, 0);
	fx_inst(job, RPERF_GEN_LSG, "b", "h2", "h3", 0, 0);
	assert_int_equal(rperf_run_results_create(job, &r), 0);
	for (uint32_t i = 0; i < 2; i++) {
		assert_int_equal(rperf_hist_create(RPERF_HIST_DEFAULT_BITS, &h),
				 0);
		rperf_hist_record_n(h, 5000, UINT64_MAX / 2 + 7);
		fx_report(&rep, i ? "h2" : "h1", 1);
		fx_lsg(&rep, i, h);
		rep.res[0].nonpositive = UINT64_MAX - 1;
		fx_add(r, &rep);
	}
	assert_int_equal(rperf_run_results_finish(r), 0);
	assert_true(r->overflow);
	assert_true(r->total.overflow);
	assert_int_equal(rperf_hist_count(r->total.rtt), UINT64_MAX / 2 + 7);
	assert_int_equal(r->nonpositive, UINT64_MAX); /* saturated */
	assert_int_equal(rperf_run_report_json(r, &root), 0);
	assert_true(json_is_true(json_object_get(
		json_object_get(root, "warnings"), "overflow")));
	json_decref(root);
	mem = open_memstream(&buf, &len);
	assert_int_equal(rperf_run_report_text(mem, r), 0);
	fclose(mem);
	assert_non_null(strstr(buf, "Overflow:"));
	free(buf);
	rperf_run_results_free(r);
	fx_job_free(job);
}

/* bsg_run: one BSG h1 -> h2 whose source claims @bytes in 10 s; h1's
 * port @gbps (0: unknown). */
static struct rperf_run_results *bsg_run(struct rperf_job *job, uint64_t bytes,
					 double gbps)
{
	struct rperf_run_results *r = NULL;
	struct rperf_proto_report rep;

	fx_inst(job, RPERF_GEN_BSG, "big", "h1", "h2", 0, 0);
	assert_int_equal(rperf_run_results_create(job, &r), 0);
	rperf_run_results_set_link_gbps(r, "h1", gbps);
	fx_report(&rep, "h1", 1);
	fx_counts(&rep, 0, RPERF_ROLE_SOURCE, RPERF_GEN_BSG, bytes, 10.0);
	fx_add(r, &rep);
	fx_report(&rep, "h2", 1);
	fx_counts(&rep, 0, RPERF_ROLE_SINK, RPERF_GEN_BSG, 1000000, 10.0);
	fx_add(r, &rep);
	assert_int_equal(rperf_run_results_finish(r), 0);
	return r;
}

/* The BSG claiming 2^64 - 1 bytes: flagged even without a known
 * port rate; 20 Gb/s through a 10 Gb/s port flagged; 9.9 Gb/s is not. */
static void impossible_rate(void **state)
{
	struct rperf_job *job = fx_job(2);
	struct rperf_run_results *r = bsg_run(job, UINT64_MAX, 0);

	(void)state;
	assert_true(r->inst[0].implausible);
	assert_int_equal(r->inst[0].status, RPERF_RUN_ST_ERROR);
	assert_non_null(strstr(r->inst[0].error, "implausible"));
	assert_int_equal(r->nerrors, 1);
	assert_float_equal(r->total.gbps, 0, 0); /* left out */
	rperf_run_results_free(r);
	fx_job_free(job);

	job = fx_job(2);
	r = bsg_run(job, 25000000000ull, 10.0); /* 20 Gb/s */
	assert_true(r->inst[0].implausible);
	assert_non_null(strstr(r->inst[0].error, "10 Gb/s port of host h1"));
	rperf_run_results_free(r);
	fx_job_free(job);

	job = fx_job(2);
	r = bsg_run(job, 12375000000ull, 10.0); /* 9.9 Gb/s */
	assert_false(r->inst[0].implausible);
	assert_int_equal(r->inst[0].status, RPERF_RUN_ST_OK);
	assert_float_equal(r->total.gbps, 9.9, 1e-9);
	rperf_run_results_free(r);
	fx_job_free(job);
}

/* A 500 KB "clock" object is dropped; a small one is kept, cleaned. */
static void clock_bounded(void **state)
{
	struct rperf_job *job = fx_job(2);
	struct rperf_run_results *r = NULL;
	struct rperf_proto_report rep;
	char *big = malloc(500000);
	json_t *extra;
	char err[256];

	(void)state;
	assert_non_null(big);
	memset(big, 'x', 499999);
	big[499999] = '\0';
	fx_inst(job, RPERF_GEN_LSG, "a", "h1", "h2", 0, 0);
	assert_int_equal(rperf_run_results_create(job, &r), 0);
	extra = json_pack("{s:{s:s}}", "clock", "reason", big);
	fx_report(&rep, "h1", 1);
	fx_lsg(&rep, 0, fx_hist(1000, 1, 10));
	assert_int_equal(rperf_run_results_add_report(r, "h1", &rep, extra, err,
						      sizeof(err)),
			 0);
	rperf_proto_report_fini(&rep);
	assert_null(r->hosts[0].clock);
	json_decref(extra);
	extra = json_pack("{s:{s:s}}", "clock", "source",
			  "posix\x1b]0;pwn\x07");
	fx_report(&rep, "h2", 1);
	fx_counts(&rep, 0, RPERF_ROLE_SINK, RPERF_GEN_LSG, 640, 0.2);
	assert_int_equal(rperf_run_results_add_report(r, "h2", &rep, extra, err,
						      sizeof(err)),
			 0);
	rperf_proto_report_fini(&rep);
	assert_string_equal(
		json_string_value(json_object_get(r->hosts[1].clock, "source")),
		"posix?]0;pwn?");
	json_decref(extra);
	free(big);
	rperf_run_results_free(r);
	fx_job_free(job);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(strings_cleaned),
		cmocka_unit_test(hist_merge_overflow),
		cmocka_unit_test(run_merge_overflow),
		cmocka_unit_test(impossible_rate),
		cmocka_unit_test(clock_bounded),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
