/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Every name of the generators' enums (gen.h), once. Adding a verb or a
 * method: its enum value in gen.h, its row here (same position).
 */
#include "gen/gen.h"

#include <ctype.h>
#include <errno.h>
#include <stdint.h>

const struct rperf_name rperf_method_names[] = {
	{ "rperf", NULL }, { "pingpong", NULL }, { "postpoll", NULL },
	{ "all", NULL },   { NULL, NULL },
};

const struct rperf_name rperf_pair_order_names[] = {
	{ "alternate", NULL },
	{ "wire_first", "wire-first" },
	{ "loop_first", "loop-first" },
	{ "sequential", NULL },
	{ NULL, NULL },
};

const struct rperf_name rperf_timestamps_names[] = {
	{ "auto", NULL },
	{ "nic", NULL },
	{ "cpu", NULL },
	{ NULL, NULL },
};

const struct rperf_name rperf_verb_names[] = {
	{ "send", NULL }, { "write", NULL },  { "write_imm", NULL },
	{ "read", NULL }, { "atomic", NULL }, { NULL, NULL },
};

const struct rperf_name rperf_atomic_names[] = {
	{ "fetch_and_add", "FETCH_AND_ADD" },
	{ "cmp_and_swap", "CMP_AND_SWAP" },
	{ NULL, NULL },
};

/* perftest's --rate_units letters: MB/s, Gb/s, messages/s */
const struct rperf_name rperf_rate_units_names[] = {
	{ "M", NULL },
	{ "g", NULL },
	{ "p", NULL },
	{ NULL, NULL },
};

static const struct rperf_name *row(const struct rperf_name *t, int v)
{
	if (v < 0)
		return NULL;
	for (int i = 0; t[i].name; i++)
		if (i == v)
			return &t[i];
	return NULL;
}

const char *rperf_name_of(const struct rperf_name *t, int v)
{
	const struct rperf_name *r = row(t, v);

	return r ? r->name : "?";
}

const char *rperf_name_cli(const struct rperf_name *t, int v)
{
	const struct rperf_name *r = row(t, v);

	return !r ? "?" : r->cli ? r->cli : r->name;
}

static int fold(int c)
{
	return c == '-' ? '_' : tolower(c);
}

bool rperf_name_same(const char *a, const char *b)
{
	for (; *a && *b; a++, b++)
		if (fold((unsigned char)*a) != fold((unsigned char)*b))
			return false;
	return *a == *b;
}

int rperf_name_find(const struct rperf_name *t, size_t n, const char *s,
		    int *out)
{
	if (!s)
		return EINVAL;
	for (size_t i = 0; i < n && t[i].name; i++) {
		if (rperf_name_same(t[i].name, s)) {
			*out = (int)i;
			return 0;
		}
	}
	return EINVAL;
}
