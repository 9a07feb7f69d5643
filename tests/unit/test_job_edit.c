/* SPDX-License-Identifier: BSD-2-Clause */
/* Job edits: --hosts-map, --set (rperf_job_load_edit) and their errors. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "job/job.h"

#define JOB                                                       \
	"[host sink]\ncontrol = node0\n"                          \
	"[host probe]\ncontrol = node1\n"                         \
	"[host load1]\ncontrol = node2\n"                         \
	"[host load2]\ncontrol = node3\n"                         \
	"[lsg probe]\nfrom = probe\nto = sink\nsize = 64\n"       \
	"[bsg load]\nfrom = load1, load2\ncount = 2\nto = sink\n" \
	"size = 4K\n"

struct files {
	char job[64], map[64];
};

static void write_file(char *path, size_t len, const char *tmpl,
		       const char *text)
{
	int fd;

	snprintf(path, len, "%s", tmpl);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

static void files_make(struct files *f, const char *job, const char *map)
{
	write_file(f->job, sizeof(f->job), "/tmp/rperf-edit-job.XXXXXX", job);
	f->map[0] = '\0';
	if (map)
		write_file(f->map, sizeof(f->map), "/tmp/rperf-edit-map.XXXXXX",
			   map);
}

static void files_rm(struct files *f)
{
	unlink(f->job);
	if (f->map[0])
		unlink(f->map);
}

/* Load JOB with @map (may be NULL) and @n assigns. */
static int load(struct files *f, const char *map,
		const struct rperf_job_assign *a, size_t n,
		struct rperf_job **out, char *err, size_t errlen)
{
	struct rperf_job_edit ed = { .assigns = a, .nassigns = n };

	files_make(f, JOB, map);
	ed.hosts_map = map ? f->map : NULL;
	return rperf_job_load_edit(f->job, &ed, out, err, errlen);
}

static void test_set_replaces_and_adds(void **state)
{
	const struct rperf_job_assign a[] = {
		{ "bsg.load.count=1", "--set bsg.load.count=1" },
		{ "bsg.load.size=512", NULL },
		{ "lsg.probe.tclass=96", NULL },
		{ "global.duration=2s", NULL },
		{ "host.load1.device=rxe_h3", NULL },
	};
	struct rperf_job *job = NULL;
	struct files f;
	char err[512] = "";

	(void)state;
	assert_int_equal(load(&f, NULL, a, 5, &job, err, sizeof(err)), 0);
	assert_int_equal(job->ninst, 2); /* 1 LSG + count 1 */
	assert_int_equal(job->inst[1].size, 512);
	assert_string_equal(job->inst[1].from, "load1");
	assert_int_equal(job->inst[0].path.tclass, 96);
	assert_int_equal(job->duration_ns, 2000000000ull); /* no [global] */
	assert_string_equal(rperf_job_host(job, "load1")->sel.device, "rxe_h3");
	rperf_job_free(job);
	files_rm(&f);
}

static void test_map_overlays_hosts(void **state)
{
	const char *map =
		"; lab\n[host sink]\ncontrol = 10.77.0.1:7000\n"
		"device = rxe_h1\ncpu = 0\n"
		"[host load9]\ncontrol = 10.77.0.9\n"; /* not in job */
	struct rperf_job *job = NULL;
	struct files f;
	char err[512] = "";
	const struct rperf_job_host *h;

	(void)state;
	assert_int_equal(load(&f, map, NULL, 0, &job, err, sizeof(err)), 0);
	h = rperf_job_host(job, "sink");
	assert_string_equal(h->control, "10.77.0.1");
	assert_int_equal(h->control_port, 7000);
	assert_string_equal(h->sel.device, "rxe_h1");
	assert_int_equal(h->sel.cpu, 0);
	assert_string_equal(rperf_job_host(job, "probe")->control, "node1");
	assert_null(rperf_job_host(job, "load9"));
	rperf_job_free(job);
	files_rm(&f);
}

/* --set after the map: the assign wins */
static void test_set_after_map(void **state)
{
	const char *map = "[host sink]\ndevice = rxe_h1\n";
	const struct rperf_job_assign a[] = { { "host.sink.device=mlx5_0",
						NULL } };
	struct rperf_job *job = NULL;
	struct files f;
	char err[512] = "";

	(void)state;
	assert_int_equal(load(&f, map, a, 1, &job, err, sizeof(err)), 0);
	assert_string_equal(rperf_job_host(job, "sink")->sel.device, "mlx5_0");
	rperf_job_free(job);
	files_rm(&f);
}

struct bad {
	const char *assign, *map;
	const char *want; /* the message starts with it */
};

static void test_errors(void **state)
{
	static const struct bad cases[] = {
		{ "bsg.load.szie=4K", NULL,
		  "--set X: [bsg load] szie: unknown key; did you mean 'size'?" },
		{ "bsg.load.count=3", NULL,
		  "--set X: [bsg load] count: 3 but from lists 2 hosts" },
		{ "bsg.load.size=4X", NULL,
		  "--set X: [bsg load] size: '4X' is not a size" },
		{ "bsg.lod.size=1", NULL,
		  "--set X: JOB has no [bsg lod]; did you mean 'load'?" },
		{ "lsg.load.size=1", NULL,
		  "--set X: JOB has no [lsg load]; it has: probe" },
		{ "lsg.probe.tx_depth=4", NULL,
		  "--set X: [lsg probe] tx_depth: applies to [bsg] sections only" },
		{ "bsgload.size=1", NULL,
		  "--set X: 'bsgload' is not a section" },
		{ "bsg.load.size", NULL, "--set X: 'bsg.load.size' is not" },
		{ "bsg.size=1", NULL, "--set X: 'bsg.size': write SECTION" },
		{ "global.x.duration=1s", NULL,
		  "--set X: 'global.x.duration': write global.KEY=VALUE" },
		{ "bsg.a/b.size=1", NULL,
		  "--set X: 'a/b' is not a section name" },
		{ "bsg.load.=1", NULL, "--set X: '' is not a key" },
		{ "bsg.load.size=", NULL,
		  "--set X: [bsg load] size: no value" },
		{ NULL, "[host nobody]\ncontrol = a\n",
		  "JOB: the hosts map MAP names none of the job's hosts" },
		{ NULL, "[host sink]\ndevce = x\n",
		  "MAP:2: [host sink] devce: unknown key; did you mean 'device'?" },
		{ NULL, "[host other]\ncpu = 9999999\n",
		  "MAP:2: [host other] cpu:" },
		{ NULL, "[global]\nduration = 1s\n",
		  "MAP:1: [global]: a hosts map holds [host NAME] sections only" },
		{ NULL, "[host sink]\ncontrol = 10.0.0.1:99999\n",
		  "MAP:2: [host sink] control:" },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct bad *c = &cases[i];
		struct rperf_job_assign a = { c->assign, "--set X" };
		struct rperf_job *job = NULL;
		char err[512] = "", want[512];
		struct files f;
		const char *p;
		int rc;

		rc = load(&f, c->map, &a, c->assign ? 1 : 0, &job, err,
			  sizeof(err));
		/* JOB and MAP stand for the temporary files' names */
		snprintf(want, sizeof(want), "%s", c->want);
		if ((p = strstr(c->want, "JOB")))
			snprintf(want + (p - c->want),
				 sizeof(want) - (size_t)(p - c->want), "%s%s",
				 f.job, p + 3);
		if ((p = strstr(want, "MAP"))) {
			char tail[256];

			snprintf(tail, sizeof(tail), "%s", p + 3);
			snprintf(want + (p - want),
				 sizeof(want) - (size_t)(p - want), "%s%s",
				 f.map, tail);
		}
		if (rc != EINVAL || strncmp(err, want, strlen(want)))
			fail_msg("case %zu: rc %d, got '%s', want '%s'", i, rc,
				 err, want);
		assert_null(job);
		files_rm(&f);
	}
}

static void test_target_number(void **state)
{
	static const struct {
		const char *assign;
		int rc;
		double x;
	} cases[] = {
		{ "bsg.b.count=3", 0, 3 },
		{ "bsg.b.size=4K", 0, 4096 },
		{ "bsg.b.rate=10G", 0, 1e10 },
		{ "global.duration=1.5s", 0, 1.5e9 },
		{ "lsg.l.sl=3", 0, 3 },
		{ "lsg.l.tclass=96", 0, 96 },
		{ "bsg.b.mtu=1024", 0, 1024 },
		{ "bsg.b.tx_depth=1k", 0, 1000 },
		{ "host.h.gid_index=auto", 0, -1 },
		{ "bsg.b.verb=write", ENOENT, 0 },
		{ "bsg.b.to=h1", ENOENT, 0 },
		{ "host.h.device=rxe0", ENOENT, 0 },
		{ "bsg.b.size=4X", EINVAL, 0 },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct rperf_job_target t;
		char err[256];
		double x = -12345;
		int rc;

		assert_int_equal(rperf_job_assign_parse(cases[i].assign, &t,
							err, sizeof(err)),
				 0);
		rc = rperf_job_target_number(&t, t.value, &x);
		if (rc != cases[i].rc || (!rc && x != cases[i].x))
			fail_msg("%s: rc %d x %g", cases[i].assign, rc, x);
	}
}

/* Every examples/ job loads alone and through examples/lab-hosts.ini,
 * whose roles land on the lab's hosts. */
static void test_examples(void **state)
{
	static const char *const jobs[] = {
		"one-to-one.ini",	 "fig7-converged.ini",
		"fig8-bsg-size.ini",	 "fig12-dedicated-class.ini",
		"fig13-pretend-lsg.ini", "incast.ini",
		"all-to-all.ini",
	};
	const char *src = getenv("RPERF_SRC");
	char path[512], map[512], err[512] = "";
	struct rperf_job_edit ed = { .hosts_map = map };

	(void)state;
	if (!src)
		skip();
	snprintf(map, sizeof(map), "%s/examples/lab-hosts.ini", src);
	for (size_t i = 0; i < sizeof(jobs) / sizeof(jobs[0]); i++) {
		struct rperf_job *job = NULL;
		const struct rperf_job_host *h;

		snprintf(path, sizeof(path), "%s/examples/%s", src, jobs[i]);
		if (rperf_job_load(path, &job, err, sizeof(err)))
			fail_msg("%s", err);
		assert_string_equal(rperf_job_host(job, "sink")->control,
				    "node0");
		rperf_job_free(job);
		if (rperf_job_load_edit(path, &ed, &job, err, sizeof(err)))
			fail_msg("%s", err);
		h = rperf_job_host(job, "sink");
		assert_string_equal(h->control, "10.77.0.1");
		assert_string_equal(h->sel.device, "rxe_h1");
		h = rperf_job_host(job, "load3");
		assert_string_equal(h->control, "10.77.0.5");
		assert_string_equal(h->sel.device, "rxe_h5");
		assert_true(job->ninst >= 1);
		rperf_job_free(job);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_set_replaces_and_adds),
		cmocka_unit_test(test_map_overlays_hosts),
		cmocka_unit_test(test_set_after_map),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_target_number),
		cmocka_unit_test(test_examples),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
