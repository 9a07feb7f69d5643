/* SPDX-License-Identifier: BSD-2-Clause */
#include "cli/parse.h"

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "job/options.h"
#include "cli/sched_check.h"
#include "cli/verbs_check.h"
#include "cli/parse_defaults.h"
#include "cli/parse_perftest.h"
#include "util/units.h"
#include "job/job.h"
#include "twohost/twohost_spec.h"

#define LONG_BASE 256
#define MARKDOWN_VAL 1

/* Long names a command line may use: each option's own spelling, then its
 * hyphen and underscore spellings where they differ (--post-list). */
#define MAX_LONG (3 * RPERF_MAX_OPTIONS + 2)

struct parse_state {
	struct rperf_cmdline *cfg;
	bool given[RPERF_MAX_OPTIONS];
	char *err;
	size_t errlen;
	char *notes; /* warnings, one per line (may be NULL) */
	size_t noteslen;
	char spell[2 * RPERF_MAX_OPTIONS][48]; /* the other spellings */
};

static int errf(struct parse_state *st, int rc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int errf(struct parse_state *st, int rc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(st->err, st->errlen, fmt, ap);
	va_end(ap);
	return rc;
}

/* "-s/--size" or "--sizes" */
static const char *opt_label(const struct rperf_opt *o, char *buf, size_t len)
{
	if (o->letter)
		snprintf(buf, len, "-%c/--%s", o->letter, o->name);
	else
		snprintf(buf, len, "--%s", o->name);
	return buf;
}

static int parse_list(struct parse_state *st, const struct rperf_opt *o,
		      const char *arg, char *msg, size_t msglen)
{
	struct rperf_cmdline *cfg = st->cfg;
	size_t max = o->type == RPERF_OT_SIZE_LIST ? RPERF_MAX_SIZES :
						     RPERF_MAX_PERCENTILES;
	char *copy = strdup(arg), *save = NULL, *tok;
	size_t n = 0;
	int rc = 0;

	if (!copy)
		return ENOMEM;
	if (!*arg || arg[strlen(arg) - 1] == ',' || *arg == ',' ||
	    strstr(arg, ",,")) {
		snprintf(
			msg, msglen,
			"'%s' has an empty item; accepted: a comma-separated list, e.g. %s",
			arg,
			o->type == RPERF_OT_SIZE_LIST ? "64,4K,64K" :
							"50,99,99.9");
		rc = EINVAL;
	}
	for (tok = strtok_r(copy, ",", &save); !rc && tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (n == max) {
			snprintf(msg, msglen,
				 "too many items; accepted: at most %zu", max);
			rc = EINVAL;
		} else if (o->type == RPERF_OT_SIZE_LIST) {
			rc = rperf_parse_size(tok, (uint64_t)o->min,
					      (uint64_t)o->max,
					      &cfg->sizes[n++], msg, msglen);
		} else {
			rc = rperf_parse_double(tok, 0, 100,
						&cfg->percentiles[n++], msg,
						msglen);
		}
	}
	free(copy);
	if (!rc && o->type == RPERF_OT_SIZE_LIST)
		cfg->nsizes = n;
	else if (!rc)
		cfg->npercentiles = n;
	return rc;
}

static int append_str(struct rperf_str_list *l, const struct rperf_opt *o,
		      const char *arg, char *msg, size_t msglen)
{
	if (!*arg) {
		snprintf(msg, msglen, "empty value; accepted: %s", o->metavar);
		return EINVAL;
	}
	if (l->n == RPERF_MAX_STR_LIST) {
		snprintf(msg, msglen,
			 "given more than %d times; accepted: at most %d",
			 RPERF_MAX_STR_LIST, RPERF_MAX_STR_LIST);
		return EINVAL;
	}
	l->v[l->n++] = arg;
	return 0;
}

static int apply_enum(const struct rperf_opt *o, const char *arg, int *out,
		      char *msg, size_t msglen)
{
	size_t used = 0;

	if (!rperf_name_find(o->choices, SIZE_MAX, arg, out))
		return 0;
	used = (size_t)snprintf(msg, msglen,
				"'%s' is not a choice; accepted:", arg);
	for (int i = 0; o->choices[i].name && used < msglen; i++)
		used += (size_t)snprintf(msg + used, msglen - used, "%s %s",
					 i ? "," : "",
					 rperf_name_cli(o->choices, i));
	return EINVAL;
}

/* A one-field value of @o (rperf_opt_set), parsed from @arg into @v. */
static int parse_scalar(const struct rperf_opt *o, const char *arg, uint64_t *v,
			char *msg, size_t msglen)
{
	int64_t i = 0;
	int e = 0, rc;

	switch (o->type) {
	case RPERF_OT_FLAG:
		*v = 1;
		return 0;
	case RPERF_OT_INT:
		rc = rperf_parse_int(arg, o->min, o->max, &i, msg, msglen);
		*v = (uint64_t)i;
		return rc;
	case RPERF_OT_COUNT:
		return rperf_parse_count(arg, (uint64_t)o->min,
					 (uint64_t)o->max, v, msg, msglen);
	case RPERF_OT_SIZE:
		rc = rperf_parse_size(arg, (uint64_t)o->min, (uint64_t)o->max,
				      v, msg, msglen);
		if (!rc && o->pow2 && (*v & (*v - 1)))
			rc = ERANGE,
			snprintf(
				msg, msglen,
				"'%s' is not a power of two; accepted: 256, 512, 1024, 2048 or 4096",
				arg);
		return rc;
	case RPERF_OT_TIME:
		return rperf_parse_time(arg, o->unit, (uint64_t)o->min,
					(uint64_t)o->max, v, msg, msglen);
	default: /* ENUM */
		rc = apply_enum(o, arg, &e, msg, msglen);
		*v = (uint64_t)(int64_t)e;
		return rc;
	}
}

static int apply_str(struct parse_state *st, const struct rperf_opt *o,
		     const char *arg, char *msg, size_t msglen)
{
	if (!*arg) {
		snprintf(msg, msglen, "empty value; accepted: a non-empty %s",
			 o->metavar);
		return EINVAL;
	}
	if (rperf_opt_set_str(st->cfg, o, arg)) {
		snprintf(msg, msglen, "'%s' is too long; accepted: a %s name",
			 arg, o->metavar);
		return ENAMETOOLONG;
	}
	return 0;
}

static int apply_value(struct parse_state *st, const struct rperf_opt *o,
		       const char *arg)
{
	char msg[384] = "";
	void *f = (char *)st->cfg + o->off; /* not rperf_opt_in_job() */
	uint64_t v = 0;
	int rc = 0;

	switch (o->type) {
	case RPERF_OT_STR:
		rc = apply_str(st, o, arg, msg, sizeof(msg));
		break;
	case RPERF_OT_RATE:
		rc = rperf_parse_rate(arg, (double)o->min, (double)o->max, f,
				      msg, sizeof(msg));
		break;
	case RPERF_OT_SIZE_LIST:
	case RPERF_OT_PCT_LIST:
		rc = parse_list(st, o, arg, msg, sizeof(msg));
		break;
	case RPERF_OT_STR_LIST:
		rc = append_str(f, o, arg, msg, sizeof(msg));
		break;
	default: /* one field; help and version: none */
		if (!rperf_opt_scalar(o))
			break;
		rc = parse_scalar(o, arg, &v, msg, sizeof(msg));
		if (!rc)
			rperf_opt_set(st->cfg, o, v);
		break;
	}
	if (rc) {
		char label[48];

		return errf(st, rc, "%s: %s",
			    opt_label(o, label, sizeof(label)), msg);
	}
	if (o->implies)
		rperf_opt_set(st->cfg, rperf_opt_find(o->implies), 1);
	return 0;
}

static bool needs_arg(const struct rperf_opt *o)
{
	return o->type != RPERF_OT_FLAG && o->type != RPERF_OT_HELP &&
	       o->type != RPERF_OT_VERSION;
}

static int arg_kind(const struct rperf_opt *o)
{
	if (!needs_arg(o))
		return no_argument;
	return o->bare ? optional_argument : required_argument;
}

/* @name with every '-' and '_' turned into @sep, in @buf; true when that
 * differs from @name. */
static bool respell(const char *name, char sep, char *buf, size_t len)
{
	size_t i;

	for (i = 0; name[i] && i + 1 < len; i++)
		buf[i] = name[i] == '-' || name[i] == '_' ? sep : name[i];
	buf[i] = '\0';
	return strcmp(buf, name) != 0;
}

/* getopt tables for the options of @cmd (NONE: help and version); every
 * long option also under its hyphen and underscore spellings. */
static void build_tables(struct parse_state *st, enum rperf_cmd cmd,
			 struct option *lopts, char *sopts)
{
	size_t nl = 0, ns = 0, nsp = 0;

	sopts[ns++] = ':';
	for (size_t i = 0, n = rperf_opt_count(); i < n; i++) {
		const struct rperf_opt *o = rperf_opt_at(i);

		if (cmd == RPERF_CMD_NONE ?
			    o->type != RPERF_OT_HELP &&
				    o->type != RPERF_OT_VERSION :
			    !(o->cmds & cmd))
			continue;
		lopts[nl++] = (struct option){ o->name, arg_kind(o), NULL,
					       LONG_BASE + (int)i };
		for (const char *sep = "-_"; *sep; sep++) {
			char *buf = st->spell[nsp];

			if (!respell(o->name, *sep, buf, sizeof(st->spell[0])))
				continue;
			nsp++;
			lopts[nl++] = (struct option){ buf, arg_kind(o), NULL,
						       LONG_BASE + (int)i };
		}
		if (o->letter) {
			sopts[ns++] = (char)o->letter;
			if (needs_arg(o))
				sopts[ns++] = ':';
		}
	}
	if (cmd == RPERF_CMD_NONE)
		lopts[nl++] = (struct option){ "help-markdown", no_argument,
					       NULL, MARKDOWN_VAL };
	lopts[nl] = (struct option){ 0 };
	sopts[ns] = '\0';
}

static const struct rperf_opt *by_letter(int c)
{
	for (size_t i = 0, n = rperf_opt_count(); i < n; i++)
		if (rperf_opt_at(i)->letter == c)
			return rperf_opt_at(i);
	return NULL;
}

static int bad_option(struct parse_state *st, int c, char **argv, int ind,
		      enum rperf_cmd cmd)
{
	const char *name = rperf_cmd_name(cmd);
	char what[64], near[64];

	if (optopt > 0 && optopt < LONG_BASE)
		snprintf(what, sizeof(what), "-%c", optopt);
	else
		snprintf(what, sizeof(what), "%s", argv[ind - 1]);
	if (c == ':')
		return errf(
			st, EINVAL,
			"%s: missing value; accepted: the option with its value (see 'rperf %s --help')",
			what, name ? name : "");
	if (!name)
		return errf(
			st, EINVAL,
			"%s: unknown option; accepted: a command (lat, bw, run, agent, info, compare), --help or --version",
			what);
	if (rperf_cli_suggest(cmd, what, near, sizeof(near)))
		return errf(
			st, EINVAL,
			"%s: unknown option of 'rperf %s'; did you mean %s? accepted: the options listed by 'rperf %s --help'",
			what, name, near, name);
	return errf(
		st, EINVAL,
		"%s: unknown option of 'rperf %s'; accepted: the options listed by 'rperf %s --help'",
		what, name, name);
}

static int check_positionals(struct parse_state *st, int argc, char **argv,
			     int ind)
{
	struct rperf_cmdline *cfg = st->cfg;
	const char *name = cfg->mesh_cmd ? "mesh" : rperf_cmd_name(cfg->cmd);
	int n = argc - ind;

	if (cfg->cmd == RPERF_CMD_NONE && n > 0)
		return errf(
			st, EINVAL,
			"%s: unknown command; accepted: lat, bw, run, agent, info, compare (see 'rperf --help')",
			argv[ind]);
	if (cfg->cmd == RPERF_CMD_RUN) {
		if (n != 1)
			return errf(
				st, EINVAL,
				"rperf %s: %s; accepted: exactly one job file, 'rperf %s JOB'%s",
				name,
				n ? "too many arguments" : "missing job file",
				name, cfg->mesh_cmd ? " or hosts A,B,..." : "");
		cfg->job = argv[ind];
		return 0;
	}
	if (cfg->cmd == RPERF_CMD_COMPARE) {
		if (n != 2)
			return errf(
				st, EINVAL,
				"rperf compare: %s; accepted: two JSON reports, 'rperf compare BASE.json RUN.json'",
				n > 2 ? "too many arguments" :
					"missing report file");
		cfg->cmp_base = argv[ind];
		cfg->cmp_run = argv[ind + 1];
		return 0;
	}
	if (cfg->cmd & RPERF_CMD_TRAFFIC) {
		if (n > 1)
			return errf(
				st, EINVAL,
				"%s: unexpected argument; accepted: at most one server host, 'rperf %s [OPTIONS] [HOST]'",
				argv[ind + 1], name);
		cfg->host = n ? argv[ind] : NULL;
		if (cfg->host && !*cfg->host)
			return errf(
				st, EINVAL,
				"HOST: empty; accepted: a host name or address of the server");
		return 0;
	}
	if (n > 0)
		return errf(
			st, EINVAL,
			"%s: unexpected argument; accepted: 'rperf %s' takes options only",
			argv[ind], name);
	return 0;
}

static bool was_given(const struct parse_state *st, const char *name)
{
	const struct rperf_opt *o = rperf_opt_find(name);

	return o && st->given[rperf_opt_index(o)];
}

/* rperf bw: combinations of its options. 0 or EINVAL with the message. */
static int check_bw(struct parse_state *st)
{
	const struct rperf_cmdline *cfg = st->cfg;

	if (cfg->spec.post_list > cfg->spec.tx_depth)
		return errf(
			st, EINVAL,
			"-l/--post_list: %llu is above the tx depth %llu; accepted: a post list of at most -t/--tx-depth work requests",
			(unsigned long long)cfg->spec.post_list,
			(unsigned long long)cfg->spec.tx_depth);
	if (cfg->run_infinitely && was_given(st, "iters"))
		return errf(
			st, EINVAL,
			"--run_infinitely: given with -n/--iters; accepted: --run_infinitely alone, or with -D N to report every N seconds");
	if (cfg->run_infinitely && (cfg->nsizes > 1 || cfg->all_sizes))
		return errf(
			st, EINVAL,
			"--run_infinitely: given with %zu sizes; accepted: one size",
			cfg->nsizes);
	if (was_given(st, "rate_units") && !was_given(st, "rate_limit"))
		return errf(
			st, EINVAL,
			"--rate_units: given without --rate_limit; accepted: --rate_limit N --rate_units M|g|p");
	return 0;
}

/* Combinations and server-side rules, after all options are known. */
static int check_combinations(struct parse_state *st)
{
	struct rperf_cmdline *cfg = st->cfg;

	if (was_given(st, "size") && was_given(st, "sizes"))
		return errf(
			st, EINVAL,
			"--sizes: given with -s/--size; accepted: one of them");
	if (cfg->all_sizes && (was_given(st, "size") || was_given(st, "sizes")))
		return errf(
			st, EINVAL,
			"-a/--all: given with a size; accepted: -a or -s/--sizes, not both");
	if (was_given(st, "iters") && was_given(st, "duration") &&
	    !cfg->run_infinitely)
		rperf_cli_note(
			st->notes, st->noteslen,
			"-n/--iters: given with -D/--duration; -D wins, as in perftest: each size runs for %.9g s",
			(double)cfg->global.duration_ns / 1e9);
	if (was_given(st, "latency_gap") && was_given(st, "rate"))
		return errf(
			st, EINVAL,
			"--rate: given with --latency_gap; accepted: one way of pacing");
	if (rperf_cli_sched_check(cfg, st->err, st->errlen))
		return EINVAL;
	if (was_given(st, "vl") && was_given(st, "sl"))
		return errf(
			st, EINVAL,
			"--vl: given with -S/--sl; accepted: one of them (--vl picks the SL)");
	if (cfg->cmd == RPERF_CMD_BW && check_bw(st))
		return EINVAL;
	for (size_t i = 0, n = rperf_opt_count(); i < n; i++)
		if (st->given[i])
			cfg->given[i / 64] |= 1ull << (i % 64);
	/* perftest's flags; on a server, the options it does not use */
	return rperf_cli_perftest_check(cfg, st->err, st->errlen, st->notes,
					st->noteslen);
}

/* A client's sizes against what every rperf server accepts
 * (RPERF_SERVER_MAX_SIZE): refused before connecting. */
static int check_server_max(struct parse_state *st)
{
	const struct rperf_cmdline *cfg = st->cfg;
	const char *opt = cfg->all_sizes	 ? "--all-max" :
			  was_given(st, "sizes") ? "--sizes" :
						   "-s/--size";

	for (size_t i = 0; i < cfg->nsizes; i++)
		if (cfg->sizes[i] > RPERF_SERVER_MAX_SIZE)
			return errf(
				st, EINVAL,
				"%s: %llu B is above the largest message an rperf server accepts, %u B (16 MiB); accepted: sizes up to 16M",
				opt, (unsigned long long)cfg->sizes[i],
				RPERF_SERVER_MAX_SIZE);
	return 0;
}

static int handle_opt(struct parse_state *st, int c, enum rperf_cli_action *act)
{
	const struct rperf_opt *o;

	if (c == MARKDOWN_VAL) {
		*act = RPERF_ACT_MARKDOWN;
		return 0;
	}
	o = c >= LONG_BASE ? rperf_opt_at((size_t)(c - LONG_BASE)) :
			     by_letter(c);
	st->given[rperf_opt_index(o)] = true;
	if (o->type == RPERF_OT_HELP)
		*act = RPERF_ACT_HELP;
	else if (o->type == RPERF_OT_VERSION)
		*act = RPERF_ACT_VERSION;
	else
		return apply_value(st, o, optarg ? optarg : o->bare);
	return 0;
}

int rperf_cli_parse(int argc, char **argv, struct rperf_cmdline *cfg,
		    enum rperf_cli_action *act, char *err, size_t errlen)
{
	return rperf_cli_parse_ex(argc, argv, cfg, act, err, errlen, NULL, 0);
}

int rperf_cli_parse_ex(int argc, char **argv, struct rperf_cmdline *cfg,
		       enum rperf_cli_action *act, char *err, size_t errlen,
		       char *notes, size_t noteslen)
{
	struct parse_state st = { .cfg = cfg,
				  .err = err,
				  .errlen = errlen,
				  .notes = notes,
				  .noteslen = noteslen };
	struct option lopts[MAX_LONG];
	char sopts[160];
	int c, first = 1, rc;

	if (notes && noteslen)
		notes[0] = '\0';
	rperf_cmdline_defaults(cfg);
	*act = RPERF_ACT_RUN;
	if (argc > 1 && argv[1][0] != '-') {
		cfg->mesh_cmd = !strcmp(argv[1], "mesh"); /* run's options */
		cfg->cmd = rperf_cmd_parse(cfg->mesh_cmd ? "run" : argv[1]);
		if (cfg->cmd == RPERF_CMD_NONE)
			return errf(
				&st, EINVAL,
				"%s: unknown command; accepted: lat, bw, run, agent, info, compare (see 'rperf --help')",
				argv[1]);
		first = 2;
	}
	build_tables(&st, cfg->cmd, lopts, sopts);
	opterr = 0;
	optind = 0; /* full re-initialisation (parse may run more than once) */
	while ((c = getopt_long(argc - (first - 1), argv + (first - 1), sopts,
				lopts, NULL)) != -1) {
		if (c == '?' || c == ':')
			return bad_option(&st, c, argv + (first - 1), optind,
					  cfg->cmd);
		rc = handle_opt(&st, c, act);
		if (rc)
			return rc;
	}
	if (*act != RPERF_ACT_RUN)
		return 0;
	if (cfg->cmd == RPERF_CMD_NONE)
		return errf(
			&st, EINVAL,
			"missing command; accepted: lat, bw, run, agent, info, compare (see 'rperf --help')");
	rc = check_positionals(&st, argc - (first - 1), argv + (first - 1),
			       optind);
	if (!rc)
		rc = check_combinations(&st);
	if (!rc)
		rperf_cli_defaults_after(cfg, was_given(&st, "warmup"));
	if (!rc && (cfg->cmd & RPERF_CMD_TRAFFIC) && cfg->host)
		rc = check_server_max(&st);
	if (!rc && (cfg->cmd & RPERF_CMD_TRAFFIC))
		rc = rperf_cli_verbs_check(
			cfg,
			&(struct rperf_verbs_given){
				.size = was_given(&st, "size") ||
					was_given(&st, "sizes") ||
					cfg->all_sizes,
				.method = was_given(&st, "method"),
				.atomic_type = was_given(&st, "atomic_type"),
				.verb = was_given(&st, "verb") },
			err, errlen);
	if (!rc && cfg->cmd == RPERF_CMD_AGENT && !was_given(&st, "port"))
		cfg->tcp_port = RPERF_AGENT_DEFAULT_PORT;
	return rc;
}
