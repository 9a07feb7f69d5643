/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Traffic shape of a BSG (issue 22): size distributions (parsing hostile
 * text, sampling), the job keys stop/bytes/messages/size, the spec's wire
 * keys, and the generator's budgets on the scripted device.
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

#include "engine/gen_shape.h"
#include "engine/spec.h"
#include "gen/bsg.h"
#include "gen/size_dist.h"
#include "job/job.h"
#include "scripted_dev.h"

#define KI 1024ull

static void dist_bad(const char *text, const char *want)
{
	struct rperf_size_dist d;
	char why[256] = "";
	int rc = rperf_size_dist_parse(text, false, 1ull << 30, &d, why,
				       sizeof(why));

	if (rc != EINVAL || !strstr(why, want))
		print_error("'%s': rc %d why '%s' want '%s'\n", text, rc, why,
			    want);
	assert_int_equal(rc, EINVAL);
	assert_non_null(strstr(why, want));
	assert_null(strchr(why, '\n'));
}

static void dist_parse(void **state)
{
	struct rperf_size_dist d;
	char why[256];

	(void)state;
	assert_int_equal(rperf_size_dist_parse("64:0.5,4K:0.4,64K:0.1", false,
					       1ull << 30, &d, why,
					       sizeof(why)),
			 0);
	assert_int_equal(d.n, 3);
	assert_int_equal(d.size[1], 4 * KI);
	assert_int_equal(rperf_size_dist_max(&d), 64 * KI);
	assert_true(d.cdf[2] == 1.0);
	/* mean: 0.5 x 64 + 0.4 x 4096 + 0.1 x 65536 */
	assert_true(rperf_size_dist_mean(&d) > 8224.0 - 1e-6 &&
		    rperf_size_dist_mean(&d) < 8224.0 + 1e-6);
	/* weights are relative */
	assert_int_equal(rperf_size_dist_parse("1K:3, 2K:1", false, 1ull << 30,
					       &d, why, sizeof(why)),
			 0);
	assert_true(d.cdf[0] > 0.7499 && d.cdf[0] < 0.7501);
	/* a file: lines, comments, either separator */
	assert_int_equal(rperf_size_dist_parse("# sizes\n64 1\n\n4K:1 # x\r\n",
					       true, 1ull << 30, &d, why,
					       sizeof(why)),
			 0);
	assert_int_equal(d.n, 2);
	dist_bad("", "no size");
	dist_bad("64:0.5,", "empty item");
	dist_bad(",64:1", "empty item");
	dist_bad("64", "no weight");
	dist_bad("64:", "not a number above 0");
	dist_bad("64:0", "not a number above 0");
	dist_bad("64:-1", "not a number above 0");
	dist_bad("64:nan", "not a number above 0");
	dist_bad("64:inf", "not a number above 0");
	dist_bad("64:1e999", "not a number above 0");
	dist_bad("64:1x", "not a number above 0");
	dist_bad("0:1", "size '0'");
	dist_bad("-4:1", "size '-4'");
	dist_bad("2G:1", "size '2G'");
	dist_bad("4K:1,4096:2", "appears twice");
	dist_bad("1:1,2:1,3:1,4:1,5:1,6:1,7:1,8:1,9:1,10:1,11:1,12:1,13:1,"
		 "14:1,15:1,16:1,17:1",
		 "more than 16");
	dist_bad("1:1111111111111111111111111111111111111111111111111111111111"
		 "1111111111",
		 "characters");
}

static void dist_pick(void **state)
{
	struct rperf_size_dist d;
	uint64_t rng = 42, n[3] = { 0 };
	char why[128];
	const int draws = 100000;

	(void)state;
	assert_int_equal(rperf_size_dist_parse("64:0.5,4K:0.4,64K:0.1", false,
					       1ull << 30, &d, why,
					       sizeof(why)),
			 0);
	assert_int_equal(rperf_size_dist_pick(&d, 0.0), 64);
	assert_int_equal(rperf_size_dist_pick(&d, 0.4999), 64);
	assert_int_equal(rperf_size_dist_pick(&d, 0.5), 4 * KI);
	assert_int_equal(rperf_size_dist_pick(&d, 0.8999), 4 * KI);
	assert_int_equal(rperf_size_dist_pick(&d, 0.9), 64 * KI);
	assert_int_equal(rperf_size_dist_pick(&d, 0.9999999), 64 * KI);
	for (int i = 0; i < draws; i++) {
		uint64_t z = rperf_size_dist_pick(&d, rperf_uniform(&rng));

		n[z == 64 ? 0 : z == 4 * KI ? 1 : 2]++;
	}
	/* binomial sd at p = 0.5 is 0.0016: 5 sd */
	assert_in_range(n[0], 49200, 50800);
	assert_in_range(n[1], 39200, 40800);
	assert_in_range(n[2], 9500, 10500);
}

static struct rperf_job *job_ok(const char *text)
{
	struct rperf_job *job = NULL;
	char err[512] = "";
	int rc = rperf_job_parse(text, "t.ini", &job, err, sizeof(err));

	if (rc)
		print_error("unexpected %d: %s\n", rc, err);
	assert_int_equal(rc, 0);
	return job;
}

static void job_bad(const char *text, const char *want)
{
	struct rperf_job *job = NULL;
	char err[512] = "";
	int rc = rperf_job_parse(text, "t.ini", &job, err, sizeof(err));

	if (rc != EINVAL || !strstr(err, want))
		print_error("rc %d err '%s' want '%s'\n", rc, err, want);
	assert_int_equal(rc, EINVAL);
	assert_non_null(strstr(err, want));
	assert_null(job);
}

#define H2 "[host a]\ncontrol = 10.0.0.1\n[host b]\ncontrol = 10.0.0.2\n"

static void job_keys(void **state)
{
	struct rperf_job *job;

	(void)state;
	job = job_ok(H2 "[bsg x]\nfrom = a\nto = b\nstart = 0.5s\nstop = 2s\n"
			"bytes = 1M\nmessages = 10k\n"
			"size = 64:0.5,4K:0.4,64K:0.1\n");
	assert_int_equal(job->inst[0].stop_ns, 2000000000ull);
	assert_int_equal(job->inst[0].max_bytes, 1ull << 20);
	assert_int_equal(job->inst[0].max_messages, 10000);
	assert_int_equal(job->inst[0].sizes.n, 3);
	assert_int_equal(job->inst[0].size, 64 * KI);
	rperf_job_free(job);
	job_bad(H2 "[bsg x]\nfrom = a\nto = b\nstart = 2s\nstop = 1s\n",
		"[bsg x] stop: 1.000 s is not after start (2.000 s)");
	job_bad(H2 "[lsg x]\nfrom = a\nto = b\nsize = 64:1,128:1\n",
		"applies to [bsg] sections only");
	job_bad(H2 "[lsg x]\nfrom = a\nto = b\nstop = 1s\n",
		"applies to [bsg] sections only");
	job_bad(H2 "[bsg x]\nfrom = a\nto = b\nbytes = 0\n", "bytes");
	job_bad(H2 "[bsg x]\nfrom = a\nto = b\nmessages = -1\n", "messages");
	job_bad(H2 "[bsg x]\nfrom = a\nto = b\nstop = 1 fortnight\n", "stop");
	job_bad(H2 "[bsg x]\nfrom = a\nto = b\nsize = 64:0.5,4K:zero\n",
		"[bsg x] size: weight 'zero'");
	job_bad(H2 "[bsg x]\nfrom = a\nto = b\nsize = @/nonexistent/sizes\n",
		"cannot open");
	job_bad(H2 "[bsg x]\nfrom = a\nto = b\nsize = @/dev/null\n",
		"regular file");
	/* burst_size: rperf bw --burst_size, with a rate */
	job = job_ok(H2 "[bsg x]\nfrom = a\nto = b\nrate = 20M\n"
			"burst_size = 64\n");
	assert_int_equal(job->inst[0].burst_size, 64);
	rperf_job_free(job);
	job_bad(H2 "[bsg x]\nfrom = a\nto = b\nrate = 20M\n"
		   "burst_size = 16777217\n",
		"[bsg x] burst_size: '16777217' is out of range");
	job_bad(H2 "[bsg x]\nfrom = a\nto = b\nburst_size = 64\n",
		"t.ini:8: [bsg x] burst_size: the depth of the rate's token bucket: set rate too");
	job_bad(H2 "[lsg x]\nfrom = a\nto = b\nburst_size = 64\n",
		"burst_size");
}

#define H4 H2 "[host c]\ncontrol = 10.0.0.3\n[host d]\ncontrol = 10.0.0.4\n"

/* to = *: every host of from to every other, sender-major. */
static void all_to_all(void **state)
{
	static const char *const want[12][2] = {
		{ "a", "b" }, { "a", "c" }, { "a", "d" }, { "b", "a" },
		{ "b", "c" }, { "b", "d" }, { "c", "a" }, { "c", "b" },
		{ "c", "d" }, { "d", "a" }, { "d", "b" }, { "d", "c" },
	};
	struct rperf_job *job;

	(void)state;
	job = job_ok(H4 "[bsg all]\nfrom = a, b, c, d\nto = *\n"
			"[lsg p]\nfrom = a\nto = b\n");
	assert_int_equal(job->ninst, 13);
	for (size_t i = 0; i < 12; i++) {
		assert_string_equal(job->inst[i].from, want[i][0]);
		assert_string_equal(job->inst[i].to, want[i][1]);
		assert_string_equal(job->inst[i].name, "all");
		assert_int_equal(job->inst[i].id, i);
	}
	rperf_job_free(job);
	/* count: the first 3 of from among themselves */
	job = job_ok(H4 "[bsg all]\nfrom = a, b, c, d\ncount = 3\nto = *\n");
	assert_int_equal(job->ninst, 6);
	assert_string_equal(job->inst[5].from, "c");
	assert_string_equal(job->inst[5].to, "b");
	rperf_job_free(job);
	job_bad(H4 "[bsg all]\nfrom = a\nto = *\n",
		"[bsg all] to: * sends to every other host of from");
	job_bad(H4 "[bsg all]\nfrom = a, b\nto = a, b\n",
		"or to = * (every other host of from)");
}

static void spec_wire(void **state)
{
	struct rperf_gen_spec s, t;
	char why[256] = "";
	json_t *o = NULL;

	(void)state;
	rperf_gen_spec_defaults(&s, RPERF_GEN_BSG);
	snprintf(s.name, sizeof(s.name), "x");
	snprintf(s.from, sizeof(s.from), "a");
	snprintf(s.to, sizeof(s.to), "b");
	s.start_ns = 5;
	s.stop_ns = 7;
	s.max_bytes = 1000;
	s.max_messages = 9;
	assert_int_equal(rperf_size_dist_parse("64:1,65536:3", false,
					       1ull << 30, &s.sizes, why,
					       sizeof(why)),
			 0);
	s.burst_bytes = 4096;
	s.period_ns = 2000000;
	s.jitter_ns = 100;
	assert_int_equal(rperf_gen_spec_encode(&s, &o), 0);
	assert_int_equal(rperf_gen_spec_decode(o, &t, why, sizeof(why)), 0);
	assert_int_equal(t.stop_ns, 7);
	assert_int_equal(t.max_bytes, 1000);
	assert_int_equal(t.max_messages, 9);
	assert_int_equal(t.sizes.n, 2);
	assert_true(t.sizes.weight[1] == 3.0);
	assert_true(t.sizes.cdf[0] == 0.25);
	assert_int_equal(t.burst_bytes, 4096);
	assert_int_equal(t.burst_size, 0);
	json_decref(o);
	/* burst_size: the token bucket's depth of a paced BSG */
	s.rate_bps = 20e6;
	s.burst_size = 64;
	assert_int_equal(rperf_gen_spec_encode(&s, &o), 0);
	assert_int_equal(rperf_gen_spec_decode(o, &t, why, sizeof(why)), 0);
	assert_int_equal(t.burst_size, 64);
	{
		struct rperf_bsg_cfg c;

		rperf_bsg_spec_cfg(&t, &c);
		assert_int_equal(c.burst, 64);
	}
	json_object_set_new(o, "burst_size", json_integer(16777217));
	assert_int_equal(rperf_gen_spec_decode(o, &t, why, sizeof(why)),
			 EBADMSG);
	assert_non_null(strstr(why, "burst_size"));
	json_object_set_new(o, "burst_size", json_integer(64));
	json_object_set_new(o, "rate_bps", json_integer(0));
	assert_int_equal(rperf_gen_spec_decode(o, &t, why, sizeof(why)),
			 EBADMSG);
	assert_string_equal(why, "'burst_size' needs 'rate_bps'");
	json_decref(o);
	s.rate_bps = 0;
	s.burst_size = 0;
	assert_int_equal(rperf_gen_spec_encode(&s, &o), 0);
	/* hostile: weights missing, bad, a size above size, stop before
	 * start, jitter not below the period */
	json_object_del(o, "size_weights");
	assert_int_equal(rperf_gen_spec_decode(o, &t, why, sizeof(why)),
			 EBADMSG);
	json_object_set_new(o, "size_weights", json_pack("[f,s]", 1.0, "x"));
	assert_int_equal(rperf_gen_spec_decode(o, &t, why, sizeof(why)),
			 EBADMSG);
	json_object_set_new(o, "size_weights", json_pack("[f,f]", 1.0, -1.0));
	assert_int_equal(rperf_gen_spec_decode(o, &t, why, sizeof(why)),
			 EBADMSG);
	json_object_set_new(o, "size_weights", json_pack("[f,f]", 1.0, 1.0));
	json_object_set_new(o, "size", json_integer(4096));
	assert_int_equal(rperf_gen_spec_decode(o, &t, why, sizeof(why)),
			 EBADMSG);
	json_object_set_new(o, "size", json_integer(65536));
	json_object_set_new(o, "stop_ns", json_integer(5));
	assert_int_equal(rperf_gen_spec_decode(o, &t, why, sizeof(why)),
			 EBADMSG);
	json_object_set_new(o, "stop_ns", json_integer(6));
	json_object_set_new(o, "jitter_ns", json_integer(2000000));
	assert_int_equal(rperf_gen_spec_decode(o, &t, why, sizeof(why)),
			 EBADMSG);
	json_object_set_new(o, "jitter_ns", json_integer(0));
	json_object_set_new(o, "kind", json_string("lsg"));
	assert_int_equal(rperf_gen_spec_decode(o, &t, why, sizeof(why)),
			 EBADMSG);
	json_decref(o);
}

static void lat_script(void *arg, int qp, uint64_t seq, struct sdev_wr *w)
{
	(void)arg;
	(void)seq;
	w->lat_ns = 500 + 300 * (uint64_t)qp;
}

struct fx {
	struct sdev *d;
	struct rperf_bsg_qp q[3];
	struct rperf_bsg_cfg cfg;
	struct rperf_bsg_res res;
	volatile sig_atomic_t stop;
};

static void fx_init(struct fx *f, size_t nqps)
{
	memset(f, 0, sizeof(*f));
	f->d = sdev_create(lat_script, NULL);
	assert_non_null(f->d);
	for (size_t i = 0; i < nqps; i++)
		f->q[i] = (struct rperf_bsg_qp){
			.qp = sdev_add_qp(f->d, -1, false), .buf = &f->d->buf
		};
	f->cfg = (struct rperf_bsg_cfg){ .verb = RPERF_VERB_WRITE,
					 .size = 4096,
					 .duration_ns = 60000000000ull,
					 .tx_depth = 64,
					 .cq_mod = 16,
					 .post_list = 4,
					 .stop = &f->stop,
					 .peer_fd = -1,
					 .stall_ns = 5000000000ull,
					 .ops = &sdev_ops,
					 .ops_ctx = f->d };
}

/* messages = N over 3 QPs: exactly N, every one completed; the run ends
 * long before its duration. */
static void budget_messages(void **state)
{
	struct fx f;

	(void)state;
	fx_init(&f, 3);
	f.cfg.max_messages = 10001;
	assert_int_equal(rperf_bsg_run(&f.cfg, f.q, 3, &f.res), 0);
	assert_int_equal(f.res.messages, 10001);
	assert_int_equal(f.res.posted, 10001);
	assert_int_equal(f.res.bytes, 10001ull * 4096);
	assert_int_equal(f.d->wire_bytes, 10001ull * 4096);
	assert_true(f.res.seconds < 30);
	assert_true(f.res.last_ns >= f.res.first_ns && f.res.first_ns);
	sdev_destroy(f.d);
}

/* bytes = B: exactly B on the wire and counted, the last message of each
 * QP cut to fit; with a distribution as well. */
static void budget_bytes(void **state)
{
	struct rperf_size_dist d;
	char why[128];
	struct fx f;

	(void)state;
	fx_init(&f, 3);
	f.cfg.max_bytes = 1000000; /* not a multiple of 4096 or of 3 */
	assert_int_equal(rperf_bsg_run(&f.cfg, f.q, 3, &f.res), 0);
	assert_int_equal(f.res.bytes, 1000000);
	assert_int_equal(f.d->wire_bytes, 1000000);
	assert_int_equal(f.res.messages, f.res.posted);
	/* 333334 / 4096 = 81.4: 82 on one QP, 82 and 82 on the others */
	assert_int_equal(f.res.messages, 3 * 82);
	sdev_destroy(f.d);

	fx_init(&f, 2);
	assert_int_equal(rperf_size_dist_parse("64:0.5,1K:0.4,4K:0.1", false,
					       4096, &d, why, sizeof(why)),
			 0);
	f.cfg.sizes = &d;
	f.cfg.seed = 7;
	f.cfg.max_bytes = 5000000;
	assert_int_equal(rperf_bsg_run(&f.cfg, f.q, 2, &f.res), 0);
	assert_int_equal(f.res.bytes, 5000000);
	assert_int_equal(f.d->wire_bytes, 5000000);
	sdev_destroy(f.d);
}

/* A distribution without a budget: the message sizes follow it and the
 * bytes counted are the bytes posted. */
static void sizes_on_wire(void **state)
{
	struct rperf_size_dist d;
	char why[128];
	struct fx f;
	double n, small, mid, big;

	(void)state;
	fx_init(&f, 3);
	assert_int_equal(rperf_size_dist_parse("64:0.5,1K:0.4,4K:0.1", false,
					       4096, &d, why, sizeof(why)),
			 0);
	f.cfg.sizes = &d;
	f.cfg.seed = 1;
	f.cfg.duration_ns = 0;
	f.cfg.iters = 10000; /* per QP */
	assert_int_equal(rperf_bsg_run(&f.cfg, f.q, 3, &f.res), 0);
	assert_int_equal(f.res.messages, 30000);
	assert_int_equal(f.res.bytes, f.d->wire_bytes);
	n = (double)f.res.posted;
	small = (double)f.d->len_log2[6] / n;
	mid = (double)f.d->len_log2[10] / n;
	big = (double)f.d->len_log2[12] / n;
	/* binomial sd at p = 0.5, n = 30000: 0.003; 5 sd */
	assert_true(small > 0.485 && small < 0.515);
	assert_true(mid > 0.385 && mid < 0.415);
	assert_true(big > 0.09 && big < 0.11);
	/* a distribution whose largest is not @size is refused */
	f.cfg.size = 8192;
	assert_int_equal(rperf_bsg_run(&f.cfg, f.q, 3, &f.res), EINVAL);
	sdev_destroy(f.d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(dist_parse),
		cmocka_unit_test(dist_pick),
		cmocka_unit_test(job_keys),
		cmocka_unit_test(all_to_all),
		cmocka_unit_test(spec_wire),
		cmocka_unit_test(budget_messages),
		cmocka_unit_test(budget_bytes),
		cmocka_unit_test(sizes_on_wire),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
