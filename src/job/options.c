/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The key table is split by topic into options_*.c; this file lists the
 * groups in --help order and indexes them as one table.
 */
#include "job/options.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "job/options_priv.h"
#include "util/field.h"

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

bool rperf_opt_scalar(const struct rperf_opt *o)
{
	return o->type == RPERF_OT_FLAG || o->type == RPERF_OT_INT ||
	       o->type == RPERF_OT_COUNT || o->type == RPERF_OT_SIZE ||
	       o->type == RPERF_OT_TIME || o->type == RPERF_OT_ENUM;
}

bool rperf_opt_in_job(const struct rperf_opt *o)
{
	/* lists, rates and schedules are more than one field */
	return o->name && o->job.name &&
	       (rperf_opt_scalar(o) ||
		(o->type == RPERF_OT_STR && o->job.type == RPERF_OT_NAME));
}

/* Where @o's value is in @cfg, and its width in bytes. */
static char *where(const struct rperf_cmdline *cfg, const struct rperf_opt *o,
		   size_t *width)
{
	char *c = (char *)cfg;

	if (!rperf_opt_in_job(o)) {
		*width = o->type == RPERF_OT_FLAG ? sizeof(bool) :
			 o->type == RPERF_OT_ENUM ? sizeof(int) :
						    sizeof(uint64_t);
		return c + o->off;
	}
	*width = o->job.width;
	if (o->job.dest == RPERF_JOB_HOST)
		c += offsetof(struct rperf_cmdline, sel);
	else if (o->job.dest == RPERF_JOB_GLOBAL)
		c += offsetof(struct rperf_cmdline, global);
	else
		c += offsetof(struct rperf_cmdline, spec);
	return c + o->job.off;
}

void rperf_opt_set(struct rperf_cmdline *cfg, const struct rperf_opt *o,
		   uint64_t v)
{
	size_t width;
	char *p = where(cfg, o, &width);

	rperf_field_store(p, width, v);
}

int64_t rperf_opt_get(const struct rperf_cmdline *cfg,
		      const struct rperf_opt *o)
{
	size_t width;
	const char *p = where(cfg, o, &width);

	/* a 4-byte field is an int (-1: automatic) or a uint32_t < 2^31 */
	return (int64_t)rperf_field_load(p, width, true);
}

const char *rperf_opt_str(const struct rperf_cmdline *cfg,
			  const struct rperf_opt *o)
{
	size_t width;
	const char *p = where(cfg, o, &width), *s;

	if (rperf_opt_in_job(o)) /* a name: "" when not given */
		return *p ? p : NULL;
	memcpy(&s, p, sizeof(s));
	return s;
}

int rperf_opt_set_str(struct rperf_cmdline *cfg, const struct rperf_opt *o,
		      const char *v)
{
	size_t width;
	char *p = where(cfg, o, &width);

	if (!rperf_opt_in_job(o)) {
		memcpy(p, &v, sizeof(v));
		return 0;
	}
	if (strlen(v) >= width)
		return ENAMETOOLONG;
	memcpy(p, v, strlen(v) + 1);
	return 0;
}
