/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The port-pair latency matrix at the command layer (src/run/mesh.h):
 *   rperf run JOB      a job with a [mesh NAME] section;
 *   rperf mesh JOB     the same;
 *   rperf mesh HOSTS   ADDR[:PORT],ADDR[:PORT],... (an agent on each): a job
 *                      of one [host] per address (named after it) and
 *                      [mesh mesh] over all, 1 s per pair after 200 ms of
 *                      warm-up (--set mesh.mesh.KEY=VALUE edits it).
 * Prints the text report, writes the JSON (--out_json/--out_json_file)
 * and the Prometheus text (--prom).
 * Exit 3 when a cell was not measured or another generator failed (not
 * after SIGINT), 2 for a bad job or bad hosts.
 */
#include "cli/cmd_run.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "run/mesh.h"

#define MESH_TEXT_MAX (64u * 1024)

/* A [host] name from an address: characters of no name become '_'. */
static void host_name(const char *addr, size_t len, char *out, size_t outlen)
{
	size_t k = 0;

	for (size_t i = 0; i < len && k + 1 < outlen; i++) {
		char ch = addr[i];
		bool ok = (ch >= 'a' && ch <= 'z') ||
			  (ch >= 'A' && ch <= 'Z') ||
			  (ch >= '0' && ch <= '9') || ch == '.' || ch == '-';

		out[k++] = ok ? ch : '_';
	}
	out[k] = '\0';
}

/* The job text of `rperf mesh HOSTS`. */
static int hosts_job(const char *hosts, char **out, char *err, size_t errlen)
{
	char *text = malloc(MESH_TEXT_MAX), name[RPERF_NAME_LEN];
	size_t len = 0;
	const char *p = hosts;

	if (!text)
		return ENOMEM;
	len += (size_t)snprintf(text, MESH_TEXT_MAX,
				"[global]\nduration = 1s\nwarmup = 200ms\n");
	while (*p) {
		size_t n = strcspn(p, ",");

		if (!n || n >= RPERF_NAME_LEN || len + 400 > MESH_TEXT_MAX) {
			snprintf(
				err, errlen,
				"rperf mesh: '%s': not a job file (none by that name) nor hosts ADDR[:PORT],ADDR[:PORT],... (empty or too long an entry, or too many)",
				hosts);
			free(text);
			return EINVAL;
		}
		host_name(p, n, name, sizeof(name));
		len += (size_t)snprintf(text + len, MESH_TEXT_MAX - len,
					"[host %s]\ncontrol = %.*s\n", name,
					(int)n, p);
		p += n + (p[n] == ',');
	}
	snprintf(text + len, MESH_TEXT_MAX - len, "[mesh mesh]\n");
	*out = text;
	return 0;
}

static int load(struct run_cmd *c, char *err, size_t errlen)
{
	const char *arg = c->cfg->job;
	struct stat st;
	char *text = NULL;
	int rc;

	if (!stat(arg, &st) || strchr(arg, '/') || strstr(arg, ".ini"))
		rc = run_cmd_load(c, NULL, 0, &c->job, err, errlen);
	else if (!(rc = hosts_job(arg, &text, err, errlen)))
		rc = rperf_job_parse_edit(text, "rperf mesh", &c->edit, &c->job,
					  err, errlen);
	free(text);
	if (!rc && !c->job->mesh) {
		snprintf(
			err, errlen,
			"%s: no [mesh NAME] section; add one (hosts = all, schedule = rounds) or run it with rperf run",
			arg);
		rc = EINVAL;
	}
	if (!rc && !c->cfg->run_boot)
		rc = rperf_run_check_job(c->job, err, errlen);
	return rc;
}

static int mesh_status(const struct rperf_mesh_result *m)
{
	if (m->interrupted)
		return RPERF_EXIT_OK;
	return m->nfailed || m->other_errors ? RPERF_EXIT_RUNTIME :
					       RPERF_EXIT_OK;
}

static int report(const struct run_cmd *c, const struct rperf_mesh_result *m)
{
	int status = mesh_status(m), rc;

	rc = rperf_mesh_report_text(stdout, m);
	fflush(stdout);
	if (rc)
		fprintf(stderr, "rperf mesh: writing the report: %s\n",
			strerror(rc));
	if (c->json_path) {
		rc = rperf_mesh_write_json(c->json_path, m);
		if (rc) {
			fprintf(stderr, "rperf mesh: writing %s: %s\n",
				c->json_path, strerror(rc));
			status = RPERF_EXIT_RUNTIME;
		}
	}
	rc = c->cfg->prom_file ? rperf_mesh_write_prom(c->cfg->prom_file, m) :
				 0;
	if (rc) {
		fprintf(stderr, "rperf mesh: writing %s: %s\n",
			c->cfg->prom_file, strerror(rc));
		status = RPERF_EXIT_RUNTIME;
	}
	if (status == RPERF_EXIT_RUNTIME)
		fprintf(stderr,
			"rperf mesh: %zu cell(s) not measured, %zu other generator run(s) not ok; every other cell is above\n",
			m->nfailed, m->other_errors);
	return status;
}

int rperf_cmd_mesh(struct run_cmd *c, const volatile sig_atomic_t *stop)
{
	struct rperf_mesh_result *m = NULL;
	struct rperf_run_opts o;
	char err[512] = "";
	int rc, status;

	if (!c->job) {
		rc = load(c, err, sizeof(err));
		if (rc) {
			fprintf(stderr, "%s%s\n",
				strncmp(err, "rperf mesh", 10) ?
					"rperf mesh: " :
					"",
				err[0] ? err : strerror(rc));
			status = rc == ENOMEM ? RPERF_EXIT_INTERNAL :
						RPERF_EXIT_USAGE;
			goto free_job;
		}
	}
	run_cmd_opts(c, &o);
	rc = rperf_mesh_execute(c->job, &o, stop, &m, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "rperf mesh: %s\n", err);
		status = rc == ENOMEM ? RPERF_EXIT_INTERNAL :
					RPERF_EXIT_RUNTIME;
		goto free_job;
	}
	status = report(c, m);
	rperf_mesh_result_free(m);
free_job:
	rperf_job_free(c->job);
	c->job = NULL;
	return status;
}
