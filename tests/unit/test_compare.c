/* SPDX-License-Identifier: BSD-2-Clause */
/* rperf compare: loading reports, pairing series, differences and their
 * uncertainty, hostile files. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "compare/compare.h"

static char *write_tmp(const char *text)
{
	char *path = strdup("/tmp/rperf-cmp-XXXXXX");
	int fd = mkstemp(path);
	size_t n = strlen(text);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, n), (ssize_t)n);
	close(fd);
	return path;
}

#define LAT(ppm, rel, p50, p999, unrel)                                      \
	"{\"command\":\"lat\",\"clock\":{\"error_ppm\":" ppm                 \
	"},\"results\":[{\"method\":\"rperf\",\"size\":64,\"samples\":5000," \
	"\"figure\":\"rtt\",\"rtt_ns\":{\"count\":5000,\"rel_error\":" rel   \
	",\"min\":900,\"p50\":" p50 ",\"p99\":3000,\"p999\":" p999           \
	",\"p9999\":9000,\"max\":10000,\"percentiles\":{\"50\":" p50         \
	",\"99.9\":" p999 ",\"90\":2000},\"unreliable\":[" unrel "]}}]}"

static int load_text(const char *text, struct rperf_cmp_doc **d, char *err,
		     size_t errlen)
{
	char *p = write_tmp(text);
	int rc = rperf_cmp_load(p, d, err, errlen);

	unlink(p);
	free(p);
	return rc;
}

static const struct rperf_cmp_point *point(const struct rperf_cmp_series *s,
					   const char *key)
{
	for (size_t i = 0; i < s->npoints; i++)
		if (strcmp(s->points[i].key, key) == 0)
			return &s->points[i];
	return NULL;
}

static void test_lat_diff(void **state)
{
	struct rperf_cmp_doc *b, *r;
	struct rperf_cmp_result *res;
	const struct rperf_cmp_point *p;
	char err[256];

	(void)state;
	assert_int_equal(load_text(LAT("10", "0.01", "1000", "5000", ""), &b,
				   err, sizeof(err)),
			 0);
	assert_int_equal(load_text(LAT("0", "0.005", "1600", "5200", "99.9"),
				   &r, err, sizeof(err)),
			 0);
	assert_int_equal(rperf_cmp_compute(b, r, &res, err, sizeof(err)), 0);
	assert_int_equal(res->nseries, 1);
	assert_string_equal(res->series[0].base_name, "rperf 64 B");
	assert_int_equal(res->series[0].base_count, 5000);
	/* min, p50, p99, p99.9, p99.99, max, then p90 from the map */
	assert_int_equal(res->series[0].npoints, 7);
	p = point(&res->series[0], "p50");
	assert_non_null(p);
	assert_int_equal(p->diff, 600);
	/* 1000 * (0.01 + 10e-6) + 1600 * 0.005 */
	assert_true(p->uncertainty > 18.0 - 1e-9 &&
		    p->uncertainty < 18.01 + 1e-9);
	assert_false(p->unreliable);
	p = point(&res->series[0], "p99.9");
	assert_int_equal(p->diff, 200);
	assert_true(p->unreliable);
	p = point(&res->series[0], "min");
	assert_int_equal(p->diff, 0);
	/* exact: only the clock error, 900 * 10e-6 */
	assert_true(p->uncertainty > 0.0089 && p->uncertainty < 0.0091);
	assert_non_null(point(&res->series[0], "p90"));
	/* sorted: min, p50, p90, p99, p99.9, p99.99, max */
	assert_string_equal(res->series[0].points[0].key, "min");
	assert_string_equal(res->series[0].points[2].key, "p90");
	assert_string_equal(res->series[0].points[6].key, "max");
	/* 5000 samples cannot support p99.99 (needs 100000): flagged even
	 * though no report listed it */
	assert_true(point(&res->series[0], "p99.99")->unreliable);
	assert_false(point(&res->series[0], "p99")->unreliable);
	rperf_cmp_result_free(res);
	rperf_cmp_doc_free(b);
	rperf_cmp_doc_free(r);
}

static const char run_doc[] =
	"{\"command\":\"run\",\"hosts\":[{\"name\":\"h2\",\"clock\":{\"error_ppm\":2}},"
	"{\"name\":\"h3\",\"clock\":null}],"
	"\"generators\":[{\"name\":\"probe\",\"id\":0,\"kind\":\"lsg\",\"host\":\"h2\","
	"\"samples\":100,\"rtt_ns\":{\"min\":1,\"p50\":2100,\"p99\":3,\"p999\":4,\"p9999\":5,\"max\":6}},"
	"{\"name\":\"bulk\",\"id\":0,\"kind\":\"bsg\",\"host\":\"h3\",\"gbps\":1.5}],"
	"\"classes\":[{\"name\":\"lo\",\"rtt_ns\":null}],"
	"\"total\":{\"rtt_ns\":{\"min\":1,\"p50\":2100,\"p99\":3,\"p999\":4,\"p9999\":5,\"max\":6}}}";

static void test_run_vs_lat(void **state)
{
	struct rperf_cmp_doc *b, *r;
	struct rperf_cmp_result *res;
	char err[256];
	json_t *j;

	(void)state;
	assert_int_equal(load_text(LAT("10", "0.01", "1000", "5000", ""), &b,
				   err, sizeof(err)),
			 0);
	assert_int_equal(load_text(run_doc, &r, err, sizeof(err)), 0);
	assert_int_equal(rperf_cmp_compute(b, r, &res, err, sizeof(err)), 0);
	assert_int_equal(res->nseries, 1);
	assert_string_equal(res->series[0].run_name, "lsg probe#0");
	assert_int_equal(point(&res->series[0], "p50")->diff, 1100);
	/* the only LSG was paired: said in a note; run stats have no
	 * rel_error: the default assumed, said too */
	assert_true(res->nnotes >= 3);
	j = rperf_cmp_json(res);
	assert_non_null(j);
	assert_string_equal(json_string_value(json_object_get(j, "command")),
			    "compare");
	assert_int_equal(json_array_size(json_object_get(j, "series")), 1);
	json_decref(j);
	rperf_cmp_result_free(res);
	/* run vs run: every series matches by name (lsg, total) */
	assert_int_equal(rperf_cmp_compute(r, r, &res, err, sizeof(err)), 0);
	assert_int_equal(res->nseries, 2);
	assert_int_equal(point(&res->series[0], "p50")->diff, 0);
	rperf_cmp_result_free(res);
	rperf_cmp_doc_free(b);
	rperf_cmp_doc_free(r);
}

static void test_refusals(void **state)
{
	struct rperf_cmp_doc *b, *r;
	struct rperf_cmp_result *res;
	char err[256], *half;
	static const char *bad[] = {
		"not json",
		"[]",
		"{\"command\":\"bw\",\"results\":[]}",
		"{\"command\":\"lat\"}",
		"{\"command\":\"lat\",\"results\":[]}",
		"{\"command\":\"lat\",\"results\":[{\"method\":\"rperf\",\"size\":64,\"figure\":\"rtt\",\"rtt_ns\":{\"min\":\"x\"}}]}",
		"{\"command\":\"lat\",\"results\":[{\"method\":\"rperf\",\"size\":64,\"figure\":\"rtt\",\"rtt_ns\":{\"min\":1,\"p50\":1,\"p99\":1,\"p999\":1,\"p9999\":1,\"max\":1,\"rel_error\":7}}]}",
		"{\"command\":\"lat\",\"results\":[{\"method\":\"rperf\",\"size\":64,\"figure\":\"rtt\",\"rtt_ns\":{\"min\":1,\"p50\":1,\"p99\":1,\"p999\":1,\"p9999\":1,\"max\":1,\"percentiles\":{\"abc\":1}}}]}",
		"{\"command\":\"run\",\"generators\":[{\"name\":\"x\"}]}",
		"{\"command\":\"lat\",\"command\":\"lat\"}",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		assert_int_equal(load_text(bad[i], &b, err, sizeof(err)),
				 EBADMSG);
		assert_non_null(strstr(err, "/tmp/rperf-cmp-"));
	}
	assert_int_equal(rperf_cmp_load("/nonexistent/x.json", &b, err,
					sizeof(err)),
			 ENOENT);
	assert_non_null(strstr(err, "/nonexistent/x.json"));
	/* RTT vs RTT/2: refused */
	assert_int_equal(load_text(LAT("0", "0.01", "1000", "5000", ""), &b,
				   err, sizeof(err)),
			 0);
	half = strdup(LAT("0", "0.01", "1000", "5000", ""));
	memcpy(strstr(half, "\"rtt\""), "\"hlf\"", 5);
	assert_int_equal(load_text(half, &r, err, sizeof(err)), 0);
	assert_int_equal(rperf_cmp_compute(b, r, &res, err, sizeof(err)),
			 EINVAL);
	assert_non_null(strstr(err, "like with like"));
	free(half);
	rperf_cmp_doc_free(r);
	rperf_cmp_doc_free(b);
}

static void test_text(void **state)
{
	struct rperf_cmp_doc *b;
	struct rperf_cmp_result *res;
	char err[256], *buf = NULL, *line;
	size_t len = 0;
	double v[4];
	FILE *f;

	(void)state;
	assert_int_equal(load_text(LAT("0", "0.01", "1000", "5000", ""), &b,
				   err, sizeof(err)),
			 0);
	assert_int_equal(rperf_cmp_compute(b, b, &res, err, sizeof(err)), 0);
	f = open_memstream(&buf, &len);
	assert_int_equal(rperf_cmp_text(f, res), 0);
	fclose(f);
	assert_non_null(strstr(buf, "RTT (round trip), microseconds"));
	assert_non_null(strstr(buf, "diff[usec]"));
	line = strstr(buf, "  p50 ");
	assert_non_null(line);
	assert_int_equal(sscanf(line, " p50 %lf %lf %lf %lf", &v[0], &v[1],
				&v[2], &v[3]),
			 4);
	assert_true(v[0] == 1.0 && v[1] == 1.0 && v[2] == 0.0);
	assert_true(v[3] > 0.019 && v[3] < 0.021); /* 2 x 1000 ns x 1 % */
	free(buf);
	rperf_cmp_result_free(res);
	rperf_cmp_doc_free(b);
}

/* A percentile <= 0 (Equation 1 may give one) marks its difference. */
static void test_nonpositive(void **state)
{
	struct rperf_cmp_doc *b, *r;
	struct rperf_cmp_result *res;
	char err[256], *buf = NULL;
	size_t len = 0;
	FILE *f;
	json_t *j, *pt;

	(void)state;
	assert_int_equal(load_text(LAT("0", "0.01", "1300", "5000", ""), &b,
				   err, sizeof(err)),
			 0);
	assert_int_equal(load_text(LAT("0", "0.01", "-1235", "5000", "99.9"),
				   &r, err, sizeof(err)),
			 0);
	assert_int_equal(rperf_cmp_compute(b, r, &res, err, sizeof(err)), 0);
	assert_true(point(&res->series[0], "p50")->nonpositive);
	assert_int_equal(point(&res->series[0], "p50")->diff, -2535);
	assert_false(point(&res->series[0], "p99")->nonpositive);
	f = open_memstream(&buf, &len);
	assert_int_equal(rperf_cmp_text(f, res), 0);
	fclose(f);
	assert_non_null(strstr(buf, "-2.535"));
	assert_non_null(strstr(strstr(buf, "  p50 "), " !\n"));
	assert_non_null(strstr(strstr(buf, "  p99.9 "), " *\n"));
	assert_null(strstr(strstr(buf, "  p99 "), "!\n  p99.9"));
	assert_non_null(
		strstr(buf, "note: points marked ! have a percentile <= 0"));
	j = rperf_cmp_json(res);
	pt = json_array_get(
		json_object_get(json_array_get(json_object_get(j, "series"), 0),
				"points"),
		1);
	assert_string_equal(
		json_string_value(json_object_get(pt, "percentile")), "p50");
	assert_true(json_is_true(json_object_get(pt, "nonpositive")));
	json_decref(j);
	free(buf);
	rperf_cmp_result_free(res);
	/* nothing <= 0: no mark, no note */
	assert_int_equal(rperf_cmp_compute(b, b, &res, err, sizeof(err)), 0);
	for (size_t i = 0; i < res->series[0].npoints; i++)
		assert_false(res->series[0].points[i].nonpositive);
	for (size_t i = 0; i < res->nnotes; i++)
		assert_null(strstr(res->notes[i], "marked !"));
	rperf_cmp_result_free(res);
	rperf_cmp_doc_free(b);
	rperf_cmp_doc_free(r);
}

/* SWEEP.json#VALUE: one point of a sweep report, no jq. */
static void test_sweep_point(void **state)
{
	struct rperf_cmp_doc *b, *r;
	struct rperf_cmp_result *res;
	char err[512], arg[300], *p;
	static const char head[] =
		"{\"command\":\"run\",\"sweep\":{\"key\":\"bsg.load.count\"},"
		"\"sweeps\":[{\"key\":\"bsg.load.count\"}],\"points\":["
		"{\"index\":0,\"value\":\"1K, 2\",\"status\":\"ok\",\"report\":";
	char *doc = malloc(sizeof(head) + sizeof(run_doc) + 128);

	(void)state;
	sprintf(doc,
		"%s%s},{\"index\":1,\"value\":\"3\",\"status\":\"failed\",\"report\":null}]}",
		head, run_doc);
	p = write_tmp(doc);
	assert_int_equal(load_text(LAT("10", "0.01", "1000", "5000", ""), &b,
				   err, sizeof(err)),
			 0);
	snprintf(arg, sizeof(arg), "%s#1K, 2", p);
	assert_int_equal(rperf_cmp_load(arg, &r, err, sizeof(err)), 0);
	assert_int_equal(rperf_cmp_compute(b, r, &res, err, sizeof(err)), 0);
	assert_string_equal(res->series[0].run_name, "lsg probe#0");
	assert_int_equal(point(&res->series[0], "p50")->diff, 1100);
	assert_string_equal(res->run_path, arg);
	rperf_cmp_result_free(res);
	rperf_cmp_doc_free(r);
	/* the sweep itself: refused, naming the values */
	assert_int_equal(rperf_cmp_load(p, &r, err, sizeof(err)), EBADMSG);
	assert_non_null(strstr(err, "#VALUE, VALUE one of \"1K, 2\", \"3\""));
	/* a point without a report, a value not in it */
	snprintf(arg, sizeof(arg), "%s#3", p);
	assert_int_equal(rperf_cmp_load(arg, &r, err, sizeof(err)), EBADMSG);
	assert_non_null(strstr(err, "no report (status failed)"));
	snprintf(arg, sizeof(arg), "%s#7", p);
	assert_int_equal(rperf_cmp_load(arg, &r, err, sizeof(err)), EBADMSG);
	assert_non_null(strstr(err, "no point with value \"7\""));
	unlink(p);
	free(p);
	/* #VALUE on a report that is not a sweep */
	p = write_tmp(run_doc);
	snprintf(arg, sizeof(arg), "%s#1", p);
	assert_int_equal(rperf_cmp_load(arg, &r, err, sizeof(err)), EBADMSG);
	assert_non_null(strstr(err, "not a sweep report"));
	/* a file whose name has a '#' is that file */
	snprintf(arg, sizeof(arg), "%s#x", p);
	assert_int_equal(rename(p, arg), 0);
	assert_int_equal(rperf_cmp_load(arg, &r, err, sizeof(err)), 0);
	rperf_cmp_doc_free(r);
	unlink(arg);
	free(p);
	free(doc);
	rperf_cmp_doc_free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lat_diff),
		cmocka_unit_test(test_run_vs_lat),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_nonpositive),
		cmocka_unit_test(test_sweep_point),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
