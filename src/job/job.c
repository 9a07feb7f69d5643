/* SPDX-License-Identifier: BSD-2-Clause */
/* Job files: raw sections (job_ini.c) -> hosts, generators, instances. */
#include "job/job_priv.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/regular.h"

#define NS_S 1000000000ull

int job_fail(const struct job_msg *m, int line, const struct job_sect *s,
	     const char *key, const char *fmt, ...)
{
	size_t len = 0;
	va_list ap;

	if (!m->err || !m->errlen)
		return EINVAL;
	if (line > 0)
		len = (size_t)snprintf(m->err, m->errlen, "%s:%d: ", m->file,
				       line);
	else if (line < 0 && m->raw && (size_t)-line <= m->raw->norigins)
		len = (size_t)snprintf(m->err, m->errlen,
				       "%s: ", m->raw->origins[-line - 1]);
	else
		len = (size_t)snprintf(m->err, m->errlen, "%s: ", m->file);
	if (s && len < m->errlen)
		len += (size_t)snprintf(m->err + len, m->errlen - len,
					"[%s%s%s]%s", job_sect_word(s),
					*s->name ? " " : "", s->name,
					key ? " " : ": ");
	if (key && len < m->errlen)
		len += (size_t)snprintf(m->err + len, m->errlen - len,
					"%s: ", key);
	if (len < m->errlen) {
		va_start(ap, fmt);
		vsnprintf(m->err + len, m->errlen - len, fmt, ap);
		va_end(ap);
	}
	return EINVAL;
}

const char *job_where(const struct job_msg *m, int line, char *buf, size_t len)
{
	if (line < 0 && m->raw && (size_t)-line <= m->raw->norigins)
		return m->raw->origins[-line - 1];
	snprintf(buf, len, "line %d", line);
	return buf;
}

static unsigned min3(unsigned a, unsigned b, unsigned c)
{
	unsigned m = a < b ? a : b;

	return m < c ? m : c;
}

/* Optimal string alignment: insertions, deletions, substitutions and
 * swaps of two neighbours ("hots" -> "host") cost 1 each. */
unsigned job_edit_distance(const char *a, const char *b)
{
	unsigned rows[3][101];
	size_t la = strlen(a), lb = strlen(b);

	if (la > 100 || lb > 100)
		return 100;
	for (size_t j = 0; j <= lb; j++)
		rows[0][j] = (unsigned)j;
	for (size_t i = 1; i <= la; i++) {
		unsigned *cur = rows[i % 3];
		const unsigned *up = rows[(i - 1) % 3];
		const unsigned *up2 = rows[(i + 1) % 3];
		int ca = tolower((unsigned char)a[i - 1]);

		cur[0] = (unsigned)i;
		for (size_t j = 1; j <= lb; j++) {
			int cb = tolower((unsigned char)b[j - 1]);

			cur[j] = min3(up[j] + 1, cur[j - 1] + 1,
				      up[j - 1] + (ca != cb));
			if (i > 1 && j > 1 &&
			    ca == tolower((unsigned char)b[j - 2]) &&
			    cb == tolower((unsigned char)a[i - 2]) &&
			    up2[j - 2] + 1 < cur[j])
				cur[j] = up2[j - 2] + 1;
		}
	}
	return rows[la % 3][lb];
}

const char *job_nearest(const char *word, const char *const *cands)
{
	size_t len = strlen(word);
	unsigned limit = len <= 4 ? 1 : len <= 8 ? 2 : 3;
	unsigned best = limit + 1;
	const char *found = NULL;

	for (; *cands; cands++) {
		unsigned d = job_edit_distance(word, *cands);

		if (d < best) {
			best = d;
			found = *cands;
		}
	}
	return found;
}

bool job_name_ok(const char *s)
{
	size_t n = strlen(s);

	if (!n || n >= RPERF_NAME_LEN)
		return false;
	for (; *s; s++) {
		char c = *s;

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '_' || c == '.' ||
		      c == '-'))
			return false;
	}
	return true;
}

static int add_host(struct rperf_job *job, const struct job_sect *s,
		    const struct job_msg *m)
{
	struct rperf_job_host *h = &job->hosts[job->nhosts];
	int rc;

	if (job->nhosts == RPERF_JOB_MAX_HOSTS)
		return job_fail(m, s->line, s, NULL,
				"too many hosts (at most %d)",
				RPERF_JOB_MAX_HOSTS);
	memset(h, 0, sizeof(*h));
	memcpy(h->name, s->name, sizeof(h->name));
	h->line = s->line;
	h->control_port = RPERF_AGENT_DEFAULT_PORT;
	rperf_host_sel_defaults(&h->sel);
	rc = job_keys_host(h, s, m);
	if (rc)
		return rc;
	if (!*h->control)
		return job_fail(
			m, s->line, s, NULL,
			"no 'control' key; add control = ADDR[:PORT], where the host's rperf agent listens (port %d unless given)",
			RPERF_AGENT_DEFAULT_PORT);
	job->nhosts++;
	return 0;
}

/* Checks between the keys of one generator section. */
/* latency_gap, schedule, on/off, interval: the spec's own check
 * (spec_sched.c) */
static int check_sched(const struct job_gen *g, const struct job_msg *m)
{
	static const char *const keys[] = { "latency_gap", "schedule", "on",
					    "off", "interval" };
	const struct job_kv *kv = NULL;
	char why[200];

	if (!rperf_spec_sched_check(&g->spec, why, sizeof(why)))
		return 0;
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]) && !kv; i++)
		if (strstr(why, keys[i]))
			kv = job_sect_kv(g->sect, keys[i]);
	return job_fail(m, kv ? kv->line : g->sect->line, g->sect,
			kv ? kv->key : NULL, "%s", why);
}

/* verb = atomic: 8 B messages (the default then), one size. */
static int check_atomic(struct job_gen *g, const struct job_msg *m)
{
	const struct job_kv *kv = job_sect_kv(g->sect, "size");
	char why[160];

	if (g->spec.verb == RPERF_VERB_ATOMIC && !kv)
		g->spec.size = RPERF_ATOMIC_SIZE;
	if (!rperf_spec_plan_keys_check(&g->spec, why, sizeof(why)))
		return 0;
	return job_fail(
		m, kv ? kv->line : g->sect->line, g->sect, "size",
		"%llu B%s with verb atomic, whose operand is %d B; set size = %d or leave it out",
		(unsigned long long)g->spec.size,
		g->spec.sizes.n ? " (a distribution)" : "", RPERF_ATOMIC_SIZE,
		RPERF_ATOMIC_SIZE);
}

/* atomic_op (rperf lat/bw -A) names the operation of verb = atomic. */
static int check_atomic_op(const struct job_gen *g, const struct job_msg *m)
{
	const struct job_kv *kv = job_sect_kv(g->sect, "atomic_op");

	if (!kv || g->spec.verb == RPERF_VERB_ATOMIC)
		return 0;
	return job_fail(
		m, kv->line, g->sect, "atomic_op",
		"applies with verb = atomic only; set verb = atomic or leave it out");
}

/* An LSG's method with its verb (spec_lsg.c); verb = read or atomic
 * without a method measures by postpoll, as rperf lat --verb. */
static int check_lsg(const struct rperf_job *job, struct job_gen *g,
		     const struct job_msg *m)
{
	const struct job_kv *kv = job_sect_kv(g->sect, "method");
	char why[300];

	if (!rperf_gen_latency(g->spec.kind))
		return 0;
	/* its sink's completion ([global]): a pingpong write's must poll */
	g->spec.sink_completion = job->sink_completion;
	if (!kv && rperf_verb_responder_only(g->spec.verb))
		g->spec.test.method = RPERF_METHOD_POSTPOLL;
	if (!rperf_spec_lsg_check(&g->spec, false, why, sizeof(why)))
		return 0;
	if (!kv || strncmp(why, "'method'", 8))
		kv = job_sect_kv(g->sect, "verb");
	return job_fail(m, kv ? kv->line : g->sect->line, g->sect,
			kv ? kv->key : NULL, "%s", why);
}

static int check_gen(const struct rperf_job *job, struct job_gen *g,
		     const struct job_msg *m)
{
	const struct job_sect *s = g->sect;
	const struct job_kv *kv;
	char where[32];

	if (!g->from_kv)
		return job_fail(
			m, s->line, s, NULL,
			"no 'from' key; add from = HOST[,HOST...], the hosts it runs on (one instance each)");
	if (!g->to_kv)
		return job_fail(m, s->line, s, NULL,
				"no 'to' key; add to = HOST, the destination");
	if (g->has_count && g->count > g->nfrom)
		return job_fail(
			m, g->count_kv->line, s, "count",
			"%llu but from lists %zu host%s; lower count or list more hosts",
			(unsigned long long)g->count, g->nfrom,
			g->nfrom == 1 ? "" : "s");
	if (g->to_all && (g->has_count ? g->count : g->nfrom) == 1)
		return job_fail(
			m, g->to_kv->line, s, "to",
			"* sends to every other host of from, and there is one; list two or more hosts in from (and count)");
	for (size_t i = 0; i < g->nfrom && !g->to_all; i++)
		if (g->from[i] == g->to)
			return job_fail(
				m, g->to_kv->line, s, "to",
				"'%s' is also in from (%s): a generator cannot send to its own host; pick another destination",
				job->hosts[g->to].name,
				job_where(m, g->from_kv->line, where,
					  sizeof(where)));
	if (job_check_shape(g, m) || check_atomic(g, m) ||
	    check_atomic_op(g, m) || check_lsg(job, g, m))
		return EINVAL;
	if (g->spec.post_list > g->spec.tx_depth) {
		kv = job_sect_kv(s, "post_list");
		return job_fail(
			m, kv ? kv->line : s->line, s, "post_list",
			"%u is above tx_depth %u; lower post_list or raise tx_depth",
			g->spec.post_list, g->spec.tx_depth);
	}
	return check_sched(g, m);
}

size_t job_gen_instances(const struct job_gen *g)
{
	size_t n = g->has_count ? (size_t)g->count : g->nfrom;

	return g->to_all ? n * (n ? n - 1 : 0) : n;
}

static void add_instances(struct rperf_job *job, const struct job_gen *g)
{
	size_t n = g->has_count ? (size_t)g->count : g->nfrom;

	/* to = *: sender i to every other j, i-major */
	for (size_t k = 0; k < job_gen_instances(g); k++) {
		size_t i = g->to_all ? k / (n - 1) : k;
		size_t j = g->to_all ? k % (n - 1) : 0;
		int to = g->to_all ? g->from[j < i ? j : j + 1] : g->to;
		struct rperf_gen_spec *sp = &job->inst[job->ninst];
		const struct rperf_host_sel *hs = &job->hosts[g->from[i]].sel;

		*sp = g->spec;
		sp->id = (uint32_t)job->ninst;
		memcpy(sp->from, job->hosts[g->from[i]].name, sizeof(sp->from));
		if (sp->cpu_node < 0) /* the host's default */
			sp->cpu_node = hs->cpu_node;
		if (sp->mem_node < 0)
			sp->mem_node = hs->mem_node;
		memcpy(sp->to, job->hosts[to].name, sizeof(sp->to));
		sp->duration_ns = job->duration_ns;
		sp->warmup_ns = job->warmup_ns;
		sp->sink_completion = job->sink_completion;
		job->ninst++;
	}
}

static int build_gens(struct rperf_job *job, const struct job_raw *raw,
		      struct job_gen *gens, const struct job_msg *m)
{
	size_t ngen = 0, ninst = 0;
	int rc;

	for (size_t i = 0; i < raw->nsect; i++) {
		const struct job_sect *s = &raw->sect[i];
		struct job_gen *g = &gens[ngen];

		if (!(s->type & JOB_SECT_GEN))
			continue;
		if (ngen == RPERF_JOB_MAX_GENS)
			return job_fail(
				m, s->line, s, NULL,
				"too many generator sections (at most %d)",
				RPERF_JOB_MAX_GENS);
		memset(g, 0, sizeof(*g));
		g->sect = s;
		g->to = -1;
		rperf_gen_spec_defaults(&g->spec, s->kind);
		memcpy(g->spec.name, s->name, sizeof(g->spec.name));
		rc = job_keys_gen(job, g, m);
		if (!rc)
			rc = check_gen(job, g, m);
		if (rc)
			return rc;
		ninst += job_gen_instances(g);
		if (ninst > RPERF_JOB_MAX_INSTANCES)
			return job_fail(
				m, s->line, s, NULL,
				"more than %d generator instances in the job; use fewer hosts in from or a count",
				RPERF_JOB_MAX_INSTANCES);
		ngen++;
	}
	if (!ngen && !job->mesh)
		return job_fail(
			m, 0, NULL, NULL,
			"no [lsg NAME], [bsg NAME] or [mesh NAME] section: nothing to run; add a generator section");
	if (!ninst && !job->mesh)
		return job_fail(
			m, 0, NULL, NULL,
			"every generator has count = 0: nothing to run; raise a count");
	job->inst = calloc(ninst ? ninst : 1, sizeof(*job->inst));
	if (!job->inst)
		return ENOMEM;
	for (size_t i = 0; i < ngen; i++)
		add_instances(job, &gens[i]);
	return 0;
}

static int build(struct rperf_job *job, const struct job_raw *raw,
		 const struct job_msg *m)
{
	struct job_gen *gens;
	int rc = 0;

	for (size_t i = 0; i < raw->nsect && !rc; i++) {
		const struct job_sect *s = &raw->sect[i];

		if (s->type == JOB_SECT_GLOBAL)
			rc = job_keys_global(job, s, m);
		else if (s->type == JOB_SECT_HOST)
			rc = add_host(job, s, m);
	}
	for (size_t i = 0; i < raw->nsect && !rc; i++) /* after the hosts */
		if (raw->sect[i].type == JOB_SECT_SWITCH)
			rc = job_switch_add(job, &raw->sect[i], m);
	for (size_t i = 0; i < raw->nsect && !rc; i++)
		if (raw->sect[i].type == JOB_SECT_MESH)
			rc = job_mesh_build(job, &raw->sect[i], m);
	if (rc)
		return rc;
	gens = calloc(raw->nsect ? raw->nsect : 1, sizeof(*gens));
	if (!gens)
		return ENOMEM;
	rc = build_gens(job, raw, gens, m);
	free(gens);
	return rc;
}

static int parse_edit(const char *text, const char *name,
		      const struct rperf_job_edit *ed, struct rperf_job **out,
		      char *err, size_t errlen)
{
	struct job_msg m = { .file = name ? name : "job",
			     .err = err,
			     .errlen = errlen };
	struct job_raw raw;
	struct rperf_job *job;
	int rc;

	*out = NULL;
	if (err && errlen)
		err[0] = '\0';
	job = calloc(1, sizeof(*job));
	if (!job)
		goto nomem;
	snprintf(job->path, sizeof(job->path), "%s", m.file);
	job->duration_ns = 10 * NS_S;
	job->warmup_ns = NS_S;
	job->timeout_ns = 10 * NS_S;
	job->sink_completion = RPERF_COMPLETION_EVENT;
	rc = job_ini_read(text, &raw, &m);
	if (!rc) {
		m.raw = &raw;
		if (ed)
			rc = job_edit_apply(&raw, ed, &m);
		if (!rc)
			rc = build(job, &raw, &m);
		job_raw_free(&raw);
	}
	if (rc == ENOMEM) {
		rperf_job_free(job);
		goto nomem;
	}
	if (rc) {
		rperf_job_free(job);
		return rc;
	}
	*out = job;
	return 0;
nomem:
	if (err && errlen)
		snprintf(err, errlen, "%s: out of memory", m.file);
	return ENOMEM;
}

int rperf_job_parse_edit(const char *text, const char *name,
			 const struct rperf_job_edit *ed,
			 struct rperf_job **out, char *err, size_t errlen)
{
	return parse_edit(text, name, ed, out, err, errlen);
}

int rperf_job_parse(const char *text, const char *name, struct rperf_job **out,
		    char *err, size_t errlen)
{
	return parse_edit(text, name, NULL, out, err, errlen);
}

int job_read_text(const char *path, const char *what, char **out, char *err,
		  size_t errlen)
{
	const char *kind;
	char *buf = NULL;
	size_t n;
	int rc = 0;
	FILE *f = rperf_fopen_regular(path, &rc, &kind);

	if (!f && kind[0]) {
		snprintf(err, errlen,
			 "%s: the %s is %s; accepted: a regular file", path,
			 what, kind);
		return rc;
	}
	if (!f) {
		snprintf(err, errlen, "%s: cannot open the %s: %s", path, what,
			 strerror(rc));
		return rc;
	}
	buf = malloc(JOB_MAX_TEXT + 1);
	if (!buf) {
		rc = ENOMEM;
		snprintf(err, errlen, "%s: out of memory", path);
		goto close_file;
	}
	errno = 0;
	n = fread(buf, 1, JOB_MAX_TEXT + 1, f);
	if (ferror(f)) {
		rc = errno ? errno : EIO;
		snprintf(err, errlen, "%s: cannot read the %s: %s", path, what,
			 strerror(rc));
	} else if (n > JOB_MAX_TEXT) {
		rc = EINVAL;
		snprintf(err, errlen, "%s: larger than %u bytes; is this a %s?",
			 path, JOB_MAX_TEXT, what);
	} else if (memchr(buf, '\0', n)) {
		rc = EINVAL;
		snprintf(err, errlen, "%s: contains a NUL byte; a %s is text",
			 path, what);
	}
	if (rc) {
		free(buf);
		goto close_file;
	}
	buf[n] = '\0';
	*out = buf;
close_file:
	fclose(f);
	return rc;
}

int rperf_job_load_edit(const char *path, const struct rperf_job_edit *ed,
			struct rperf_job **out, char *err, size_t errlen)
{
	char dummy[1];
	char *text = NULL;
	int rc;

	*out = NULL;
	if (!err || !errlen) {
		err = dummy;
		errlen = sizeof(dummy);
	}
	rc = job_read_text(path, "job file", &text, err, errlen);
	if (rc)
		return rc;
	rc = parse_edit(text, path, ed, out, err, errlen);
	free(text);
	return rc;
}

int rperf_job_load(const char *path, struct rperf_job **out, char *err,
		   size_t errlen)
{
	return rperf_job_load_edit(path, NULL, out, err, errlen);
}

bool rperf_job_involves(const struct rperf_job *job, const char *name)
{
	for (size_t i = 0; job->mesh && i < job->mesh->nhosts; i++)
		if (!strcmp(job->hosts[job->mesh->hosts[i]].name, name))
			return true; /* a [mesh]'s host */
	for (size_t i = 0; i < job->ninst; i++)
		if (!strcmp(job->inst[i].from, name) ||
		    !strcmp(job->inst[i].to, name))
			return true;
	return false;
}

void rperf_job_free(struct rperf_job *job)
{
	if (!job)
		return;
	free(job->inst);
	free(job->mesh);
	free(job);
}

const struct rperf_job_host *rperf_job_host(const struct rperf_job *job,
					    const char *name)
{
	for (size_t i = 0; i < job->nhosts; i++)
		if (!strcmp(job->hosts[i].name, name))
			return &job->hosts[i];
	return NULL;
}
