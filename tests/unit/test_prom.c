/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * --prom (src/report/report_prom.c, src/run/run_prom.c): the Prometheus
 * text of a run and of rperf lat, read back and compared with the JSON
 * document of the same results; atomic write; NaN for nothing measured;
 * label escaping.
 */
#include <dirent.h>
#include <math.h>
#include <unistd.h>

#include "report/report_prom.h"
#include "run_fixture.h"

/* The value of the first sample line starting with @name{ that holds every
 * one of @want (label fragments, NULL-terminated); NAN if none, and the
 * test fails. */
static double prom_value(const char *text, const char *name, ...)
{
	size_t nlen = strlen(name);

	for (const char *l = text; l && *l;
	     l = strchr(l, '\n'), l = l ? l + 1 : l) {
		const char *end = strchr(l, '\n');
		char line[2048];
		size_t len = end ? (size_t)(end - l) : strlen(l);
		const char *frag;
		bool all = true;
		va_list ap;

		if (len >= sizeof(line) || strncmp(l, name, nlen) ||
		    l[nlen] != '{')
			continue;
		memcpy(line, l, len);
		line[len] = '\0';
		va_start(ap, name);
		while ((frag = va_arg(ap, const char *)))
			all &= strstr(line, frag) != NULL;
		va_end(ap);
		if (all)
			return strtod(strrchr(line, ' ') + 1, NULL);
	}
	fprintf(stderr, "%s\n", text);
	fail_msg("no sample %s with the labels asked for", name);
	return NAN;
}

/* cmocka 1.1 has no assert_double_equal */
static void near(double got, double want, double eps, int line)
{
	if (!(fabs(got - want) <= eps))
		fail_msg("line %d: got %.12g, want %.12g (+- %g)", line, got,
			 want, eps);
}
#define assert_double_equal(a, b, eps) near((a), (b), (eps), __LINE__)

static char *render(const json_t *doc)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	assert_non_null(m);
	assert_int_equal(rperf_prom_from_json(m, doc), 0);
	assert_int_equal(fclose(m), 0);
	return buf;
}

struct fx {
	struct rperf_job *job;
	struct rperf_run_results *r;
};

static void run_results(struct fx *f)
{
	struct rperf_proto_report rep;

	f->job = fx_job(4);
	fx_inst(f->job, RPERF_GEN_LSG, "a", "h1", "h4", 1, 0);
	fx_inst(f->job, RPERF_GEN_LSG, "b", "h2", "h4", 3, 0);
	fx_inst(f->job, RPERF_GEN_BSG, "bulk", "h3", "h4", 0, 0);
	assert_int_equal(rperf_run_results_create(f->job, &f->r), 0);
	fx_report(&rep, "h1", 1);
	fx_lsg(&rep, 0, fx_hist(1000, 3, 5000));
	fx_add(f->r, &rep);
	fx_report(&rep, "h2", 1);
	fx_lsg(&rep, 1, fx_hist(20000, 7, 3000));
	fx_add(f->r, &rep);
	fx_report(&rep, "h3", 1);
	fx_counts(&rep, 2, RPERF_ROLE_SOURCE, RPERF_GEN_BSG, 2500000000ull,
		  2.0);
	fx_add(f->r, &rep);
	fx_report(&rep, "h4", 3);
	fx_counts(&rep, 0, RPERF_ROLE_SINK, RPERF_GEN_LSG, 64 * 5000, 0.2);
	fx_counts(&rep, 1, RPERF_ROLE_SINK, RPERF_GEN_LSG, 64 * 3000, 0.2);
	fx_counts(&rep, 2, RPERF_ROLE_SINK, RPERF_GEN_BSG, 1250000000ull, 1.0);
	fx_add(f->r, &rep);
	assert_int_equal(rperf_run_results_finish(f->r), 0);
}

static void fx_fini(struct fx *f)
{
	rperf_run_results_free(f->r);
	fx_job_free(f->job);
}

static double jnum(const json_t *o, const char *path1, const char *path2)
{
	const json_t *v = json_object_get(o, path1);

	if (path2)
		v = json_object_get(v, path2);
	assert_true(json_is_number(v));
	return json_number_value(v);
}

static void test_run_matches_json(void **state)
{
	struct fx f;
	json_t *doc = NULL, *gens;
	char *text;

	(void)state;
	run_results(&f);
	assert_int_equal(rperf_run_report_json(f.r, &doc), 0);
	gens = json_object_get(doc, "generators");
	text = render(doc);
	/* LSG "b" (h2 -> h4, SL 3): quantiles in seconds = the JSON's ns */
	assert_double_equal(
		prom_value(text, "rperf_run_rtt_seconds", "generator=\"b\"",
			   "quantile=\"0.99\"", "host=\"h2\"", "peer=\"h4\"",
			   "rperf_job=\"test.ini\"", NULL),
		jnum(json_array_get(gens, 1), "rtt_ns", "p99") / 1e9, 1e-15);
	assert_double_equal(prom_value(text, "rperf_run_rtt_seconds_count",
				       "generator=\"a\"", NULL),
			    jnum(json_array_get(gens, 0), "rtt_ns", "count"),
			    0);
	assert_double_equal(
		prom_value(text, "rperf_run_rtt_max_seconds", "generator=\"a\"",
			   NULL),
		jnum(json_array_get(gens, 0), "rtt_ns", "max") / 1e9, 1e-15);
	/* the BSG's Gb/s, sent and received */
	assert_double_equal(prom_value(text, "rperf_run_bsg_sent_gbps",
				       "generator=\"bulk\"", NULL),
			    jnum(json_array_get(gens, 2), "gbps", NULL), 1e-9);
	assert_double_equal(
		prom_value(text, "rperf_run_bsg_received_gbps",
			   "generator=\"bulk\"", NULL),
		jnum(json_array_get(gens, 2), "receiver_gbps", NULL), 1e-9);
	/* per class: the SL 3 class holds LSG b only */
	assert_double_equal(
		prom_value(text, "rperf_run_class_rtt_seconds", "class=\"SL 3 ",
			   "quantile=\"0.5\"", NULL),
		jnum(json_array_get(gens, 1), "rtt_ns", "p50") / 1e9, 1e-15);
	assert_double_equal(prom_value(text, "rperf_run_generator_ok",
				       "generator=\"bulk\"", NULL),
			    1, 0);
	assert_double_equal(prom_value(text, "rperf_run_failed_hosts", NULL), 0,
			    0);
	/* every family once, HELP then TYPE */
	assert_non_null(strstr(text, "# TYPE rperf_run_rtt_seconds summary\n"));
	assert_null(strstr(strstr(text, "# TYPE rperf_run_rtt_seconds ") + 1,
			   "# TYPE rperf_run_rtt_seconds "));
	free(text);
	json_decref(doc);
	fx_fini(&f);
}

/* Nothing measured (a missing source): NaN quantiles and the instance not
 * ok, never a 0 s RTT. */
static void test_run_nothing_measured(void **state)
{
	struct rperf_proto_report rep;
	struct fx f;
	json_t *doc = NULL;
	char *text;

	(void)state;
	f.job = fx_job(2);
	fx_inst(f.job, RPERF_GEN_LSG, "a", "h1", "h2", 0, 0);
	assert_int_equal(rperf_run_results_create(f.job, &f.r), 0);
	fx_report(&rep, "h2", 1);
	fx_counts(&rep, 0, RPERF_ROLE_SINK, RPERF_GEN_LSG, 0, 0.2);
	fx_add(f.r, &rep);
	rperf_run_results_host_failed(f.r, "h1", "test: gone");
	assert_int_equal(rperf_run_results_finish(f.r), 0);
	assert_int_equal(rperf_run_report_json(f.r, &doc), 0);
	text = render(doc);
	assert_true(isnan(prom_value(text, "rperf_run_class_rtt_seconds",
				     "quantile=\"0.5\"", NULL)));
	assert_double_equal(prom_value(text, "rperf_run_generator_ok",
				       "generator=\"a\"", NULL),
			    0, 0);
	assert_double_equal(prom_value(text, "rperf_run_failed_hosts", NULL), 1,
			    0);
	assert_double_equal(prom_value(text, "rperf_run_host_failed",
				       "host=\"h1\"", NULL),
			    1, 0);
	free(text);
	json_decref(doc);
	fx_fini(&f);
}

/* Written atomically: the file, and no temporary file left beside it. */
static void test_run_write_atomic(void **state)
{
	char dir[] = "/tmp/rperf-prom-XXXXXX", path[64], *text;
	struct fx f;
	struct dirent *e;
	size_t nfiles = 0;
	FILE *in;
	DIR *d;
	long len;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/rperf.prom", dir);
	run_results(&f);
	assert_int_equal(rperf_run_write_prom(path, f.r), 0);
	assert_int_equal(rperf_run_write_prom(path, f.r), 0); /* over it */
	d = opendir(dir);
	assert_non_null(d);
	while ((e = readdir(d)))
		nfiles += e->d_name[0] != '.';
	closedir(d);
	assert_int_equal(nfiles, 1);
	in = fopen(path, "r");
	assert_non_null(in);
	fseek(in, 0, SEEK_END);
	len = ftell(in);
	rewind(in);
	text = calloc(1, (size_t)len + 1);
	assert_int_equal(fread(text, 1, (size_t)len, in), (size_t)len);
	fclose(in);
	assert_true(prom_value(text, "rperf_run_lsg_samples", "generator=\"a\"",
			       NULL) == 5000);
	free(text);
	unlink(path);
	rmdir(dir);
	fx_fini(&f);
}

static void test_label_escaping(void **state)
{
	json_t *doc = json_pack("{s:s, s:s, s:[], s:[], s:[]}", "command",
				"run", "job", "/x/we\"ird\\job\n.ini",
				"generators", "classes", "hosts");
	char *text;

	(void)state;
	assert_non_null(doc);
	text = render(doc);
	assert_non_null(strstr(text, "rperf_job=\"we\\\"ird\\\\job\\n.ini\""));
	free(text);
	json_decref(doc);
	doc = json_pack("{s:s}", "command", "compare");
	{
		FILE *m = fopen("/dev/null", "w");

		assert_int_equal(rperf_prom_from_json(m, doc), EINVAL);
		fclose(m);
	}
	json_decref(doc);
}

/* rperf lat: the report's JSON and the Prometheus text of one result. */
static void test_lat_matches_json(void **state)
{
	char dir[] = "/tmp/rperf-prom-XXXXXX", path[64];
	struct rperf_hist *h = fx_hist(1500, 11, 4000);
	struct rperf_lat_result l = { .method = "rperf",
				      .size = 64,
				      .samples = 4000,
				      .seconds = 1.0,
				      .rtt = h };
	struct rperf_kv kv = { .key = "host",
			       .type = RPERF_KV_STR,
			       .v.s = "server1" };
	struct rperf_report rep = { .command = "lat",
				    .config = &kv,
				    .nconfig = 1,
				    .lat = &l,
				    .nlat = 1 };
	json_t *doc;
	char *text;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/lat.prom", dir);
	assert_int_equal(rperf_prom_write_report(path, &rep), 0);
	doc = json_load_file(path, 0, NULL); /* not JSON: must fail */
	assert_null(doc);
	{
		FILE *in = fopen(path, "r");
		char buf[16384];
		size_t n;

		assert_non_null(in);
		n = fread(buf, 1, sizeof(buf) - 1, in);
		buf[n] = '\0';
		fclose(in);
		text = strdup(buf);
	}
	assert_double_equal(prom_value(text, "rperf_lat_rtt_seconds",
				       "quantile=\"0.999\"", "peer=\"server1\"",
				       "method=\"rperf\"", "size=\"64\"", NULL),
			    (double)rperf_hist_percentile(h, 99.9) / 1e9,
			    1e-15);
	assert_double_equal(prom_value(text, "rperf_lat_samples", NULL), 4000,
			    0);
	free(text);
	unlink(path);
	rmdir(dir);
	rperf_hist_destroy(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_run_matches_json),
		cmocka_unit_test(test_run_nothing_measured),
		cmocka_unit_test(test_run_write_atomic),
		cmocka_unit_test(test_label_escaping),
		cmocka_unit_test(test_lat_matches_json),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
