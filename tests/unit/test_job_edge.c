/* SPDX-License-Identifier: BSD-2-Clause */
/* Job files: edge cases of the text (empty, CRLF, comments, BOM, long
 * lines, limits) and loading from a file. */
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

#define HOSTS4                            \
	"[host h1]\ncontrol = 10.0.0.1\n" \
	"[host h2]\ncontrol = 10.0.0.2\n" \
	"[host h3]\ncontrol = 10.0.0.3\n" \
	"[host h4]\ncontrol = 10.0.0.4\n"

static int parse(const char *text, struct rperf_job **job, char *err,
		 size_t errlen)
{
	int rc = rperf_job_parse(text, "e.ini", job, err, errlen);

	if (rc)
		assert_null(*job);
	return rc;
}

static void expect_error(const char *text, const char *want)
{
	struct rperf_job *job = NULL;
	char err[512] = "";
	int rc = parse(text, &job, err, sizeof(err));

	if (rc != EINVAL || !strstr(err, want))
		print_error("rc %d err '%s' want '%s'\n", rc, err, want);
	assert_int_equal(rc, EINVAL);
	assert_non_null(strstr(err, want));
	assert_null(strchr(err, '\n'));
}

static struct rperf_job *expect_ok(const char *text)
{
	struct rperf_job *job = NULL;
	char err[512] = "";
	int rc = parse(text, &job, err, sizeof(err));

	if (rc)
		print_error("rc %d err '%s'\n", rc, err);
	assert_int_equal(rc, 0);
	return job;
}

static void empty(void **state)
{
	(void)state;
	expect_error("",
		     "e.ini: no [lsg NAME], [bsg NAME] or [mesh NAME] section");
	expect_error("\n\n   \n\t\n", "e.ini: no [lsg NAME]");
	expect_error("; only a comment\n", "e.ini: no [lsg NAME]");
	expect_error("[global]\n", "e.ini: no [lsg NAME]");
	expect_error("[global]\nduration = 1s\n", "e.ini: no [lsg NAME]");
	expect_error(HOSTS4, "e.ini: no [lsg NAME]");
}

static void crlf(void **state)
{
	struct rperf_job *job;

	(void)state;
	job = expect_ok(
		"[global]\r\nduration = 3s\r\n"
		"[host a]\r\ncontrol = 10.0.0.1:99\r\ndevice = mlx5_1\r\n"
		"[host b]\r\ncontrol = [::1]\r\n"
		"[bsg x]\r\nfrom = a\r\nto = b\r\nverb = write\r\n");
	assert_int_equal(job->duration_ns, 3000000000ull);
	assert_string_equal(job->hosts[0].control, "10.0.0.1");
	assert_int_equal(job->hosts[0].control_port, 99);
	assert_string_equal(job->hosts[0].sel.device, "mlx5_1");
	assert_string_equal(job->inst[0].to, "b");
	rperf_job_free(job);
	expect_error("[global]\r\n\r\nwarmup = x\r\n",
		     "e.ini:3: [global] warmup: 'x' is not a time");
}

static void comments(void **state)
{
	struct rperf_job *job;

	(void)state;
	job = expect_ok("; first\n# second\n"
			"[global] ; the defaults\n"
			"duration = 2s ; inline\n"
			"warmup = 1s # inline too\n" HOSTS4
			"  ; indented comment\n"
			"[bsg b] # the load\n"
			"from = h2,h3 ; two sources\n"
			"to = h1\t# tab before\n");
	rperf_job_free(job);
	/* ";" right after a value is part of it: the size is bad */
	expect_error("[global]\nduration = 2s;x\n",
		     "e.ini:2: [global] duration: '2s;x' is not a time");
	job = expect_ok("[global]\nduration = 2s\n" HOSTS4
			"[bsg b]\nfrom = h2 ; h3\nto = h1\n");
	assert_int_equal(job->ninst, 1);
	assert_int_equal(job->duration_ns, 2000000000ull);
	rperf_job_free(job);
}

/* Indented keys, blanks, ':' as separator, no final newline, a BOM. */
static void layout(void **state)
{
	struct rperf_job *job;

	(void)state;
	job = expect_ok("\xEF\xBB\xBF[global]\n"
			"    duration = 4s\n"
			"\twarmup: 2s\n" HOSTS4 "  [lsg l]  \n"
			"    from = h1\n"
			"    to   =   h2   \n"
			"    size = 128");
	assert_int_equal(job->duration_ns, 4000000000ull);
	assert_int_equal(job->warmup_ns, 2000000000ull);
	assert_int_equal(job->inst[0].size, 128);
	assert_string_equal(job->inst[0].to, "h2");
	rperf_job_free(job);
	/* an indented key after a key is not a continuation */
	expect_error("[global]\nduration = 1s\n   bogus = 1\n",
		     "e.ini:3: [global] bogus: unknown key");
}

/* A text with @n hosts "host000".. and a BSG from all but the last. */
static char *many_hosts(size_t n, const char *extra)
{
	size_t cap = n * 64 + 256 + strlen(extra);
	char *t = malloc(cap);
	size_t len = 0;

	assert_non_null(t);
	for (size_t i = 0; i < n; i++)
		len += (size_t)snprintf(t + len, cap - len,
					"[host host%03zu]\ncontrol = h%zu\n", i,
					i);
	len += (size_t)snprintf(t + len, cap - len, "[bsg b]\nfrom = ");
	for (size_t i = 0; i + 1 < n; i++)
		len += (size_t)snprintf(t + len, cap - len, "%shost%03zu",
					i ? ", " : "", i);
	snprintf(t + len, cap - len, "\nto = host%03zu\n%s", n - 1, extra);
	return t;
}

static void long_lines(void **state)
{
	char *text, line[1200];
	struct rperf_job *job;

	(void)state;
	/* from with 150 hosts: a 1.3 KB line, beyond libinih's buffer */
	text = many_hosts(151, "size = 1K ; after the long line\n");
	assert_true(strlen(strstr(text, "from =")) > 1000);
	job = expect_ok(text);
	assert_int_equal(job->ninst, 150);
	assert_string_equal(job->inst[149].from, "host149");
	assert_int_equal(job->inst[149].id, 149);
	assert_int_equal(job->inst[0].size, 1024);
	rperf_job_free(job);
	free(text);
	/* lines after a long one keep their numbers */
	text = many_hosts(151, "szie = 1K\n");
	expect_error(text, "e.ini:306: [bsg b] szie: unknown key");
	free(text);

	memset(line, 'x', sizeof(line));
	line[sizeof(line) - 1] = '\0';
	text = malloc(4096);
	assert_non_null(text);
	snprintf(text, 4096,
		 "; %s\n[global]\nduration = 1s\n" HOSTS4
		 "[bsg b]\nfrom=h2\nto=h1\n",
		 line);
	job = expect_ok(text);
	rperf_job_free(job);
	snprintf(text, 4096, "[global]\n%s = 1\n", line);
	expect_error(text, "e.ini:2: cannot read 'xxxx");
	snprintf(text, 4096, "[global]\nwarmup = %s\n", line);
	expect_error(text, "e.ini:2: [global] warmup: 'xxxx");
	snprintf(text, 4096, "[host %s]\n", line);
	expect_error(text, "e.ini:1: [host xxx");
	snprintf(text, 4096, "[host h]\ndevice = %s\n", line);
	expect_error(text, "e.ini:2: [host h] device: 'xxx");
	free(text);
}

static void limits(void **state)
{
	char *text;
	char *big;
	size_t len = 0, cap;

	(void)state;
	text = many_hosts(RPERF_JOB_MAX_HOSTS + 1, "");
	expect_error(text, "[host host1024]: too many hosts (at most 1024)");
	free(text);
	/* 5 x 255 instances > RPERF_JOB_MAX_INSTANCES */
	text = many_hosts(256, "");
	cap = strlen(text) * 2 + 8192;
	big = malloc(cap);
	assert_non_null(big);
	len = (size_t)snprintf(big, cap, "%s", text);
	for (int i = 0; i < 4; i++) {
		const char *from = strstr(text, "from = ");

		len += (size_t)snprintf(big + len, cap - len, "[bsg c%d]\n%s",
					i, from);
	}
	expect_error(big, "more than 1024 generator instances");
	free(big);
	free(text);
}

static char *write_tmp(const char *data, size_t n)
{
	char *path = strdup("/tmp/rperf-job-XXXXXX");
	int fd;

	assert_non_null(path);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, data, n), (ssize_t)n);
	close(fd);
	return path;
}

static void files(void **state)
{
	const char *src = getenv("RPERF_SRC");
	struct rperf_job *job = NULL;
	char path[512], err[512];
	char *tmp, *big;

	(void)state;
	if (!src)
		skip(); /* ctest sets RPERF_SRC to the source tree */
	snprintf(path, sizeof(path), "%s/tests/unit/jobs/four-hosts.ini", src);
	assert_int_equal(rperf_job_load(path, &job, err, sizeof(err)), 0);
	assert_string_equal(job->path, path);
	assert_int_equal(job->nhosts, 4);
	assert_int_equal(job->ninst, 3);
	assert_string_equal(job->inst[0].name, "probe");
	assert_string_equal(job->inst[2].from, "h4");
	assert_int_equal(job->inst[2].start_ns, 2000000000ull);
	assert_true(job->inst[2].rate_bps == 10e9);
	assert_string_equal(rperf_job_host(job, "h4")->control, "fd00::4");
	rperf_job_free(job);

	tmp = write_tmp("[global]\nwarmup = 1s\n\0x", 24);
	assert_int_equal(rperf_job_load(tmp, &job, err, sizeof(err)), EINVAL);
	assert_non_null(strstr(err, "NUL byte"));
	assert_non_null(strstr(err, tmp));
	unlink(tmp);
	free(tmp);

	tmp = write_tmp("[global]\nwarmup = 1x\n", 21);
	assert_int_equal(rperf_job_load(tmp, &job, err, sizeof(err)), EINVAL);
	assert_non_null(strstr(err, ":2: [global] warmup:"));
	assert_int_equal(strncmp(err, tmp, strlen(tmp)), 0);
	unlink(tmp);
	free(tmp);

	big = malloc((1u << 20) + 2);
	assert_non_null(big);
	memset(big, ';', (1u << 20) + 2);
	tmp = write_tmp(big, (1u << 20) + 2);
	assert_int_equal(rperf_job_load(tmp, &job, err, sizeof(err)), EINVAL);
	assert_non_null(strstr(err, "larger than"));
	unlink(tmp);
	free(tmp);
	free(big);

	assert_int_equal(rperf_job_load("/", &job, err, sizeof(err)), EISDIR);
}

/* Mutated job texts: no crash (ASan runs this too), EINVAL with a one-line
 * message naming the file, or a job. Deterministic. */
static void mutations(void **state)
{
	static const char base[] =
		"[global]\nduration = 2s ; c\nwarmup = 1ms\n"
		"[host h1]\ncontrol = [::1]:9\ndevice = d0\ncpu = 1\n"
		"[host h2]\ncontrol = 10.0.0.2\n[host h3]\ncontrol = c\n"
		"[lsg l]\nfrom = h2,h3\ncount = 1\nto = h1\nsl = 3\n"
		"[bsg b]\nfrom = h3\nto = h1\nsize = 4K\nrate = 1G\n"
		"verb = write\ntx_depth = 64\npost_list = 4\n";
	static const char alphabet[] =
		"[]=:;#, \t\r\n\\\"'h1230KMG.-_x\xEF\xff";
	char text[sizeof(base) + 64], err[256];
	uint32_t seed = 12345;
	int ok = 0;

	(void)state;
	for (int iter = 0; iter < 20000; iter++) {
		size_t n = sizeof(base) - 1;
		struct rperf_job *job = NULL;
		int edits, rc;

		memcpy(text, base, sizeof(base));
		seed = seed * 1103515245u + 12345u;
		edits = 1 + (int)((seed >> 16) % 4);
		for (int e = 0; e < edits; e++) {
			size_t pos;

			if (!n)
				break;
			seed = seed * 1103515245u + 12345u;
			pos = (seed >> 8) % n;
			seed = seed * 1103515245u + 12345u;
			if ((seed >> 16) % 8 == 0)
				n = pos; /* truncate */
			else
				text[pos] = alphabet[(seed >> 16) %
						     (sizeof(alphabet) - 1)];
			text[n] = '\0';
		}
		err[0] = '\0';
		rc = rperf_job_parse(text, "m.ini", &job, err, sizeof(err));
		if (rc == 0) {
			assert_non_null(job);
			assert_true(job->ninst >= 1);
			rperf_job_free(job);
			ok++;
			continue;
		}
		if (rc != EINVAL || strncmp(err, "m.ini:", 6) ||
		    strchr(err, '\n'))
			print_error("rc %d err '%s' for:\n%s\n", rc, err, text);
		assert_int_equal(rc, EINVAL);
		assert_null(job);
		assert_int_equal(strncmp(err, "m.ini:", 6), 0);
		assert_null(strchr(err, '\n'));
	}
	assert_true(ok > 100); /* some mutations are harmless */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(empty),      cmocka_unit_test(crlf),
		cmocka_unit_test(comments),   cmocka_unit_test(layout),
		cmocka_unit_test(long_lines), cmocka_unit_test(limits),
		cmocka_unit_test(files),      cmocka_unit_test(mutations),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
