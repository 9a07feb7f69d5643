// SPDX-License-Identifier: BSD-2-Clause
/*
 * Unit tests of the report module: every renderer is run on a report built
 * from real histograms, and the JSON output is parsed back with jansson and
 * checked field by field.
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

static void fill_clock(struct rperf_clock *c, struct rperf_clock_selftest *st)
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

static void fill_platform(struct rperf_platform *p)
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

static void fill_kv(struct rperf_kv *kv)
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

static struct rperf_hist *make_hist(uint64_t n, int64_t base, int64_t step)
{
	struct rperf_hist *h = NULL;
	uint64_t i;

	assert_int_equal(rperf_hist_create(RPERF_HIST_DEFAULT_BITS, &h), 0);
	for (i = 0; i < n; i++)
		rperf_hist_record(h, base + (int64_t)(i % 997) * step);
	return h;
}

static int setup(void **state)
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

static int teardown(void **state)
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

static char *render(int (*fn)(FILE *, const struct rperf_report *),
		    const struct rperf_report *r)
{
	struct membuf m = { 0 };
	FILE *f = open_memstream(&m.buf, &m.len);

	assert_non_null(f);
	assert_int_equal(fn(f, r), 0);
	assert_int_equal(fclose(f), 0);
	return m.buf;
}

static char *render_info(int (*fn)(FILE *, const struct rperf_info *),
			 const struct rperf_info *info)
{
	struct membuf m = { 0 };
	FILE *f = open_memstream(&m.buf, &m.len);

	assert_non_null(f);
	assert_int_equal(fn(f, info), 0);
	assert_int_equal(fclose(f), 0);
	return m.buf;
}

static json_t *parse(const char *text)
{
	json_error_t jerr;
	json_t *root = json_loads(text, 0, &jerr);

	if (!root)
		fail_msg("JSON does not parse: %s (line %d)", jerr.text,
			 jerr.line);
	return root;
}

static json_t *get(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	if (!v)
		fail_msg("missing key %s", key);
	return v;
}

static json_int_t get_int(json_t *o, const char *key)
{
	json_t *v = get(o, key);

	assert_true(json_is_integer(v));
	return json_integer_value(v);
}

static double get_real(json_t *o, const char *key)
{
	json_t *v = get(o, key);

	assert_true(json_is_real(v));
	return json_real_value(v);
}

static const char *get_str(json_t *o, const char *key)
{
	json_t *v = get(o, key);

	assert_true(json_is_string(v));
	return json_string_value(v);
}

static void assert_close(double a, double b)
{
	assert_true(fabs(a - b) <= 1e-9 * fmax(1.0, fabs(b)));
}

static size_t count_lines(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

static size_t count_char(const char *s, size_t len, char c)
{
	size_t i, n = 0;

	for (i = 0; i < len; i++)
		n += s[i] == c;
	return n;
}

/* ---- JSON run report --------------------------------------------------- */

static void check_stats(json_t *o, const struct rperf_hist *h, const double *ps,
			size_t n)
{
	static const double fixed[] = { 50, 99, 99.9, 99.99 };
	static const char *const keys[] = { "p50", "p99", "p999", "p9999" };
	json_t *map, *unrel;
	size_t i, nunrel = 0;
	char key[32];

	assert_true(json_is_object(o));
	assert_int_equal(get_int(o, "min"), rperf_hist_min(h));
	assert_int_equal(get_int(o, "max"), rperf_hist_max(h));
	for (i = 0; i < 4; i++)
		assert_int_equal(get_int(o, keys[i]),
				 rperf_hist_percentile(h, fixed[i]));
	assert_close(get_real(o, "mean"), rperf_hist_mean(h));
	assert_close(get_real(o, "stdev"), rperf_hist_stdev(h));
	map = get(o, "percentiles");
	unrel = get(o, "unreliable");
	assert_true(json_is_object(map));
	assert_true(json_is_array(unrel));
	assert_int_equal(json_object_size(map), n);
	for (i = 0; i < n; i++) {
		snprintf(key, sizeof(key), "%.10g", ps[i]);
		assert_int_equal(get_int(map, key),
				 rperf_hist_percentile(h, ps[i]));
		if (!rperf_percentile_reliable(ps[i], rperf_hist_count(h))) {
			json_t *u = json_array_get(unrel, nunrel++);

			assert_non_null(u);
			assert_close(json_number_value(u), ps[i]);
		}
	}
	assert_int_equal(json_array_size(unrel), nunrel);
}

static void check_config(json_t *c)
{
	json_t *a;

	assert_true(json_is_object(c));
	assert_int_equal(json_object_size(c), 9);
	assert_string_equal(get_str(c, "ib_dev"), "rxe0");
	assert_int_equal(get_int(c, "gid_index"), -3);
	assert_int_equal(get_int(c, "iters"), 5000);
	assert_close(get_real(c, "duration"), 1.5);
	assert_true(json_is_true(get(c, "half_rtt")));
	assert_true(json_is_null(get(c, "server")));
	a = get(c, "sizes");
	assert_int_equal(json_array_size(a), 2);
	assert_true(json_is_integer(json_array_get(a, 0)));
	assert_int_equal(json_integer_value(json_array_get(a, 0)), 64);
	assert_int_equal(json_integer_value(json_array_get(a, 1)), 4096);
	a = get(c, "percentiles");
	assert_int_equal(json_array_size(a), 2);
	assert_true(json_is_real(json_array_get(a, 1)));
	assert_close(json_real_value(json_array_get(a, 0)), 50);
	assert_close(json_real_value(json_array_get(a, 1)), 99.9);
	a = get(c, "empty");
	assert_true(json_is_array(a));
	assert_int_equal(json_array_size(a), 0);
}

static void check_clock(json_t *c, bool with_selftest)
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

static void check_platform(json_t *p)
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

static void check_result0(json_t *res, const struct fixture *fx,
			  const double *ps, size_t n)
{
	assert_string_equal(get_str(res, "method"), "rperf");
	assert_int_equal(get_int(res, "size"), 64);
	assert_int_equal(get_int(res, "samples"), 5001);
	assert_int_equal(get_int(res, "warmup"), 100);
	assert_int_equal(get_int(res, "nonpositive"), 1);
	assert_int_equal(get_int(res, "precompleted"), 3);
	assert_close(get_real(res, "seconds"), 0.25);
	assert_string_equal(get_str(res, "figure"), "rtt");
	assert_string_equal(get_str(res, "unit"), "ns");
	check_stats(get(res, "rtt_ns"), fx->rtt, ps, n);
	check_stats(get(res, "wire_ns"), fx->wire, ps, n);
	check_stats(get(res, "loop_ns"), fx->loop, ps, n);
}

static void test_json_report(void **state)
{
	struct fixture *fx = *state;
	static const double dflt[] = { 50, 99, 99.9, 99.99 };
	char *out = render(rperf_report_json, &fx->r);
	json_t *root = parse(out);
	json_t *results, *res, *w;

	assert_int_equal(get_int(root, "schema_version"), RPERF_SCHEMA_VERSION);
	assert_string_equal(get_str(root, "command"), "lat");
	assert_true(json_is_string(get(root, "rperf_version")));
	check_config(get(root, "config"));
	check_platform(get(root, "platform"));
	check_clock(get(root, "clock"), true);
	results = get(root, "results");
	assert_int_equal(json_array_size(results), 2);
	check_result0(json_array_get(results, 0), fx, dflt, 4);
	/* p99.9 of 5001 samples is unreliable, p99 is not */
	res = json_object_get(json_array_get(results, 0), "rtt_ns");
	assert_int_equal(json_array_size(get(res, "unreliable")), 2);
	res = json_array_get(results, 1);
	assert_string_equal(get_str(res, "method"), "pingpong");
	assert_int_equal(get_int(res, "size"), 4096);
	check_stats(get(res, "rtt_ns"), fx->rtt2, dflt, 4);
	assert_null(json_object_get(res, "wire_ns"));
	assert_null(json_object_get(res, "loop_ns"));
	w = get(root, "warnings");
	assert_int_equal(json_array_size(w), 2);
	assert_string_equal(json_string_value(json_array_get(w, 1)),
			    "second warning");
	assert_true(json_is_false(get(root, "partial")));
	assert_true(json_is_null(get(root, "error")));
	json_decref(root);
	free(out);
}

static void test_json_partial_custom_pcts(void **state)
{
	struct fixture *fx = *state;
	static const double ps[] = { 0, 90, 99.5, 100 };
	struct rperf_report r = fx->r;
	json_t *root, *res;
	char *out;

	r.percentiles = ps;
	r.npercentiles = 4;
	r.selftest = NULL;
	r.partial = true;
	r.error = "interrupted";
	r.warnings = NULL;
	r.nwarnings = 0;
	r.config = NULL;
	r.nconfig = 0;
	out = render(rperf_report_json, &r);
	root = parse(out);
	check_clock(get(root, "clock"), false);
	assert_int_equal(json_object_size(get(root, "config")), 0);
	res = json_array_get(get(root, "results"), 0);
	check_result0(res, fx, ps, 4);
	/* all of 0, 90, 99.5, 100 are reliable with 5001 samples */
	assert_int_equal(json_array_size(get(get(res, "rtt_ns"), "unreliable")),
			 0);
	assert_int_equal(json_array_size(get(root, "warnings")), 0);
	assert_true(json_is_true(get(root, "partial")));
	assert_string_equal(get_str(root, "error"), "interrupted");
	json_decref(root);
	free(out);
}

static void test_json_bad_input(void **state)
{
	struct fixture *fx = *state;
	struct rperf_report r = fx->r;
	struct rperf_lat_result lat = fx->lat[0];
	struct rperf_kv kv = { .key = NULL, .type = RPERF_KV_INT };
	FILE *f = tmpfile();

	assert_non_null(f);
	lat.rtt = NULL;
	r.lat = &lat;
	r.nlat = 1;
	assert_int_equal(rperf_report_json(f, &r), EINVAL);
	assert_int_equal(rperf_report_csv(f, &r), EINVAL);
	assert_int_equal(rperf_report_text(f, &r), EINVAL);
	r = fx->r;
	r.config = &kv;
	r.nconfig = 1;
	assert_int_equal(rperf_report_json(f, &r), EINVAL);
	assert_int_equal(rperf_report_json(NULL, &fx->r), EINVAL);
	fclose(f);
}

/* A stream that fails every write: renderers must report EIO. */
static void test_write_error(void **state)
{
	struct fixture *fx = *state;
	FILE *f = fopen("/dev/full", "w");

	if (!f)
		skip();
	assert_int_equal(rperf_report_json(f, &fx->r), EIO);
	fclose(f);
	f = fopen("/dev/full", "w");
	assert_non_null(f);
	assert_int_equal(rperf_report_text(f, &fx->r), EIO);
	fclose(f);
}

/* ---- rperf info -------------------------------------------------------- */

struct fake_dev {
	struct rperf_gid_info gids[3];
	struct rperf_port_info ports[2];
	struct rperf_device_info dev;
	struct rperf_device_list list;
};

static void fake_device(struct fake_dev *d)
{
	memset(d, 0, sizeof(*d));
	d->gids[0] = (struct rperf_gid_info){ .index = 0,
					      .gid = "fe80:0000:0000:0000:"
						     "0000:00ff:fe00:0001",
					      .type = "RoCE v1",
					      .netdev = "eth0" };
	d->gids[1] = (struct rperf_gid_info){ .index = 1,
					      .gid = "0000:0000:0000:0000:"
						     "0000:ffff:0a00:0001",
					      .type = "RoCE v2",
					      .netdev = "eth0" };
	d->gids[2] = (struct rperf_gid_info){ .index = 0,
					      .gid = "fe80:0000:0000:0000:"
						     "0000:0000:0000:0002",
					      .type = "IB" };
	d->ports[0] = (struct rperf_port_info){
		.port = 1,
		.state = "ACTIVE",
		.link_layer = "Ethernet",
		.rate_gbps = 100,
		.mtu = 1024,
		.max_vl_num = 1,
		.ngids = 2,
		.gids = d->gids,
	};
	d->ports[1] = (struct rperf_port_info){
		.port = 2,
		.state = "DOWN",
		.link_layer = "InfiniBand",
		.rate_gbps = 56.25,
		.mtu = 4096,
		.max_vl_num = 8,
		.ngids = 1,
		.gids = &d->gids[2],
	};
	d->dev = (struct rperf_device_info){ .name = "rxe0",
					     .numa_node = -1,
					     .node_guid = "0011:2233:4455:6677",
					     .nports = 2,
					     .ports = d->ports };
	d->list = (struct rperf_device_list){ .n = 1, .dev = &d->dev };
}

static void check_port(json_t *p, const struct rperf_port_info *want)
{
	json_t *gids = get(p, "gids");
	size_t i;

	assert_int_equal(get_int(p, "port"), want->port);
	assert_string_equal(get_str(p, "state"), want->state);
	assert_string_equal(get_str(p, "link_layer"), want->link_layer);
	assert_close(json_number_value(get(p, "rate_gbps")), want->rate_gbps);
	assert_int_equal(get_int(p, "mtu"), want->mtu);
	assert_int_equal(get_int(p, "max_vl_num"), want->max_vl_num);
	assert_int_equal(json_array_size(gids), want->ngids);
	for (i = 0; i < want->ngids; i++) {
		json_t *g = json_array_get(gids, i);

		assert_int_equal(get_int(g, "index"), want->gids[i].index);
		assert_string_equal(get_str(g, "gid"), want->gids[i].gid);
		assert_string_equal(get_str(g, "type"), want->gids[i].type);
		assert_string_equal(get_str(g, "netdev"), want->gids[i].netdev);
	}
}

static void test_info_json_no_device(void **state)
{
	struct fixture *fx = *state;
	struct rperf_device_list l = { .n = 0, .list_errno = ENOSYS };
	struct rperf_info info = { .clock = &fx->clk,
				   .selftest = &fx->st,
				   .platform = &fx->plat,
				   .devices = &l };
	char *out = render_info(rperf_info_json, &info);
	json_t *root = parse(out);

	assert_int_equal(get_int(root, "schema_version"), RPERF_SCHEMA_VERSION);
	check_clock(get(root, "clock"), true);
	check_platform(get(root, "platform"));
	assert_true(json_is_array(get(root, "devices")));
	assert_int_equal(json_array_size(get(root, "devices")), 0);
	assert_int_equal(get_int(root, "devices_errno"), ENOSYS);
	assert_string_equal(get_str(root, "devices_note"),
			    "kernel has no RDMA support");
	json_decref(root);
	free(out);

	/* no list at all: still an empty array, no errno */
	info.devices = NULL;
	info.selftest = NULL;
	out = render_info(rperf_info_json, &info);
	root = parse(out);
	check_clock(get(root, "clock"), false);
	assert_int_equal(json_array_size(get(root, "devices")), 0);
	assert_null(json_object_get(root, "devices_errno"));
	assert_null(json_object_get(root, "devices_note"));
	json_decref(root);
	free(out);
}

static void test_info_json_device(void **state)
{
	struct fixture *fx = *state;
	struct fake_dev d;
	struct rperf_info info = { .clock = &fx->clk,
				   .selftest = &fx->st,
				   .platform = &fx->plat };
	json_t *root, *devs, *dev, *ports;
	char *out;

	fake_device(&d);
	info.devices = &d.list;
	out = render_info(rperf_info_json, &info);
	root = parse(out);
	devs = get(root, "devices");
	assert_int_equal(json_array_size(devs), 1);
	dev = json_array_get(devs, 0);
	assert_string_equal(get_str(dev, "name"), "rxe0");
	assert_int_equal(get_int(dev, "numa_node"), -1);
	assert_string_equal(get_str(dev, "node_guid"), "0011:2233:4455:6677");
	ports = get(dev, "ports");
	assert_int_equal(json_array_size(ports), 2);
	check_port(json_array_get(ports, 0), &d.ports[0]);
	check_port(json_array_get(ports, 1), &d.ports[1]);
	assert_null(json_object_get(root, "devices_errno"));
	json_decref(root);
	free(out);
}

static void test_info_text(void **state)
{
	struct fixture *fx = *state;
	struct fake_dev d;
	struct rperf_device_list none = { .n = 0, .list_errno = ENOSYS };
	struct rperf_info info = { .clock = &fx->clk,
				   .selftest = &fx->st,
				   .platform = &fx->plat,
				   .devices = &none };
	char *out = render_info(rperf_info_text, &info);

	assert_non_null(strstr(out, "source       : tsc (trusted)"));
	assert_non_null(strstr(out, "invariant_tsc=yes"));
	assert_non_null(strstr(out, "hypervisor=yes"));
	assert_non_null(strstr(out, "clocksource=tsc"));
	assert_non_null(strstr(out, "2400000000 Hz"));
	assert_non_null(strstr(out, "error 0.75 ppm"));
	assert_non_null(strstr(out, "min 18.5 ns, median 21.2"));
	assert_non_null(strstr(out, "while spinning 100 ms"));
	assert_non_null(strstr(out, "jansson 2.14"));
	assert_non_null(
		strstr(out, "no RDMA device found (ibv_get_device_list: "));
	assert_non_null(strstr(out, "tests/lab/rxe-lab demo"));
	free(out);

	fake_device(&d);
	info.devices = &d.list;
	out = render_info(rperf_info_text, &info);
	assert_non_null(strstr(out, "rxe0"));
	assert_non_null(strstr(out, "port 2: DOWN, InfiniBand, 56.25 Gb/s"));
	assert_non_null(strstr(out, "RoCE v2 eth0"));
	assert_null(strstr(out, "no RDMA device"));
	free(out);
}

/* ---- text -------------------------------------------------------------- */

/* The table row of @method (rows start with the method padded to 10). */
static char *row_of(const char *out, const char *method)
{
	char pat[32];
	const char *p, *e;

	snprintf(pat, sizeof(pat), "\n%-10s", method);
	p = strstr(out, pat);
	assert_non_null(p);
	p++;
	e = strchr(p, '\n');
	assert_non_null(e);
	return strndup(p, (size_t)(e - p));
}

static void test_text_report(void **state)
{
	struct fixture *fx = *state;
	char *out = render(rperf_report_text, &fx->r);
	char *row;

	assert_non_null(strstr(out, "RTT"));
	assert_non_null(strstr(out, "command      : lat"));
	assert_non_null(strstr(out, "usec"));
	assert_non_null(strstr(out, "clock source : tsc (trusted)"));
	assert_non_null(strstr(out, "2400000000 Hz"));
	assert_non_null(strstr(out, "calibrated:CLOCK_MONOTONIC_RAW"));
	assert_non_null(strstr(out, "0.75 ppm"));
	assert_non_null(strstr(out, "7001 recorded"));
	assert_non_null(strstr(out, "110 samples excluded"));
	assert_non_null(strstr(out, "nonpositive  : 1"));
	assert_non_null(strstr(out, "precompleted : 3"));
	assert_non_null(strstr(out, "t_min[usec]"));
	assert_non_null(strstr(out, "t_typical[usec]"));
	assert_non_null(strstr(out, "t_max[usec]"));
	assert_non_null(strstr(out, "t_avg[usec]"));
	assert_non_null(strstr(out, "t_stdev[usec]"));
	assert_non_null(strstr(out, "p99[usec]"));
	assert_non_null(strstr(out, "p99.9[usec]"));
	assert_non_null(strstr(out, "p99.99[usec]"));
	assert_non_null(strstr(out, "wire_p50[usec]"));
	assert_non_null(strstr(out, "loop_p99.9[usec]"));
	assert_non_null(strstr(out, "* unreliable"));
	assert_non_null(strstr(out, "first warning"));
	assert_null(strstr(out, "untrusted clock"));
	assert_null(strstr(out, "partial"));
	/* 5001 samples: p99.9 is flagged; t_max shows the exact max */
	row = row_of(out, "rperf");
	assert_non_null(strstr(row, "*"));
	assert_non_null(strstr(row, " -0.007 ")); /* t_min = -7 ns */
	free(row);
	row = row_of(out, "pingpong");
	assert_non_null(strstr(row, " - ")); /* no wire/loop */
	free(row);
	free(out);
}

static void test_text_reliable_and_warnings(void **state)
{
	struct fixture *fx = *state;
	static const double ps[] = { 50, 99, 99.9 };
	struct rperf_report r = fx->r;
	struct rperf_lat_result lat = fx->lat[1];
	struct rperf_clock clk = fx->clk;
	struct rperf_hist *h = make_hist(10000, 1000, 1);
	char *out, *row;

	lat.rtt = h;
	lat.samples = 10000;
	lat.half_rtt = true;
	r.lat = &lat;
	r.nlat = 1;
	r.percentiles = ps;
	r.npercentiles = 3;
	clk.trusted = false;
	snprintf(clk.reason, sizeof(clk.reason), "no invariant TSC");
	r.clock = &clk;
	r.partial = true;
	r.error = "peer went away";
	out = render(rperf_report_text, &r);
	assert_non_null(strstr(out, "one-way"));
	assert_non_null(strstr(out, "half RTT"));
	assert_non_null(strstr(out, "UNTRUSTED"));
	assert_non_null(strstr(out, "untrusted clock: no invariant TSC"));
	assert_non_null(strstr(out, "partial results"));
	assert_non_null(strstr(out, "peer went away"));
	assert_null(strstr(out, "p99.99[usec]"));
	/* 10000 samples support p99.9: no marker in the row */
	row = row_of(out, "pingpong");
	assert_null(strstr(row, "*"));
	free(row);
	free(out);
	rperf_hist_destroy(h);
}

/* ---- CSV --------------------------------------------------------------- */

static void test_csv(void **state)
{
	struct fixture *fx = *state;
	static const double ps[] = { 50, 99.5 };
	struct rperf_report r = fx->r;
	char *out = render(rperf_report_csv, &fx->r);
	char want[64];
	const char *line;
	size_t commas;

	assert_int_equal(count_lines(out), 3);
	assert_memory_equal(out,
			    "method,size,samples,warmup,nonpositive,"
			    "precompleted,seconds,figure,rtt_min_ns,",
			    strlen("method,size,samples,warmup,nonpositive,"
				   "precompleted,seconds,figure,rtt_min_ns,"));
	assert_non_null(strstr(out, "wire_p50_ns"));
	assert_non_null(strstr(out, "loop_p999_ns"));
	assert_non_null(strstr(out, "rtt_unreliable"));
	/* every line has as many fields as the header */
	commas = count_char(out, (size_t)(strchr(out, '\n') - out), ',');
	for (line = strchr(out, '\n') + 1; *line; line = strchr(line, '\n') + 1)
		assert_int_equal(count_char(line,
					    (size_t)(strchr(line, '\n') - line),
					    ','),
				 commas);
	snprintf(want, sizeof(want),
		 "\nrperf,64,5001,100,1,3,0.250000,rtt,-7,%lld,",
		 (long long)rperf_hist_percentile(fx->rtt, 50));
	assert_non_null(strstr(out, want));
	assert_non_null(strstr(out, ",99.9 99.99"));
	free(out);

	r.percentiles = ps;
	r.npercentiles = 2;
	out = render(rperf_report_csv, &r);
	assert_non_null(strstr(out, ",rtt_p99.5_ns,"));
	assert_int_equal(count_lines(out), 3);
	free(out);
}

static int raw_fn(FILE *f, const struct rperf_report *r)
{
	static const struct rperf_raw_sample s[] = {
		{ 1500, 1100, 400 },
		{ 1000, 1010, -10 },
		{ 2000, 1500, 500 },
	};

	(void)r;
	return rperf_report_raw_csv(f, s, 3);
}

static void test_raw_csv(void **state)
{
	char *out = render(raw_fn, NULL);

	(void)state;
	assert_string_equal(out, "wire_ns,loop_ns,rtt_ns\n"
				 "1500,1100,400\n"
				 "1000,1010,-10\n"
				 "2000,1500,500\n");
	free(out);
}

/* ---- atomic writes ----------------------------------------------------- */

static int write_hello(FILE *f, void *arg)
{
	(void)arg;
	return fputs("hello\n", f) == EOF ? EIO : 0;
}

static int write_then_fail(FILE *f, void *arg)
{
	(void)arg;
	fputs("garbage that must never reach the target\n", f);
	return EPROTO;
}

static char *read_file(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	assert_true(n >= 0);
	rewind(f);
	buf = calloc(1, (size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	return buf;
}

/* Entries of @dir other than "." and ".." (the temp files would show). */
static int dir_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	assert_non_null(d);
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			n++;
	closedir(d);
	return n;
}

static void test_atomic_write(void **state)
{
	char dir[] = "/tmp/rperf-report-XXXXXX";
	char path[128], missing[160];
	char *content;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/out.txt", dir);

	assert_int_equal(rperf_atomic_write(path, write_hello, NULL), 0);
	content = read_file(path);
	assert_string_equal(content, "hello\n");
	free(content);
	assert_int_equal(dir_entries(dir), 1);

	/* a failing writer: the target stays byte-identical, no temp left */
	assert_int_equal(rperf_atomic_write(path, write_then_fail, NULL),
			 EPROTO);
	content = read_file(path);
	assert_string_equal(content, "hello\n");
	free(content);
	assert_int_equal(dir_entries(dir), 1);

	/* a failing writer with no target: nothing is created */
	unlink(path);
	assert_int_equal(rperf_atomic_write(path, write_then_fail, NULL),
			 EPROTO);
	assert_int_equal(dir_entries(dir), 0);

	snprintf(missing, sizeof(missing), "%s/no/such/dir/out.txt", dir);
	assert_int_equal(rperf_atomic_write(missing, write_hello, NULL),
			 ENOENT);
	assert_int_equal(rperf_atomic_write(NULL, write_hello, NULL), EINVAL);
	assert_int_equal(dir_entries(dir), 0);
	assert_int_equal(rmdir(dir), 0);
}

static void test_write_file(void **state)
{
	struct fixture *fx = *state;
	char dir[] = "/tmp/rperf-report-XXXXXX";
	char path[128];
	char *content;
	json_t *root;

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/r.json", dir);
	assert_int_equal(rperf_report_write_file(path, RPERF_FMT_JSON, &fx->r),
			 0);
	content = read_file(path);
	root = parse(content);
	assert_string_equal(get_str(root, "command"), "lat");
	json_decref(root);
	free(content);
	assert_int_equal(rperf_report_write_file(path, RPERF_FMT_CSV, &fx->r),
			 0);
	content = read_file(path);
	assert_int_equal(count_lines(content), 3);
	free(content);
	assert_int_equal(rperf_report_write_file(path, RPERF_FMT_TEXT, &fx->r),
			 0);
	content = read_file(path);
	assert_non_null(strstr(content, "t_typical[usec]"));
	free(content);
	assert_int_equal(rperf_report_write_file(
				 path, RPERF_FMT_TEXT | RPERF_FMT_JSON, &fx->r),
			 EINVAL);
	assert_int_equal(dir_entries(dir), 1);
	unlink(path);
	assert_int_equal(rmdir(dir), 0);
}

/* ---- reliability ------------------------------------------------------- */

static void test_percentile_reliable(void **state)
{
	(void)state;
	assert_false(rperf_percentile_reliable(99.9, 9999));
	assert_true(rperf_percentile_reliable(99.9, 10000));
	assert_false(rperf_percentile_reliable(99.99, 99999));
	assert_true(rperf_percentile_reliable(99.99, 100000));
	assert_false(rperf_percentile_reliable(99, 999));
	assert_true(rperf_percentile_reliable(99, 1000));
	assert_false(rperf_percentile_reliable(50, 19));
	assert_true(rperf_percentile_reliable(50, 20));
	assert_true(rperf_percentile_reliable(100, 1));
	assert_true(rperf_percentile_reliable(0, 1));
	assert_false(rperf_percentile_reliable(100, 0));
	assert_false(rperf_percentile_reliable(NAN, 1000000));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_json_report, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_json_partial_custom_pcts,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_json_bad_input, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_write_error, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_info_json_no_device, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_info_json_device, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_info_text, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_text_report, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_text_reliable_and_warnings,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_csv, setup, teardown),
		cmocka_unit_test(test_raw_csv),
		cmocka_unit_test(test_atomic_write),
		cmocka_unit_test_setup_teardown(test_write_file, setup,
						teardown),
		cmocka_unit_test(test_percentile_reliable),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
