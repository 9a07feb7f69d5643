/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The key table is split by topic into options_*.c; this file lists the
 * groups in --help order and indexes them as one table.
 */
#include "config/options.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "config/options_priv.h"

struct opt_group {
	const struct rperf_opt *opts;
	const size_t *n;
};

/* Order here is the order of --help and of the man page. */
static const struct opt_group groups[] = {
	{ rperf_opts_conn, &rperf_nopts_conn },
	{ rperf_opts_place, &rperf_nopts_place },
	{ rperf_opts_measure, &rperf_nopts_measure },
	{ rperf_opts_bw, &rperf_nopts_bw },
	{ rperf_opts_verbs, &rperf_nopts_verbs },
	{ rperf_opts_serve, &rperf_nopts_serve },
	{ rperf_opts_report, &rperf_nopts_report },
	{ rperf_opts_output, &rperf_nopts_output },
	{ rperf_opts_run, &rperf_nopts_run },
	{ rperf_opts_perftest, &rperf_nopts_perftest },
	{ rperf_opts_limits, &rperf_nopts_limits },
	{ rperf_opts_scale, &rperf_nopts_scale },
	{ rperf_opts_fleet, &rperf_nopts_fleet },
	{ rperf_opts_job, &rperf_nopts_job }, /* last: job files only */
};

#define NGROUPS (sizeof(groups) / sizeof(groups[0]))
#define NCLI (NGROUPS - 1) /* the groups with command-line options */

size_t rperf_opt_count(void)
{
	size_t n = 0;

	for (size_t g = 0; g < NCLI; g++)
		n += *groups[g].n;
	return n;
}

const struct rperf_opt *rperf_opt_at(size_t i)
{
	for (size_t g = 0; g < NCLI; g++) {
		if (i < *groups[g].n)
			return &groups[g].opts[i];
		i -= *groups[g].n;
	}
	return NULL;
}

size_t rperf_opt_index(const struct rperf_opt *o)
{
	size_t base = 0;

	for (size_t g = 0; g < NCLI; g++) {
		if (o >= groups[g].opts && o < groups[g].opts + *groups[g].n)
			return base + (size_t)(o - groups[g].opts);
		base += *groups[g].n;
	}
	return SIZE_MAX;
}

const struct rperf_opt *rperf_opt_find(const char *name)
{
	for (size_t i = 0, n = rperf_opt_count(); i < n; i++)
		if (strcmp(rperf_opt_at(i)->name, name) == 0)
			return rperf_opt_at(i);
	return NULL;
}

const struct rperf_opt *rperf_key_next(struct rperf_key_iter *it)
{
	for (; it->group < NGROUPS; it->group++, it->i = 0)
		if (it->i < *groups[it->group].n)
			return &groups[it->group].opts[it->i++];
	return NULL;
}

size_t rperf_job_keys(unsigned int bits, const struct rperf_opt **out,
		      size_t max)
{
	struct rperf_key_iter it = { 0 };
	const struct rperf_opt *o;
	size_t n = 0;

	while ((o = rperf_key_next(&it))) {
		size_t i = n;

		if (!o->job.name || !(o->job.sects & bits))
			continue;
		for (; i > 0 && out[i - 1]->job.rank > o->job.rank; i--)
			if (i < max)
				out[i] = out[i - 1];
		if (i < max)
			out[i] = o;
		n += n < max;
	}
	return n;
}

void rperf_job_key_view(const struct rperf_opt *o, struct rperf_job_view *v)
{
	const struct rperf_opt_job *j = &o->job;

	if (j->type == RPERF_OT_NONE)
		*v = (struct rperf_job_view){ o->type,	  o->min,   o->max,
					      o->choices, SIZE_MAX, j->word };
	else
		*v = (struct rperf_job_view){
			j->type,
			j->min,
			j->max,
			j->choices,
			j->nchoices ? j->nchoices : SIZE_MAX,
			j->word
		};
}

void rperf_opt_store(void *p, size_t width, uint64_t v)
{
	uint8_t u8 = (uint8_t)v;
	uint16_t u16 = (uint16_t)v;
	uint32_t u32 = (uint32_t)v;

	if (width == 1)
		memcpy(p, &u8, 1);
	else if (width == 2)
		memcpy(p, &u16, 2);
	else if (width == 4)
		memcpy(p, &u32, 4);
	else
		memcpy(p, &v, sizeof(v));
}

/* @o's command-line value in @cfg where its job half points in @base. */
static void to_job(const struct rperf_opt *o,
		   const struct rperf_cli_config *cfg, char *base)
{
	const char *v = (const char *)cfg + o->off, *str;
	uint64_t u;
	int e;

	switch (o->type) {
	case RPERF_OT_FLAG:
		u = *(const bool *)v;
		break;
	case RPERF_OT_ENUM: /* int */
		memcpy(&e, v, sizeof(e));
		u = (uint64_t)(int64_t)e;
		break;
	case RPERF_OT_INT: /* int64_t */
	case RPERF_OT_COUNT: /* the rest uint64_t */
	case RPERF_OT_SIZE:
	case RPERF_OT_TIME:
		memcpy(&u, v, sizeof(u));
		break;
	case RPERF_OT_STR: /* a device name */
		memcpy(&str, v, sizeof(str));
		if (str && o->job.type == RPERF_OT_NAME)
			snprintf(base + o->job.off, o->job.width, "%s", str);
		return;
	default: /* lists, rates and schedules: the caller's */
		return;
	}
	rperf_opt_store(base + o->job.off, o->job.width, u);
}

void rperf_opt_to_job(const struct rperf_cli_config *cfg, unsigned int cmd,
		      enum rperf_job_dest dest, void *base)
{
	for (size_t i = 0, n = rperf_opt_count(); i < n; i++) {
		const struct rperf_opt *o = rperf_opt_at(i);

		if (o->job.name && o->job.dest == dest && (o->cmds & cmd))
			to_job(o, cfg, base);
	}
}
