/* SPDX-License-Identifier: BSD-2-Clause */
#include "cli/help.h"

#include <string.h>

#include "job/options.h"
#include "job/job.h"
#include "twohost/twohost_parity.h"

static const enum rperf_cmd all_cmds[] = { RPERF_CMD_LAT,  RPERF_CMD_BW,
					   RPERF_CMD_RUN,  RPERF_CMD_AGENT,
					   RPERF_CMD_INFO, RPERF_CMD_COMPARE };
#define NCMDS (sizeof(all_cmds) / sizeof(all_cmds[0]))

static const char *const usage_lines[] = {
	"rperf lat [OPTIONS]           server side (takes parameters from the client)",
	"rperf lat [OPTIONS] HOST      client: measure RTTs to HOST",
	"rperf bw [OPTIONS] [HOST]     bandwidth server / client",
	"rperf run [OPTIONS] JOB       multi-host experiment",
	"rperf mesh [OPTIONS] HOSTS|JOB  port-pair latency matrix ([mesh] job, or ADDR,ADDR,...)",
	"rperf agent [OPTIONS]         per-host agent for rperf run",
	"rperf info [--json]           clock self-test, versions, RDMA devices",
	"rperf compare BASE RUN        RUN - BASE per percentile (JSON reports)",
	NULL,
};

static const char exit_codes[] =
	"Exit status: 0 success (warnings never change it); 1 a pass/fail limit\n"
	"crossed (--max-p50, --max-p999, --limit_lat, -w/--limit_bw; a job's\n"
	"[lsg] max_p50, max_p999); 2 usage,\n"
	"configuration or job-file error; 3 runtime failure (partial results\n"
	"written); 4 internal error.\n";

static void opt_head(const struct rperf_opt *o, char *buf, size_t len)
{
	const char *eq = o->metavar ? "=" : "";
	const char *mv = o->metavar ? o->metavar : "";

	if (o->letter)
		snprintf(buf, len, "-%c, --%s%s%s", o->letter, o->name, eq, mv);
	else
		snprintf(buf, len, "    --%s%s%s", o->name, eq, mv);
}

static void print_opt(FILE *f, const struct rperf_opt *o)
{
	char head[64];

	opt_head(o, head, sizeof(head));
	if (strlen(head) > 26)
		fprintf(f, "  %s\n  %-26s ", head, "");
	else
		fprintf(f, "  %-26s ", head);
	fprintf(f, "%s", o->help);
	if (o->dflt)
		fprintf(f, " [default: %s]", o->dflt);
	fputc('\n', f);
}

/* rperf run: every job-file key of the key table, a line per section type
 * (wrapped at 79 columns), in the order of the job parser's messages. */
static void job_keys(FILE *f)
{
	const char *keys[64], *name;

	fprintf(f, "\nJob-file keys (JOB FILE in the man page):\n");
	for (size_t i = 0; (name = rperf_job_sect_name(i)); i++) {
		size_t n = rperf_job_sect_keys(i, keys, 64);
		int col = fprintf(f, "  [%s]%*s", name, 8 - (int)strlen(name),
				  "");

		for (size_t k = 0; k < n; k++) {
			if (k && col + (int)strlen(keys[k]) + 2 > 79) {
				fprintf(f, ",\n%12s", "");
				col = 12;
			} else if (k) {
				col += fprintf(f, ", ");
			}
			col += fprintf(f, "%s", keys[k]);
		}
		fputc('\n', f);
	}
}

void rperf_cli_help(FILE *f, enum rperf_cmd cmd)
{
	const char *name = rperf_cmd_name(cmd);

	if (cmd == RPERF_CMD_NONE) {
		fprintf(f,
			"rperf: RDMA switch latency and bandwidth (RPerf method)\n\nUsage:\n");
		for (size_t i = 0; usage_lines[i]; i++)
			fprintf(f, "  %s\n", usage_lines[i]);
		fprintf(f, "\nCommands:\n");
		for (size_t i = 0; i < NCMDS; i++)
			fprintf(f, "  %-7s %s\n", rperf_cmd_name(all_cmds[i]),
				rperf_cmd_summary(all_cmds[i]));
		fprintf(f,
			"\n'rperf COMMAND --help' lists the options of a command.\n"
			"Sizes are binary (4K = 4096), rates decimal (10M = 10^7 bit/s),\n"
			"times take ns, us, ms, s or m.\n\n%s",
			exit_codes);
		return;
	}
	fprintf(f, "Usage: rperf %s [OPTIONS]%s\n%s\n\nOptions:\n", name,
		cmd & RPERF_CMD_TRAFFIC	 ? " [HOST]" :
		cmd == RPERF_CMD_RUN	 ? " JOB" :
		cmd == RPERF_CMD_COMPARE ? " BASE.json RUN.json" :
					   "",
		rperf_cmd_summary(cmd));
	for (size_t i = 0, n = rperf_opt_count(); i < n; i++)
		if (rperf_opt_at(i)->cmds & cmd)
			print_opt(f, rperf_opt_at(i));
	if (cmd & RPERF_CMD_TRAFFIC)
		fprintf(f,
			"\nWithout HOST, rperf %s is the server. As with perftest, the same\n"
			"flags may be given on both sides: the client ships the run's\n"
			"parameters and the server takes them; a run flag also given to the\n"
			"server is a check, and a client that asks for another value is\n"
			"refused naming both (client exit 2). -d -i -x -p --bind --cpu\n"
			"--clock --persistent, placement, -F and the server's limits\n"
			"(--max-memory --max-qps --stall-limit) are each side's own; report\n"
			"options (--report_gbits, --out_json ...) do nothing on a server.\n",
			name);
	if (cmd == RPERF_CMD_RUN)
		job_keys(f);
	fprintf(f,
		"\nLong options take '-' or '_' alike (--post-list = --post_list).\n"
		"\n%s",
		exit_codes);
}

/* Escape the characters pandoc Markdown would interpret. */
static void md_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (strchr("*_`\\<>[]", *s))
			fputc('\\', f);
		fputc(*s, f);
	}
}

/* What the option does on a lat/bw server (twohost/twohost_parity.h). */
static const char *server_word(const struct rperf_opt *o)
{
	if (!(o->cmds & RPERF_CMD_TRAFFIC) || o->type == RPERF_OT_HELP ||
	    o->type == RPERF_OT_VERSION)
		return "";
	switch (rperf_parity_kind(o)) {
	case RPERF_PARITY_RUN:
		return " On a server: checked against the client's value.";
	case RPERF_PARITY_HOST:
		return " On a server: its own.";
	default:
		return " On a server: accepted, ignored (the client's).";
	}
}

void rperf_cli_markdown(FILE *f)
{
	for (size_t i = 0, n = rperf_opt_count(); i < n; i++) {
		const struct rperf_opt *o = rperf_opt_at(i);
		const char *sep = "";

		if (o->letter)
			fprintf(f, "**-%c**, ", o->letter);
		fprintf(f, "**\\--");
		md_text(f, o->name);
		fprintf(f, "**");
		if (o->metavar)
			fprintf(f, "=*%s*", o->metavar);
		fprintf(f, "\n:   ");
		md_text(f, o->help);
		if (o->dflt) {
			fprintf(f, " Default: ");
			md_text(f, o->dflt);
			fprintf(f, ".");
		}
		fprintf(f, " Commands: ");
		for (size_t c = 0; c < NCMDS; c++) {
			if (!(o->cmds & all_cmds[c]))
				continue;
			fprintf(f, "%s%s", sep, rperf_cmd_name(all_cmds[c]));
			sep = ", ";
		}
		fprintf(f, ".%s\n\n", server_word(o));
	}
}
