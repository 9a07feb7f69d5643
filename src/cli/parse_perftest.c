/* SPDX-License-Identifier: BSD-2-Clause */
#include "cli/parse_perftest.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "job/options.h"
#include "twohost/twohost_parity.h"

#define NAME_MAX_LEN 40

/* '-' and '_' are one character for the distance */
static char fold(char c)
{
	return c == '_' ? '-' : c;
}

/* Levenshtein distance of @a and @b (each cut at NAME_MAX_LEN). */
static size_t distance(const char *a, const char *b)
{
	size_t la = strnlen(a, NAME_MAX_LEN), lb = strnlen(b, NAME_MAX_LEN);
	size_t row[NAME_MAX_LEN + 1];

	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j],
			       best = diag + (fold(a[i - 1]) != fold(b[j - 1]));

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			diag = up;
			row[j] = best;
		}
	}
	return row[lb];
}

bool rperf_cli_suggest(enum rperf_cmd cmd, const char *word, char *buf,
		       size_t len)
{
	char name[NAME_MAX_LEN + 1];
	size_t best = SIZE_MAX, n;
	const struct rperf_opt *near = NULL;

	while (*word == '-')
		word++;
	n = strcspn(word, "=");
	if (!n || n > NAME_MAX_LEN)
		return false;
	memcpy(name, word, n);
	name[n] = '\0';
	for (size_t i = 0, count = rperf_opt_count(); i < count; i++) {
		const struct rperf_opt *o = rperf_opt_at(i);
		size_t d;

		if (!(o->cmds & cmd))
			continue;
		d = distance(name, o->name);
		if (d < best) {
			best = d;
			near = o;
		}
	}
	/* near: at most 2 edits, or a third of the name for long ones */
	if (!near || best > (n / 3 > 2 ? n / 3 : 2) || best >= n)
		return false;
	if (near->letter)
		snprintf(buf, len, "-%c/--%s", near->letter, near->name);
	else
		snprintf(buf, len, "--%s", near->name);
	return true;
}

void rperf_cli_note(char *notes, size_t len, const char *fmt, ...)
{
	size_t used;
	va_list ap;

	if (!notes || !len)
		return;
	used = strnlen(notes, len);
	if (used + 2 >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(notes + used, len - used - 1, fmt, ap);
	va_end(ap);
	used = strnlen(notes, len);
	notes[used] = '\n';
	notes[used + 1] = '\0';
}

/* Append @o's label ("-q/--qp", "--report_gbits") to the list @list. */
static void add_label(char *list, size_t len, const struct rperf_opt *o)
{
	size_t used = strnlen(list, len);
	char label[48];

	if (o->letter)
		snprintf(label, sizeof(label), "-%c/--%s", o->letter, o->name);
	else
		snprintf(label, sizeof(label), "--%s", o->name);
	if (used + 1 < len)
		snprintf(list + used, len - used, "%s%s", used ? ", " : "",
			 label);
}

/* On a server: the given options that only the client uses, in one note. */
static void server_notes(const struct rperf_cmdline *cfg, char *notes,
			 size_t len)
{
	char list[256] = "";

	for (size_t i = 0, n = rperf_opt_count(); i < n; i++)
		if (rperf_parity_given(cfg, i) &&
		    rperf_parity_kind(rperf_opt_at(i)) == RPERF_PARITY_CLIENT)
			add_label(list, sizeof(list), rperf_opt_at(i));
	if (list[0])
		rperf_cli_note(
			notes, len,
			"on the server, %s only serve%s the client (its report or its connection): accepted and ignored here",
			list, strchr(list, ',') ? "" : "s");
}

/* rperf lat: perftest's bandwidth flags a perftest user types on both. */
static void lat_bw_notes(const struct rperf_cmdline *cfg, char *notes,
			 size_t len)
{
	static const char *const bw_only[] = { "qp", "bidirectional",
					       "report_gbits" };
	char list[96] = "";

	for (size_t i = 0; i < sizeof(bw_only) / sizeof(bw_only[0]); i++) {
		/* on a server, server_notes() speaks of --report_gbits */
		if (rperf_cfg_given(cfg, bw_only[i]) &&
		    (cfg->host || strcmp(bw_only[i], "report_gbits")))
			add_label(list, sizeof(list),
				  rperf_opt_find(bw_only[i]));
	}
	if (list[0])
		rperf_cli_note(
			notes, len,
			"%s: bandwidth options; rperf lat measures one QP (its RTT already crosses both ways) and reports microseconds: accepted and ignored",
			list);
}

int rperf_cli_perftest_check(const struct rperf_cmdline *cfg, char *err,
			     size_t errlen, char *notes, size_t noteslen)
{
	if (cfg->conn_type != 0) {
		snprintf(
			err, errlen,
			"-c/--connection: %s is not supported; accepted: RC (every rperf method needs RC's remote ACK or its reliable echo)",
			rperf_name_cli(rperf_opt_find("connection")->choices,
				       cfg->conn_type));
		return EINVAL;
	}
	if (cfg->rate_limit_type != 0) {
		snprintf(
			err, errlen,
			"--rate_limit_type: %s is not supported; accepted: SW (rperf's token bucket)",
			rperf_name_cli(
				rperf_opt_find("rate_limit_type")->choices,
				cfg->rate_limit_type));
		return EINVAL;
	}
	if (rperf_cfg_given(cfg, "burst_size") && cfg->rate_limit <= 0) {
		snprintf(
			err, errlen,
			"--burst_size: given without --rate_limit; accepted: --rate_limit N --burst_size N");
		return EINVAL;
	}
	if (rperf_cfg_given(cfg, "all-max") && !cfg->all_sizes) {
		snprintf(
			err, errlen,
			"--all-max: given without -a; accepted: -a --all-max SIZE");
		return EINVAL;
	}
	if (rperf_cfg_given(cfg, "source_ip") && !cfg->spec.test.rdma_cm)
		rperf_cli_note(
			notes, noteslen,
			"-z/--source_ip: only rdma_cm (-R) uses a source address; ignored without -R");
	if (cfg->cmd == RPERF_CMD_LAT && cfg->spec.completion)
		rperf_cli_note(
			notes, noteslen,
			"-e/--events: rperf lat's client keeps busy polling (its completion stamps are the measurement); the server already sleeps on completion events except for --method pingpong's echo");
	if (cfg->cmd == RPERF_CMD_LAT)
		lat_bw_notes(cfg, notes, noteslen);
	if (!cfg->host && (cfg->cmd & RPERF_CMD_TRAFFIC))
		server_notes(cfg, notes, noteslen);
	return 0;
}
