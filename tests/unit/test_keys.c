/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The key table's job-file halves (job/options.h): each names a field
 * that holds every value its range admits, a key is not declared twice for
 * one section type, the ranks order the messages' key lists, and a key the
 * table declares once with both spellings reaches both parsers.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "cli/parse.h"
#include "job/options.h"
#include "job/job.h"

static size_t dest_size(enum rperf_job_dest d)
{
	return d == RPERF_JOB_GLOBAL ? sizeof(struct rperf_job_global) :
	       d == RPERF_JOB_HOST   ? sizeof(struct rperf_host_sel) :
				       sizeof(struct rperf_gen_spec);
}

/* Does [min, max] fit a field of @width bytes (int fields are signed)? */
static bool fits(const struct rperf_job_view *v, size_t width)
{
	if (v->type == RPERF_OT_INT && width == sizeof(int))
		return v->min >= INT32_MIN && v->max <= INT32_MAX;
	if (width >= 8)
		return true;
	return v->min >= 0 && (uint64_t)v->max < (1ull << (8 * width));
}

static void fields_hold_their_ranges(void **state)
{
	struct rperf_key_iter it = { 0 };
	const struct rperf_opt *o;
	size_t n = 0;

	(void)state;
	while ((o = rperf_key_next(&it))) {
		struct rperf_job_view v;

		if (!o->job.name)
			continue;
		n++;
		assert_non_null(o->help);
		rperf_job_key_view(o, &v);
		if (v.type == RPERF_OT_SPECIAL)
			continue;
		assert_true(o->job.width > 0);
		assert_true(o->job.off + o->job.width <=
			    dest_size(o->job.dest));
		if (v.type == RPERF_OT_INT || v.type == RPERF_OT_COUNT ||
		    v.type == RPERF_OT_SIZE || v.type == RPERF_OT_MTU ||
		    v.type == RPERF_OT_TIME) {
			if (!fits(&v, o->job.width))
				fail_msg("%s: [%lld, %lld] does not fit %zu B",
					 o->job.name, (long long)v.min,
					 (long long)v.max, o->job.width);
		}
		/* a shared description must be one the job parser reads */
		assert_true(v.type != RPERF_OT_FLAG && v.type != RPERF_OT_STR &&
			    v.type != RPERF_OT_SIZE_LIST &&
			    v.type != RPERF_OT_PCT_LIST &&
			    v.type != RPERF_OT_STR_LIST);
	}
	assert_true(n >= 50);
}

static void one_declaration_per_section(void **state)
{
	const struct rperf_opt *keys[128];
	size_t n = rperf_job_keys(~0u, keys, 128);

	(void)state;
	assert_true(n < 128);
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++) {
			assert_true(keys[i]->job.rank < keys[j]->job.rank);
			if (!strcmp(keys[i]->job.name, keys[j]->job.name) &&
			    (keys[i]->job.sects & keys[j]->job.sects))
				fail_msg("%s declared twice",
					 keys[i]->job.name);
		}
}

/* --ib-port and a [host]'s port are one entry: the same range, refused in
 * the same words by both parsers. */
static void one_entry_both_parsers(void **state)
{
	const char *argv[] = { "rperf", "lat", "--ib-port", "256", NULL };
	const struct rperf_opt *o = rperf_opt_find("ib-port");
	struct rperf_cmdline cfg;
	struct rperf_job *job = NULL;
	enum rperf_cli_action act;
	char err[512], jerr[512];

	(void)state;
	assert_string_equal(o->job.name, "port");
	assert_int_equal(rperf_cli_parse(4, (char **)argv, &cfg, &act, err,
					 sizeof(err)),
			 ERANGE);
	assert_int_not_equal(rperf_job_parse("[host a]\ncontrol = x\nport = "
					     "256\n",
					     "t.ini", &job, jerr, sizeof(jerr)),
			     0);
	assert_null(job);
	assert_non_null(strstr(err, "256"));
	/* the range's words after the option's and the key's names */
	assert_string_equal(strchr(err, ' '), strstr(jerr, "port: ") + 5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fields_hold_their_ranges),
		cmocka_unit_test(one_declaration_per_section),
		cmocka_unit_test(one_entry_both_parsers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
