/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What the generators read, independent of any command line: the latency
 * methods and pair orders of the LSG, the verbs of the BSG, and the clock
 * that stamps completions, and their names (one table each). src/cli's
 * option table, the job keys, the wire codecs and the reports all spell
 * them from here.
 */
#ifndef RPERF_GEN_GEN_H
#define RPERF_GEN_GEN_H

#include <stdbool.h>
#include <stddef.h>

enum rperf_method {
	RPERF_METHOD_RPERF = 0,
	RPERF_METHOD_PINGPONG,
	RPERF_METHOD_POSTPOLL,
	RPERF_METHOD_ALL,
};

enum rperf_pair_order {
	RPERF_PAIR_ALTERNATE = 0,
	RPERF_PAIR_WIRE_FIRST,
	RPERF_PAIR_LOOP_FIRST,
	RPERF_PAIR_SEQUENTIAL,
};

/* --timestamps: which clock stamps the completions of the rperf method */
enum rperf_timestamps {
	RPERF_TS_AUTO = 0, /* the NIC's when the device has them, else cpu */
	RPERF_TS_NIC,
	RPERF_TS_CPU,
};

enum rperf_verb {
	RPERF_VERB_SEND = 0,
	RPERF_VERB_WRITE,
	RPERF_VERB_WRITE_IMM,
	RPERF_VERB_READ, /* RDMA READ of the size from the peer's buffer */
	RPERF_VERB_ATOMIC, /* 8-byte atomic on the peer's buffer */
	RPERF_VERB_COUNT
};

/*
 * What the generators, the endpoint checks and the reports ask of a verb:
 * one row per enum rperf_verb value, in gen_names.c beside its name.
 */
struct rperf_verb_props {
	int opcode; /* enum ibv_wr_opcode of its WRs (atomic: fetch-and-add;
		       --atomic_type picks compare-and-swap) */
	int access; /* IBV_ACCESS_REMOTE_* the target's buffer needs; 0: its
		       data lands in a posted receive */
	const char *label; /* in messages: "RDMA READ" */
	bool responder_only; /* the remote NIC answers: no receive, no CPU */
	bool consumes_recv; /* a receive is consumed at the target */
	bool lsg; /* an LSG measures it (write_imm is no latency verb) */
	unsigned int operand; /* its only size (atomics: 8), 0: any */
};
extern const struct rperf_verb_props rperf_verb_props[]; /* [COUNT] */

/* --atomic_type (perftest's -A): the operation of --verb atomic */
enum rperf_atomic_op {
	RPERF_ATOMIC_FETCH_ADD = 0, /* FETCH_AND_ADD */
	RPERF_ATOMIC_CMP_SWAP, /* CMP_AND_SWAP */
};

/* The size of every atomic operation (the operand), bytes. */
#define RPERF_ATOMIC_SIZE 8

/* @verb's row; a value out of range reads as SEND's. */
static inline const struct rperf_verb_props *rperf_verb_of(int verb)
{
	return &rperf_verb_props[verb >= 0 && verb < RPERF_VERB_COUNT ? verb :
									0];
}

/* The names of the verbs an LSG measures ("send, write, read, atomic"). */
const char *rperf_verb_lsg_list(char *buf, size_t len);

static inline int rperf_verb_responder_only(int verb)
{
	return rperf_verb_of(verb)->responder_only;
}

static inline int rperf_verb_consumes_recv(int verb)
{
	return rperf_verb_of(verb)->consumes_recv;
}

/* perftest's --rate_units: MB/s, Gb/s, packets/s */
enum rperf_rate_units {
	RPERF_RATE_MBPS = 0, /* M */
	RPERF_RATE_GBPS, /* g */
	RPERF_RATE_PPS, /* p */
};

/*
 * The names of the values above, each spelled in one place (gen_names.c).
 * A table's index is the enum's value; a row with .name NULL ends it.
 * .name is the spelling of job files, the wire and reports; .cli the
 * command line's where perftest's habit differs (hyphens, upper case),
 * NULL when the same. A lookup accepts either: case and '-' vs '_' are
 * not significant ("wire-first" = "wire_first", "cmp_and_swap" =
 * "CMP_AND_SWAP").
 */
struct rperf_name {
	const char *name;
	const char *cli;
};

extern const struct rperf_name rperf_method_names[]; /* enum rperf_method */
extern const struct rperf_name rperf_pair_order_names[];
extern const struct rperf_name rperf_timestamps_names[];
extern const struct rperf_name rperf_verb_names[]; /* enum rperf_verb */
extern const struct rperf_name rperf_atomic_names[]; /* rperf_atomic_op */
extern const struct rperf_name rperf_rate_units_names[];

/* Value @v's .name (or .cli); "?" when @v is not in @t. */
const char *rperf_name_of(const struct rperf_name *t, int v);
const char *rperf_name_cli(const struct rperf_name *t, int v);
/* @s's value among the first @n rows of @t (SIZE_MAX: all): 0 or EINVAL. */
int rperf_name_find(const struct rperf_name *t, size_t n, const char *s,
		    int *out);
/* The same name in two spellings (case, '-' vs '_'). */
bool rperf_name_same(const char *a, const char *b);

/* Shorthands: "?" for a value out of range. */
static inline const char *rperf_verb_name(int verb)
{
	return rperf_name_of(rperf_verb_names, verb);
}

static inline const char *rperf_method_name(int method)
{
	return rperf_name_of(rperf_method_names, method);
}

static inline const char *rperf_pair_order_name(int order)
{
	return rperf_name_of(rperf_pair_order_names, order);
}

static inline const char *rperf_atomic_name(int op)
{
	return rperf_name_of(rperf_atomic_names, op);
}

#endif
