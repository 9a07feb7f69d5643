// SPDX-License-Identifier: BSD-2-Clause
/*
 * rperf lat's result warnings (twohost_lat_report.c): each kind once, naming the
 * sizes it applies to, so that -a does not print the same line per size.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "job/cmdline.h"
#include "gen/lsg.h"
#include "twohost/twohost_lat.h"

#define NS 12

struct warn_fixture {
	struct rperf_cmdline cfg;
	struct rperf_lat_run run;
	struct rperf_lsg_res res[NS];
	struct rperf_sched_figs sched[NS];
};

/* 12 sizes (2 B .. 4 KiB, as -a --all-max 4K), rperf method, 200 samples
 * each, every wire SEND precompleted (Soft-RoCE without sequential). */
static void make(struct warn_fixture *w)
{
	memset(w, 0, sizeof(*w));
	rperf_cmdline_defaults(&w->cfg);
	w->cfg.nsizes = NS;
	for (size_t i = 0; i < NS; i++)
		w->cfg.sizes[i] = 2ull << i;
	w->run.c.cfg = &w->cfg;
	w->run.clk.trusted = true;
	w->run.res = w->res;
	w->run.sched = w->sched;
	w->run.nres = NS;
	for (size_t i = 0; i < NS; i++) {
		assert_int_equal(rperf_lsg_res_init(&w->res[i],
						    RPERF_METHOD_RPERF, false),
				 0);
		w->res[i].samples = 200;
		w->res[i].precompleted = 200;
		for (int k = 0; k < 200; k++) {
			rperf_hist_record(w->res[i].wire, 150000 + k);
			rperf_hist_record(w->res[i].loop, 80000 + k);
		}
	}
}

static void unmake(struct warn_fixture *w)
{
	for (size_t i = 0; i < NS; i++)
		rperf_lsg_res_fini(&w->res[i]);
}

static void once_for_all_sizes(void **state)
{
	struct warn_fixture w;

	(void)state;
	make(&w);
	rperf_lat_check_results(&w.run);
	assert_int_equal(w.run.c.notes.nwarnings, 1);
	assert_string_equal(
		w.run.c.notes.warnings[0],
		"every size (12, 2-4096 B): 100.0 % of wire SENDs were complete when ibv_post_send returned (the provider works inside the post, as Soft-RoCE): use --pair-order sequential");
	unmake(&w);
}

static void some_sizes_and_ranges(void **state)
{
	struct warn_fixture w;

	(void)state;
	make(&w);
	for (size_t i = 0; i < NS; i++)
		w.res[i].precompleted = i == 0 ? 193 : i == 11 ? 200 : 0;
	w.res[3].nonpositive = 20; /* 10 % of 16 B's RTTs */
	w.res[5].nonpositive = 30; /* 15 % of 64 B's */
	rperf_lat_check_results(&w.run);
	assert_int_equal(w.run.c.notes.nwarnings, 2);
	assert_non_null(strstr(w.run.c.notes.warnings[0],
			       "2 and 4096 B: 96.5-100.0 % of wire SENDs"));
	assert_non_null(strstr(w.run.c.notes.warnings[1],
			       "16 and 64 B: 10.0-15.0 % of RTTs are <= 0"));
	/* sequential pair order: no precompleted warning at all */
	w.run.c.notes.nwarnings = 0;
	w.cfg.spec.pair_order = RPERF_PAIR_SEQUENTIAL;
	rperf_lat_check_results(&w.run);
	assert_int_equal(w.run.c.notes.nwarnings, 1);
	assert_non_null(strstr(w.run.c.notes.warnings[0], "of RTTs are <= 0"));
	/* five sizes of twelve: a count and the range */
	w.run.c.notes.nwarnings = 0;
	for (size_t i = 0; i < NS; i++)
		w.res[i].nonpositive = i >= 2 && i < 7 ? 20 : 0;
	rperf_lat_check_results(&w.run);
	assert_int_equal(w.run.c.notes.nwarnings, 1);
	assert_non_null(strstr(w.run.c.notes.warnings[0],
			       "5 sizes (8-128 B): 10.0 % of RTTs"));
	unmake(&w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(once_for_all_sizes),
		cmocka_unit_test(some_sizes_and_ranges),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
