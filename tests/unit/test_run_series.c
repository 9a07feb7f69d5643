// SPDX-License-Identifier: BSD-2-Clause
/*
 * A BSG's time series, sent and received: the receive side's grid
 * (gen/series.h rperf_rx_series: empty intervals kept, the last one ending
 * where counting ended, the cap), and rperf run's JSON intervals[] merging
 * the source's rows with the destination's (received_messages,
 * received_seconds, received_gbps; null where the destination cannot see
 * or did not say, 0 where it counted nothing).
 */
#include "run_fixture.h"

#include "gen/series.h"

#define MS 1000000ull

/* Arrivals at 10, 20, 250 and 260 ms on a 100 ms grid starting 5 ms after
 * GO, counting ended at 280 ms: rows at 5, 105 (empty), 205 ms; the last
 * 80 ms long. */
static void rx_grid(void **state)
{
	struct rperf_rx_series x = { .interval_ns = 100 * MS, .at_ns = 5 * MS };

	(void)state;
	assert_int_equal(rperf_rx_series_add(&x, 10 * MS, 1, 2048), 0);
	assert_int_equal(rperf_rx_series_add(&x, 20 * MS, 2, 4096), 0);
	assert_int_equal(rperf_rx_series_add(&x, 250 * MS, 1, 2048), 0);
	assert_int_equal(rperf_rx_series_add(&x, 260 * MS, 1, 2048), 0);
	assert_int_equal(rperf_rx_series_end(&x, 280 * MS), 0);
	assert_int_equal(x.s.n, 3);
	assert_int_equal(x.s.iv[0].start_ns, 5 * MS);
	assert_int_equal(x.s.iv[0].dur_ns, 100 * MS);
	assert_int_equal(x.s.iv[0].messages, 3);
	assert_int_equal(x.s.iv[0].bytes, 6144);
	assert_int_equal(x.s.iv[1].start_ns, 105 * MS);
	assert_int_equal(x.s.iv[1].messages, 0);
	assert_int_equal(x.s.iv[1].dur_ns, 100 * MS);
	assert_int_equal(x.s.iv[2].start_ns, 205 * MS);
	assert_int_equal(x.s.iv[2].messages, 2);
	assert_int_equal(x.s.iv[2].dur_ns, 80 * MS);
	/* ended again: nothing more */
	assert_int_equal(rperf_rx_series_end(&x, 900 * MS), 0);
	assert_int_equal(x.s.n, 3);
	rperf_bsg_series_fini(&x.s);

	/* counting ended 2 intervals after the last arrival: both kept (0),
	 * the one it ended in up to its end; an end before the last arrival
	 * is taken as that arrival */
	x = (struct rperf_rx_series){ .interval_ns = 100 * MS };
	assert_int_equal(rperf_rx_series_add(&x, 50 * MS, 1, 10), 0);
	assert_int_equal(rperf_rx_series_end(&x, 230 * MS), 0);
	assert_int_equal(x.s.n, 3);
	assert_int_equal(x.s.iv[2].messages, 0);
	assert_int_equal(x.s.iv[2].dur_ns, 30 * MS);
	rperf_bsg_series_fini(&x.s);
	x = (struct rperf_rx_series){ .interval_ns = 100 * MS };
	assert_int_equal(rperf_rx_series_add(&x, 150 * MS, 1, 10), 0);
	assert_int_equal(rperf_rx_series_end(&x, 0), 0);
	assert_int_equal(x.s.n, 2);
	assert_int_equal(x.s.iv[1].dur_ns, 50 * MS);
	rperf_bsg_series_fini(&x.s);

	/* no interval: nothing kept; no arrival: no row */
	x = (struct rperf_rx_series){ 0 };
	assert_int_equal(rperf_rx_series_add(&x, 150 * MS, 1, 10), 0);
	assert_int_equal(rperf_rx_series_end(&x, 300 * MS), 0);
	assert_int_equal(x.s.n, 0);
	x = (struct rperf_rx_series){ .interval_ns = 100 * MS };
	assert_int_equal(rperf_rx_series_end(&x, 300 * MS), 0);
	assert_int_equal(x.s.n, 0);
}

/* An arrival a week of 1 ms intervals late: RPERF_SERIES_MAX rows are
 * kept, the rest is not (and the call ends). */
static void rx_cap(void **state)
{
	struct rperf_rx_series x = { .interval_ns = MS };

	(void)state;
	assert_int_equal(rperf_rx_series_add(&x, 0, 1, 1), 0);
	assert_int_equal(rperf_rx_series_add(&x, 7 * 86400000 * MS, 1, 1), 0);
	assert_true(x.full);
	assert_int_equal(x.s.n, RPERF_SERIES_MAX);
	assert_int_equal(rperf_rx_series_end(&x, 7 * 86400000 * MS + 1), 0);
	assert_int_equal(x.s.n, RPERF_SERIES_MAX);
	rperf_bsg_series_fini(&x.s);
}

static bool dropped; /* the sink's REPORT says its rows were left out */

/* The source's rows @src and the sink's @rx (NULL: none) into a BSG h1 ->
 * h2 (verb @verb), merged; its generators[0].intervals. */
static json_t *merged(int verb, const struct rperf_bsg_interval *src,
		      size_t nsrc, const struct rperf_bsg_interval *rx,
		      size_t nrx, uint64_t rx_bytes, json_t **root)
{
	struct rperf_job *job = fx_job(2);
	struct rperf_run_results *r = NULL;
	struct rperf_proto_report rep;
	json_t *ivs;

	fx_inst(job, RPERF_GEN_BSG, "load", "h1", "h2", 0, 0);
	job->inst[0].verb = verb;
	job->inst[0].interval_ns = 100 * MS;
	assert_int_equal(rperf_run_results_create(job, &r), 0);
	fx_report(&rep, "h1", 1);
	fx_counts(&rep, 0, RPERF_ROLE_SOURCE, RPERF_GEN_BSG, 1 << 20, 0.4);
	for (size_t i = 0; i < nsrc; i++)
		assert_int_equal(rperf_bsg_series_push(&rep.res[0].bsg_series,
						       &src[i]),
				 0);
	fx_add(r, &rep);
	fx_report(&rep, "h2", 1);
	fx_counts(&rep, 0, RPERF_ROLE_SINK, RPERF_GEN_BSG, rx_bytes, 0.4);
	rep.res[0].rows_dropped = dropped;
	for (size_t i = 0; rx && i < nrx; i++)
		assert_int_equal(rperf_bsg_series_push(&rep.res[0].bsg_series,
						       &rx[i]),
				 0);
	fx_add(r, &rep);
	assert_int_equal(rperf_run_results_finish(r), 0);
	assert_int_equal(rperf_run_report_json(r, root), 0);
	rperf_run_results_free(r);
	fx_job_free(job);
	ivs = json_object_get(
		json_array_get(json_object_get(*root, "generators"), 0),
		"intervals");
	assert_true(json_is_array(ivs));
	return ivs;
}

static double num(const json_t *ivs, size_t i, const char *k)
{
	const json_t *v = json_object_get(json_array_get(ivs, i), k);

	if (!json_is_number(v))
		fail_msg("intervals[%zu].%s is not a number", i, k);
	return json_number_value(v);
}

static bool is_null(const json_t *ivs, size_t i, const char *k)
{
	const json_t *v = json_object_get(json_array_get(ivs, i), k);

	if (!v)
		fail_msg("intervals[%zu].%s missing", i, k);
	return json_is_null(v);
}

/* On 100 ms of 200 (on/off): sent and received per interval side by side
 * (the destination's interval in the source's row its middle falls in);
 * the destination's extra rows: an empty one after the source's last is
 * left out, one with arrivals is kept (its sent figures null). */
static void json_sent_received(void **state)
{
	const struct rperf_bsg_interval src[3] = {
		{ 1 * MS, 100 * MS, 25, 51200 },
		{ 101 * MS, 100 * MS, 0, 0 },
		{ 201 * MS, 99 * MS, 20, 40960 },
	};
	const struct rperf_bsg_interval rx[4] = {
		{ 0, 100 * MS, 24, 49152 },
		{ 100 * MS, 100 * MS, 1, 2048 },
		{ 200 * MS, 100 * MS, 20, 40960 },
		{ 300 * MS, 50 * MS, 0, 0 },
	};
	json_t *root = NULL, *ivs;

	(void)state;
	ivs = merged(0, src, 3, rx, 4, 45 * 2048, &root);
	assert_int_equal(json_array_size(ivs), 3);
	assert_float_equal(num(ivs, 0, "start_s"), 0.001, 1e-12);
	assert_float_equal(num(ivs, 0, "gbps"), 51200 * 8 / 0.1 / 1e9, 1e-12);
	assert_int_equal((int)num(ivs, 0, "received_messages"), 24);
	assert_float_equal(num(ivs, 0, "received_gbps"), 49152 * 8 / 0.1 / 1e9,
			   1e-12);
	assert_float_equal(num(ivs, 0, "received_seconds"), 0.1, 1e-12);
	assert_int_equal((int)num(ivs, 1, "messages"), 0);
	assert_int_equal((int)num(ivs, 1, "received_messages"), 1);
	assert_float_equal(num(ivs, 2, "received_gbps"),
			   num(ivs, 2, "gbps") * 0.099 / 0.1, 1e-12);
	json_decref(root);

	/* the destination's last arrival after the source's last row */
	ivs = merged(0, src, 2, rx, 3, 45 * 2048, &root);
	assert_int_equal(json_array_size(ivs), 3);
	assert_true(is_null(ivs, 2, "gbps"));
	assert_true(is_null(ivs, 2, "messages"));
	assert_true(is_null(ivs, 2, "seconds"));
	assert_float_equal(num(ivs, 2, "start_s"), 0.2, 1e-12);
	assert_int_equal((int)num(ivs, 2, "received_messages"), 20);
	json_decref(root);
}

/* Received per interval: null when the destination cannot see (RDMA
 * WRITE) or its agent sent no rows though it counted arrivals (an older
 * agent); 0 when nothing arrived at all. */
static void json_received_unknown(void **state)
{
	const struct rperf_bsg_interval src[2] = {
		{ 0, 100 * MS, 25, 51200 },
		{ 100 * MS, 100 * MS, 25, 51200 },
	};
	json_t *root = NULL, *ivs;

	(void)state;
	ivs = merged(1 /* write */, src, 2, NULL, 0, 0, &root);
	assert_int_equal(json_array_size(ivs), 2);
	assert_true(is_null(ivs, 0, "received_gbps"));
	assert_true(is_null(ivs, 1, "received_messages"));
	json_decref(root);
	ivs = merged(0, src, 2, NULL, 0, 1 << 20, &root);
	assert_true(is_null(ivs, 0, "received_gbps"));
	assert_true(is_null(ivs, 1, "received_messages"));
	json_decref(root);
	/* its rows left out of an oversized REPORT: null, and said */
	dropped = true;
	ivs = merged(0, src, 2, NULL, 0, 1 << 20, &root);
	dropped = false;
	assert_true(is_null(ivs, 0, "received_gbps"));
	assert_non_null(strstr(
		json_string_value(json_object_get(
			json_array_get(json_object_get(root, "generators"), 0),
			"receiver_note")),
		"left out"));
	json_decref(root);
	ivs = merged(0, src, 2, NULL, 0, 0, &root);
	assert_float_equal(num(ivs, 0, "received_gbps"), 0, 0);
	assert_int_equal((int)num(ivs, 1, "received_messages"), 0);
	assert_float_equal(num(ivs, 1, "received_seconds"), 0.1, 1e-12);
	json_decref(root);
}

/* The source's tick came 150 ms late once (an off phase: no completion
 * woke it), so its second row spans two of the destination's intervals:
 * both are summed into it and the rows after it stay matched by time, not
 * shifted by one; every arrival is in exactly one row. */
static void json_late_tick(void **state)
{
	const struct rperf_bsg_interval src[3] = {
		{ 0, 100 * MS, 25, 51200 },
		{ 100 * MS, 250 * MS, 10, 20480 },
		{ 350 * MS, 100 * MS, 25, 51200 },
	};
	const struct rperf_bsg_interval rx[5] = {
		{ 0, 100 * MS, 24, 49152 },
		{ 100 * MS, 100 * MS, 8, 16384 },
		{ 200 * MS, 100 * MS, 3, 6144 },
		{ 300 * MS, 100 * MS, 20, 40960 },
		{ 400 * MS, 60 * MS, 5, 10240 },
	};
	json_t *root = NULL, *ivs;
	double sum = 0;

	(void)state;
	ivs = merged(0, src, 3, rx, 5, 60 * 2048, &root);
	assert_int_equal(json_array_size(ivs), 3);
	assert_int_equal((int)num(ivs, 1, "received_messages"), 11);
	assert_float_equal(num(ivs, 1, "received_seconds"), 0.2, 1e-12);
	assert_int_equal((int)num(ivs, 2, "received_messages"), 25);
	assert_float_equal(num(ivs, 2, "received_seconds"), 0.16, 1e-12);
	for (size_t i = 0; i < 3; i++)
		sum += num(ivs, i, "received_messages");
	assert_float_equal(sum, 60, 0);
	json_decref(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rx_grid),
		cmocka_unit_test(rx_cap),
		cmocka_unit_test(json_sent_received),
		cmocka_unit_test(json_received_unknown),
		cmocka_unit_test(json_late_tick),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
