/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The keys of every section type, from the one key table (job/options.h:
 * each entry's .job half names the key, the sections that take it, its
 * type, range and field). A key's value is checked here; references between
 * sections (hosts named in from/to) are checked in job.c.
 */
#include "job/job_priv.h"

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "job/options.h"
#include "util/field.h"
#include "util/units.h"

#define NS_S 1000000000ull

/* The key bits a section of type @t accepts: a mesh takes the LSG keys. */
static unsigned sect_keys(enum job_sect_type t)
{
	return t == JOB_SECT_MESH ? (unsigned)(JOB_SECT_MESH | JOB_SECT_LSG) :
				    (unsigned)t;
}

static int parse_enum(const struct rperf_job_view *k, const char *v, int *out,
		      char *why, size_t whylen)
{
	const char *names[16], *near;
	size_t len, n = 0;

	if (!rperf_name_find(k->choices, k->nchoices, v, out))
		return 0;
	while (n < 15 && n < k->nchoices && k->choices[n].name)
		names[n] = k->choices[n].name, n++;
	names[n] = NULL;
	near = job_nearest(v, names);
	if (near) {
		snprintf(why, whylen,
			 "'%s' is not a choice; did you mean '%s'?", v, near);
		return EINVAL;
	}
	len = (size_t)snprintf(why, whylen,
			       "'%s' is not a choice; accepted:", v);
	for (size_t i = 0; i < n && len < whylen; i++)
		len += (size_t)snprintf(why + len, whylen - len, "%s %s",
					i ? "," : "", names[i]);
	return EINVAL;
}

static int parse_mtu(const char *v, uint64_t *out, char *why, size_t whylen)
{
	int rc = rperf_parse_size(v, 0, 4096, out, why, whylen);

	if (!rc && *out && (*out < 256 || (*out & (*out - 1)))) {
		snprintf(
			why, whylen,
			"'%s' is not an MTU; accepted: 256, 512, 1024, 2048, 4096, or 0 for the port's active MTU",
			v);
		rc = EINVAL;
	}
	return rc;
}

static int parse_rate(const struct rperf_job_view *k, const char *v,
		      double *out, char *why, size_t whylen)
{
	size_t n = strlen(v);

	if (n && v[n - 1] == 'B') {
		snprintf(
			why, whylen,
			"'%s': rates are bits/s (10M = 10 Mbit/s); for bytes/s multiply by 8 and drop the B",
			v);
		return EINVAL;
	}
	return rperf_parse_rate(v, (double)k->min, (double)k->max, out, why,
				whylen);
}

static int parse_int(const struct rperf_job_view *k, const char *v,
		     int64_t *out, char *why, size_t whylen)
{
	int rc;

	if (k->word && !strcmp(v, k->word)) {
		*out = -1;
		return 0;
	}
	rc = rperf_parse_int(v, k->min, k->max, out, why, whylen);
	if (rc && k->word)
		snprintf(why + strlen(why), whylen - strlen(why),
			 ", or %s (-1)", k->word);
	return rc;
}

/* Parse @v for @o and store it at @base + o->job.off. */
static int set_value(const struct rperf_opt *o, const char *v, void *base,
		     char *why, size_t whylen)
{
	char *p = (char *)base + o->job.off;
	struct rperf_job_view k;
	uint64_t u = 0;
	int64_t i = 0;
	double d = 0;
	int e = 0, rc = 0;

	rperf_job_key_view(o, &k);
	switch (k.type) {
	case RPERF_OT_TIME:
		rc = rperf_parse_time(v, NS_S, (uint64_t)k.min, (uint64_t)k.max,
				      &u, why, whylen);
		break;
	case RPERF_OT_SIZE:
		rc = rperf_parse_size(v, (uint64_t)k.min, (uint64_t)k.max, &u,
				      why, whylen);
		break;
	case RPERF_OT_COUNT:
		rc = rperf_parse_count(v, (uint64_t)k.min, (uint64_t)k.max, &u,
				       why, whylen);
		break;
	case RPERF_OT_MTU:
		rc = parse_mtu(v, &u, why, whylen);
		break;
	case RPERF_OT_INT:
		rc = parse_int(&k, v, &i, why, whylen);
		if (!rc && o->job.width == sizeof(int)) {
			e = (int)i;
			memcpy(p, &e, sizeof(e));
			return 0;
		}
		u = (uint64_t)i;
		break;
	case RPERF_OT_RATE:
		rc = parse_rate(&k, v, &d, why, whylen);
		if (!rc)
			memcpy(p, &d, sizeof(d));
		return rc;
	case RPERF_OT_ENUM:
		rc = parse_enum(&k, v, &e, why, whylen);
		if (!rc)
			memcpy(p, &e, sizeof(e));
		return rc;
	case RPERF_OT_NAME:
		if (!job_name_ok(v)) {
			snprintf(
				why, whylen,
				"'%s' is not a device name; accepted: 1 to %d of letters, digits, '_', '.', '-' (see rperf info)",
				v, RPERF_NAME_LEN - 1);
			return EINVAL;
		}
		memcpy(p, v, strlen(v) + 1);
		return 0;
	case RPERF_OT_SCHED:
		return rperf_sched_parse(v, (struct rperf_sched *)(void *)p,
					 why, whylen);
	case RPERF_OT_SIZES:
		return job_parse_sizes(base, v, why, whylen);
	default: /* RPERF_OT_SPECIAL: the caller's */
		return 0;
	}
	if (!rc)
		rperf_field_store(p, o->job.width, u);
	return rc;
}

/* Is @o the job-file key @name of a section whose key bits are @bits? */
static bool is_key(const struct rperf_opt *o, const char *name, unsigned bits)
{
	return o->job.name && !strcmp(o->job.name, name) &&
	       (o->job.sects & bits);
}

/* The entry of @name for a section of type @t: a mesh's own key first (its
 * schedule is the mesh's, not its LSGs'), then the keys @t takes. */
static const struct rperf_opt *key_of(enum job_sect_type t, const char *name)
{
	struct rperf_key_iter it = { 0 };
	const struct rperf_opt *o, *found = NULL;

	while ((o = rperf_key_next(&it)))
		if (t == JOB_SECT_MESH && is_key(o, name, JOB_SECT_MESH))
			return o;
		else if (!found && is_key(o, name, sect_keys(t)))
			found = o;
	return found;
}

/* The section types whose keys are in the key table, in the order of the
 * man page ([switch]'s one key, counters, is job_switch.c's). */
static const enum job_sect_type sect_order[] = {
	JOB_SECT_GLOBAL, JOB_SECT_HOST,	  JOB_SECT_LSG,
	JOB_SECT_BSG,	 JOB_SECT_INCAST, JOB_SECT_MESH
};
#define NSECT (sizeof(sect_order) / sizeof(sect_order[0]))

const char *rperf_job_sect_name(size_t i)
{
	return i < NSECT ? job_sect_type_name(sect_order[i]) : NULL;
}

/* Does a section of type @t take @o (a mesh neither from/count/to, which
 * it plans itself, nor its LSGs' schedule)? */
static bool takes(enum job_sect_type t, const struct rperf_opt *o)
{
	if (t != JOB_SECT_MESH || (o->job.sects & JOB_SECT_MESH))
		return true;
	return o->job.type != RPERF_OT_SPECIAL && key_of(t, o->job.name) == o;
}

size_t rperf_job_sect_keys(size_t i, const char **out, size_t max)
{
	const struct rperf_opt *keys[64];
	size_t n, k, m = 0;

	if (i >= NSECT)
		return 0;
	n = rperf_job_keys(sect_keys(sect_order[i]), keys, 64);
	for (k = 0; k < n && m < max; k++)
		if (takes(sect_order[i], keys[k]))
			out[m++] = keys[k]->job.name;
	return m;
}

bool job_key_known(enum job_sect_type t, const char *key)
{
	return key_of(t, key) != NULL;
}

/* The value @set_value stored at @p (@o's width and type), as a number. */
static double stored_number(const struct rperf_opt *o,
			    const struct rperf_job_view *k, const void *p)
{
	uint64_t u = 0;
	double d;
	int e;

	if (k->type == RPERF_OT_RATE) {
		memcpy(&d, p, sizeof(d));
		return d;
	}
	if (k->type == RPERF_OT_INT && o->job.width == sizeof(int)) {
		memcpy(&e, p, sizeof(e));
		return (double)e;
	}
	if (o->job.width == 1)
		return (double)*(const uint8_t *)p;
	if (o->job.width == 2) {
		uint16_t v;

		memcpy(&v, p, sizeof(v));
		return (double)v;
	}
	if (o->job.width == 4) {
		uint32_t v;

		memcpy(&v, p, sizeof(v));
		return (double)v;
	}
	memcpy(&u, p, sizeof(u));
	return (double)u;
}

int job_key_number(enum job_sect_type t, const char *key, const char *val,
		   double *out)
{
	const struct rperf_opt *o = key_of(t, key);
	struct rperf_job_view k;
	char why[256];
	uint64_t u = 0;
	void *base;
	int rc;

	if (!o)
		return ENOENT;
	rperf_job_key_view(o, &k);
	if (k.type == RPERF_OT_ENUM || k.type == RPERF_OT_NAME ||
	    k.type == RPERF_OT_SCHED ||
	    (k.type == RPERF_OT_SIZES && job_sizes_is_dist(val)))
		return ENOENT;
	if (k.type == RPERF_OT_SPECIAL) {
		if (strcmp(key, "count"))
			return ENOENT;
		rc = rperf_parse_count(val, 0, RPERF_JOB_MAX_HOSTS, &u, why,
				       sizeof(why));
		*out = (double)u;
		return rc ? EINVAL : 0;
	}
	base = calloc(1, o->job.dest == RPERF_JOB_GLOBAL ?
				 sizeof(struct rperf_job_global) :
			 o->job.dest == RPERF_JOB_HOST ?
				 sizeof(struct rperf_host_sel) :
				 sizeof(struct rperf_gen_spec));
	if (!base)
		return ENOMEM;
	rc = set_value(o, val, base, why, sizeof(why)) ? EINVAL : 0;
	if (!rc)
		*out = stored_number(o, &k, (const char *)base + o->job.off);
	free(base);
	return rc;
}

static const char *mask_name(unsigned sects)
{
	if (sects != JOB_SECT_INCAST)
		sects &= ~(unsigned)JOB_SECT_INCAST; /* said after the name */
	if ((sects & JOB_SECT_GEN) ==
	    (JOB_SECT_GEN & ~(unsigned)JOB_SECT_INCAST))
		return "lsg] and [bsg";
	return job_sect_type_name(sects);
}

static int unknown_key(const struct job_sect *s, const struct job_kv *kv,
		       const struct job_msg *m)
{
	const struct rperf_opt *keys[96];
	const char *cands[32], *near;
	size_t nkeys = rperf_job_keys(~0u, keys, 96), n = 0, len = 0;
	unsigned bits = sect_keys(s->type);
	char list[256];

	for (size_t i = 0; i < nkeys; i++)
		if (!strcmp(keys[i]->job.name, kv->key))
			return job_fail(
				m, kv->line, s, kv->key,
				"applies to [%s] sections only%s; move it there",
				mask_name(keys[i]->job.sects),
				keys[i]->job.sects != JOB_SECT_INCAST &&
						(keys[i]->job.sects &
						 JOB_SECT_INCAST) ?
					" (and [incast])" :
					"");
	for (size_t i = 0; i < nkeys && n < 31; i++)
		if (keys[i]->job.sects & bits)
			cands[n++] = keys[i]->job.name;
	cands[n] = NULL;
	near = job_nearest(kv->key, cands);
	if (near)
		return job_fail(m, kv->line, s, kv->key,
				"unknown key; did you mean '%s'?", near);
	list[0] = '\0';
	for (size_t i = 0; i < n && len < sizeof(list); i++)
		len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s",
					i ? ", " : "", cands[i]);
	return job_fail(m, kv->line, s, kv->key, "unknown key; [%s] takes: %s",
			job_sect_word(s), list);
}

/* Every key of @s into @base; specials are left to @special. */
static int apply(const struct job_sect *s, void *base, const struct job_msg *m,
		 int (*special)(void *ctx, const struct job_kv *kv, char *why,
				size_t whylen),
		 void *ctx)
{
	char why[384];
	int rc;

	for (size_t i = 0; i < s->nkv; i++) {
		const struct job_kv *kv = &s->kv[i];
		const struct rperf_opt *o = key_of(s->type, kv->key);

		if (!o)
			return unknown_key(s, kv, m);
		why[0] = '\0';
		if (!*kv->val)
			return job_fail(m, kv->line, s, kv->key,
					"no value; write %s = VALUE", kv->key);
		if (o->job.type == RPERF_OT_SPECIAL)
			rc = special(ctx, kv, why, sizeof(why));
		else
			rc = set_value(o, kv->val, base, why, sizeof(why));
		if (rc == ENOMEM)
			return rc;
		if (rc)
			return job_fail(m, kv->line, s, kv->key, "%s", why);
	}
	return 0;
}

static int no_special(void *ctx, const struct job_kv *kv, char *why,
		      size_t whylen)
{
	(void)ctx;
	(void)kv;
	(void)why;
	(void)whylen;
	return 0;
}

int job_keys_global(struct rperf_job *job, const struct job_sect *s,
		    const struct job_msg *m)
{
	struct rperf_job_global g = { .duration_ns = job->duration_ns,
				      .warmup_ns = job->warmup_ns,
				      .timeout_ns = job->timeout_ns,
				      .sink_completion = job->sink_completion };
	int rc = apply(s, &g, m, no_special, NULL);

	job->duration_ns = g.duration_ns;
	job->warmup_ns = g.warmup_ns;
	job->timeout_ns = g.timeout_ns;
	job->sink_completion = g.sink_completion;
	return rc;
}

static int host_special(void *ctx, const struct job_kv *kv, char *why,
			size_t whylen)
{
	return job_parse_control(ctx, kv->val, why, whylen);
}

int job_keys_host(struct rperf_job_host *host, const struct job_sect *s,
		  const struct job_msg *m)
{
	return apply(s, &host->sel, m, host_special, host);
}
struct gen_ctx {
	const struct rperf_job *job;
	struct job_gen *gen;
};

static int gen_special(void *ctx, const struct job_kv *kv, char *why,
		       size_t whylen)
{
	struct gen_ctx *c = ctx;
	struct job_gen *g = c->gen;
	int rc;

	if (!strcmp(kv->key, "from")) {
		g->from_kv = kv;
		return job_parse_from(c->job, g, kv->val, why, whylen);
	}
	if (!strcmp(kv->key, "count")) {
		g->count_kv = kv;
		g->has_count = true;
		return rperf_parse_count(kv->val, 0, RPERF_JOB_MAX_HOSTS,
					 &g->count, why, whylen);
	}
	g->to_kv = kv;
	g->to_all = !strcmp(kv->val, "*");
	if (g->to_all) {
		g->to = -1;
		return 0;
	}
	if (strchr(kv->val, ',')) {
		snprintf(
			why, whylen,
			"'%s': one destination per section; write one section per destination, or to = * (every other host of from)",
			kv->val);
		return EINVAL;
	}
	rc = job_find_host(c->job, kv->val, &g->to, why, whylen);
	if (!rc)
		return 0;
	g->to = -1;
	return rc;
}

int job_keys_gen(const struct rperf_job *job, struct job_gen *gen,
		 const struct job_msg *m)
{
	struct gen_ctx c = { .job = job, .gen = gen };

	return apply(gen->sect, &gen->spec, m, gen_special, &c);
}

int job_keys_mesh(struct job_gen *gen, const struct job_msg *m,
		  int (*special)(void *ctx, const struct job_kv *kv, char *why,
				 size_t whylen),
		  void *ctx)
{
	return apply(gen->sect, &gen->spec, m, special, ctx);
}
