/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * An [lsg] section's breakdown (rperf lat's --breakdown): the job key, the
 * PLAN key "breakdown" (round trip, hostile values, refused for a BSG),
 * the REPORT's optional "post_wire_hist"/"post_loop_hist", and the one
 * renderer of the rows (report/report_breakdown.h).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "engine/proto.h"
#include "engine/spec.h"
#include "job/job.h"
#include "report/report_breakdown.h"

#define HOSTS                             \
	"[host h1]\ncontrol = 10.0.0.1\n" \
	"[host h2]\ncontrol = 10.0.0.2\n"

static struct rperf_job *parse(const char *text, char *err, size_t errlen)
{
	struct rperf_job *job = NULL;

	if (rperf_job_parse(text, "t.ini", &job, err, errlen))
		return NULL;
	return job;
}

static void job_and_plan(void **state)
{
	char err[512] = "", why[256] = "";
	struct rperf_gen_spec d;
	struct rperf_job *job;
	json_t *o = NULL;

	(void)state;
	job = parse(HOSTS "[lsg p]\nfrom = h1\nto = h2\nbreakdown = 1\n", err,
		    sizeof(err));
	if (!job)
		print_error("%s\n", err);
	assert_non_null(job);
	assert_true(job->inst[0].breakdown);
	assert_int_equal(rperf_gen_spec_encode(&job->inst[0], &o), 0);
	assert_true(json_is_true(json_object_get(o, "breakdown")));
	assert_int_equal(rperf_gen_spec_decode(o, &d, why, sizeof(why)), 0);
	assert_true(d.breakdown);
	/* hostile: not a boolean */
	json_object_set_new(o, "breakdown", json_integer(1));
	assert_int_equal(rperf_gen_spec_decode(o, &d, why, sizeof(why)),
			 EBADMSG);
	assert_non_null(strstr(why, "'breakdown'"));
	json_object_set_new(o, "breakdown", json_string("yes"));
	assert_int_equal(rperf_gen_spec_decode(o, &d, why, sizeof(why)),
			 EBADMSG);
	json_decref(o);
	/* off: absent on the wire, false after it */
	job->inst[0].breakdown = false;
	assert_int_equal(rperf_gen_spec_encode(&job->inst[0], &o), 0);
	assert_null(json_object_get(o, "breakdown"));
	/* a BSG's PLAN with it: refused by the agent's decoder */
	json_object_set_new(o, "breakdown", json_true());
	json_object_set_new(o, "kind", json_string("bsg"));
	assert_int_equal(rperf_gen_spec_decode(o, &d, why, sizeof(why)),
			 EBADMSG);
	assert_non_null(strstr(why, "breakdown"));
	json_decref(o);
	rperf_job_free(job);
	/* the job parser: [lsg] only, 0 or 1 */
	assert_null(parse(HOSTS "[bsg b]\nfrom = h1\nto = h2\nbreakdown = 1\n",
			  err, sizeof(err)));
	assert_non_null(strstr(err, "breakdown"));
	assert_non_null(strstr(err, "[lsg]"));
	assert_null(parse(HOSTS "[lsg p]\nfrom = h1\nto = h2\nbreakdown = 2\n",
			  err, sizeof(err)));
	assert_non_null(strstr(err, "t.ini:8: [lsg p] breakdown"));
}

/* A REPORT of one LSG source with @post histograms, decoded into @d. */
static int report_trip(bool post, struct rperf_proto_report *d, json_t **o)
{
	struct rperf_proto_result res;
	struct rperf_proto_report r = { .host = "h1", .res = &res, .n = 1 };
	struct rperf_ctrl_msg m = { .type = RPERF_CTRL_REPORT,
				    .version = RPERF_CTRL_VERSION };
	char why[256] = "";
	int rc;

	memset(&res, 0, sizeof(res));
	res.kind = RPERF_GEN_LSG;
	res.samples = 3;
	for (size_t i = 0; i < RPERF_PROTO_NHIST; i++)
		if ((i < 3 || post) &&
		    rperf_hist_create(7, rperf_proto_result_hist(&res, i)))
			return ENOMEM;
	if (post) {
		rperf_hist_record(res.post_wire, 250);
		rperf_hist_record(res.post_wire, 260);
		rperf_hist_record(res.post_loop, 90);
	}
	rc = rperf_proto_report_encode(&r, o);
	rperf_proto_result_hists_fini(&res);
	assert_null(res.rtt);
	if (rc)
		return rc;
	m.payload = *o;
	rc = rperf_proto_report_decode(&m, d, why, sizeof(why));
	if (rc)
		print_message("%s\n", why);
	return rc;
}

static void report_hists(void **state)
{
	struct rperf_ctrl_msg m = { .type = RPERF_CTRL_REPORT,
				    .version = RPERF_CTRL_VERSION };
	struct rperf_proto_report d;
	char why[256] = "";
	json_t *o = NULL, *in;

	(void)state;
	assert_int_equal(report_trip(false, &d, &o), 0); /* absent: NULL */
	in = json_array_get(json_object_get(o, "instances"), 0);
	assert_null(json_object_get(in, "post_wire_hist"));
	assert_null(d.res[0].post_wire);
	assert_null(d.res[0].post_loop);
	rperf_proto_report_fini(&d);
	json_decref(o);
	assert_int_equal(report_trip(true, &d, &o), 0);
	assert_int_equal(rperf_hist_count(d.res[0].post_wire), 2);
	assert_int_equal(rperf_hist_count(d.res[0].post_loop), 1);
	assert_int_equal(rperf_hist_max(d.res[0].post_wire), 260);
	rperf_proto_report_fini(&d);
	assert_null(d.res);
	/* hostile: not hex, odd length, not a string */
	in = json_array_get(json_object_get(o, "instances"), 0);
	m.payload = o;
	json_object_set_new(in, "post_loop_hist", json_string("zz"));
	assert_int_equal(rperf_proto_report_decode(&m, &d, why, sizeof(why)),
			 EBADMSG);
	assert_non_null(strstr(why, "post_loop_hist"));
	json_object_set_new(in, "post_loop_hist", json_string("abc"));
	assert_int_equal(rperf_proto_report_decode(&m, &d, why, sizeof(why)),
			 EBADMSG);
	json_object_set_new(in, "post_wire_hist", json_integer(7));
	assert_int_equal(rperf_proto_report_decode(&m, &d, why, sizeof(why)),
			 EBADMSG);
	assert_non_null(strstr(why, "post_wire_hist"));
	json_decref(o);
}

/* The renderer leaves out absent and empty rows; the RTT row names the
 * method's formula. */
static void rows(void **state)
{
	struct rperf_hist *w, *e, *rtt;
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	assert_int_equal(rperf_hist_create(7, &w), 0);
	assert_int_equal(rperf_hist_create(7, &e), 0);
	assert_int_equal(rperf_hist_create(7, &rtt), 0);
	rperf_hist_record(w, 1500);
	rperf_hist_record(rtt, 20000);
	f = open_memstream(&text, &len);
	assert_non_null(f);
	rperf_rpt_breakdown_rows(
		f, &(struct rperf_rpt_breakdown){ .equation1 = true,
						  .loop_op = "WRITE",
						  .post_wire = w,
						  .post_loop = e,
						  .rtt = rtt });
	rperf_rpt_breakdown_rows(f,
				 &(struct rperf_rpt_breakdown){ .rtt = rtt });
	fclose(f);
	assert_non_null(strstr(text, "post cost, wire"));
	assert_null(strstr(text, "loopback WRITE")); /* empty: left out */
	assert_null(strstr(text, "T_W - T_P"));
	assert_non_null(strstr(text, "RTT = wire - loopback"));
	assert_non_null(strstr(text, "p50      1.500"));
	assert_non_null(strstr(text, "RTT = T_C - T_P"));
	free(text);
	rperf_hist_destroy(w);
	rperf_hist_destroy(e);
	rperf_hist_destroy(rtt);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(job_and_plan),
		cmocka_unit_test(report_hists),
		cmocka_unit_test(rows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
