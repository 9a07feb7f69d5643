/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Counters as time series: readings of a scripted sysfs tree,
 * per-interval deltas (reset, missing, gauge), the hook's line format, its
 * deadline, Spearman's rho on known answers, and the REPORT's "counters"
 * object round trip and hostile copies.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "counters/counters.h"
#include "counters/counters_hook.h"
#include "counters/counters_json.h"

static struct rperf_ctr_reading *rd_new(void)
{
	struct rperf_ctr_reading *r = calloc(1, sizeof(*r));

	assert_non_null(r);
	return r;
}

static const struct rperf_ctr_value *find(const struct rperf_ctr_reading *r,
					  const char *name)
{
	for (size_t i = 0; i < r->n; i++)
		if (!strcmp(r->e[i].name, name))
			return &r->e[i];
	return NULL;
}

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* A scripted /sys/class/infiniband: rxe-like hw_counters, port counters,
 * a file that is no counter, and an InfiniBand port without a netdev. */
static void sysfs_tree(void **state)
{
	char root[] = "/tmp/rperf-ctr-XXXXXX", p[512], err[160];
	struct rperf_ctr_reading *r = rd_new();
	const struct rperf_ctr_value *v;

	(void)state;
	assert_non_null(mkdtemp(root));
	snprintf(p, sizeof(p), "%s/rxe0", root);
	assert_int_equal(mkdir(p, 0700), 0);
	snprintf(p, sizeof(p), "%s/rxe0/ports", root);
	assert_int_equal(mkdir(p, 0700), 0);
	snprintf(p, sizeof(p), "%s/rxe0/ports/1", root);
	assert_int_equal(mkdir(p, 0700), 0);
	snprintf(p, sizeof(p), "%s/rxe0/ports/1/hw_counters", root);
	assert_int_equal(mkdir(p, 0700), 0);
	snprintf(p, sizeof(p), "%s/rxe0/ports/1/counters", root);
	assert_int_equal(mkdir(p, 0700), 0);
	snprintf(p, sizeof(p), "%s/rxe0/ports/1/hw_counters/rcvd_seq_err",
		 root);
	put(p, "7\n");
	snprintf(p, sizeof(p), "%s/rxe0/ports/1/hw_counters/lifespan", root);
	put(p, "10\n");
	snprintf(p, sizeof(p), "%s/rxe0/ports/1/counters/port_xmit_wait", root);
	put(p, "18446744073709551615\n");
	snprintf(p, sizeof(p), "%s/rxe0/ports/1/counters/notes", root);
	put(p, "not a number\n");
	assert_int_equal(rperf_ctr_read_host(root, NULL, r, err, sizeof(err)),
			 0);
	assert_int_equal(r->n, 3);
	v = find(r, "rxe0/1/rcvd_seq_err");
	assert_non_null(v);
	assert_int_equal(v->v, 7);
	v = find(r, "rxe0/1/port_xmit_wait");
	assert_non_null(v);
	assert_true(v->v == UINT64_MAX);
	assert_null(find(r, "rxe0/1/notes"));
	r->n = 0; /* the device named only */
	assert_int_equal(rperf_ctr_read_host(root, "rxe0", r, err, sizeof(err)),
			 0);
	assert_int_equal(r->n, 3);
	assert_int_equal(rperf_ctr_read_host(root, "mlx5_0", r, err,
					     sizeof(err)),
			 ENOENT);
	assert_non_null(strstr(err, "no RDMA device mlx5_0"));
	snprintf(p, sizeof(p), "rm -rf %s", root);
	assert_int_equal(system(p), 0);
	r->n = 0;
	assert_int_equal(rperf_ctr_read_host(root, NULL, r, err, sizeof(err)),
			 ENOENT);
	assert_non_null(strstr(err, "no RDMA device"));
	free(r);
}

static void series_deltas(void **state)
{
	struct rperf_ctr_reading *r = rd_new();
	struct rperf_ctr_series s = { 0 };

	(void)state;
	/* a failed first reading fixes no columns */
	assert_int_equal(rperf_ctr_series_sample(&s, 0, NULL), 0);
	assert_false(s.primed);
	assert_int_equal(rperf_ctr_add(r, "a", 100, false), 0);
	assert_int_equal(rperf_ctr_add(r, "q", 5, true), 0);
	assert_int_equal(rperf_ctr_series_sample(&s, 0, r), 0);
	assert_int_equal(s.ncols, 2);
	assert_int_equal(s.nrows, 0);
	r->e[0].v = 130;
	r->e[1].v = 9;
	assert_int_equal(rperf_ctr_series_sample(&s, 500, r), 0);
	r->e[0].v = 4; /* reset: counts from 0 */
	assert_int_equal(rperf_ctr_series_sample(&s, 1000, r), 0);
	assert_int_equal(rperf_ctr_series_sample(&s, 1500, NULL), 0);
	r->e[0].v = 10;
	assert_int_equal(rperf_ctr_series_sample(&s, 2000, r), 0);
	assert_int_equal(s.nrows, 4);
	assert_int_equal(s.v[0], 30);
	assert_int_equal(s.v[1], 9); /* a gauge: its reading */
	assert_int_equal(s.start_ns[1], 500);
	assert_int_equal(s.dur_ns[1], 500);
	assert_int_equal(s.v[2], 4);
	assert_true(s.v[4] == RPERF_CTR_MISSING); /* the failed reading */
	assert_true(s.v[6] == RPERF_CTR_MISSING); /* no previous value */
	assert_int_equal(s.v[7], 9); /* a gauge needs none */
	/* the gauge's reading nearest the middle of [900, 1400): at 1000 */
	assert_int_equal(rperf_ctr_series_gauge_at(&s, 900, 500), 1);
	assert_int_equal(rperf_ctr_series_gauge_at(&s, 5000, 500), -1);
	assert_int_equal(rperf_ctr_series_row_at(&s, 1100, 500), 2);
	assert_int_equal(rperf_ctr_series_row_at(&s, 9000, 500), -1);
	rperf_ctr_series_fini(&s);
	free(r);
}

static void lines(void **state)
{
	struct rperf_ctr_reading *r = rd_new();
	char err[200];

	(void)state;
	assert_int_equal(
		rperf_ctr_parse_lines("# tc\nh1-sw.backlog 1500 gauge\n"
				      "\nh1-sw.drops 3\r\n",
				      "sw:", r, err, sizeof(err)),
		0);
	assert_int_equal(r->n, 2);
	assert_string_equal(r->e[0].name, "sw:h1-sw.backlog");
	assert_true(r->e[0].gauge);
	assert_int_equal(r->e[1].v, 3);
	assert_false(r->e[1].gauge);
	assert_int_equal(rperf_ctr_parse_lines("a 1\nb -2\n", "", r, err,
					       sizeof(err)),
			 EINVAL);
	assert_int_equal(r->n, 2); /* nothing of a bad text kept */
	assert_non_null(strstr(err, "line 2"));
	assert_int_equal(rperf_ctr_parse_lines("a 1 rate\n", "", r, err,
					       sizeof(err)),
			 EINVAL);
	assert_int_equal(rperf_ctr_parse_lines("a\n", "", r, err, sizeof(err)),
			 EINVAL);
	assert_int_equal(rperf_ctr_parse_lines("a 99999999999999999999\n", "",
					       r, err, sizeof(err)),
			 EINVAL);
	free(r);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void hook(void **state)
{
	struct rperf_ctr_reading *r = rd_new();
	char why[200];
	double t;

	(void)state;
	assert_int_equal(rperf_ctr_hook_run("printf 'x 1\\ny 2 gauge\\n'", "s:",
					    1000000000ull, r, why, sizeof(why)),
			 0);
	assert_int_equal(r->n, 2);
	assert_string_equal(r->e[1].name, "s:y");
	r->n = 0;
	assert_int_equal(rperf_ctr_hook_run("echo x 1; exit 3", "",
					    1000000000ull, r, why, sizeof(why)),
			 EIO);
	assert_non_null(strstr(why, "status 3"));
	assert_int_equal(rperf_ctr_hook_run("echo x one", "", 1000000000ull, r,
					    why, sizeof(why)),
			 EBADMSG);
	assert_int_equal(r->n, 0);
	/* hangs, with a child that keeps the pipe open: cut at 0.3 s */
	t = now_s();
	assert_int_equal(rperf_ctr_hook_run("echo x 1; sleep 30 & sleep 30", "",
					    300000000ull, r, why, sizeof(why)),
			 ETIMEDOUT);
	t = now_s() - t;
	assert_true(t >= 0.29 && t < 5.0);
	assert_non_null(strstr(why, "cut at its deadline (0.300 s)"));
	free(r);
}

static void spearman(void **state)
{
	const double x[] = { 1, 2, 3, 4, 5, 6 },
		     up[] = { 10, 20, 25, 40, 41, 90 },
		     down[] = { 6, 5, 4, 3, 2, 1 },
		     flat[] = { 3, 3, 3, 3, 3, 3 },
		     /* ties: ranks 1.5 1.5 3 4 5.5 5.5 */
		tie[] = { 1, 1, 2, 3, 4, 4 }, y[] = { 10, 9, 30, 50, 40, 60 };
	double rho;

	(void)state;
	assert_true(fabs(rperf_ctr_spearman(x, up, 6) - 1.0) < 1e-12);
	assert_true(fabs(rperf_ctr_spearman(x, down, 6) + 1.0) < 1e-12);
	assert_true(isnan(rperf_ctr_spearman(x, flat, 6)));
	assert_true(isnan(rperf_ctr_spearman(x, up, 2)));
	/* by hand: ranks of y 2 1 3 5 4 6; Pearson of the ranks: 15 /
	 * sqrt(16.5 * 17.5) */
	rho = rperf_ctr_spearman(tie, y, 6);
	assert_true(fabs(rho - 0.88273) < 1e-4);
}

static json_t *round_trip(const struct rperf_ctr_series *s)
{
	json_t *o = NULL;

	assert_int_equal(rperf_ctr_series_encode(s, &o), 0);
	return o;
}

static void wire(void **state)
{
	struct rperf_ctr_reading *r = rd_new();
	struct rperf_ctr_series s = { 0 }, d;
	char why[200], *txt;
	json_t *o, *bad;

	(void)state;
	rperf_ctr_add(r, "rxe0/1/rcvd_seq_err", 1, false);
	rperf_ctr_add(r, "sw:q", 1, true);
	rperf_ctr_series_sample(&s, 0, r);
	r->e[0].v = 5;
	rperf_ctr_series_sample(&s, 100, r);
	rperf_ctr_series_sample(&s, 200, NULL);
	o = round_trip(&s);
	assert_int_equal(rperf_ctr_series_decode(o, &d, why, sizeof(why)), 0);
	assert_int_equal(d.ncols, 2);
	assert_int_equal(d.nrows, 2);
	assert_true(d.gauge[1]);
	assert_int_equal(d.v[0], 4);
	assert_true(d.v[2] == RPERF_CTR_MISSING);
	rperf_ctr_series_fini(&d);
	/* hostile copies: a short row, a negative value, a bad gauge, names */
	txt = json_dumps(o, JSON_COMPACT);
	json_decref(o);
	{
		static const char *const bads[] = {
			"{\"names\":[\"a\"],\"gauges\":[],\"rows\":[[0,1]]}",
			"{\"names\":[\"a\"],\"gauges\":[],\"rows\":[[0,1,-3]]}",
			"{\"names\":[\"a\"],\"gauges\":[1],\"rows\":[]}",
			"{\"names\":[\"\"],\"gauges\":[],\"rows\":[]}",
			"{\"names\":[7],\"gauges\":[],\"rows\":[]}",
			"{\"names\":[\"a\"],\"gauges\":[],\"rows\":[[0,1,2]],\"dropped\":-1}",
			"{\"names\":[\"a\"],\"rows\":[]}",
			"[]",
		};
		for (size_t i = 0; i < sizeof(bads) / sizeof(bads[0]); i++) {
			bad = json_loads(bads[i], 0, NULL);
			assert_non_null(bad);
			assert_int_equal(rperf_ctr_series_decode(bad, &d, why,
								 sizeof(why)),
					 EBADMSG);
			assert_int_equal(d.ncols, 0);
			json_decref(bad);
		}
	}
	free(txt);
	rperf_ctr_series_fini(&s);
	free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sysfs_tree), cmocka_unit_test(series_deltas),
		cmocka_unit_test(lines),      cmocka_unit_test(hook),
		cmocka_unit_test(spearman),   cmocka_unit_test(wire),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
