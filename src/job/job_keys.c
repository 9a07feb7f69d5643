/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The keys of every section type: one table row per key (value type, range,
 * where the value goes). A key's value is checked here; references between
 * sections (hosts named in from/to) are checked in job.c.
 */
#include "job/job_priv.h"

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/spec_traffic.h"
#include "util/units.h"

#define NS_MS 1000000ull
#define NS_S 1000000000ull
#define NS_H (3600 * NS_S)

enum job_vt {
	VT_TIME, /* ns, bare number = seconds */
	VT_SIZE, /* bytes, binary suffixes */
	VT_COUNT, /* unsigned, decimal suffixes */
	VT_INT, /* signed; @word stands for -1 */
	VT_RATE, /* bits/s, decimal prefixes */
	VT_ENUM, /* @choices, stored as int */
	VT_MTU, /* 0 or 256..4096, power of two */
	VT_NAME, /* device name */
	VT_SCHEDULE, /* struct rperf_sched: closed | fixed:R | poisson:R */
	VT_SPECIAL, /* from, to, count, control: job.c / below */
	VT_SIZES, /* a size, or a distribution (job_shape.c) */
};

struct job_key {
	const char *name;
	unsigned sects; /* enum job_sect_type bits */
	enum job_vt vt;
	size_t off, width; /* in the section's target struct */
	int64_t min, max;
	const struct job_enum *choices;
	const char *word; /* VT_INT: a word meaning -1 */
};

/* Enumerated values: the first @n rows of a name table (gen/gen.h,
 * engine/spec.h); either spelling of a name is accepted. */
struct job_enum {
	const struct rperf_name *names;
	size_t n;
};

static const struct job_enum completions = { rperf_completion_names, SIZE_MAX };
static const struct job_enum verbs = { rperf_verb_names, RPERF_SPEC_VERBS };
static const struct job_enum pair_orders = { rperf_pair_order_names, SIZE_MAX };
static const struct job_enum stamps = { rperf_timestamps_names, SIZE_MAX };
static const struct job_enum atomics = { rperf_atomic_names, SIZE_MAX };
static const struct job_enum methods = { rperf_method_names, RPERF_METHOD_ALL };

#define F(type, m) .off = offsetof(type, m), .width = sizeof(((type *)0)->m)
#define J(m) F(struct rperf_job, m)
#define H(m) F(struct rperf_job_host, m)
#define S(m) F(struct rperf_gen_spec, m)
/* name, sections, value type, target, range */
#define KEY(n, sects_, vt_, target, lo, hi)                               \
	{                                                                 \
		.name = n, .sects = sects_, .vt = vt_, target, .min = lo, \
		.max = hi                                                 \
	}
#define ENUM(n, sects_, target, ch)                                \
	{                                                          \
		.name = n, .sects = sects_, .vt = VT_ENUM, target, \
		.choices = &ch                                     \
	}
/* an integer in -1..hi, the word @w = -1 (target last: it holds a comma
 * once expanded); a NUMA node, "auto" = -1 */
#define WORD(n, sects_, hi, w, ...)                                    \
	{                                                              \
		.name = n, .sects = sects_, .vt = VT_INT, __VA_ARGS__, \
		.min = -1, .max = hi, .word = w                        \
	}
#define NODE(n, sects_, target) \
	WORD(n, sects_, RPERF_SPEC_MAX_NODE, "auto", target)
#define SPECIAL(n, sects_)                                   \
	{                                                    \
		.name = n, .sects = sects_, .vt = VT_SPECIAL \
	}
#define GL JOB_SECT_GLOBAL
#define HO JOB_SECT_HOST
#define G JOB_SECT_GEN
#define L JOB_SECT_LSG
#define B JOB_SECT_BSG
#define M JOB_SECT_MESH
#define I JOB_SECT_INCAST

static const struct job_key global_keys[] = {
	KEY("duration", GL, VT_TIME, J(duration_ns), 1, RPERF_SPEC_MAX_TIME_NS),
	KEY("warmup", GL, VT_TIME, J(warmup_ns), 0, NS_H),
	KEY("timeout", GL, VT_TIME, J(timeout_ns), 100 * NS_MS, NS_H),
	ENUM("sink_completion", GL, J(sink_completion), completions),
	{ .name = NULL },
};

static const struct job_key host_keys[] = {
	SPECIAL("control", HO),
	KEY("device", HO, VT_NAME, H(sel.device), 0, 0),
	KEY("port", HO, VT_INT, H(sel.port), 1, 255),
	WORD("gid_index", HO, 255, "auto", H(sel.gid_index)),
	WORD("cpu", HO, RPERF_SPEC_MAX_CPU - 1, "none", H(sel.cpu)),
	NODE("cpu_node", HO, H(sel.cpu_node)),
	NODE("mem_node", HO, H(sel.mem_node)),
	{ .name = NULL },
};

static const struct job_key gen_keys[] = {
	SPECIAL("from", G),
	SPECIAL("count", G),
	SPECIAL("to", G),
	KEY("size", G, VT_SIZES, S(size), 1, RPERF_SPEC_MAX_SIZE),
	KEY("start", G, VT_TIME, S(start_ns), 0, RPERF_SPEC_MAX_TIME_NS),
	ENUM("completion", G, S(completion), completions),
	KEY("sl", G, VT_INT, S(path.sl), 0, 15),
	KEY("tclass", G, VT_INT, S(path.tclass), 0, 255),
	KEY("mtu", G, VT_MTU, S(path.mtu), 0, 4096),
	KEY("qp_timeout", G, VT_INT, S(path.qp_timeout), 0, 31),
	KEY("retry_count", G, VT_INT, S(path.retry_count), 0, 7),
	ENUM("pair_order", L, S(pair_order), pair_orders),
	ENUM("timestamps", L, S(timestamps), stamps),
	ENUM("method", L, S(test.method), methods),
	KEY("iters", L, VT_COUNT, S(test.iters), 1, RPERF_SPEC_MAX_ITERS),
	ENUM("verb", L | B | I, S(verb), verbs),
	ENUM("atomic_op", L | B | I, S(test.atomic_op), atomics),
	KEY("tx_depth", B | I, VT_COUNT, S(tx_depth), 1, RPERF_SPEC_MAX_DEPTH),
	KEY("post_list", B | I, VT_COUNT, S(post_list), 1, 4096),
	KEY("cq_mod", B | I, VT_COUNT, S(cq_mod), 1, RPERF_SPEC_MAX_DEPTH),
	KEY("qps", B | I, VT_COUNT, S(qps), 1, RPERF_SPEC_MAX_QPS),
	KEY("inline", L | B | I, VT_SIZE, S(inline_size), 0,
	    RPERF_SPEC_MAX_INLINE),
	KEY("rdma_cm", L | B | I, VT_INT, S(test.rdma_cm), 0, 1),
	KEY("rate", G, VT_RATE, S(rate_bps), 0, 0),
	NODE("cpu_node", G, S(cpu_node)),
	NODE("mem_node", G, S(mem_node)),
	KEY("schedule", L, VT_SCHEDULE, S(schedule), 0, 0),
	KEY("on", B, VT_TIME, S(on_ns), 1, RPERF_SPEC_MAX_TIME_NS),
	KEY("off", B, VT_TIME, S(off_ns), 1, RPERF_SPEC_MAX_TIME_NS),
	KEY("interval", G, VT_TIME, S(interval_ns), 0, RPERF_SPEC_MAX_TIME_NS),
	KEY("stop", B, VT_TIME, S(stop_ns), 1, RPERF_SPEC_MAX_TIME_NS),
	KEY("bytes", B, VT_SIZE, S(max_bytes), 1, JOB_MAX_BYTES),
	KEY("messages", B, VT_COUNT, S(max_messages), 1, JOB_MAX_MESSAGES),
	KEY("burst", I, VT_SIZE, S(burst_bytes), 1, RPERF_SPEC_MAX_BURST),
	KEY("period", I, VT_TIME, S(period_ns), RPERF_SPEC_MIN_PERIOD_NS,
	    RPERF_SPEC_MAX_TIME_NS),
	KEY("jitter", I, VT_TIME, S(jitter_ns), 0, RPERF_SPEC_MAX_TIME_NS),
	/* [mesh]'s own keys (job_mesh.c); the LSG keys above apply too */
	SPECIAL("hosts", M),
	SPECIAL("schedule", M),
	SPECIAL("duration", M),
	SPECIAL("warmup", M),
	SPECIAL("out_above", M),
	SPECIAL("statistic", M),
	SPECIAL("parallel", M),
	SPECIAL("samples", M),
	SPECIAL("probe_schedule", M),
	{ .name = NULL },
};

/* The key bits a section of type @t accepts: a mesh takes the LSG keys. */
static unsigned sect_keys(enum job_sect_type t)
{
	return t == JOB_SECT_MESH ? (unsigned)(JOB_SECT_MESH | JOB_SECT_LSG) :
				    (unsigned)t;
}

static void store_u(void *p, size_t width, uint64_t v)
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

static int parse_enum(const struct job_key *k, const char *v, int *out,
		      char *why, size_t whylen)
{
	const char *names[16], *near;
	size_t len, n = 0;

	if (!rperf_name_find(k->choices->names, k->choices->n, v, out))
		return 0;
	while (n < 15 && n < k->choices->n && k->choices->names[n].name)
		names[n] = k->choices->names[n].name, n++;
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

static int parse_rate(const char *v, double *out, char *why, size_t whylen)
{
	size_t n = strlen(v);

	if (n && v[n - 1] == 'B') {
		snprintf(
			why, whylen,
			"'%s': rates are bits/s (10M = 10 Mbit/s); for bytes/s multiply by 8 and drop the B",
			v);
		return EINVAL;
	}
	return rperf_parse_rate(v, 0, RPERF_SPEC_MAX_RATE_BPS, out, why,
				whylen);
}

static int parse_int(const struct job_key *k, const char *v, int64_t *out,
		     char *why, size_t whylen)
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

/* Parse @v for @k and store it at @base + k->off. */
static int set_value(const struct job_key *k, const char *v, void *base,
		     char *why, size_t whylen)
{
	char *p = (char *)base + k->off;
	uint64_t u = 0;
	int64_t i = 0;
	double d = 0;
	int e = 0, rc = 0;

	switch (k->vt) {
	case VT_TIME:
		rc = rperf_parse_time(v, NS_S, (uint64_t)k->min,
				      (uint64_t)k->max, &u, why, whylen);
		break;
	case VT_SIZE:
		rc = rperf_parse_size(v, (uint64_t)k->min, (uint64_t)k->max, &u,
				      why, whylen);
		break;
	case VT_COUNT:
		rc = rperf_parse_count(v, (uint64_t)k->min, (uint64_t)k->max,
				       &u, why, whylen);
		break;
	case VT_MTU:
		rc = parse_mtu(v, &u, why, whylen);
		break;
	case VT_INT:
		rc = parse_int(k, v, &i, why, whylen);
		if (!rc && k->width == sizeof(int)) {
			e = (int)i;
			memcpy(p, &e, sizeof(e));
			return 0;
		}
		u = (uint64_t)i;
		break;
	case VT_RATE:
		rc = parse_rate(v, &d, why, whylen);
		if (!rc)
			memcpy(p, &d, sizeof(d));
		return rc;
	case VT_ENUM:
		rc = parse_enum(k, v, &e, why, whylen);
		if (!rc)
			memcpy(p, &e, sizeof(e));
		return rc;
	case VT_NAME:
		if (!job_name_ok(v)) {
			snprintf(
				why, whylen,
				"'%s' is not a device name; accepted: 1 to %d of letters, digits, '_', '.', '-' (see rperf info)",
				v, RPERF_NAME_LEN - 1);
			return EINVAL;
		}
		memcpy(p, v, strlen(v) + 1);
		return 0;
	case VT_SCHEDULE:
		return rperf_sched_parse(v, (struct rperf_sched *)(void *)p,
					 why, whylen);
	case VT_SPECIAL:
		return 0;
	case VT_SIZES:
		return job_parse_sizes(base, v, why, whylen);
	}
	if (!rc)
		store_u(p, k->width, u);
	return rc;
}

static const struct job_key *find_key(const struct job_key *tab,
				      const char *name)
{
	for (; tab->name; tab++)
		if (!strcmp(tab->name, name))
			return tab;
	return NULL;
}

/* The row of @name for a section of type @t: a mesh's own key first (its
 * schedule is the mesh's, not its LSGs'), then the keys @t takes. */
static const struct job_key *
find_key_for(const struct job_key *tab, const char *name, enum job_sect_type t)
{
	const struct job_key *k;

	for (k = tab; t == JOB_SECT_MESH && k->name; k++)
		if (!strcmp(k->name, name) && (k->sects & JOB_SECT_MESH))
			return k;
	for (k = tab; k->name; k++)
		if (!strcmp(k->name, name) && (k->sects & sect_keys(t)))
			return k;
	return NULL;
}

static const struct job_key *key_of(enum job_sect_type t, const char *key)
{
	const struct job_key *tab = t == JOB_SECT_GLOBAL ? global_keys :
				    t == JOB_SECT_HOST	 ? host_keys :
							   gen_keys;
	return find_key_for(tab, key, t);
}

bool job_key_known(enum job_sect_type t, const char *key)
{
	return key_of(t, key) != NULL;
}

/* The value @set_value stored at @p (@k's width and type), as a number. */
static double stored_number(const struct job_key *k, const void *p)
{
	uint64_t u = 0;
	double d;
	int e;

	if (k->vt == VT_RATE) {
		memcpy(&d, p, sizeof(d));
		return d;
	}
	if (k->vt == VT_INT && k->width == sizeof(int)) {
		memcpy(&e, p, sizeof(e));
		return (double)e;
	}
	if (k->width == 1)
		return (double)*(const uint8_t *)p;
	if (k->width == 2) {
		uint16_t v;

		memcpy(&v, p, sizeof(v));
		return (double)v;
	}
	if (k->width == 4) {
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
	const struct job_key *k = key_of(t, key);
	size_t size = t == JOB_SECT_GLOBAL ? sizeof(struct rperf_job) :
		      t == JOB_SECT_HOST   ? sizeof(struct rperf_job_host) :
					     sizeof(struct rperf_gen_spec);
	char why[256];
	uint64_t u = 0;
	void *base;
	int rc;

	if (!k || k->vt == VT_ENUM || k->vt == VT_NAME ||
	    k->vt == VT_SCHEDULE ||
	    (k->vt == VT_SIZES && job_sizes_is_dist(val)))
		return ENOENT;
	if (k->vt == VT_SPECIAL) {
		if (strcmp(key, "count"))
			return ENOENT;
		rc = rperf_parse_count(val, 0, RPERF_JOB_MAX_HOSTS, &u, why,
				       sizeof(why));
		*out = (double)u;
		return rc ? EINVAL : 0;
	}
	base = calloc(1, size);
	if (!base)
		return ENOMEM;
	rc = set_value(k, val, base, why, sizeof(why)) ? EINVAL : 0;
	if (!rc)
		*out = stored_number(k, (const char *)base + k->off);
	free(base);
	return rc;
}

static const char *mask_name(unsigned sects)
{
	if (sects != I)
		sects &= ~(unsigned)I; /* said after the name */
	if ((sects & JOB_SECT_GEN) == (JOB_SECT_GEN & ~(unsigned)I))
		return "lsg] and [bsg";
	return job_sect_type_name(sects);
}

static int unknown_key(const struct job_key *tab, const struct job_sect *s,
		       const struct job_kv *kv, const struct job_msg *m)
{
	static const struct job_key *const tabs[] = { global_keys, host_keys,
						      gen_keys };
	const char *cands[32], *near;
	char list[256];
	size_t n = 0, len = 0;

	for (size_t t = 0; t < sizeof(tabs) / sizeof(tabs[0]); t++) {
		const struct job_key *k = find_key(tabs[t], kv->key);

		if (k && !(k->sects & sect_keys(s->type)))
			return job_fail(
				m, kv->line, s, kv->key,
				"applies to [%s] sections only%s; move it there",
				mask_name(k->sects),
				k->sects != I && (k->sects & I) ?
					" (and [incast])" :
					"");
	}
	for (; tab->name && n < 31; tab++)
		if (tab->sects & sect_keys(s->type))
			cands[n++] = tab->name;
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
			job_sect_type_name(s->type), list);
}

/* Every key of @s into @base; specials are left to @special. */
static int apply(const struct job_key *tab, const struct job_sect *s,
		 void *base, const struct job_msg *m,
		 int (*special)(void *ctx, const struct job_kv *kv, char *why,
				size_t whylen),
		 void *ctx)
{
	char why[384];
	int rc;

	for (size_t i = 0; i < s->nkv; i++) {
		const struct job_kv *kv = &s->kv[i];
		const struct job_key *k = find_key_for(tab, kv->key, s->type);

		if (!k)
			return unknown_key(tab, s, kv, m);
		why[0] = '\0';
		if (!*kv->val)
			return job_fail(m, kv->line, s, kv->key,
					"no value; write %s = VALUE", kv->key);
		if (k->vt == VT_SPECIAL)
			rc = special(ctx, kv, why, sizeof(why));
		else
			rc = set_value(k, kv->val, base, why, sizeof(why));
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
	return apply(global_keys, s, job, m, no_special, NULL);
}

static int host_special(void *ctx, const struct job_kv *kv, char *why,
			size_t whylen)
{
	return job_parse_control(ctx, kv->val, why, whylen);
}

int job_keys_host(struct rperf_job_host *host, const struct job_sect *s,
		  const struct job_msg *m)
{
	return apply(host_keys, s, host, m, host_special, host);
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

	return apply(gen_keys, gen->sect, &gen->spec, m, gen_special, &c);
}

int job_keys_mesh(struct job_gen *gen, const struct job_msg *m,
		  int (*special)(void *ctx, const struct job_kv *kv, char *why,
				 size_t whylen),
		  void *ctx)
{
	return apply(gen_keys, gen->sect, &gen->spec, m, special, ctx);
}
