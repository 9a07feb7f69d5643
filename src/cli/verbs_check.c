/* SPDX-License-Identifier: BSD-2-Clause */
#include "cli/verbs_check.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

static int refuse(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int refuse(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return EINVAL;
}

/* Atomics operate on 8 bytes: no size or 8. */
static int check_atomic_size(struct rperf_cmdline *cfg, bool given, char *err,
			     size_t errlen)
{
	if (!given) {
		cfg->all_sizes = false;
		cfg->sizes[0] = RPERF_ATOMIC_SIZE;
		cfg->nsizes = 1;
		return 0;
	}
	if (cfg->all_sizes)
		return refuse(
			err, errlen,
			"-a/--all: given with --verb atomic, whose operand is 8 B; accepted: -s 8 or no size");
	for (size_t i = 0; i < cfg->nsizes; i++)
		if (cfg->sizes[i] != RPERF_ATOMIC_SIZE)
			return refuse(
				err, errlen,
				"-s/--size: %llu B with --verb atomic, whose operand is 8 B; accepted: -s 8 or no size",
				(unsigned long long)cfg->sizes[i]);
	return 0;
}

/*
 * lat: the rperf method times operations whose completion waits for the
 * remote ACK (SEND, WRITE); pingpong needs the peer's software to answer
 * (SEND echoed, WRITE polled and written back). READ and atomics are
 * answered by the peer's NIC with data: postpoll only.
 */
static int check_lat(struct rperf_cmdline *cfg,
		     const struct rperf_verbs_given *given, char *err,
		     size_t errlen)
{
	char verbs[64];

	if (!rperf_verb_of(cfg->spec.verb)->lsg)
		return refuse(
			err, errlen,
			"--verb %s: not a latency test; accepted for lat: %s",
			rperf_verb_name(cfg->spec.verb),
			rperf_verb_lsg_list(verbs, sizeof(verbs)));
	if (!rperf_verb_responder_only(cfg->spec.verb))
		return 0;
	if (!given->method) {
		cfg->spec.test.method = RPERF_METHOD_POSTPOLL;
		return 0;
	}
	if (cfg->spec.test.method == RPERF_METHOD_POSTPOLL)
		return 0;
	if (cfg->spec.test.method == RPERF_METHOD_PINGPONG)
		return refuse(
			err, errlen,
			"--method pingpong: given with --verb %s, which the peer's NIC answers without its software; accepted: --method postpoll (ib_%s_lat's measure)",
			rperf_verb_name(cfg->spec.verb),
			rperf_verb_name(cfg->spec.verb));
	return refuse(
		err, errlen,
		"--method %s: given with --verb %s; Equation 1 subtracts a loopback operation that completes on the remote ACK, but a %s completes when its response data has been read from remote memory and returned; accepted: --method postpoll",
		rperf_method_name(cfg->spec.test.method),
		rperf_verb_name(cfg->spec.verb),
		cfg->spec.verb == RPERF_VERB_READ ? "READ" : "atomic");
}

static int check_bw(const struct rperf_cmdline *cfg, char *err, size_t errlen)
{
	if (cfg->reversed && cfg->bidir)
		return refuse(
			err, errlen,
			"--reversed: given with -b/--bidirectional, which already sends both ways; accepted: one of them");
	if (cfg->reversed && rperf_verb_responder_only(cfg->spec.verb))
		return refuse(
			err, errlen,
			"--reversed: given with --verb %s; a %s already moves data from the server to the client; accepted: --reversed with send, write or write_imm",
			rperf_verb_name(cfg->spec.verb),
			cfg->spec.verb == RPERF_VERB_READ ? "READ" : "atomic");
	if (cfg->report_both && !cfg->bidir)
		return refuse(
			err, errlen,
			"--report-both: given without -b/--bidirectional; accepted: -b --report-both");
	return 0;
}

int rperf_cli_verbs_check(struct rperf_cmdline *cfg,
			  const struct rperf_verbs_given *given, char *err,
			  size_t errlen)
{
	int rc = 0;

	if (given->atomic_type && cfg->spec.verb != RPERF_VERB_ATOMIC)
		return refuse(
			err, errlen,
			"-A/--atomic_type: given with --verb %s; accepted: --verb atomic -A FETCH_AND_ADD|CMP_AND_SWAP",
			rperf_verb_name(cfg->spec.verb));
	if (cfg->spec.verb == RPERF_VERB_ATOMIC)
		rc = check_atomic_size(cfg, given->size, err, errlen);
	if (!rc && cfg->cmd == RPERF_CMD_LAT)
		rc = check_lat(cfg, given, err, errlen);
	if (!rc && cfg->cmd == RPERF_CMD_BW)
		rc = check_bw(cfg, err, errlen);
	return rc;
}
