/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Edits of a job's raw sections before they are checked (job.h: hosts map,
 * SECTION.NAME.KEY=VALUE assigns). An edited key keeps a negative line
 * whose origin (raw->origins) names it in messages, so that its value is
 * checked by the same code as the file's keys.
 */
#include "job/job_priv.h"

#include <errno.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A new origin for messages; its line number (negative) in *line. */
static int add_origin(struct job_raw *raw, int *line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int add_origin(struct job_raw *raw, int *line, const char *fmt, ...)
{
	char buf[512], **p, *dup;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	p = realloc(raw->origins, (raw->norigins + 1) * sizeof(*p));
	if (!p)
		return ENOMEM;
	raw->origins = p;
	dup = strdup(buf);
	if (!dup)
		return ENOMEM;
	p[raw->norigins++] = dup;
	*line = -(int)raw->norigins;
	return 0;
}

/* Key @key of @s set to @val (replaced or added), named by @line. */
static int set_kv(struct job_sect *s, const char *key, const char *val,
		  int line)
{
	char *v = strdup(val), *k;
	struct job_kv *kv;

	if (!v)
		return ENOMEM;
	for (size_t i = 0; i < s->nkv; i++) {
		if (strcmp(s->kv[i].key, key))
			continue;
		free(s->kv[i].val);
		s->kv[i].val = v;
		s->kv[i].line = line;
		return 0;
	}
	k = strdup(key);
	kv = k ? realloc(s->kv, (s->nkv + 1) * sizeof(*kv)) : NULL;
	if (!kv) {
		free(k);
		free(v);
		return ENOMEM;
	}
	s->kv = kv;
	kv[s->nkv++] = (struct job_kv){ .key = k, .val = v, .line = line };
	return 0;
}

static struct job_sect *find_sect(struct job_raw *raw, enum job_sect_type t,
				  const char *name)
{
	for (size_t i = 0; i < raw->nsect; i++)
		if ((raw->sect[i].type & t) && !strcmp(raw->sect[i].name, name))
			return &raw->sect[i];
	return NULL;
}

/* A [global] section, added at the end when the file has none. */
static int global_sect(struct job_raw *raw, struct job_sect **out)
{
	struct job_sect *p;

	*out = find_sect(raw, JOB_SECT_GLOBAL, "");
	if (*out)
		return 0;
	p = realloc(raw->sect, (raw->nsect + 1) * sizeof(*p));
	if (!p)
		return ENOMEM;
	raw->sect = p;
	p[raw->nsect] = (struct job_sect){ .type = JOB_SECT_GLOBAL };
	*out = &p[raw->nsect++];
	return 0;
}

/* @n bytes of @src into @dst as a string; false when it does not fit. */
static bool copy_part(char *dst, size_t dstlen, const char *src, size_t n)
{
	if (n >= dstlen)
		return false;
	memcpy(dst, src, n);
	dst[n] = '\0';
	return true;
}

int rperf_job_assign_parse(const char *text, struct rperf_job_target *t,
			   char *err, size_t errlen)
{
	const char *eq = strchr(text, '='), *dot = strchr(text, '.');
	const char *last = NULL;
	bool global;

	memset(t, 0, sizeof(*t));
	if (!eq || !dot || dot > eq) {
		snprintf(
			err, errlen,
			"'%s' is not SECTION.NAME.KEY=VALUE; e.g. bsg.bulk.size=4K or global.duration=5s",
			text);
		return EINVAL;
	}
	for (const char *p = dot; p < eq; p++)
		if (*p == '.')
			last = p;
	if (!copy_part(t->sect, sizeof(t->sect), text, (size_t)(dot - text)) ||
	    !job_sect_type_parse(t->sect, NULL)) {
		snprintf(
			err, errlen,
			"'%.*s' is not a section type; accepted: global, host, lsg, bsg, mesh (SECTION.NAME.KEY=VALUE)",
			(int)(dot - text), text);
		return EINVAL;
	}
	global = !strcmp(t->sect, "global");
	if (global ? last != dot : last == dot) {
		snprintf(err, errlen,
			 "'%.*s': write %s; names may hold dots, keys do not",
			 (int)(eq - text), text,
			 global ? "global.KEY=VALUE" :
				  "SECTION.NAME.KEY=VALUE");
		return EINVAL;
	}
	if (!global && (!copy_part(t->name, sizeof(t->name), dot + 1,
				   (size_t)(last - dot - 1)) ||
			!job_name_ok(t->name))) {
		snprintf(
			err, errlen,
			"'%.*s' is not a section name; accepted: 1 to %d of letters, digits, '_', '.', '-'",
			(int)(last - dot - 1), dot + 1, RPERF_NAME_LEN - 1);
		return EINVAL;
	}
	/* the key itself is checked by the load, like the file's keys */
	if (!copy_part(t->key, sizeof(t->key), last + 1,
		       (size_t)(eq - last - 1)) ||
	    !t->key[0]) {
		snprintf(err, errlen,
			 "'%.*s' is not a key; write SECTION.NAME.KEY=VALUE",
			 (int)(eq - last - 1), last + 1);
		return EINVAL;
	}
	t->value = eq + 1;
	return 0;
}

int rperf_job_target_number(const struct rperf_job_target *t, const char *value,
			    double *out)
{
	return job_key_number(job_sect_type_parse(t->sect, NULL), t->key, value,
			      out);
}

/* The names of @raw's sections of type @t, for "did you mean". */
static int no_such_sect(const struct job_raw *raw, enum job_sect_type t,
			const struct rperf_job_target *tg, const char *origin,
			const struct job_msg *m)
{
	const char *cands[JOB_MAX_SECTIONS + 1], *near;
	char list[256] = "";
	size_t n = 0, len = 0;

	for (size_t i = 0; i < raw->nsect; i++)
		if (raw->sect[i].type & t)
			cands[n++] = raw->sect[i].name;
	cands[n] = NULL;
	near = job_nearest(tg->name, cands);
	for (size_t i = 0; i < n && len < sizeof(list); i++)
		len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s",
					i ? ", " : "", cands[i]);
	if (near)
		snprintf(m->err, m->errlen,
			 "%s: %s has no [%s %s]; did you mean '%s'?", origin,
			 m->file, tg->sect, tg->name, near);
	else
		snprintf(m->err, m->errlen, "%s: %s has no [%s %s]; it has: %s",
			 origin, m->file, tg->sect, tg->name,
			 n ? list : "none of that type");
	return EINVAL;
}

static int apply_assign(struct job_raw *raw, const struct rperf_job_assign *a,
			const struct job_msg *m)
{
	const char *origin = a->origin ? a->origin : a->text;
	struct rperf_job_target tg;
	struct job_sect *s;
	enum job_sect_type t;
	char why[384];
	int rc, line;

	rc = rperf_job_assign_parse(a->text, &tg, why, sizeof(why));
	if (rc) {
		snprintf(m->err, m->errlen, "%s: %s", origin, why);
		return rc;
	}
	t = job_sect_type_parse(tg.sect, NULL);
	if (t == JOB_SECT_GLOBAL)
		rc = global_sect(raw, &s);
	else if (!(s = find_sect(raw, t, tg.name)))
		return no_such_sect(raw, t, &tg, origin, m);
	if (!rc)
		rc = add_origin(raw, &line, "%s", origin);
	if (!rc)
		rc = set_kv(s, tg.key, tg.value, line);
	return rc;
}

/* Every key of the map's [host] sections checked on a scratch host. */
static int check_map(const struct job_raw *map, const struct job_msg *mm)
{
	struct rperf_job_host h;
	int rc;

	for (size_t i = 0; i < map->nsect; i++) {
		const struct job_sect *s = &map->sect[i];

		if (s->type != JOB_SECT_HOST)
			return job_fail(
				mm, s->line, s, NULL,
				"a hosts map holds [host NAME] sections only; move the rest to the job file or use --set");
		memset(&h, 0, sizeof(h));
		rc = job_keys_host(&h, s, mm);
		if (rc)
			return rc;
	}
	return 0;
}

static int overlay_map(struct job_raw *raw, const struct job_raw *map,
		       const char *path, const struct job_msg *m)
{
	size_t matched = 0;
	int rc = 0, line;

	for (size_t i = 0; i < map->nsect && !rc; i++) {
		const struct job_sect *ms = &map->sect[i];
		struct job_sect *s = find_sect(raw, JOB_SECT_HOST, ms->name);

		if (!s)
			continue;
		matched++;
		for (size_t k = 0; k < ms->nkv && !rc; k++) {
			rc = add_origin(raw, &line, "%s:%d", path,
					ms->kv[k].line);
			if (!rc)
				rc = set_kv(s, ms->kv[k].key, ms->kv[k].val,
					    line);
		}
	}
	if (!rc && !matched)
		rc = job_fail(
			m, 0, NULL, NULL,
			"the hosts map %s names none of the job's hosts; its [host NAME] sections must use the job's host names",
			path);
	return rc;
}

static int apply_map(struct job_raw *raw, const char *path,
		     const struct job_msg *m)
{
	struct job_msg mm = { .file = path,
			      .err = m->err,
			      .errlen = m->errlen };
	struct job_raw map;
	char *text = NULL;
	int rc;

	rc = job_read_text(path, "hosts map", &text, m->err, m->errlen);
	if (rc)
		return rc;
	rc = job_ini_read(text, &map, &mm);
	free(text);
	if (rc)
		return rc;
	rc = check_map(&map, &mm);
	if (!rc)
		rc = overlay_map(raw, &map, path, m);
	job_raw_free(&map);
	return rc;
}

int job_edit_apply(struct job_raw *raw, const struct rperf_job_edit *ed,
		   const struct job_msg *m)
{
	int rc = 0;

	if (ed->hosts_map)
		rc = apply_map(raw, ed->hosts_map, m);
	for (size_t i = 0; i < ed->nassigns && !rc; i++)
		rc = apply_assign(raw, &ed->assigns[i], m);
	return rc;
}
