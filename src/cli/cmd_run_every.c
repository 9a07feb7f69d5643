/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rperf run --every TIME (continuous mode): the job (or the mesh) again
 * and again, a run starting every TIME after the previous one started (at
 * once when that one took longer: said on stderr), until SIGINT/SIGTERM/
 * SIGHUP. The job file is read again for each run. Each run prints its
 * text report under a header line, replaces the --prom file (atomically:
 * a scraper always reads a whole file; not when the signal aborted the
 * run before GO: nothing was measured) and writes its JSON to a numbered
 * file of its own beside --out_json_file: OUT.json -> OUT.1.json,
 * OUT.2.json, ... (a number whose file exists is skipped: nothing is
 * overwritten). A signal between runs ends the loop at once; during a run
 * it cuts that run short, which is reported and written as any
 * interrupted run. A bad job file (exit 2) ends the loop; a run whose
 * hosts failed (3) does not. Exit status: the last run's that the signal
 * did not cut short (0 when none).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cli/cli.h"
#include "cli/cmd_run.h"
#include "cli/commands.h"
#include "util/mono.h"

#define WAIT_SLICE_NS 50000000ull /* stop-flag checks between runs */

/* Sleep until @at (CLOCK_MONOTONIC) or a stop: true when stopped. */
static bool wait_until(uint64_t at, const volatile sig_atomic_t *stop)
{
	for (;;) {
		uint64_t now = rperf_mono_ns(), d;
		struct timespec ts;

		if (*stop)
			return true;
		if (now >= at)
			return false;
		d = at - now < WAIT_SLICE_NS ? at - now : WAIT_SLICE_NS;
		ts.tv_sec = (time_t)(d / 1000000000ull);
		ts.tv_nsec = (long)(d % 1000000000ull);
		nanosleep(&ts, NULL); /* EINTR: a signal; the flag says */
	}
}

/* @base "OUT.json" (or "OUT") -> "OUT.N.json" with the first N >= *n
 * whose file does not exist; *n is then that N. */
static void numbered(const char *base, unsigned long *n, char *buf, size_t len)
{
	size_t b = strlen(base);
	struct stat st;

	if (b > 5 && !strcmp(base + b - 5, ".json"))
		b -= 5;
	for (;; ++*n) {
		snprintf(buf, len, "%.*s.%lu.json", (int)b, base, *n);
		if (stat(buf, &st))
			return;
	}
}

static void header(const struct run_cmd *c, unsigned long run)
{
	time_t now = time(NULL);
	struct tm tm;
	char ts[32] = "";

	if (gmtime_r(&now, &tm))
		strftime(ts, sizeof(ts), "%Y-%m-%dT%H:%M:%SZ", &tm);
	printf("rperf run --every %.3f s: run %lu, started %s%s%s\n",
	       (double)c->cfg->every_ns / 1e9, run, ts,
	       c->json_path ? ", JSON " : "", c->json_path ? c->json_path : "");
	fflush(stdout);
}

int rperf_cmd_run_every(struct run_cmd *c, const volatile sig_atomic_t *stop)
{
	const char *base = c->json_path;
	char path[4096];
	unsigned long n = 1, run;
	uint64_t next = rperf_mono_ns(), late;
	int status = RPERF_EXIT_OK, rc;

	c->every_stop = stop;
	for (run = 1;; run++, n++) {
		if (base) {
			numbered(base, &n, path, sizeof(path));
			c->json_path = path;
		}
		header(c, run);
		rc = run_cmd_one(c, stop);
		if (!*stop || rc == RPERF_EXIT_USAGE)
			status = rc; /* not a run the signal cut short */
		if (*stop || rc == RPERF_EXIT_USAGE ||
		    rc == RPERF_EXIT_INTERNAL)
			break;
		next += c->cfg->every_ns;
		late = rperf_mono_ns();
		if (late > next) {
			fprintf(stderr,
				"rperf run --every: run %lu took %.3f s longer than --every; the next starts now\n",
				run, (double)(late - next) / 1e9);
			next = late;
		}
		if (wait_until(next, stop))
			break;
	}
	fprintf(stderr,
		"rperf run --every: stopped after %lu run(s)%s; exit status of the last complete one: %d\n",
		run, *stop ? " (signal)" : "", status);
	c->json_path = base;
	return status;
}
