/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Every name of the generators' enums (gen.h), once, and what the code
 * asks of each verb. Adding a verb or a method: its enum value in gen.h,
 * its rows here (same position).
 */
#include "gen/gen.h"

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>

#include <infiniband/verbs.h>

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

const struct rperf_verb_props rperf_verb_props[RPERF_VERB_COUNT] = {
	[RPERF_VERB_SEND] = { .opcode = IBV_WR_SEND,
			      .label = "SEND",
			      .consumes_recv = true,
			      .lsg = true },
	[RPERF_VERB_WRITE] = { .opcode = IBV_WR_RDMA_WRITE,
			       .access = IBV_ACCESS_REMOTE_WRITE,
			       .label = "RDMA WRITE",
			       .lsg = true },
	/* the immediate on the last WR of each post list (bsg.c) */
	[RPERF_VERB_WRITE_IMM] = { .opcode = IBV_WR_RDMA_WRITE,
				   .access = IBV_ACCESS_REMOTE_WRITE,
				   .label = "RDMA WRITE",
				   .consumes_recv = true },
	[RPERF_VERB_READ] = { .opcode = IBV_WR_RDMA_READ,
			      .access = IBV_ACCESS_REMOTE_READ,
			      .label = "RDMA READ",
			      .responder_only = true,
			      .lsg = true },
	[RPERF_VERB_ATOMIC] = { .opcode = IBV_WR_ATOMIC_FETCH_AND_ADD,
				.access = IBV_ACCESS_REMOTE_ATOMIC,
				.label = "atomic",
				.responder_only = true,
				.lsg = true,
				.operand = RPERF_ATOMIC_SIZE },
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

const char *rperf_verb_lsg_list(char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int v = 0; v < RPERF_VERB_COUNT && n < len; v++)
		if (rperf_verb_props[v].lsg)
			n += (size_t)snprintf(buf + n, len - n, "%s%s",
					      n ? ", " : "",
					      rperf_verb_names[v].name);
	return buf;
}
