// SPDX-License-Identifier: BSD-2-Clause
/*
 * Unit tests of the `rperf run` results (no network): merging histograms
 * from several agents (percentiles equal those of one histogram holding all
 * values), per-class / per-host / total aggregation, receiver counts
 * attached to their source, checks on hostile reports, the JSON keys of the
 * contract and the text table.
 */
#include <unistd.h>

#include "run_fixture.h"

/* h1: LSG a -> h4, h2: LSG b -> h4, h3: BSG bulk -> h4 */
struct fx {
	struct rperf_job *job;
	struct rperf_run_results *r;
};

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));
	struct rperf_proto_report rep;

	f->job = fx_job(4);
	fx_inst(f->job, RPERF_GEN_LSG, "a", "h1", "h4", 1, 0);
	fx_inst(f->job, RPERF_GEN_LSG, "b", "h2", "h4", 1, 0);
	fx_inst(f->job, RPERF_GEN_BSG, "bulk", "h3", "h4", 0, 0);
	assert_int_equal(rperf_run_results_create(f->job, &f->r), 0);
	rperf_run_results_set_link(f->r, "h1", "infiniband");
	rperf_run_results_set_link(f->r, "h2", "infiniband");
	rperf_run_results_set_link(f->r, "h3", "infiniband");
	fx_report(&rep, "h1", 1);
	fx_lsg(&rep, 0, fx_hist(1000, 3, 5000));
	fx_add(f->r, &rep);
	fx_report(&rep, "h2", 1);
	fx_lsg(&rep, 1, fx_hist(20000, 7, 3000));
	fx_add(f->r, &rep);
	fx_report(&rep, "h3", 1);
	/* 2.5e9 bytes in 1 s = 20 Gb/s */
	fx_counts(&rep, 2, RPERF_ROLE_SOURCE, RPERF_GEN_BSG, 2500000000ull,
		  1.0);
	fx_add(f->r, &rep);
	fx_report(&rep, "h4", 3);
	fx_counts(&rep, 0, RPERF_ROLE_SINK, RPERF_GEN_LSG, 64 * 5000, 0.2);
	fx_counts(&rep, 1, RPERF_ROLE_SINK, RPERF_GEN_LSG, 64 * 3000, 0.2);
	fx_counts(&rep, 2, RPERF_ROLE_SINK, RPERF_GEN_BSG, 1250000000ull, 1.0);
	fx_add(f->r, &rep);
	assert_int_equal(rperf_run_results_finish(f->r), 0);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	rperf_run_results_free(f->r);
	fx_job_free(f->job);
	free(f);
	return 0;
}

/* Merged percentiles == those of one histogram with every value. */
static void merge_equals_whole(void **state)
{
	struct fx *f = *state;
	struct rperf_hist *all = fx_hist(1000, 3, 5000);
	struct rperf_hist *b = fx_hist(20000, 7, 3000);
	const struct rperf_hist *m;
	static const double ps[] = { 0, 1, 25, 50, 62.5, 90, 99, 99.9, 100 };

	assert_int_equal(rperf_hist_merge(all, b), 0);
	assert_int_equal(f->r->ncls, 2);
	m = f->r->cls[0].agg.rtt; /* SL 1: a and b */
	assert_non_null(m);
	assert_int_equal(rperf_hist_count(m), 8000);
	for (size_t i = 0; i < sizeof(ps) / sizeof(ps[0]); i++)
		assert_int_equal(rperf_hist_percentile(m, ps[i]),
				 rperf_hist_percentile(all, ps[i]));
	assert_int_equal(rperf_hist_percentile(f->r->total.rtt, 50),
			 rperf_hist_percentile(all, 50));
	/* p50 of the merge lies in the first histogram's range: an average
   * of the two p50s would not */
	assert_true(rperf_hist_percentile(m, 50) < 20000);
	rperf_hist_destroy(all);
	rperf_hist_destroy(b);
}

static void classes_hosts_total(void **state)
{
	struct fx *f = *state;
	const struct rperf_run_results *r = f->r;

	assert_string_equal(r->cls[0].name, "SL 1");
	assert_int_equal(r->cls[0].agg.nlsg, 2);
	assert_int_equal(r->cls[0].agg.nbsg, 0);
	assert_string_equal(r->cls[1].name, "SL 0");
	assert_int_equal(r->cls[1].agg.nbsg, 1);
	assert_float_equal(r->inst[2].gbps, 20.0, 1e-9);
	assert_float_equal(r->inst[2].receiver_gbps, 10.0, 1e-9);
	assert_float_equal(r->cls[1].agg.gbps, 20.0, 1e-9);
	assert_float_equal(r->total.receiver_gbps, 10.0, 1e-9);
	/* h4 received everything; h3 sent the BSG */
	assert_float_equal(r->hosts[3].received.receiver_gbps, 10.0, 1e-9);
	assert_int_equal(r->hosts[3].received.nlsg, 2);
	assert_float_equal(r->hosts[2].sent.gbps, 20.0, 1e-9);
	assert_int_equal(rperf_hist_count(r->hosts[0].sent.rtt), 5000);
	for (size_t i = 0; i < 3; i++)
		assert_int_equal(r->inst[i].status, RPERF_RUN_ST_OK);
	assert_int_equal(r->nerrors, 0);
	assert_int_equal(rperf_run_results_nfailed(r), 0);
}

static void class_names_by_link(void **state)
{
	struct rperf_job *job = fx_job(3);
	struct rperf_run_results *r = NULL;

	(void)state;
	fx_inst(job, RPERF_GEN_BSG, "x", "h1", "h3", 3, 96);
	fx_inst(job, RPERF_GEN_BSG, "y", "h2", "h3", 3, 0);
	assert_int_equal(rperf_run_results_create(job, &r), 0);
	rperf_run_results_set_link(r, "h1", "ethernet");
	assert_int_equal(rperf_run_results_finish(r), 0);
	assert_int_equal(r->ncls, 2);
	assert_string_equal(r->cls[0].name, "tclass 96");
	assert_string_equal(r->cls[1].name, "SL 3 / tclass 0");
	/* nothing reported: missing, counted as errors */
	assert_int_equal(r->inst[0].status, RPERF_RUN_ST_MISSING);
	assert_int_equal(r->nerrors, 2);
	rperf_run_results_free(r);
	fx_job_free(job);
}

/* A report about another host's instance, or twice the same: refused,
 * nothing kept. */
static void hostile_reports(void **state)
{
	struct rperf_job *job = fx_job(2);
	struct rperf_run_results *r = NULL;
	struct rperf_proto_report rep;
	char err[256] = "";

	(void)state;
	fx_inst(job, RPERF_GEN_LSG, "a", "h1", "h2", 0, 0);
	assert_int_equal(rperf_run_results_create(job, &r), 0);
	fx_report(&rep, "h2", 2);
	fx_lsg(&rep, 0, fx_hist(1, 1, 10)); /* h2 is the sink, not source */
	assert_int_equal(rperf_run_results_add_report(r, "h2", &rep, NULL, err,
						      sizeof(err)),
			 EBADMSG);
	assert_non_null(strstr(err, "not a lsg source"));
	rperf_proto_report_fini(&rep);
	fx_report(&rep, "h1", 2);
	fx_lsg(&rep, 0, fx_hist(1, 1, 10));
	fx_lsg(&rep, 0, fx_hist(1, 1, 10));
	assert_int_equal(rperf_run_results_add_report(r, "h1", &rep, NULL, err,
						      sizeof(err)),
			 EBADMSG);
	assert_non_null(strstr(err, "twice"));
	rperf_proto_report_fini(&rep);
	fx_report(&rep, "h1", 1);
	fx_counts(&rep, 7, RPERF_ROLE_SOURCE, RPERF_GEN_LSG, 1, 1);
	assert_int_equal(rperf_run_results_add_report(r, "h1", &rep, NULL, err,
						      sizeof(err)),
			 EBADMSG);
	rperf_proto_report_fini(&rep);
	assert_false(r->inst[0].have_source);
	rperf_run_results_host_failed(r, "h1", "connection closed");
	assert_int_equal(rperf_run_results_finish(r), 0);
	assert_int_equal(r->inst[0].status, RPERF_RUN_ST_FAILED);
	assert_int_equal(rperf_run_results_nfailed(r), 1);
	rperf_run_results_free(r);
	fx_job_free(job);
}

static const json_t *key(const json_t *o, const char *k)
{
	const json_t *v = json_object_get(o, k);

	if (!v)
		fail_msg("missing key %s", k);
	return v;
}

static void json_contract(void **state)
{
	struct fx *f = *state;
	static const char *const gen_keys[] = { "name", "kind", "host",
						"to",	"sl",	"tclass" };
	static const char *const rtt_keys[] = {
		"min", "p50", "p99", "p999", "p9999", "max", "mean", "stdev"
	};
	const json_t *gens, *g, *rtt;
	json_t *root = NULL;

	rperf_run_results_host_failed(f->r, "h2", "test");
	assert_int_equal(rperf_run_report_json(f->r, &root), 0);
	gens = key(root, "generators");
	assert_int_equal(json_array_size(gens), 3);
	for (size_t i = 0; i < 3; i++)
		for (size_t k = 0; k < 6; k++)
			key(json_array_get(gens, i), gen_keys[k]);
	g = json_array_get(gens, 0);
	assert_string_equal(json_string_value(key(g, "kind")), "lsg");
	assert_string_equal(json_string_value(key(g, "host")), "h1");
	assert_string_equal(json_string_value(key(g, "to")), "h4");
	assert_int_equal(json_integer_value(key(g, "sl")), 1);
	rtt = key(g, "rtt_ns");
	for (size_t k = 0; k < 8; k++)
		key(rtt, rtt_keys[k]);
	assert_int_equal(json_integer_value(key(rtt, "min")), 1000);
	assert_string_equal(json_string_value(key(g, "timestamps")), "cpu");
	g = json_array_get(gens, 2);
	assert_string_equal(json_string_value(key(g, "kind")), "bsg");
	assert_true(json_is_number(key(g, "gbps")));
	assert_true(json_is_number(key(g, "receiver_gbps")));
	assert_string_equal(
		json_string_value(json_array_get(key(root, "failed_hosts"), 0)),
		"h2");
	assert_int_equal(json_array_size(key(root, "classes")), 2);
	key(json_array_get(key(root, "classes"), 0), "rtt_ns");
	key(root, "hosts");
	key(root, "total");
	json_decref(root);
}

static void text_table(void **state)
{
	struct fx *f = *state;
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);

	assert_non_null(mem);
	rperf_run_results_host_failed(f->r, "h3", "connection closed");
	assert_int_equal(rperf_run_report_text(mem, f->r), 0);
	fclose(mem);
	if (getenv("SHOW"))
		fputs(buf, stderr);
	assert_non_null(strstr(buf, "GENERATOR"));
	assert_non_null(strstr(buf, "h1 -> h4"));
	assert_non_null(strstr(buf, "bulk"));
	assert_non_null(strstr(buf, "20.0 Gb/s")); /* BSG sent */
	assert_non_null(strstr(buf, "10.0 Gb/s")); /* received at h4 */
	/* payload, and the wire efficiency assumed (4 KiB SENDs, RoCEv2) */
	assert_non_null(strstr(buf, "sent, recv: payload rates"));
	assert_non_null(strstr(buf, "  bulk: "));
	assert_non_null(strstr(buf, "wire efficiency 0."));
	assert_non_null(strstr(buf, "SL 1"));
	assert_non_null(strstr(buf, "FAILED host h3"));
	/* a's p50 in microseconds: 1000 + 3 * 2500 ns ~ 8.50 us */
	assert_non_null(strstr(buf, "8.48"));
	free(buf);
}

/* The JSON file: written atomically; a path that cannot be written is
 * found before the experiment. */
static void json_file(void **state)
{
	struct fx *f = *state;
	char dir[] = "/tmp/rperf-run-XXXXXX", path[64], bad[96], err[256];
	json_t *root;

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/r.json", dir);
	snprintf(bad, sizeof(bad), "%s/no/such/dir/r.json", dir);
	assert_int_equal(rperf_run_check_writable(path, err, sizeof(err)), 0);
	assert_int_equal(rperf_run_check_writable(bad, err, sizeof(err)),
			 ENOENT);
	assert_non_null(strstr(err, "cannot write"));
	assert_int_equal(rperf_run_write_json(path, f->r), 0);
	root = json_load_file(path, 0, NULL);
	assert_non_null(root);
	assert_int_equal(json_array_size(json_object_get(root, "generators")),
			 3);
	json_decref(root);
	unlink(path);
	rmdir(dir);
}

/* Two hosts of the experiment on one agent: a job error naming both. */
static void same_agent(void **state)
{
	struct rperf_job *job = fx_job(3);
	char err[512] = "";

	(void)state;
	fx_inst(job, RPERF_GEN_LSG, "a", "h1", "h2", 0, 0);
	job->hosts[0].control_port = 18521;
	job->hosts[1].control_port = 18522;
	job->hosts[2].control_port = 18521; /* h3 is not in the experiment */
	assert_int_equal(rperf_run_check_job(job, err, sizeof(err)), 0);
	job->hosts[1].control_port = 18521;
	assert_int_equal(rperf_run_check_job(job, err, sizeof(err)), EINVAL);
	assert_non_null(strstr(err, "[host h2]"));
	assert_non_null(strstr(err, "[host h1]"));
	/* control = local: each local host gets an agent of its own */
	for (int i = 0; i < 2; i++) {
		snprintf(job->hosts[i].control, sizeof(job->hosts[i].control),
			 "local");
		job->hosts[i].control_port = 0;
		job->hosts[i].local = true;
	}
	assert_int_equal(rperf_run_check_job(job, err, sizeof(err)), 0);
	fx_job_free(job);
}

/* A write BSG: the destination counts nothing; no 0 Gb/s pretends it did. */
static void write_not_counted(void **state)
{
	struct rperf_job *job = fx_job(2);
	struct rperf_run_results *r = NULL;
	struct rperf_proto_report rep;
	char *buf = NULL;
	size_t len = 0;
	FILE *mem;
	json_t *root = NULL, *g;

	(void)state;
	fx_inst(job, RPERF_GEN_BSG, "w", "h1", "h2", 0, 0);
	job->inst[0].verb = 1; /* write */
	assert_string_equal(rperf_verb_name(job->inst[0].verb), "write");
	assert_int_equal(rperf_run_results_create(job, &r), 0);
	fx_report(&rep, "h1", 1);
	fx_counts(&rep, 0, RPERF_ROLE_SOURCE, RPERF_GEN_BSG, 125000000, 1.0);
	fx_add(r, &rep);
	fx_report(&rep, "h2", 1);
	fx_counts(&rep, 0, RPERF_ROLE_SINK, RPERF_GEN_BSG, 0, 0);
	fx_add(r, &rep);
	assert_int_equal(rperf_run_results_finish(r), 0);
	assert_true(r->inst[0].rx_invisible);
	assert_int_equal(r->total.nrecv, 0);
	assert_int_equal(rperf_run_report_json(r, &root), 0);
	g = json_array_get(json_object_get(root, "generators"), 0);
	assert_true(json_is_null(json_object_get(g, "receiver_gbps")));
	assert_float_equal(json_real_value(json_object_get(g, "gbps")), 1.0,
			   1e-9);
	assert_non_null(json_object_get(g, "receiver_note"));
	json_decref(root);
	mem = open_memstream(&buf, &len);
	assert_int_equal(rperf_run_report_text(mem, r), 0);
	fclose(mem);
	assert_non_null(strstr(buf, "note: w: verb write"));
	free(buf);
	rperf_run_results_free(r);
	fx_job_free(job);
}

/*
 * Issue 20's numbers: a BSG sent and received 16 x 1 KiB in a 4.52 s run;
 * its sink's first and last arrivals were 0.148 s apart. The receiver's
 * rate is over the run's window (0.0290 Mb/s, as sent), not between the
 * arrivals (0.886 Mb/s, 30 x what was sent), and so is the "to host" row.
 */
static void honest_receiver_rate(void **state)
{
	struct rperf_job *job = fx_job(2);
	struct rperf_run_results *r = NULL;
	struct rperf_proto_report rep;
	const double bytes = 16 * 1024, want = bytes * 8 / 4.52 / 1e9;

	(void)state;
	fx_inst(job, RPERF_GEN_BSG, "few", "h1", "h2", 0, 0);
	assert_int_equal(rperf_run_results_create(job, &r), 0);
	fx_report(&rep, "h1", 1);
	fx_counts(&rep, 0, RPERF_ROLE_SOURCE, RPERF_GEN_BSG, 16 * 1024, 4.52);
	fx_add(r, &rep);
	fx_report(&rep, "h2", 1);
	fx_counts(&rep, 0, RPERF_ROLE_SINK, RPERF_GEN_BSG, 16 * 1024, 0.148);
	fx_add(r, &rep);
	assert_int_equal(rperf_run_results_finish(r), 0);
	print_message(
		"sent %.4f Mb/s, received %.4f Mb/s (first-to-last: %.3f Mb/s)\n",
		r->inst[0].gbps * 1e3, r->inst[0].receiver_gbps * 1e3,
		bytes * 8 / 0.148 / 1e6);
	assert_float_equal(r->inst[0].gbps * 1e3, 0.0290, 0.00005);
	assert_float_equal(r->inst[0].receiver_gbps, want, 1e-12);
	assert_float_equal(r->hosts[1].received.receiver_gbps, want, 1e-12);
	assert_float_equal(r->total.receiver_gbps, want, 1e-12);
	rperf_run_results_free(r);
	fx_job_free(job);
}

/* A source's placement: in generators[] when reported, and a warning line
 * in the text when remote. */
static void placement(void **state)
{
	struct fx *f = *state;
	const json_t *pl;
	json_t *root = NULL;
	char *buf = NULL;
	size_t len = 0;
	FILE *mem;

	f->r->inst[0].placed = true;
	f->r->inst[0].place = (struct rperf_proto_placement){ 1, 0, 1, true };
	assert_int_equal(rperf_run_report_json(f->r, &root), 0);
	pl = key(json_array_get(key(root, "generators"), 0), "placement");
	assert_int_equal(json_integer_value(key(pl, "nic_node")), 1);
	assert_int_equal(json_integer_value(key(pl, "cpu_node")), 0);
	assert_int_equal(json_integer_value(key(pl, "mem_node")), 1);
	assert_true(json_is_true(key(pl, "remote")));
	assert_null(json_object_get(json_array_get(key(root, "generators"), 1),
				    "placement"));
	json_decref(root);
	mem = open_memstream(&buf, &len);
	assert_non_null(mem);
	assert_int_equal(rperf_run_report_text(mem, f->r), 0);
	fclose(mem);
	assert_non_null(strstr(buf, "placed off the NIC's node 1"));
	free(buf);
	f->r->inst[0].place.remote = false;
	buf = NULL;
	mem = open_memstream(&buf, &len);
	assert_non_null(mem);
	assert_int_equal(rperf_run_report_text(mem, f->r), 0);
	fclose(mem);
	assert_null(strstr(buf, "placed off"));
	free(buf);
}

/* An [lsg]'s max_p50 / max_p999 (run_limits.c): a limit equal to the
 * percentile passes, 1 ns below it is crossed; an instance without a
 * limit, a BSG, and an LSG without samples are never judged; the JSON
 * "limits" and the text's "limit:" line say which. */
static void rtt_limits(void **state)
{
	struct rperf_job *job = fx_job(4);
	struct rperf_run_results *r = NULL;
	struct rperf_proto_report rep;
	struct rperf_hist *a = fx_hist(1000, 1, 1000);
	int64_t p50 = rperf_hist_percentile(a, 50);
	int64_t p999 = rperf_hist_percentile(a, 99.9);
	struct rperf_run_limit l[RPERF_RUN_NLIMITS];
	json_t *root = NULL, *g, *lim;
	char *buf = NULL;
	size_t len = 0;
	FILE *mem;

	(void)state;
	fx_inst(job, RPERF_GEN_LSG, "a", "h1", "h4", 0, 0);
	fx_inst(job, RPERF_GEN_LSG, "b", "h2", "h4", 0, 0);
	fx_inst(job, RPERF_GEN_LSG, "c", "h3", "h4", 0, 0);
	job->inst[0].max_p50_ns = (uint64_t)p50;
	job->inst[0].max_p999_ns = (uint64_t)p999 - 1;
	job->inst[2].max_p50_ns = 1; /* no samples: not judged */
	assert_int_equal(rperf_run_results_create(job, &r), 0);
	fx_report(&rep, "h1", 1);
	fx_lsg(&rep, 0, a);
	fx_add(r, &rep);
	fx_report(&rep, "h2", 1);
	fx_lsg(&rep, 1, fx_hist(5000, 1, 100));
	fx_add(r, &rep);
	assert_int_equal(rperf_run_results_finish(r), 0);

	assert_int_equal(rperf_run_inst_limits(&r->inst[0], l), 1);
	assert_string_equal(l[0].key, "max_p50");
	assert_false(l[0].over);
	assert_int_equal(l[0].value_ns, p50);
	assert_string_equal(l[1].key, "max_p999");
	assert_true(l[1].over);
	assert_int_equal(l[1].value_ns, p999);
	assert_int_equal(rperf_run_inst_limits(&r->inst[1], l), 0);
	assert_int_equal(rperf_run_inst_limits(&r->inst[2], l), 0);
	assert_int_equal(rperf_run_results_over(r), 1);

	assert_int_equal(rperf_run_report_json(r, &root), 0);
	g = json_object_get(root, "generators");
	lim = json_object_get(json_array_get(g, 0), "limits");
	assert_int_equal(json_array_size(lim), 2);
	assert_string_equal(json_string_value(json_object_get(
				    json_array_get(lim, 1), "key")),
			    "max_p999");
	assert_true(json_is_true(
		json_object_get(json_array_get(lim, 1), "exceeded")));
	assert_true(json_is_false(
		json_object_get(json_array_get(lim, 0), "exceeded")));
	assert_null(json_object_get(json_array_get(g, 1), "limits"));
	lim = json_object_get(json_array_get(g, 2), "limits");
	assert_true(json_is_null(
		json_object_get(json_array_get(lim, 0), "value_us")));
	json_decref(root);

	mem = open_memstream(&buf, &len);
	assert_non_null(mem);
	assert_int_equal(rperf_run_report_text(mem, r), 0);
	fclose(mem);
	if (getenv("SHOW"))
		fputs(buf, stderr);
	assert_non_null(strstr(buf, "limit: a (h1 -> h4): RTT p99.9 is "));
	assert_non_null(strstr(buf, ", above max_p999 = "));
	assert_null(strstr(buf, "above max_p50"));
	free(buf);
	rperf_run_results_free(r);
	fx_job_free(job);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(merge_equals_whole, setup,
						teardown),
		cmocka_unit_test_setup_teardown(classes_hosts_total, setup,
						teardown),
		cmocka_unit_test(class_names_by_link),
		cmocka_unit_test(hostile_reports),
		cmocka_unit_test_setup_teardown(json_contract, setup, teardown),
		cmocka_unit_test_setup_teardown(text_table, setup, teardown),
		cmocka_unit_test_setup_teardown(json_file, setup, teardown),
		cmocka_unit_test(same_agent),
		cmocka_unit_test(write_not_counted),
		cmocka_unit_test_setup_teardown(placement, setup, teardown),
		cmocka_unit_test(honest_receiver_rate),
		cmocka_unit_test(rtt_limits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
