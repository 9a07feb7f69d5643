/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rperf run's counters beside the latency: the series of a host and of a
 * switch matched to an LSG's intervals by time (an LSG's series starts
 * after its warm-up, counted from the start instant as the counters are),
 * intervals[].counters in the JSON, the Spearman ranking against the
 * interval p99 (a counter that follows the p99 first, one against it left
 * out), the text's lines.
 */
#include <math.h>

#include "run/run_ctr.h"
#include "run_fixture.h"

#define IV 500000000ull
#define NIV 12

/* Host h1's counters: "rxe0/1/follows" high when the p99 is, "against"
 * the other way round; the switch's gauge "sw:backlog" follows it too. */
static void fill(struct rperf_run_results *r, uint32_t id)
{
	struct rperf_run_inst *in = &r->inst[id];
	struct rperf_ctr_reading *h = calloc(1, sizeof(*h)),
				 *w = calloc(1, sizeof(*w));
	uint64_t f = 0, a = 0, warm = in->spec->warmup_ns;

	assert_non_null(h);
	assert_non_null(w);
	in->series.iv = calloc(NIV, sizeof(*in->series.iv));
	assert_non_null(in->series.iv);
	in->series.n = in->series.cap = NIV;
	rperf_ctr_add(h, "rxe0/1/follows", 0, false);
	rperf_ctr_add(h, "rxe0/1/against", 0, false);
	rperf_ctr_add(h, "rxe0/1/flat", 7, false);
	rperf_ctr_add(w, "sw:backlog", 0, true);
	/* readings at each tick from the start instant, through the warm-up */
	for (uint64_t k = 0; k <= NIV + 1; k++) {
		uint64_t t = k * IV;
		/* a counter's increase comes in the interval that starts at
		 * t; the gauge read at t is the interval that ended at t */
		bool high = t >= warm && ((t - warm) / IV) % 3 == 0;
		bool was = t >= warm + IV && ((t - warm - IV) / IV) % 3 == 0;

		h->e[0].v = f;
		h->e[1].v = a;
		w->e[0].v = was ? 9000 + k : k;
		assert_int_equal(rperf_ctr_series_sample(&r->hosts[0].counters,
							 t, h),
				 0);
		assert_int_equal(rperf_ctr_series_sample(&r->sw[0].s, t, w), 0);
		f += high ? 100 + k : k;
		a += high ? 1 : 50;
	}
	for (size_t i = 0; i < NIV; i++) {
		bool high = i % 3 == 0;

		in->series.iv[i] = (struct rperf_lsg_interval){
			.start_ns = warm + i * IV, /* from the start instant */
			.samples = 10,
			.p50_ns = 1000,
			.p99_ns = high ? 90000 + (int64_t)i : 2000 + (int64_t)i,
			.max_ns = 100000,
		};
	}
	free(h);
	free(w);
}

static void ranked(void **state)
{
	struct rperf_job *j = fx_job(2);
	struct rperf_run_results *r = NULL;
	struct run_tail_item top[RUN_TAIL_TOP];
	uint32_t id;
	size_t n;

	(void)state;
	j->nswitches = 1;
	snprintf(j->switches[0].name, sizeof(j->switches[0].name), "sw");
	snprintf(j->switches[0].counters, sizeof(j->switches[0].counters),
		 "true");
	id = fx_inst(j, RPERF_GEN_LSG, "probe", "h1", "h2", 0, 0);
	j->inst[id].interval_ns = IV;
	j->inst[id].warmup_ns = IV; /* its first interval starts at tick 1 */
	assert_int_equal(rperf_run_results_create(j, &r), 0);
	fill(r, id);
	n = run_tail_rank(r, &r->inst[id], top, RUN_TAIL_TOP);
	assert_int_equal(n, 3); /* flat: NaN, left out */
	assert_true(top[0].rho > 0.8);
	assert_true(top[2].rho < -0.8);
	assert_string_equal(top[2].name, "h1:rxe0/1/against");
	assert_true(!strcmp(top[0].name, "sw:backlog") ||
		    !strcmp(top[0].name, "h1:rxe0/1/follows"));
	assert_true(top[0].high_mean > top[0].low_mean);
	{
		json_t *root = NULL, *iv;
		char *txt = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&txt, &len);

		assert_int_equal(rperf_run_report_json(r, &root), 0);
		iv = json_array_get(
			json_object_get(
				json_array_get(
					json_object_get(root, "generators"), 0),
				"intervals"),
			0);
		/* interval 0 starts after the warm-up: the row from 1 tick */
		assert_int_equal(json_integer_value(json_object_get(
					 json_object_get(iv, "counters"),
					 "h1:rxe0/1/follows")),
				 101);
		/* a gauge: its reading nearest the interval's middle (a tie
		 * of ticks 1 and 2: the later, at the interval's end) */
		assert_int_equal(
			json_integer_value(json_object_get(
				json_object_get(iv, "counters"), "sw:backlog")),
			9002);
		assert_non_null(json_object_get(
			json_object_get(root, "counters"), "tail"));
		json_decref(root);
		assert_non_null(f);
		run_ctr_text(f, r);
		fclose(f);
		assert_non_null(strstr(txt, "counters vs p99 of probe:"));
		assert_non_null(
			strstr(txt, "switch sw: counters command ran 0"));
		free(txt);
	}
	rperf_run_results_free(r);
	fx_job_free(j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ranked),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
