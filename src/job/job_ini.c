/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Job text -> raw sections with libinih. libinih (Debian 12: version 55) does
 * not pass line numbers to the handler and reads lines into a buffer of a
 * fixed size, so it reads through our own line reader (ini_parse_stream),
 * which:
 *   - counts lines: the handler runs on the line the reader returned last;
 *   - strips leading blanks, so that an indented key is a key (libinih would
 *     take it for the continuation of the previous value);
 *   - finds section headers itself, so that a section without keys exists
 *     and a bad header gets its own message;
 *   - keeps the whole line, so that a value longer than libinih's buffer
 *     (a long from list) is read from it instead of the truncated copy.
 */
#include "job/job_priv.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <ini.h>

struct ini_state {
	const struct job_msg *m;
	struct job_raw *raw;
	size_t cap;
	const char *text;
	size_t len, pos;
	int lineno;
	const char *line; /* current line: no leading blanks, no EOL */
	size_t line_len;
	bool truncated; /* libinih got a prefix of it */
	int cur; /* current section, -1 = none yet */
	int rc; /* first error of ours */
	int err_line;
};

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

static int st_fail(struct ini_state *st, int rc)
{
	st->rc = rc;
	st->err_line = st->lineno;
	st->cur = -1;
	return rc;
}

/* Cut a ';' or '#' comment that follows a blank, then trailing blanks. */
static void cut_comment(char *v)
{
	size_t n;

	for (size_t i = 0; v[i]; i++) {
		if ((v[i] == ';' || v[i] == '#') && i && is_blank(v[i - 1])) {
			v[i] = '\0';
			break;
		}
	}
	n = strlen(v);
	while (n && is_blank(v[n - 1]))
		v[--n] = '\0';
}

static int split_header(struct ini_state *st, const char *in, char *type,
			size_t tlen, char *name, size_t nlen)
{
	const char *p = in, *w;
	size_t n;

	while (is_blank(*p))
		p++;
	for (w = p; *p && !is_blank(*p); p++)
		;
	n = (size_t)(p - w);
	if (!n || n >= tlen)
		return st_fail(
			st,
			job_fail(
				st->m, st->lineno, NULL, NULL,
				"[%s]: bad section header; write [global], [host NAME], [lsg NAME], [bsg NAME] or [mesh NAME]",
				in));
	memcpy(type, w, n);
	type[n] = '\0';
	while (is_blank(*p))
		p++;
	for (w = p; *p && !is_blank(*p); p++)
		;
	n = (size_t)(p - w);
	while (is_blank(*p))
		p++;
	if (*p || n >= nlen)
		return st_fail(
			st,
			job_fail(
				st->m, st->lineno, NULL, NULL,
				"[%s]: a section name is one word of at most %d characters; e.g. [host h1]",
				in, RPERF_NAME_LEN - 1));
	memcpy(name, w, n);
	name[n] = '\0';
	return 0;
}

const char *job_sect_type_name(enum job_sect_type t)
{
	switch (t) {
	case JOB_SECT_GLOBAL:
		return "global";
	case JOB_SECT_HOST:
		return "host";
	case JOB_SECT_LSG:
		return "lsg";
	case JOB_SECT_BSG:
		return "bsg";
	case JOB_SECT_MESH:
		return "mesh";
	case JOB_SECT_INCAST:
		return "incast";
	case JOB_SECT_SWITCH:
		return "switch";
	}
	return "?";
}

const struct job_kv *job_sect_kv(const struct job_sect *s, const char *key)
{
	for (size_t i = 0; i < s->nkv; i++)
		if (!strcmp(s->kv[i].key, key))
			return &s->kv[i];
	return NULL;
}

const char *job_sect_word(const struct job_sect *s)
{
	return s->kind && s->type != JOB_SECT_INCAST ?
		       rperf_gen_kind_name(s->kind) :
		       job_sect_type_name(s->type);
}

enum job_sect_type job_sect_type_parse(const char *word,
				       enum rperf_gen_kind *kind)
{
	static const enum job_sect_type all[] = {
		JOB_SECT_GLOBAL, JOB_SECT_HOST,	  JOB_SECT_LSG,	  JOB_SECT_BSG,
		JOB_SECT_MESH,	 JOB_SECT_INCAST, JOB_SECT_SWITCH
	};
	enum rperf_gen_kind k = 0;
	enum job_sect_type t = 0;

	for (size_t i = 0; !t && i < sizeof(all) / sizeof(all[0]); i++)
		if (!strcmp(word, job_sect_type_name(all[i])))
			t = all[i];
	if (t == JOB_SECT_INCAST)
		k = RPERF_GEN_BSG;
	else if ((!t || (t & JOB_SECT_GEN)) && !rperf_gen_kind_parse(word, &k))
		t = rperf_gen_latency(k) ? JOB_SECT_LSG : JOB_SECT_BSG;
	if (kind)
		*kind = k;
	return t;
}

static int check_header(struct ini_state *st, const struct job_sect *s,
			const char *type)
{
	static const char *const types[] = { "global", "host",	 "lsg", "bsg",
					     "mesh",   "switch", NULL };
	const char *near;

	if (!s->type) {
		near = job_nearest(type, types);
		return st_fail(
			st,
			job_fail(
				st->m, st->lineno, NULL, NULL,
				"[%s%s%s]: unknown section type '%s'; %s%s%s",
				type, *s->name ? " " : "", s->name, type,
				near ? "did you mean '" :
				       "sections are [global], [host NAME], [lsg NAME], [bsg NAME] and [mesh NAME]",
				near ? near : "", near ? "'?" : ""));
	}
	if (s->type == JOB_SECT_GLOBAL && *s->name)
		return st_fail(
			st, job_fail(st->m, st->lineno, s, NULL,
				     "[global] takes no name; write [global]"));
	if (s->type != JOB_SECT_GLOBAL && !*s->name)
		return st_fail(st,
			       job_fail(st->m, st->lineno, s, NULL,
					"missing name; write [%s NAME]", type));
	if (s->type != JOB_SECT_GLOBAL && !job_name_ok(s->name))
		return st_fail(
			st,
			job_fail(
				st->m, st->lineno, s, NULL,
				"bad name '%s'; use letters, digits, '_', '.' and '-'",
				s->name));
	for (size_t i = 0; i < st->raw->nsect; i++) {
		const struct job_sect *o = &st->raw->sect[i];
		/* generators and meshes name instances: one namespace */
		unsigned named = JOB_SECT_GEN | JOB_SECT_MESH;
		bool gen = (s->type & named) && (o->type & named);

		if ((o->type == s->type || gen) && !strcmp(o->name, s->name))
			return st_fail(
				st,
				job_fail(
					st->m, st->lineno, s, NULL,
					"duplicate section (first at line %d as [%s%s%s]); give each section its own name",
					o->line, job_sect_word(o),
					*o->name ? " " : "", o->name));
	}
	return 0;
}

/* The current line starts with '[': a section header. */
static int read_header(struct ini_state *st)
{
	char in[96], type[16];
	struct job_sect s = { 0 };
	const char *close = memchr(st->line, ']', st->line_len);
	const char *rest;
	size_t n;
	int rc;

	if (!close)
		return st_fail(
			st,
			job_fail(
				st->m, st->lineno, NULL, NULL,
				"section header without ']'; write [TYPE NAME]"));
	for (rest = close + 1;
	     rest < st->line + st->line_len && is_blank(*rest); rest++)
		;
	if (rest < st->line + st->line_len && *rest != ';' && *rest != '#')
		return st_fail(
			st,
			job_fail(
				st->m, st->lineno, NULL, NULL,
				"text after the section header; put keys on their own lines"));
	n = (size_t)(close - st->line - 1);
	if (n >= sizeof(in))
		n = sizeof(in) - 1;
	memcpy(in, st->line + 1, n);
	in[n] = '\0';
	rc = split_header(st, in, type, sizeof(type), s.name, sizeof(s.name));
	if (rc)
		return rc;
	s.type = job_sect_type_parse(type, &s.kind);
	s.line = st->lineno;
	rc = check_header(st, &s, type);
	if (rc)
		return rc;
	if (st->raw->nsect == JOB_MAX_SECTIONS)
		return st_fail(st, job_fail(st->m, st->lineno, &s, NULL,
					    "too many sections (at most %d)",
					    JOB_MAX_SECTIONS));
	if (st->raw->nsect == st->cap) {
		size_t cap = st->cap ? 2 * st->cap : 16;
		struct job_sect *p = realloc(st->raw->sect, cap * sizeof(*p));

		if (!p)
			return st_fail(st, ENOMEM);
		st->raw->sect = p;
		st->cap = cap;
	}
	st->raw->sect[st->raw->nsect] = s;
	st->cur = (int)st->raw->nsect++;
	return 0;
}

/* fgets-style reader over the text (see the top of the file). */
static char *job_line_reader(char *str, int num, void *stream)
{
	struct ini_state *st = stream;
	const char *p, *nl;
	size_t n, copy;

	if (st->pos >= st->len || num < 4)
		return NULL;
	p = st->text + st->pos;
	nl = memchr(p, '\n', st->len - st->pos);
	n = nl ? (size_t)(nl - p) : st->len - st->pos;
	st->pos += n + (nl ? 1 : 0);
	st->lineno++;
	if (st->lineno == 1 && n >= 3 && !memcmp(p, "\xEF\xBB\xBF", 3)) {
		p += 3;
		n -= 3;
	}
	while (n && is_blank(*p)) {
		p++;
		n--;
	}
	while (n && is_blank(p[n - 1]))
		n--;
	st->line = p;
	st->line_len = n;
	st->truncated = n > (size_t)num - 2;
	copy = st->truncated ? (size_t)num - 2 : n;
	memcpy(str, p, copy);
	str[copy] = '\n';
	str[copy + 1] = '\0';
	if (!st->rc && n && *p == '[')
		read_header(st);
	return str;
}

/* The value of the current line as libinih would give it, from the whole
 * line (libinih had a truncated copy). */
static char *whole_value(const struct ini_state *st)
{
	const char *p = st->line, *end = st->line + st->line_len;
	char *v;

	while (p < end && *p != '=' && *p != ':')
		p++;
	if (p < end)
		p++;
	while (p < end && is_blank(*p))
		p++;
	v = malloc((size_t)(end - p) + 1);
	if (v) {
		memcpy(v, p, (size_t)(end - p));
		v[end - p] = '\0';
	}
	return v;
}

static int add_kv(struct ini_state *st, const char *name, char *val)
{
	struct job_sect *s = &st->raw->sect[st->cur];
	struct job_kv *kv;

	for (size_t i = 0; i < s->nkv; i++) {
		if (!strcmp(s->kv[i].key, name)) {
			free(val);
			return st_fail(
				st,
				job_fail(
					st->m, st->lineno, s, name,
					"given twice (first at line %d); keep one",
					s->kv[i].line));
		}
	}
	if (s->nkv == JOB_MAX_KEYS) {
		free(val);
		return st_fail(
			st,
			job_fail(st->m, st->lineno, s, name,
				 "too many keys in one section (at most %d)",
				 JOB_MAX_KEYS));
	}
	kv = realloc(s->kv, (s->nkv + 1) * sizeof(*kv));
	if (!kv) {
		free(val);
		return st_fail(st, ENOMEM);
	}
	s->kv = kv;
	kv[s->nkv].key = strdup(name);
	kv[s->nkv].val = val;
	kv[s->nkv].line = st->lineno;
	if (!kv[s->nkv].key) {
		free(val);
		return st_fail(st, ENOMEM);
	}
	s->nkv++;
	return 0;
}

static int job_kv_handler(void *user, const char *section, const char *name,
			  const char *value)
{
	struct ini_state *st = user;
	char *val;

	(void)section; /* the reader tracks sections, with their lines */
	if (st->rc)
		return 1;
	if (st->cur < 0) {
		st_fail(st,
			job_fail(
				st->m, st->lineno, NULL, name,
				"key outside a section; put it under [global], [host NAME], [lsg NAME], [bsg NAME] or [mesh NAME]"));
		return 0;
	}
	if (!*name) {
		st_fail(st, job_fail(st->m, st->lineno, NULL, NULL,
				     "no key before '='; write key = value"));
		return 0;
	}
	val = st->truncated ? whole_value(st) : strdup(value);
	if (!val) {
		st_fail(st, ENOMEM);
		return 0;
	}
	cut_comment(val);
	return add_kv(st, name, val) ? 0 : 1;
}

static int syntax_error(const struct ini_state *st, int line)
{
	const char *p = st->text;
	char shown[48];
	size_t n;

	for (int i = 1; i < line && p; i++) {
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	n = p ? strcspn(p, "\r\n") : 0;
	if (n >= sizeof(shown))
		n = sizeof(shown) - 1;
	memcpy(shown, p ? p : "", n);
	shown[n] = '\0';
	return job_fail(
		st->m, line, NULL, NULL,
		"cannot read '%s'; a line is [TYPE NAME], key = value, or a comment starting with ; or #",
		shown);
}

int job_ini_read(const char *text, struct job_raw *raw, const struct job_msg *m)
{
	struct ini_state st = {
		.m = m, .raw = raw, .text = text, .len = strlen(text), .cur = -1
	};
	int ret;

	memset(raw, 0, sizeof(*raw));
	ret = ini_parse_stream(job_line_reader, &st, job_kv_handler, &st);
	if (ret < 0 && !st.rc)
		st.rc = ENOMEM;
	else if (ret > 0 && (!st.rc || ret < st.err_line))
		st.rc = syntax_error(&st, ret);
	if (st.rc)
		job_raw_free(raw);
	return st.rc;
}

void job_raw_free(struct job_raw *raw)
{
	for (size_t i = 0; i < raw->nsect; i++) {
		for (size_t k = 0; k < raw->sect[i].nkv; k++) {
			free(raw->sect[i].kv[k].key);
			free(raw->sect[i].kv[k].val);
		}
		free(raw->sect[i].kv);
	}
	free(raw->sect);
	for (size_t i = 0; i < raw->norigins; i++)
		free(raw->origins[i]);
	free(raw->origins);
	memset(raw, 0, sizeof(*raw));
}
