/* SPDX-License-Identifier: BSD-2-Clause */
/* rperf run --mpi: ranks to hosts (src/mpi/mpi_plan.c), and the refusal of
 * a build without MPI (mpi_none.c) when this build has none. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "mpi/mpi.h"

/* h4 takes part in nothing: it gets no rank */
static const char job_text[] = "[host h1]\ncontrol = 10.0.0.1\n"
			       "[host h4]\ncontrol = 10.0.0.4\n"
			       "[host h2]\ncontrol = node2:19000\n"
			       "[host h3]\ncontrol = 10.0.0.3\n"
			       "[lsg p]\nfrom = h2\nto = h1\n"
			       "[bsg b]\nfrom = h3\nto = h1\n";

static struct rperf_job *load(void)
{
	struct rperf_job *job = NULL;
	char err[256];

	assert_int_equal(
		rperf_job_parse(job_text, "m.ini", &job, err, sizeof(err)), 0);
	return job;
}

static void test_one_rank_per_host(void **state)
{
	struct rperf_mpi_plan *p = calloc(1, sizeof(*p));
	struct rperf_job *job = load();
	char err[512];

	(void)state;
	assert_int_equal(rperf_mpi_plan_make(job, 3, p, err, sizeof(err)), 0);
	assert_false(p->ctl_only);
	assert_int_equal(p->nranks, 3);
	assert_string_equal(p->rank[0].host, "h1");
	assert_string_equal(p->rank[0].bind, "10.0.0.1");
	assert_string_equal(p->rank[1].host, "h2"); /* file order, h4 out */
	assert_string_equal(p->rank[1].bind, "node2"); /* no port */
	assert_string_equal(p->rank[2].host, "h3");
	rperf_job_free(job);
	free(p);
}

static void test_controller_rank(void **state)
{
	struct rperf_mpi_plan *p = calloc(1, sizeof(*p));
	struct rperf_job *job = load();
	char err[512];

	(void)state;
	assert_int_equal(rperf_mpi_plan_make(job, 4, p, err, sizeof(err)), 0);
	assert_true(p->ctl_only);
	assert_string_equal(p->rank[0].host, ""); /* only the controller */
	assert_string_equal(p->rank[1].host, "h1");
	assert_string_equal(p->rank[3].host, "h3");
	rperf_job_free(job);
	free(p);
}

static void test_wrong_rank_count(void **state)
{
	struct rperf_mpi_plan *p = calloc(1, sizeof(*p));
	struct rperf_job *job = load();
	char err[512];

	(void)state;
	assert_int_equal(rperf_mpi_plan_make(job, 2, p, err, sizeof(err)),
			 EINVAL);
	assert_non_null(strstr(err, "2 MPI rank(s) for the 3 host(s)"));
	assert_non_null(strstr(err, "mpirun -np 3"));
	assert_int_equal(rperf_mpi_plan_make(job, 5, p, err, sizeof(err)),
			 EINVAL);
	assert_int_equal(rperf_mpi_plan_make(job, 0, p, err, sizeof(err)),
			 EINVAL);
	rperf_job_free(job);
	free(p);
}

static void test_build_without_mpi(void **state)
{
	struct rperf_mpi m;
	char err[512] = "";

	(void)state;
	if (rperf_mpi_built())
		skip(); /* MPI_Init here would need a launcher */
	assert_int_equal(rperf_mpi_init(&m, err, sizeof(err)), ENOTSUP);
	assert_non_null(strstr(err, "-DRPERF_MPI=ON"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_rank_per_host),
		cmocka_unit_test(test_controller_rank),
		cmocka_unit_test(test_wrong_rank_count),
		cmocka_unit_test(test_build_without_mpi),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
