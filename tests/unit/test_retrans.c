// SPDX-License-Identifier: BSD-2-Clause
/*
 * Retransmissions in the run reports (issue 14): the hw counters read from a
 * fake sysfs tree (verbs/hwcnt.c), their deltas, the judgement with and
 * without readable counters (twohost/twohost_retrans.c: outliers against
 * the RC ACK timeout for lat, a stall for bw), and the "retransmissions"
 * JSON object and "retransmissions likely:" text line (report_retrans.c).
 */
#include "report_fixture.h"

#include <sys/stat.h>
#include <unistd.h>

#include "twohost/twohost_retrans.h"
#include "verbs/hwcnt.h"

struct tree {
	char root[64];
};

static void put(const struct tree *t, const char *name, const char *val)
{
	char p[256];
	FILE *f;

	snprintf(p, sizeof(p), "%s/rxe_x/ports/1/hw_counters/%s", t->root,
		 name);
	f = fopen(p, "w");
	assert_non_null(f);
	fputs(val, f);
	fclose(f);
}

static void make_tree(struct tree *t)
{
	char p[256];

	snprintf(t->root, sizeof(t->root), "/tmp/rperf-hwcnt.XXXXXX");
	assert_non_null(mkdtemp(t->root));
	snprintf(p, sizeof(p), "%s/rxe_x", t->root);
	assert_int_equal(mkdir(p, 0755), 0);
	snprintf(p, sizeof(p), "%s/rxe_x/ports", t->root);
	assert_int_equal(mkdir(p, 0755), 0);
	snprintf(p, sizeof(p), "%s/rxe_x/ports/1", t->root);
	assert_int_equal(mkdir(p, 0755), 0);
	snprintf(p, sizeof(p), "%s/rxe_x/ports/1/hw_counters", t->root);
	assert_int_equal(mkdir(p, 0755), 0);
	put(t, "completer_retry_err", "5\n");
	put(t, "rcvd_seq_err", "0\n");
	put(t, "sent_pkts", "1000\n"); /* not a retransmission counter */
}

static void drop_tree(const struct tree *t)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", t->root);
	assert_int_equal(system(cmd), 0);
}

static void test_hwcnt_read_delta(void **state)
{
	struct tree t;
	struct rperf_hwcnt a, b, d;
	char err[256] = "";

	(void)state;
	make_tree(&t);
	assert_int_equal(
		rperf_hwcnt_read(t.root, "rxe_x", 1, &a, err, sizeof(err)), 0);
	assert_int_equal(a.n, 2); /* sent_pkts is not read */
	put(&t, "completer_retry_err", "9\n");
	put(&t, "rcvd_seq_err", "2\n");
	assert_int_equal(
		rperf_hwcnt_read(t.root, "rxe_x", 1, &b, err, sizeof(err)), 0);
	assert_int_equal(rperf_hwcnt_delta(&a, &b, &d), 6);
	assert_int_equal(d.n, 2);
	/* no such device or port: ENOENT, named */
	assert_int_equal(rperf_hwcnt_read(t.root, "rxe_x", 2, &a, err,
					  sizeof(err)),
			 ENOENT);
	assert_non_null(strstr(err, "rxe_x/ports/2/hw_counters"));
	assert_int_equal(rperf_hwcnt_read(t.root, "../x", 1, &a, err,
					  sizeof(err)),
			 EINVAL);
	put(&t, "rcvd_seq_err", "many\n");
	assert_int_equal(rperf_hwcnt_read(t.root, "rxe_x", 1, &a, err,
					  sizeof(err)),
			 EINVAL);
	assert_non_null(strstr(err, "rcvd_seq_err"));
	drop_tree(&t);
}

static void test_view_counters(void **state)
{
	struct fixture *fx = *state;
	struct rperf_retrans_probe p;
	struct rperf_retrans v;
	char ev[384], *text;
	json_t *root, *o, *c;
	struct tree t;

	make_tree(&t);
	rperf_retrans_begin(&p, t.root, "rxe_x", 1, 14);
	put(&t, "completer_retry_err", "8\n");
	rperf_retrans_end(&p, t.root);
	assert_true(rperf_retrans_view(&p, &fx->r, &v, ev, sizeof(ev)));
	assert_true(v.likely);
	assert_string_equal(v.source, "hw_counters");
	assert_non_null(strstr(ev, "completer_retry_err +3"));
	fx->r.retrans = &v;
	text = render(rperf_report_json, &fx->r);
	root = parse(text);
	free(text);
	o = get(root, "retransmissions");
	assert_true(json_is_true(get(o, "likely")));
	assert_string_equal(get_str(o, "device"), "rxe_x");
	assert_int_equal(get_int(o, "port"), 1);
	c = get(o, "counters");
	assert_int_equal(get_int(c, "completer_retry_err"), 3);
	assert_int_equal(get_int(c, "rcvd_seq_err"), 0);
	json_decref(root);
	/* nothing moved: "no" */
	rperf_retrans_begin(&p, t.root, "rxe_x", 1, 14);
	rperf_retrans_end(&p, t.root);
	assert_true(rperf_retrans_view(&p, &fx->r, &v, ev, sizeof(ev)));
	assert_false(v.likely);
	assert_non_null(strstr(ev, "none of 2 retransmission counters moved"));
	fx->r.retrans = NULL;
	drop_tree(&t);
}

static void test_view_figures_lat(void **state)
{
	struct fixture *fx = *state;
	struct rperf_retrans_probe p;
	struct rperf_retrans v;
	char ev[384];

	/* no such device: the figures decide; the fixture's RTTs are far
	 * below a 67 ms ACK timeout */
	rperf_retrans_begin(&p, "/nonexistent", "rxe_x", 1, 14);
	rperf_retrans_end(&p, "/nonexistent");
	assert_true(rperf_retrans_view(&p, &fx->r, &v, ev, sizeof(ev)));
	assert_false(v.likely);
	assert_string_equal(v.source, "figures");
	assert_non_null(v.unreadable);
	assert_non_null(strstr(ev, "is below the RC ACK timeout (67.109 ms)"));
	/* one sample of 100 ms: reached, and >> the median */
	rperf_hist_record(fx->rtt, 100000000);
	assert_true(rperf_retrans_view(&p, &fx->r, &v, ev, sizeof(ev)));
	assert_true(v.likely);
	assert_non_null(strstr(ev, "reached the RC ACK timeout"));
}

static void test_view_figures_bw(void **state)
{
	struct rperf_report r = { .command = "bw" };
	struct rperf_retrans_probe p;
	struct rperf_retrans v;
	char ev[384];

	(void)state;
	rperf_retrans_begin(&p, "/nonexistent", "rxe_x", 1, 14);
	assert_true(rperf_retrans_view(&p, &r, &v, ev, sizeof(ev)));
	assert_false(v.likely);
	assert_non_null(strstr(ev, "cannot be ruled out"));
	r.error = "no completion for 2.1 s: the peer or the path stalled";
	assert_true(rperf_retrans_view(&p, &r, &v, ev, sizeof(ev)));
	assert_true(v.likely);
	/* never begun: nothing to report */
	memset(&p, 0, sizeof(p));
	assert_false(rperf_retrans_view(&p, &r, &v, ev, sizeof(ev)));
}

static int text_of(FILE *f, const struct rperf_report *r)
{
	return rperf_report_retrans_text(f, r->retrans);
}

static void test_text_line(void **state)
{
	struct fixture *fx = *state;
	struct rperf_retrans v = { .likely = true,
				   .source = "figures",
				   .evidence = "the run stalled" };
	json_t *root;
	char *s;

	fx->r.retrans = &v;
	s = render(text_of, &fx->r);
	assert_string_equal(
		s, "  retransmissions likely: yes (the run stalled)\n");
	free(s);
	fx->r.retrans = NULL;
	s = render(text_of, &fx->r);
	assert_string_equal(s, "");
	free(s);
	/* a report without a probe has no "retransmissions" key */
	s = render(rperf_report_json, &fx->r);
	root = parse(s);
	free(s);
	assert_null(json_object_get(root, "retransmissions"));
	json_decref(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hwcnt_read_delta),
		cmocka_unit_test_setup_teardown(test_view_counters, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_view_figures_lat, setup,
						teardown),
		cmocka_unit_test(test_view_figures_bw),
		cmocka_unit_test_setup_teardown(test_text_line, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
