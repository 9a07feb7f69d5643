/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The mesh (issue 21): the rounds schedule (src/run/mesh_plan.c) for N up
 * to 1,024, the localization (mesh_locate.c) on synthetic matrices with
 * known answers, and the [mesh NAME] job section (src/job/job_mesh.c).
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "job/job.h"
#include "run/mesh.h"

/* Every unordered pair exactly once (so every ordered pair once, both
 * directions measured in the pair's round), no host twice in a round,
 * the expected number of rounds and of pairs per round. */
static void check_plan(size_t n, enum rperf_mesh_schedule sched)
{
	struct rperf_mesh_plan p;
	uint8_t *seen = calloc(n * n, 1);
	size_t *busy = calloc(n, sizeof(*busy)), npairs = 0;

	assert_non_null(seen);
	assert_non_null(busy);
	assert_int_equal(rperf_mesh_plan_make(n, sched, &p), 0);
	assert_int_equal(p.nrounds, sched == RPERF_MESH_CONCURRENT ? 1 :
				    n & 1			   ? n :
								     n - 1);
	for (size_t r = 0; r < p.nrounds; r++) {
		size_t in_round = p.first[r + 1] - p.first[r];

		if (sched == RPERF_MESH_ROUNDS)
			assert_int_equal(in_round, n / 2);
		for (size_t q = p.first[r]; q < p.first[r + 1]; q++) {
			size_t a = p.pairs[q].a, b = p.pairs[q].b;

			assert_true(a < b);
			assert_true(b < n);
			assert_int_equal(seen[a * n + b], 0);
			seen[a * n + b] = 1;
			if (sched == RPERF_MESH_ROUNDS) {
				/* busy[h] = round + 1 when h is in a pair */
				assert_true(busy[a] != r + 1);
				assert_true(busy[b] != r + 1);
			}
			busy[a] = busy[b] = r + 1;
			npairs++;
		}
	}
	assert_int_equal(npairs, n * (n - 1) / 2);
	for (size_t a = 0; a < n; a++)
		for (size_t b = a + 1; b < n; b++)
			assert_int_equal(seen[a * n + b], 1);
	rperf_mesh_plan_free(&p);
	free(seen);
	free(busy);
}

static void test_rounds_small(void **state)
{
	(void)state;
	for (size_t n = 2; n <= 70; n++)
		check_plan(n, RPERF_MESH_ROUNDS);
}

static void test_rounds_large(void **state)
{
	static const size_t ns[] = { 127, 128, 255, 256, 511, 999, 1023, 1024 };

	(void)state;
	for (size_t i = 0; i < sizeof(ns) / sizeof(ns[0]); i++)
		check_plan(ns[i], RPERF_MESH_ROUNDS);
}

static void test_concurrent_and_bounds(void **state)
{
	struct rperf_mesh_plan p;

	(void)state;
	for (size_t n = 2; n <= 20; n++)
		check_plan(n, RPERF_MESH_CONCURRENT);
	assert_int_equal(rperf_mesh_plan_make(1, RPERF_MESH_ROUNDS, &p),
			 EINVAL);
	assert_int_equal(rperf_mesh_plan_make(RPERF_MESH_MAX_HOSTS + 1,
					      RPERF_MESH_ROUNDS, &p),
			 EINVAL);
	rperf_mesh_plan_free(&p);
}

/* ---- localization on synthetic matrices ---- */

#define N 8
#define BASE 150000.0 /* ns */

/* A deterministic noise of +-@amp around @base (LCG). */
static void fill(double *m, double amp, unsigned seed)
{
	for (size_t i = 0; i < N; i++)
		for (size_t j = 0; j < N; j++) {
			seed = seed * 1103515245u + 12345u;
			m[i * N + j] =
				i == j ? NAN :
					 BASE + amp * ((double)(seed >> 16 &
								0x7fff) /
							       16383.5 -
						       1.0);
		}
}

/* Delay every path through port @h by @d (a delayed switch port adds its
 * delay once to each round trip from or to its host). */
static void slow_port(double *m, size_t h, double d)
{
	for (size_t o = 0; o < N; o++) {
		if (o == h)
			continue;
		m[h * N + o] += d;
		m[o * N + h] += d;
	}
}

static void locate(const double *m, struct rperf_mesh_verdict *v)
{
	assert_int_equal(rperf_mesh_locate(m, N, RPERF_MESH_OUT_ABOVE_NS, v),
			 0);
	assert_true(v->decided);
}

static void test_no_fault(void **state)
{
	double m[N * N];
	struct rperf_mesh_verdict v;

	(void)state;
	for (unsigned seed = 1; seed < 200; seed++) {
		fill(m, 15000, seed); /* +-10 % */
		locate(m, &v);
		assert_int_equal(v.nsuspects, 0);
		assert_int_equal(v.cells, N * (N - 1));
		assert_true(fabs(v.base_ns - BASE) < 15000);
		rperf_mesh_verdict_free(&v);
	}
}

static void test_one_port(void **state)
{
	double m[N * N];
	struct rperf_mesh_verdict v;

	(void)state;
	for (unsigned seed = 1; seed < 50; seed++) {
		double d = 200000 + 8000 * seed; /* 200..600 us */
		size_t h = seed % N;

		fill(m, 15000, seed);
		slow_port(m, h, d);
		locate(m, &v);
		assert_int_equal(v.nsuspects, 1);
		assert_int_equal(v.suspects[0].kind, RPERF_MESH_PORT);
		assert_int_equal(v.suspects[0].host, h);
		assert_true(fabs(v.suspects[0].added_ns - d) < 0.15 * d);
		rperf_mesh_verdict_free(&v);
	}
}

static void test_two_ports(void **state)
{
	double m[N * N];
	struct rperf_mesh_verdict v;

	(void)state;
	for (unsigned seed = 1; seed < 50; seed++) {
		double d = 200000 + 8000 * seed;
		size_t a = seed % N, b = (seed + 1 + seed % 5) % N;

		fill(m, 15000, seed);
		slow_port(m, a, d);
		slow_port(m, b, d);
		locate(m, &v);
		assert_int_equal(v.nsuspects, 2); /* no pair: a<->b is 2d */
		for (size_t k = 0; k < 2; k++) {
			assert_int_equal(v.suspects[k].kind, RPERF_MESH_PORT);
			assert_true(v.suspects[k].host == a ||
				    v.suspects[k].host == b);
			assert_true(fabs(v.suspects[k].added_ns - d) <
				    0.15 * d);
		}
		assert_true(v.suspects[0].host != v.suspects[1].host);
		rperf_mesh_verdict_free(&v);
	}
}

static void test_one_pair(void **state)
{
	double m[N * N];
	struct rperf_mesh_verdict v;

	(void)state;
	for (unsigned seed = 1; seed < 50; seed++) {
		double d = 200000 + 8000 * seed;
		size_t a = seed % N, b = (a + 3) % N;

		fill(m, 15000, seed);
		m[a * N + b] += d; /* one direction only */
		locate(m, &v);
		assert_int_equal(v.nsuspects, 1);
		assert_int_equal(v.suspects[0].kind, RPERF_MESH_PAIR);
		assert_int_equal(v.suspects[0].from, a);
		assert_int_equal(v.suspects[0].to, b);
		assert_true(fabs(v.suspects[0].added_ns - d) < 0.15 * d);
		rperf_mesh_verdict_free(&v);
	}
}

/* Failed cells (NaN) are left out; the verdict says how many it rests on. */
static void test_failed_cells(void **state)
{
	double m[N * N];
	struct rperf_mesh_verdict v;

	(void)state;
	fill(m, 15000, 7);
	slow_port(m, 2, 300000);
	for (size_t o = 0; o < N; o++) /* host 5 gone: row and column */
		m[5 * N + o] = m[o * N + 5] = NAN;
	locate(m, &v);
	assert_int_equal(v.cells, (N - 1) * (N - 2));
	assert_int_equal(v.nsuspects, 1);
	assert_int_equal(v.suspects[0].host, 2);
	rperf_mesh_verdict_free(&v);
	/* two cells: no verdict */
	for (size_t i = 0; i < N * N; i++)
		m[i] = NAN;
	m[1] = m[N] = BASE;
	assert_int_equal(rperf_mesh_locate(m, N, RPERF_MESH_OUT_ABOVE_NS, &v),
			 0);
	assert_false(v.decided);
	assert_int_equal(v.nsuspects, 0);
}

/* Cells' p10 (ns, -1 = diagonal) of lab.mesh8's first tuned run (00:25):
 * 428 us of netem on port h6, then on h4 and h6 (ping through it: +580
 * us); the cells through a delayed port spread by +-130 us (the delay's
 * own jitter under TCG), which named 3 and 7 spurious pairs before a pair
 * touching a named port had to stand above that port's noise. */
static const double lab_port1[N * N] = {
	-1,	24127,	30143,	4303,	-3831,	530431, 3063,	 36735,
	15071,	-1,	10207,	25663,	27455,	538623, -114943, 26559,
	27071,	10399,	-1,	19135,	-3911,	571391, 22719,	 24639,
	40575,	48255,	39295,	-1,	34943,	530431, 130,	 26303,
	20799,	39551,	10591,	15519,	-1,	657407, 30783,	 16959,
	530431, 534527, 579583, 523263, 686079, -1,	575487,	 673791,
	23871,	15647,	29503,	669,	22847,	571391, -1,	 12895,
	21311,	13663,	4655,	6991,	-11679, 735231, 729,	 -1
};
static const double lab_port2[N * N] = {
	-1,	17087,	-350,	575487,	 2855,	 735231,  21951,   41599,
	41855,	-1,	22207,	567295,	 41599,	 530431,  30527,   13791,
	4367,	24255,	-1,	583679,	 5359,	 653311,  -240127, 34431,
	583679, 591871, 591871, -1,	 690175, 1069055, 731135,  755711,
	-86271, 33919,	-290,	624639,	 -1,	 686079,  40831,   -1371,
	727039, 526335, 669695, 1077247, 727039, -1,	  542719,  575487,
	24127,	26175,	32063,	657407,	 41087,	 534527,  -1,	   -8799,
	25407,	24383,	1299,	747519,	 42111,	 563199,  9567,	   -1
};

/* The p10s of the 01:00 run (integrated main): 426 us on ports h5 and h8
 * (ping through one: +553 us); h4 <-> h8 and h6 <-> h8 stood +112 .. +178
 * us above h8's other cells in both directions (a late window, no fault)
 * and were named as 3 pairs before a pair behind a named port had to stand
 * above that port's added RTT. */
static const double lab_port2b[N * N] = {
	-1,	12959,	22079,	8735,	530431,	 36735,	 26431,	 519167,
	27199,	-1,	35711,	26047,	517119,	 25151,	 11231,	 546815,
	27711,	43903,	-1,	28607,	608255,	 18495,	 1923,	 550911,
	27199,	11551,	25919,	-1,	694271,	 20927,	 17471,	 702463,
	492543, 530431, 698367, 800767, -1,	 677887, 796671, 1167359,
	25791,	27839,	24767,	16351,	657407,	 -1,	 16447,	 677887,
	20543,	19775,	28863,	849,	854015,	 7407,	 -1,	 526335,
	513023, 523263, 519167, 636927, 1126399, 673791, 519167, -1
};

static void lab_matrix(const double *in, double *m)
{
	for (size_t i = 0; i < N * N; i++)
		m[i] = in[i] < 0 && i % (N + 1) == 0 ? NAN : in[i];
}

/* exactly ports @a and @b named in the lab matrix @in (floor @floor) */
static void two_ports(const double *in, double floor, size_t a, size_t b)
{
	double m[N * N];
	struct rperf_mesh_verdict v;

	lab_matrix(in, m);
	assert_int_equal(rperf_mesh_locate(m, N, floor, &v), 0);
	assert_int_equal(v.nsuspects, 2);
	assert_int_equal(v.suspects[0].kind, RPERF_MESH_PORT);
	assert_int_equal(v.suspects[0].host, a);
	assert_int_equal(v.suspects[1].kind, RPERF_MESH_PORT);
	assert_int_equal(v.suspects[1].host, b);
	rperf_mesh_verdict_free(&v);
}

static void test_lab_matrices(void **state)
{
	double m[N * N];
	struct rperf_mesh_verdict v;

	(void)state;
	lab_matrix(lab_port1, m);
	locate(m, &v);
	assert_int_equal(v.nsuspects, 1);
	assert_int_equal(v.suspects[0].kind, RPERF_MESH_PORT);
	assert_int_equal(v.suspects[0].host, 5);
	rperf_mesh_verdict_free(&v);
	two_ports(lab_port2, RPERF_MESH_OUT_ABOVE_NS, 3, 5);
	two_ports(lab_port2b, 100000, 4, 7);
	/* a pair behind a named port twice as far out as the port is one */
	lab_matrix(lab_port2b, m);
	m[2 * N + 4] += 1400000;
	assert_int_equal(rperf_mesh_locate(m, N, 100000, &v), 0);
	assert_int_equal(v.nsuspects, 3);
	assert_int_equal(v.suspects[2].kind, RPERF_MESH_PAIR);
	assert_int_equal(v.suspects[2].from, 2);
	assert_int_equal(v.suspects[2].to, 4);
	rperf_mesh_verdict_free(&v);
}

/* A pair named by the first verdict is measured again (mesh_run.c): a
 * cell lifted once (a late window) is no pair after it, one lifted twice
 * stays named; rperf_mesh_again_pairs lists each unordered pair once. */
static void test_again(void **state)
{
	struct rperf_job_mesh mh = { .nhosts = N,
				     .statistic = RPERF_MESH_STAT_P10,
				     .out_above_ns = 100000 };
	struct rperf_mesh_cell cells[N * N];
	struct rperf_mesh_result r = { .mesh = &mh, .cells = cells };
	struct rperf_mesh_pair pairs[RPERF_MESH_AGAIN_MAX];
	double m[N * N];

	(void)state;
	fill(m, 4000, 7);
	m[1 * N + 2] += 300000; /* h2 -> h3 and h3 -> h2: one late window */
	m[2 * N + 1] += 280000;
	for (size_t i = 0; i < N * N; i++)
		cells[i] = (struct rperf_mesh_cell){
			.planned = i % (N + 1) != 0,
			.status = RPERF_RUN_ST_OK,
			.samples = 300,
			.p10_ns = m[i],
			.again_ns = NAN,
		};
	assert_int_equal(rperf_mesh_result_locate(&r), 0);
	assert_int_equal(r.verdict.nsuspects, 2);
	assert_int_equal(rperf_mesh_again_pairs(&r.verdict, pairs), 1);
	assert_int_equal(pairs[0].a, 1);
	assert_int_equal(pairs[0].b, 2);
	cells[1 * N + 2].again_ns = BASE + 2000; /* measured again: fine */
	cells[2 * N + 1].again_ns = BASE + 390000; /* slow twice */
	assert_int_equal(rperf_mesh_result_locate(&r), 0);
	assert_int_equal(r.verdict.nsuspects, 1);
	assert_int_equal(r.verdict.suspects[0].kind, RPERF_MESH_PAIR);
	assert_int_equal(r.verdict.suspects[0].from, 2);
	assert_int_equal(r.verdict.suspects[0].to, 1);
	assert_true(r.verdict.suspects[0].added_ns > 250000);
	rperf_mesh_verdict_free(&r.verdict);
}

/* ---- the job section ---- */

#define HOSTS3                            \
	"[host h1]\ncontrol = 10.0.0.1\n" \
	"[host h2]\ncontrol = 10.0.0.2\n" \
	"[host h3]\ncontrol = 10.0.0.3\n"

static void test_job_mesh(void **state)
{
	struct rperf_job *job = NULL;
	char err[512];

	(void)state;
	assert_int_equal(rperf_job_parse(HOSTS3
					 "[global]\nduration = 3s\n"
					 "[mesh m]\nsize = 128\nrate = 1M\n",
					 "t.ini", &job, err, sizeof(err)),
			 0);
	assert_non_null(job->mesh);
	assert_int_equal(job->ninst, 0);
	assert_int_equal(job->mesh->nhosts, 3);
	assert_int_equal(job->mesh->schedule, RPERF_MESH_ROUNDS);
	assert_int_equal(job->mesh->spec.size, 128);
	assert_int_equal(job->mesh->spec.kind, RPERF_GEN_LSG);
	assert_int_equal(job->mesh->spec.duration_ns, 3000000000ull);
	assert_string_equal(job->mesh->spec.name, "m");
	rperf_job_free(job);
	assert_int_equal(
		rperf_job_parse(HOSTS3
				"[mesh m]\nhosts = h3, h1\n"
				"schedule = concurrent\nduration = 200ms\n"
				"warmup = 0\n[bsg load]\nfrom = h2\nto = h1\n",
				"t.ini", &job, err, sizeof(err)),
		0);
	assert_int_equal(job->mesh->nhosts, 2);
	assert_int_equal(job->mesh->hosts[0], 2);
	assert_int_equal(job->mesh->hosts[1], 0);
	assert_int_equal(job->mesh->schedule, RPERF_MESH_CONCURRENT);
	assert_int_equal(job->mesh->spec.duration_ns, 200000000ull);
	assert_int_equal(job->mesh->spec.warmup_ns, 0);
	assert_int_equal(job->ninst, 1);
	rperf_job_free(job);
	/* samples: the duration that offers them at the probe pace; the
	 * probe schedule under probe_schedule */
	assert_int_equal(rperf_job_parse(HOSTS3 "[mesh m]\nsize = 64\n"
						"rate = 256k\nsamples = 300\n",
					 "t.ini", &job, err, sizeof(err)),
			 0);
	assert_int_equal(job->mesh->samples, 300);
	assert_int_equal(job->mesh->spec.duration_ns, 600000000ull);
	rperf_job_free(job);
	assert_int_equal(rperf_job_parse(HOSTS3 "[mesh m]\nsamples = 2k\n"
						"probe_schedule = poisson:1k\n"
						"schedule = concurrent\n",
					 "t.ini", &job, err, sizeof(err)),
			 0);
	assert_int_equal(job->mesh->spec.schedule.kind, RPERF_SCHED_POISSON);
	assert_int_equal(job->mesh->schedule, RPERF_MESH_CONCURRENT);
	assert_int_equal(job->mesh->spec.duration_ns, 2000000000ull);
	rperf_job_free(job);
}

/* examples/mesh-switch.ini loads alone and through examples/lab-hosts.ini
 * (its 7 roles onto the lab's h1..h7), with out_above */
static void test_example(void **state)
{
	const char *src = getenv("RPERF_SRC");
	char path[512], map[512], err[512] = "";
	struct rperf_job_edit ed = { .hosts_map = map };
	struct rperf_job *job = NULL;

	(void)state;
	if (!src)
		skip();
	snprintf(path, sizeof(path), "%s/examples/mesh-switch.ini", src);
	snprintf(map, sizeof(map), "%s/examples/lab-hosts.ini", src);
	if (rperf_job_load(path, &job, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(job->mesh->nhosts, 7);
	assert_int_equal(job->mesh->out_above_ns, RPERF_MESH_OUT_ABOVE_NS);
	assert_int_equal(job->mesh->spec.duration_ns, 2000000000ull);
	assert_int_equal(job->mesh->samples, 2000);
	rperf_job_free(job);
	if (rperf_job_load_edit(path, &ed, &job, err, sizeof(err)))
		fail_msg("%s", err);
	assert_string_equal(rperf_job_host(job, "load5")->control, "10.77.0.7");
	rperf_job_free(job);
	assert_int_equal(rperf_job_parse(HOSTS3 "[mesh m]\nout_above = 150us\n",
					 "t.ini", &job, err, sizeof(err)),
			 0);
	assert_int_equal(job->mesh->out_above_ns, 150000);
	rperf_job_free(job);
}

static void expect_error(const char *text, const char *msg)
{
	struct rperf_job *job = NULL;
	char err[512] = "";

	assert_int_equal(rperf_job_parse(text, "t.ini", &job, err, sizeof(err)),
			 EINVAL);
	assert_null(job);
	if (!strstr(err, msg))
		fail_msg("got '%s', expected '%s'", err, msg);
}

static void test_job_mesh_errors(void **state)
{
	(void)state;
	expect_error(
		HOSTS3 "[mesh m]\nschedule = round\n",
		"t.ini:8: [mesh m] schedule: 'round' is not a choice; accepted: rounds, concurrent");
	expect_error(HOSTS3 "[mesh m]\nhosts = h1\n",
		     "[mesh m] hosts: 1 host: a mesh needs at least 2");
	expect_error(HOSTS3 "[mesh m]\nhosts = h1,h9\n",
		     "t.ini:8: [mesh m] hosts: unknown host 'h9'");
	expect_error(
		HOSTS3 "[mesh m]\nfrom = h1\n",
		"t.ini:8: [mesh m] from: a mesh measures every ordered pair");
	expect_error(HOSTS3 "[mesh m]\ntx_depth = 8\n",
		     "[mesh m] tx_depth: applies to [bsg] sections only");
	/* its probes are an LSG's: lat's rules of method with verb */
	expect_error(HOSTS3 "[mesh m]\nmethod = pingpong\nverb = write\n",
		     "accepted: [global] sink_completion = poll");
	expect_error(HOSTS3 "[mesh m]\nverb = read\n", "method = postpoll");
	expect_error(HOSTS3 "[mesh m]\nhots = all\n",
		     "[mesh m] hots: unknown key; did you mean 'hosts'?");
	expect_error(
		HOSTS3 "[mesh m]\n[mesh n]\n",
		"[mesh n]: a second mesh (the first is [mesh m] at line 7)");
	expect_error(
		HOSTS3 "[mesh m]\n[lsg m]\nfrom = h1\nto = h2\n",
		"[lsg m]: duplicate section (first at line 7 as [mesh m])");
	expect_error(HOSTS3 "[lsg p]\nfrom = h1\nto = h2\nhosts = all\n",
		     "[lsg p] hosts: applies to [mesh] sections only");
	expect_error(
		HOSTS3 "[mesh m]\nstatistic = p90\n",
		"[mesh m] statistic: 'p90' is not a choice; accepted: p50, p10");
	expect_error(HOSTS3 "[mesh m]\nparallel = -1\n", "[mesh m] parallel:");
	expect_error(
		HOSTS3 "[mesh m]\nschedule = poisson:1k\n",
		"[mesh m] schedule: 'poisson:1k' is an LSG probe schedule; in [mesh], schedule is the pair schedule (rounds or concurrent): write probe_schedule = poisson:1k");
	expect_error(
		HOSTS3 "[mesh m]\nprobe_schedule = rounds\n",
		"[mesh m] probe_schedule: 'rounds' is not a probe schedule");
	expect_error(HOSTS3 "[mesh m]\nsamples = 100\n",
		     "[mesh m] samples: samples needs a paced LSG");
	expect_error(HOSTS3 "[mesh m]\nrate = 1M\nsamples = 100\n"
			    "duration = 1s\n",
		     "samples and duration both given");
	expect_error(HOSTS3 "[mesh m]\nsamples = 0\n", "[mesh m] samples:");
	expect_error(HOSTS3 "[mesh m]\nduration = 0\n",
		     "[mesh m] duration: '0' is not a time");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rounds_small),
		cmocka_unit_test(test_rounds_large),
		cmocka_unit_test(test_concurrent_and_bounds),
		cmocka_unit_test(test_no_fault),
		cmocka_unit_test(test_one_port),
		cmocka_unit_test(test_two_ports),
		cmocka_unit_test(test_one_pair),
		cmocka_unit_test(test_failed_cells),
		cmocka_unit_test(test_lab_matrices),
		cmocka_unit_test(test_again),
		cmocka_unit_test(test_job_mesh),
		cmocka_unit_test(test_job_mesh_errors),
		cmocka_unit_test(test_example),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
