/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What the generators read, independent of any command line: the latency
 * methods and pair orders of the LSG, the verbs of the BSG, and the clock
 * that stamps completions. src/cli/config.h includes this header; nothing
 * below the command layer needs src/cli for them.
 */
#ifndef RPERF_GEN_GEN_H
#define RPERF_GEN_GEN_H

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
};

/* --atomic_type (perftest's -A): the operation of --verb atomic */
enum rperf_atomic_op {
	RPERF_ATOMIC_FETCH_ADD = 0, /* FETCH_AND_ADD */
	RPERF_ATOMIC_CMP_SWAP, /* CMP_AND_SWAP */
};

/* The size of every atomic operation (the operand), bytes. */
#define RPERF_ATOMIC_SIZE 8

/* The verb's remote side answers in hardware (READ, atomics): the
 * responder's CPU sees nothing and no receive is consumed. */
static inline int rperf_verb_responder_only(int verb)
{
	return verb == RPERF_VERB_READ || verb == RPERF_VERB_ATOMIC;
}

/* The verb consumes a receive at the target (SEND, WRITE_WITH_IMM). */
static inline int rperf_verb_consumes_recv(int verb)
{
	return verb == RPERF_VERB_SEND || verb == RPERF_VERB_WRITE_IMM;
}

/* perftest's --rate_units: MB/s, Gb/s, packets/s */
enum rperf_rate_units {
	RPERF_RATE_MBPS = 0, /* M */
	RPERF_RATE_GBPS, /* g */
	RPERF_RATE_PPS, /* p */
};

#endif
