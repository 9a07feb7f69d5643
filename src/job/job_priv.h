/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Internals of the job file module. Two stages:
 *   job_ini.c   libinih reads the text into raw sections of key/value pairs,
 *               each with its line (syntax, section headers, duplicates);
 *   job_keys.c  the known keys of every section type (from the key table,
 *               job/options.h) and their values;
 *   job.c       sections become the struct rperf_job: hosts, generators,
 *               cross references, one spec per instance.
 */
#ifndef RPERF_JOB_PRIV_H
#define RPERF_JOB_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "job/options.h"
#include "job/job.h"

#define JOB_MAX_TEXT (1u << 20) /* largest job file */
#define JOB_MAX_SECTIONS \
	(1 + RPERF_JOB_MAX_HOSTS + RPERF_JOB_MAX_GENS + RPERF_JOB_MAX_SWITCHES)
#define JOB_MAX_KEYS 64 /* per section */

/* The key table's section bits (job/options.h). */
enum job_sect_type {
	JOB_SECT_GLOBAL = RPERF_SECT_GLOBAL,
	JOB_SECT_HOST = RPERF_SECT_HOST,
	JOB_SECT_LSG = RPERF_SECT_LSG,
	JOB_SECT_BSG = RPERF_SECT_BSG,
	JOB_SECT_MESH = RPERF_SECT_MESH, /* job_mesh.c; takes the LSG keys */
	JOB_SECT_INCAST = RPERF_SECT_INCAST, /* BSG instances that burst */
	JOB_SECT_SWITCH = RPERF_SECT_SWITCH, /* job_switch.c: counters */
};
#define JOB_SECT_GEN RPERF_SECT_GEN

struct job_kv {
	char *key;
	char *val;
	int line; /* < 0: set by an edit, origin raw->origins[-line - 1] */
};

struct job_sect {
	enum job_sect_type type;
	/* a generator section's kind: [lsg], [bsg] or [incast], or another
	 * kind's name (its family's section type) */
	enum rperf_gen_kind kind;
	char name[RPERF_NAME_LEN]; /* "" for [global] */
	int line;
	struct job_kv *kv;
	size_t nkv;
};

struct job_raw {
	struct job_sect *sect; /* file order */
	size_t nsect;
	/* how messages name the keys set by edits (job_edit.c): "--set
	 * bsg.b.count=3", "map.ini:4"; owned */
	char **origins;
	size_t norigins;
};

/* Where messages point: the file name shown and the error buffer; @raw
 * (may be NULL) names the keys set by edits. */
struct job_msg {
	const char *file;
	char *err;
	size_t errlen;
	const struct job_raw *raw;
};

/* Read @text (NUL-terminated, no NUL inside) into @raw. EINVAL with a
 * message for a syntax error, a bad section header or a key given twice. */
int job_ini_read(const char *text, struct job_raw *raw,
		 const struct job_msg *m);
void job_raw_free(struct job_raw *raw);

/* "FILE:LINE: [type name] key: <fmt>"; @s and @key may be NULL. Returns
 * EINVAL. */
int job_fail(const struct job_msg *m, int line, const struct job_sect *s,
	     const char *key, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/* [switch NAME] (job_switch.c): 0 or EINVAL with the message. */
int job_switch_add(struct rperf_job *job, const struct job_sect *s,
		   const struct job_msg *m);

/* "line N" for a file line, the origin of an edited key otherwise. */
const char *job_where(const struct job_msg *m, int line, char *buf, size_t len);

/* The whole file @path in a new NUL-terminated buffer; @what names it in
 * messages ("job file", "hosts map"). */
int job_read_text(const char *path, const char *what, char **out, char *err,
		  size_t errlen);

/* job_edit.c: apply a hosts map, then the assignments of @ed, to @raw
 * (the job's sections, read from @m->file). */
int job_edit_apply(struct job_raw *raw, const struct rperf_job_edit *ed,
		   const struct job_msg *m);

/* job_keys.c: @val of key @key in a section of type @t as a number in the
 * key's base unit (ns, bytes, bits/s, a count); ENOENT when the key is not
 * numeric (names, choices, from, to), EINVAL when @val does not parse. */
int job_key_number(enum job_sect_type t, const char *key, const char *val,
		   double *out);
/* Is @key a key of sections of type @t? */
bool job_key_known(enum job_sect_type t, const char *key);

/* "global", "host", "lsg", "bsg", "incast" (job_ini.c: section headers). */
const char *job_sect_type_name(enum job_sect_type t);
/* How @s's header named its type: a generator kind's name, else its
 * type's. */
const char *job_sect_word(const struct job_sect *s);
/* The key @key of section @s, NULL if not given. */
const struct job_kv *job_sect_kv(const struct job_sect *s, const char *key);
/* Section type of @word, 0 if none (a generator kind's name: its family's
 * [lsg] or [bsg]); with @kind non-NULL, the kind of a generator section
 * (0 for others). */
enum job_sect_type job_sect_type_parse(const char *word,
				       enum rperf_gen_kind *kind);

/* Edit distance (case-insensitive), capped at 100. */
unsigned job_edit_distance(const char *a, const char *b);
/* The nearest of @cands (NULL-terminated) to @word if close enough to be a
 * plausible typo, else NULL. */
const char *job_nearest(const char *word, const char *const *cands);

/* A valid host, generator or device name: 1..63 of [A-Za-z0-9_.-]. */
bool job_name_ok(const char *s);

/* job_shape.c: `size` of a generator: a size (into spec->size) or a
 * distribution ("64:0.5,4K:0.5" or "@FILE") into spec->sizes with
 * spec->size its largest. 0 or EINVAL with @why. */
bool job_sizes_is_dist(const char *v);
int job_parse_sizes(void *spec, const char *v, char *why, size_t whylen);

/* A generator section being built (job.c) from its keys (job_keys.c). */
struct job_gen {
	const struct job_sect *sect;
	struct rperf_gen_spec spec; /* template of its instances */
	uint16_t from[RPERF_JOB_MAX_HOSTS]; /* host indexes */
	size_t nfrom;
	uint64_t count; /* instances: the first @count of from */
	bool has_count;
	int to; /* host index, -1 = no 'to' key */
	bool to_all; /* to = *: every other host of from (all-to-all) */
	const struct job_kv *from_kv, *to_kv, *count_kv;
};

/* job_shape.c: checks between the traffic-shape keys of @g (a size
 * distribution on an LSG, stop not after start): 0 or EINVAL. */
int job_check_shape(const struct job_gen *g, const struct job_msg *m);
/* Instances of @g: count (or from's length) n, or n x (n - 1) with
 * to = *. */
size_t job_gen_instances(const struct job_gen *g);

/* Apply every key of @s to its target (the job for [global], @host for
 * [host], @gen for a generator). Unknown keys get "did you mean". */
int job_keys_global(struct rperf_job *job, const struct job_sect *s,
		    const struct job_msg *m);
int job_keys_host(struct rperf_job_host *host, const struct job_sect *s,
		  const struct job_msg *m);
int job_keys_gen(const struct rperf_job *job, struct job_gen *gen,
		 const struct job_msg *m);

/* job_keys.c: every key of the [mesh] section @gen->sect: the LSG keys into
 * gen->spec, the mesh's own (hosts, schedule, duration, warmup) to
 * @special. */
int job_keys_mesh(struct job_gen *gen, const struct job_msg *m,
		  int (*special)(void *ctx, const struct job_kv *kv, char *why,
				 size_t whylen),
		  void *ctx);
/* job_mesh.c: a [mesh NAME] section into job->mesh (after [global] and
 * the hosts). One per job. */
int job_mesh_build(struct rperf_job *job, const struct job_sect *s,
		   const struct job_msg *m);

/* job_refs.c. control = ADDR[:PORT] into @h. */
int job_parse_control(struct rperf_job_host *h, const char *v, char *why,
		      size_t whylen);
/* @name -> index in job->hosts, or EINVAL naming the known hosts. */
int job_find_host(const struct rperf_job *job, const char *name, int *idx,
		  char *why, size_t whylen);
/* from = HOST[,HOST...] into g->from/nfrom (no duplicates). */
int job_parse_from(const struct rperf_job *job, struct job_gen *g,
		   const char *list, char *why, size_t whylen);

#endif
