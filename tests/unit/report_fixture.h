// SPDX-License-Identifier: BSD-2-Clause
/*
 * Shared fixture and helpers of the report-module unit tests
 * (test_report_json.c, test_report_info.c, test_report_text.c): a report
 * built from real histograms, renderers run into memory, and jansson
 * accessors that fail the test on a missing or mistyped key.
 *
 * Every function is static inline so that a test program which does not
 * use one of them does not trip -Wunused-function under -Werror.
 */
#ifndef RPERF_TESTS_UNIT_REPORT_FIXTURE_H
#define RPERF_TESTS_UNIT_REPORT_FIXTURE_H

#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include <rperf/report.h>

/* ---- fixture ----------------------------------------------------------- */

static const uint64_t sizes_u[] = { 64, 4096 };
static const double pcts_d[] = { 50, 99.9 };
static const char *const warns[] = { "first warning", "second warning" };

struct fixture {
	struct rperf_hist *rtt, *wire, *loop, *rtt2;
	struct rperf_clock clk;
	struct rperf_clock_selftest st;
	struct rperf_platform plat;
	struct rperf_kv kv[9];
	struct rperf_lat_result lat[2];
	struct rperf_report r;
};

static inline void fill_clock(struct rperf_clock *c,
			      struct rperf_clock_selftest *st)
{
	memset(c, 0, sizeof(*c));
	c->source = RPERF_CLOCK_TSC;
	c->trusted = true;
	c->forced = false;
	c->hz = 2400000000.0;
	c->ns_per_tick = 1e9 / c->hz;
	snprintf(c->method, sizeof(c->method),
		 "calibrated:CLOCK_MONOTONIC_RAW");
	c->error_ppm = 0.75;
	c->cpuid15_hz = 0;
	c->cross_check_ppm = 0;
	c->platform.invariant_tsc = true;
	c->platform.hypervisor = true;
	snprintf(c->platform.clocksource, sizeof(c->platform.clocksource),
		 "tsc");
	snprintf(c->reason, sizeof(c->reason),
		 "invariant TSC, clocksource tsc");
	memset(st, 0, sizeof(*st));
	st->overhead_ns_min = 18.5;
	st->overhead_ns_median = 21.25;
	st->resolution_ns = 0.5;
	st->max_gap_ns = 1234.0;
	st->spin_ms = 100;
	st->reads = 123456;
}

static inline void fill_platform(struct rperf_platform *p)
{
	memset(p, 0, sizeof(*p));
	snprintf(p->hostname, sizeof(p->hostname), "node1");
	snprintf(p->kernel, sizeof(p->kernel), "Linux 6.8.0 #1 SMP");
	snprintf(p->arch, sizeof(p->arch), "x86_64");
	snprintf(p->os, sizeof(p->os), "Debian GNU/Linux 13");
	snprintf(p->cpu_model, sizeof(p->cpu_model), "Test CPU");
	p->cpus_online = 8;
	p->numa_nodes = 2;
	snprintf(p->rperf_version, sizeof(p->rperf_version), "0.1.0");
	snprintf(p->ibverbs_version, sizeof(p->ibverbs_version), "1.14");
	snprintf(p->rdmacm_version, sizeof(p->rdmacm_version), "1.3");
	snprintf(p->json_library, sizeof(p->json_library), "jansson 2.14");
	snprintf(p->timestamp, sizeof(p->timestamp), "2024-01-02T03:04:05Z");
}

static inline void fill_kv(struct rperf_kv *kv)
{
	kv[0] = (struct rperf_kv){ .key = "ib_dev",
				   .type = RPERF_KV_STR,
				   .v.s = "rxe0" };
	kv[1] = (struct rperf_kv){ .key = "gid_index",
				   .type = RPERF_KV_INT,
				   .v.i = -3 };
	kv[2] = (struct rperf_kv){ .key = "iters",
				   .type = RPERF_KV_UINT,
				   .v.u = 5000 };
	kv[3] = (struct rperf_kv){ .key = "duration",
				   .type = RPERF_KV_DOUBLE,
				   .v.d = 1.5 };
	kv[4] = (struct rperf_kv){ .key = "half_rtt",
				   .type = RPERF_KV_BOOL,
				   .v.b = true };
	kv[5] = (struct rperf_kv){ .key = "sizes",
				   .type = RPERF_KV_LIST_UINT,
				   .v.list = { .n = 2, .u = sizes_u } };
	kv[6] = (struct rperf_kv){ .key = "percentiles",
				   .type = RPERF_KV_LIST_DOUBLE,
				   .v.list = { .n = 2, .d = pcts_d } };
	kv[7] = (struct rperf_kv){ .key = "server",
				   .type = RPERF_KV_STR,
				   .v.s = NULL };
	kv[8] = (struct rperf_kv){ .key = "empty",
				   .type = RPERF_KV_LIST_UINT,
				   .v.list = { .n = 0, .u = NULL } };
}

static inline struct rperf_hist *make_hist(uint64_t n, int64_t base,
					   int64_t step)
{
	struct rperf_hist *h = NULL;
	uint64_t i;

	assert_int_equal(rperf_hist_create(RPERF_HIST_DEFAULT_BITS, &h), 0);
	for (i = 0; i < n; i++)
		rperf_hist_record(h, base + (int64_t)(i % 997) * step);
	return h;
}

static inline int setup(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));

	assert_non_null(fx);
	/* 5000 samples: p50 and p99 reliable, p99.9 and p99.99 not */
	fx->rtt = make_hist(5000, 400, 3);
	rperf_hist_record(fx->rtt, -7); /* a nonpositive RTT */
	fx->wire = make_hist(5001, 1500, 2);
	fx->loop = make_hist(5001, 1100, 2);
	fx->rtt2 = make_hist(2000, 2000, 5);
	fill_clock(&fx->clk, &fx->st);
	fill_platform(&fx->plat);
	fill_kv(fx->kv);
	fx->lat[0] = (struct rperf_lat_result){
		.method = "rperf",
		.size = 64,
		.samples = 5001,
		.warmup = 100,
		.nonpositive = 1,
		.precompleted = 3,
		.seconds = 0.25,
		.half_rtt = false,
		.rtt = fx->rtt,
		.wire = fx->wire,
		.loop = fx->loop,
	};
	fx->lat[1] = (struct rperf_lat_result){
		.method = "pingpong",
		.size = 4096,
		.samples = 2000,
		.warmup = 10,
		.seconds = 0.5,
		.half_rtt = false,
		.rtt = fx->rtt2,
	};
	fx->r = (struct rperf_report){
		.command = "lat",
		.config = fx->kv,
		.nconfig = 9,
		.clock = &fx->clk,
		.selftest = &fx->st,
		.platform = &fx->plat,
		.lat = fx->lat,
		.nlat = 2,
		.warnings = warns,
		.nwarnings = 2,
	};
	*state = fx;
	return 0;
}

static inline int teardown(void **state)
{
	struct fixture *fx = *state;

	rperf_hist_destroy(fx->rtt);
	rperf_hist_destroy(fx->wire);
	rperf_hist_destroy(fx->loop);
	rperf_hist_destroy(fx->rtt2);
	free(fx);
	return 0;
}

/* ---- helpers ----------------------------------------------------------- */

struct membuf {
	char *buf;
	size_t len;
};

static inline char *render(int (*fn)(FILE *, const struct rperf_report *),
			   const struct rperf_report *r)
{
	struct membuf m = { 0 };
	FILE *f = open_memstream(&m.buf, &m.len);

	assert_non_null(f);
	assert_int_equal(fn(f, r), 0);
	assert_int_equal(fclose(f), 0);
	return m.buf;
}

static inline char *render_info(int (*fn)(FILE *, const struct rperf_info *),
				const struct rperf_info *info)
{
	struct membuf m = { 0 };
	FILE *f = open_memstream(&m.buf, &m.len);

	assert_non_null(f);
	assert_int_equal(fn(f, info), 0);
	assert_int_equal(fclose(f), 0);
	return m.buf;
}

static inline json_t *parse(const char *text)
{
	json_error_t jerr;
	json_t *root = json_loads(text, 0, &jerr);

	if (!root)
		fail_msg("JSON does not parse: %s (line %d)", jerr.text,
			 jerr.line);
	return root;
}

static inline json_t *get(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	if (!v)
		fail_msg("missing key %s", key);
	return v;
}

static inline json_int_t get_int(json_t *o, const char *key)
{
	json_t *v = get(o, key);

	assert_true(json_is_integer(v));
	return json_integer_value(v);
}

static inline double get_real(json_t *o, const char *key)
{
	json_t *v = get(o, key);

	assert_true(json_is_real(v));
	return json_real_value(v);
}

static inline const char *get_str(json_t *o, const char *key)
{
	json_t *v = get(o, key);

	assert_true(json_is_string(v));
	return json_string_value(v);
}

static inline void assert_close(double a, double b)
{
	assert_true(fabs(a - b) <= 1e-9 * fmax(1.0, fabs(b)));
}

static inline size_t count_lines(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

static inline size_t count_char(const char *s, size_t len, char c)
{
	size_t i, n = 0;

	for (i = 0; i < len; i++)
		n += s[i] == c;
	return n;
}

/* ---- JSON checks shared by the run report and rperf info ------------- */

static inline void check_clock(json_t *c, bool with_selftest)
{
	json_t *o;

	assert_string_equal(get_str(c, "source"), "tsc");
	assert_true(json_is_true(get(c, "trusted")));
	assert_true(json_is_false(get(c, "forced")));
	assert_close(get_real(c, "hz"), 2400000000.0);
	assert_string_equal(get_str(c, "method"),
			    "calibrated:CLOCK_MONOTONIC_RAW");
	assert_close(get_real(c, "error_ppm"), 0.75);
	assert_true(json_is_true(get(c, "invariant")));
	assert_true(json_is_true(get(c, "hypervisor")));
	assert_string_equal(get_str(c, "clocksource"), "tsc");
	assert_true(json_is_null(get(c, "cpuid15_hz")));
	assert_close(json_number_value(get(c, "cross_check_ppm")), 0);
	assert_string_equal(get_str(c, "reason"),
			    "invariant TSC, clocksource tsc");
	o = get(c, "overhead_ns");
	if (!with_selftest) {
		assert_true(json_is_null(o));
		assert_true(json_is_null(get(c, "resolution_ns")));
		assert_true(json_is_null(get(c, "max_gap_ns")));
		return;
	}
	assert_close(get_real(o, "min"), 18.5);
	assert_close(get_real(o, "median"), 21.25);
	assert_close(get_real(c, "resolution_ns"), 0.5);
	assert_close(get_real(c, "max_gap_ns"), 1234.0);
}

static inline void check_platform(json_t *p)
{
	assert_string_equal(get_str(p, "hostname"), "node1");
	assert_string_equal(get_str(p, "kernel"), "Linux 6.8.0 #1 SMP");
	assert_string_equal(get_str(p, "arch"), "x86_64");
	assert_string_equal(get_str(p, "os"), "Debian GNU/Linux 13");
	assert_string_equal(get_str(p, "cpu_model"), "Test CPU");
	assert_int_equal(get_int(p, "cpus_online"), 8);
	assert_int_equal(get_int(p, "numa_nodes"), 2);
	assert_string_equal(get_str(p, "rperf_version"), "0.1.0");
	assert_string_equal(get_str(p, "ibverbs_version"), "1.14");
	assert_string_equal(get_str(p, "rdmacm_version"), "1.3");
	assert_string_equal(get_str(p, "json_library"), "jansson 2.14");
	assert_string_equal(get_str(p, "timestamp"), "2024-01-02T03:04:05Z");
}

#endif /* RPERF_TESTS_UNIT_REPORT_FIXTURE_H */
