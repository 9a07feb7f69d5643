/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Generator spec: defaults, names and the one JSON codec (see spec.h).
 * The numeric keys live in one table (key, offset, width, range) used by
 * both directions, so the encoder and the decoder cannot drift apart.
 */
#include "engine/spec.h"
#include "engine/spec_priv.h"
#include "engine/spec_traffic.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ctrl/ctrl.h"
#include "gen/gen.h"
#include "util/err.h"
#include "util/field.h"

#define NS_S 1000000000ull

const struct rperf_name rperf_completion_names[] = {
	{ "poll", NULL },
	{ "event", NULL },
	{ NULL, NULL },
};

const char *rperf_completion_name(enum rperf_completion c)
{
	return rperf_name_of(rperf_completion_names, (int)c);
}

int rperf_completion_parse(const char *name, enum rperf_completion *out)
{
	int v;

	if (!out || rperf_name_find(rperf_completion_names, SIZE_MAX, name, &v))
		return EINVAL;
	*out = (enum rperf_completion)v;
	return 0;
}

int rperf_pair_order_parse(const char *name, int *out)
{
	return out ? rperf_name_find(rperf_pair_order_names, SIZE_MAX, name,
				     out) :
		     EINVAL;
}

int rperf_verb_parse(const char *name, int *out)
{
	return out ? rperf_name_find(rperf_verb_names, RPERF_SPEC_VERBS, name,
				     out) :
		     EINVAL;
}

void rperf_gen_spec_defaults(struct rperf_gen_spec *s, enum rperf_gen_kind kind)
{
	memset(s, 0, sizeof(*s));
	s->kind = kind;
	s->path.qp_timeout = 14;
	s->path.retry_count = 7;
	s->size = rperf_gen_kind_at(kind) ?
			  rperf_gen_kind_at(kind)->default_size :
			  64;
	s->warmup_ns = 1 * NS_S;
	s->duration_ns = 10 * NS_S;
	s->completion = RPERF_COMPLETION_POLL;
	s->sink_completion = RPERF_COMPLETION_EVENT;
	s->pair_order = RPERF_PAIR_ALTERNATE;
	s->verb = RPERF_VERB_SEND;
	s->tx_depth = 128;
	s->cq_mod = 100;
	s->post_list = 1;
	s->qps = 1;
	s->cpu_node = -1;
	s->mem_node = -1;
	s->interval_ns = 1 * NS_S;
}

void rperf_host_sel_defaults(struct rperf_host_sel *h)
{
	*h = (struct rperf_host_sel){ .port = 1,
				      .gid_index = -1,
				      .cpu = -1,
				      .cpu_node = -1,
				      .mem_node = -1 };
}

/* ---- numeric keys ---- */

enum width { W8 = 1, W32 = 4, W64 = 8 }; /* bytes */

struct num_key {
	const char *key;
	size_t off;
	enum width w;
	uint64_t min, max;
};

#define OFF(f) offsetof(struct rperf_gen_spec, f)

static const struct num_key num_keys[] = {
	{ "id", OFF(id), W32, 0, UINT32_MAX },
	{ "mtu", OFF(path.mtu), W32, 0, 4096 },
	{ "sl", OFF(path.sl), W8, 0, 15 },
	{ "tclass", OFF(path.tclass), W8, 0, 255 },
	{ "qp_timeout", OFF(path.qp_timeout), W8, 0, 31 },
	{ "retry_count", OFF(path.retry_count), W8, 0, 7 },
	{ "size", OFF(size), W64, 1, RPERF_SPEC_MAX_SIZE },
	{ "start_ns", OFF(start_ns), W64, 0, RPERF_SPEC_MAX_TIME_NS },
	{ "warmup_ns", OFF(warmup_ns), W64, 0, RPERF_SPEC_MAX_TIME_NS },
	{ "duration_ns", OFF(duration_ns), W64, 1, RPERF_SPEC_MAX_TIME_NS },
	{ "tx_depth", OFF(tx_depth), W32, 1, RPERF_SPEC_MAX_DEPTH },
	{ "cq_mod", OFF(cq_mod), W32, 1, RPERF_SPEC_MAX_DEPTH },
	{ "post_list", OFF(post_list), W32, 1, RPERF_SPEC_MAX_DEPTH },
	{ "qps", OFF(qps), W32, 1, RPERF_SPEC_MAX_QPS },
};

#define NUM_KEYS (sizeof(num_keys) / sizeof(num_keys[0]))

/* The keys whose bounds are wider than a job file's: the command-line
 * ranges of rperf lat/bw, whose specs travel in PLANs too (an agent's
 * limits bound what they cost). */
static const struct num_key test_keys[] = {
	/* -n or --run_infinitely: no duration */
	{ "duration_ns", 0, W64, 0, RPERF_SPEC_TEST_MAX_TIME_NS },
	{ "tx_depth", 0, W32, 1, RPERF_SPEC_TEST_MAX_TX_DEPTH },
	{ "qps", 0, W32, 1, RPERF_SPEC_TEST_MAX_QPS },
};

/* A key's bounds on the wire: the two-host tests' maximum (test_keys)
 * where wider (rperf lat / bw send theirs); the minimum a PLAN's (it
 * always has a window), or (@test: the encoder's check) theirs. */
static void num_bounds(const struct num_key *k, bool test, uint64_t *min,
		       uint64_t *max)
{
	*min = k->min;
	*max = k->max;
	for (size_t i = 0; i < sizeof(test_keys) / sizeof(*test_keys); i++)
		if (!strcmp(test_keys[i].key, k->key)) {
			*min = test ? test_keys[i].min : k->min;
			*max = test_keys[i].max;
		}
}

static uint64_t num_get(const struct rperf_gen_spec *s, const struct num_key *k)
{
	return rperf_field_load((const char *)s + k->off, k->w, false);
}

static void num_set(struct rperf_gen_spec *s, const struct num_key *k,
		    uint64_t v)
{
	rperf_field_store((char *)s + k->off, k->w, v);
}

static bool mtu_ok(uint64_t mtu)
{
	return mtu == 0 ||
	       (mtu >= 256 && mtu <= 4096 && (mtu & (mtu - 1)) == 0);
}

static bool name_ok(const char *s)
{
	size_t i, n = strlen(s);

	if (n == 0)
		return false;
	for (i = 0; i < n; i++)
		if ((unsigned char)s[i] < ' ' || s[i] == 0x7f)
			return false;
	return true;
}

/* Every field in range (the encoder refuses to ship a bad spec); @test:
 * the two-host tests' bounds and keys. */
static int spec_check(const struct rperf_gen_spec *s, bool test, char *why,
		      size_t wl)
{
	uint64_t min, max;
	size_t i;

	for (i = 0; i < NUM_KEYS; i++) {
		uint64_t v = num_get(s, &num_keys[i]);

		num_bounds(&num_keys[i], test, &min, &max);
		if (v < min || v > max)
			return rperf_fail(why, wl, EBADMSG,
					  "'%s' %llu is not in [%llu, %llu]",
					  num_keys[i].key,
					  (unsigned long long)v,
					  (unsigned long long)min,
					  (unsigned long long)max);
	}
	if (s->verb < 0 || s->verb >= (int)RPERF_SPEC_VERBS)
		return rperf_fail(why, wl, EBADMSG,
				  "'verb' %d is not a verb a %s runs", s->verb,
				  test ? "test" : "plan");
	if (rperf_spec_plan_keys_check(s, why, wl))
		return EBADMSG;
	if (!mtu_ok(s->path.mtu))
		return rperf_fail(why, wl, EBADMSG,
				  "'mtu' %u is not 0 or 256..4096 (power of 2)",
				  s->path.mtu);
	if (s->inline_size > RPERF_SPEC_MAX_INLINE)
		return rperf_fail(why, wl, EBADMSG, "'inline' %u is above %u",
				  s->inline_size, RPERF_SPEC_MAX_INLINE);
	if (s->post_list > s->tx_depth)
		return rperf_fail(why, wl, EBADMSG,
				  "'post_list' %u is above 'tx_depth' %u",
				  s->post_list, s->tx_depth);
	if (!(s->rate_bps >= 0 && s->rate_bps <= RPERF_SPEC_MAX_RATE_BPS))
		return rperf_fail(why, wl, EBADMSG,
				  "'rate_bps' is not in [0, %g]",
				  RPERF_SPEC_MAX_RATE_BPS);
	if (!name_ok(s->name) || !name_ok(s->from) || !name_ok(s->to))
		return rperf_fail(why, wl, EBADMSG,
				  "'name', 'from' and 'to' must be non-empty");
	if (strcmp(s->from, s->to) == 0)
		return rperf_fail(why, wl, EBADMSG,
				  "'from' and 'to' are both '%s'", s->from);
	if (!rperf_spec_node_ok(s->cpu_node) ||
	    !rperf_spec_node_ok(s->mem_node))
		return rperf_fail(why, wl, EBADMSG,
				  "'cpu_node', 'mem_node' must be in [-1, %d]",
				  RPERF_SPEC_MAX_NODE);
	if (rperf_spec_sched_check(s, why, wl) ||
	    rperf_spec_lsg_check(s, test, why, wl) ||
	    rperf_spec_rounds_check(s, why, wl))
		return EBADMSG;
	return rperf_spec_traffic_check(s, why, wl);
}

static int set_name(json_t *o, const char *key, const char *n)
{
	return strcmp(n, "?") ? rperf_ctrl_set_str(o, key, n) : EINVAL;
}

static int spec_fill(const struct rperf_gen_spec *s, json_t *o)
{
	size_t i;
	int rc = 0;

	for (i = 0; i < NUM_KEYS && !rc; i++)
		rc = rperf_ctrl_set_u64(o, num_keys[i].key,
					num_get(s, &num_keys[i]));
	if (!rc)
		rc = set_name(o, "kind", rperf_gen_kind_name(s->kind));
	if (!rc)
		rc = set_name(o, "completion",
			      rperf_completion_name(s->completion));
	if (!rc)
		rc = set_name(o, "sink_completion",
			      rperf_completion_name(s->sink_completion));
	if (!rc)
		rc = set_name(o, "pair_order",
			      rperf_pair_order_name(s->pair_order));
	if (!rc)
		rc = set_name(o, "verb", rperf_verb_name(s->verb));
	if (!rc)
		rc = rperf_ctrl_set_str(o, "name", s->name);
	if (!rc)
		rc = rperf_ctrl_set_str(o, "from", s->from);
	if (!rc)
		rc = rperf_ctrl_set_str(o, "to", s->to);
	if (!rc)
		rc = rperf_ctrl_set_double(o, "rate_bps", s->rate_bps);
	if (!rc)
		rc = rperf_spec_set_nodes(o, s->cpu_node, s->mem_node);
	if (!rc && s->inline_size)
		rc = rperf_ctrl_set_u64(o, "inline", s->inline_size);
	if (!rc)
		rc = rperf_spec_sched_encode(s, o);
	if (!rc)
		rc = rperf_spec_lsg_encode(s, o);
	if (!rc)
		rc = rperf_spec_traffic_fill(s, o);
	if (!rc)
		rc = rperf_spec_rounds_encode(s, o);
	if (!rc)
		rc = rperf_test_spec_encode(s, o);
	return rc;
}

int rperf_gen_spec_encode(const struct rperf_gen_spec *s, json_t **out)
{
	char why[128];
	json_t *o;

	if (!s || !out || spec_check(s, true, why, sizeof(why)))
		return EINVAL;
	o = json_object();
	if (!o)
		return ENOMEM;
	return rperf_ctrl_json_out(o, spec_fill(s, o), out);
}

static int bad_name(const char *key, char *why, size_t wl)
{
	return rperf_fail(why, wl, EBADMSG,
			  "'%s' missing or not one of the known names", key);
}

static int get_enum(const json_t *o, const char *key,
		    const struct rperf_name *t, size_t n, int *out, char *why,
		    size_t wl)
{
	char buf[32];

	if (rperf_ctrl_get_str(o, key, buf, sizeof(buf)) ||
	    rperf_name_find(t, n, buf, out))
		return bad_name(key, why, wl);
	return 0;
}

static int get_name(const json_t *o, const char *key, char *buf, char *why,
		    size_t wl)
{
	if (rperf_ctrl_get_str(o, key, buf, RPERF_NAME_LEN) || !name_ok(buf))
		return rperf_fail(
			why, wl, EBADMSG,
			"'%s' missing, empty or not a string of < %d bytes",
			key, RPERF_NAME_LEN);
	return 0;
}

static int get_nums(const json_t *o, struct rperf_gen_spec *s, char *why,
		    size_t wl)
{
	uint64_t v, min, max;
	size_t i;

	for (i = 0; i < NUM_KEYS; i++) {
		const struct num_key *k = &num_keys[i];

		num_bounds(k, false, &min, &max);
		if (rperf_ctrl_get_u64(o, k->key, min, max, &v))
			return rperf_fail(
				why, wl, EBADMSG,
				"'%s' missing or not an integer in [%llu, %llu]",
				k->key, (unsigned long long)min,
				(unsigned long long)max);
		num_set(s, k, v);
	}
	return 0;
}

/* "inline": optional, absent = 0. */
static int get_inline(const json_t *o, struct rperf_gen_spec *s, char *why,
		      size_t wl)
{
	uint64_t v = 0;

	if (json_object_get(o, "inline") &&
	    rperf_ctrl_get_u64(o, "inline", 0, RPERF_SPEC_MAX_INLINE, &v))
		return rperf_fail(why, wl, EBADMSG,
				  "'inline' not an integer in [0, %u]",
				  RPERF_SPEC_MAX_INLINE);
	s->inline_size = (uint32_t)v;
	return 0;
}

int rperf_gen_spec_decode(const json_t *obj, struct rperf_gen_spec *s,
			  char *why, size_t whylen)
{
	struct rperf_gen_spec t;
	int c = 0, sc = 0;
	char kind[RPERF_NAME_LEN];
	int rc;

	if (!obj || !s || !why || !whylen)
		return EINVAL;
	memset(&t, 0, sizeof(t));
	if (!json_is_object(obj))
		return rperf_fail(why, whylen, EBADMSG,
				  "a generator spec must be an object");
	rc = rperf_spec_plan_keys_decode(obj, &t, why, whylen);
	if (!rc)
		rc = get_nums(obj, &t, why, whylen);
	if (!rc)
		rc = rperf_ctrl_get_str(obj, "kind", kind, sizeof(kind)) ||
				     rperf_gen_kind_parse(kind, &t.kind) ?
			     bad_name("kind", why, whylen) :
			     0;
	if (!rc)
		rc = get_enum(obj, "completion", rperf_completion_names,
			      SIZE_MAX, &c, why, whylen);
	if (!rc)
		rc = get_enum(obj, "sink_completion", rperf_completion_names,
			      SIZE_MAX, &sc, why, whylen);
	if (!rc)
		rc = get_enum(obj, "pair_order", rperf_pair_order_names,
			      SIZE_MAX, &t.pair_order, why, whylen);
	if (!rc)
		rc = get_enum(obj, "verb", rperf_verb_names, RPERF_SPEC_VERBS,
			      &t.verb, why, whylen);
	if (!rc)
		rc = get_name(obj, "name", t.name, why, whylen);
	if (!rc)
		rc = get_name(obj, "from", t.from, why, whylen);
	if (!rc)
		rc = get_name(obj, "to", t.to, why, whylen);
	if (!rc &&
	    rperf_ctrl_get_double(obj, "rate_bps", 0, RPERF_SPEC_MAX_RATE_BPS,
				  &t.rate_bps)) {
		snprintf(why, whylen, "'rate_bps' missing or not in [0, %g]",
			 RPERF_SPEC_MAX_RATE_BPS);
		rc = EBADMSG;
	}
	if (!rc)
		rc = rperf_spec_get_node(obj, "cpu_node", &t.cpu_node, why,
					 whylen);
	if (!rc)
		rc = rperf_spec_get_node(obj, "mem_node", &t.mem_node, why,
					 whylen);
	if (!rc)
		rc = get_inline(obj, &t, why, whylen);
	if (!rc)
		rc = rperf_spec_sched_decode(obj, &t, why, whylen);
	if (!rc)
		rc = rperf_spec_lsg_decode(obj, &t, why, whylen);
	if (!rc)
		rc = rperf_spec_traffic_decode(obj, &t, why, whylen);
	if (!rc)
		rc = rperf_spec_rounds_decode(obj, &t, why, whylen);
	if (rc)
		return rc;
	t.completion = (enum rperf_completion)c;
	t.sink_completion = (enum rperf_completion)sc;
	rc = spec_check(&t, false, why,
			whylen); /* mtu, post_list, from != to */
	if (!rc)
		*s = t;
	return rc;
}
