/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The generator kinds: one row each (spec.h), its source's ops in its own
 * gen_*.c; every kind's sink is gen_sink.c. A kind's job-file section is
 * its name and takes its family's keys; its results fill its family's rows
 * of the run's reports.
 */
#include "engine/spec.h"

#include <errno.h>
#include <string.h>

/* A kind's source ops; the control protocol's fuzzer (tests/fuzz), which
 * links the codecs without generators, defines it as NULL. */
#ifndef RPERF_GEN_SOURCE
#define RPERF_GEN_SOURCE(ops) (&(ops))
#endif

extern const struct rperf_gen_ops rperf_gen_lsg_source; /* gen_lsg.c */
extern const struct rperf_gen_ops rperf_gen_bsg_source; /* gen_bsg.c */

/* index = enum rperf_gen_kind - 1 */
static const struct rperf_gen_kind_row kinds[] = {
	{ "lsg", RPERF_FAMILY_LATENCY, 64,
	  RPERF_GEN_SOURCE(rperf_gen_lsg_source) },
	{ "bsg", RPERF_FAMILY_BANDWIDTH, 65536,
	  RPERF_GEN_SOURCE(rperf_gen_bsg_source) },
};

#define NKINDS (sizeof(kinds) / sizeof(kinds[0]))

const struct rperf_gen_kind_row *rperf_gen_kind_at(enum rperf_gen_kind k)
{
	return k >= 1 && (size_t)k <= NKINDS ? &kinds[k - 1] : NULL;
}

bool rperf_gen_latency(enum rperf_gen_kind k)
{
	const struct rperf_gen_kind_row *r = rperf_gen_kind_at(k);

	return r && r->family == RPERF_FAMILY_LATENCY;
}

bool rperf_gen_bandwidth(enum rperf_gen_kind k)
{
	const struct rperf_gen_kind_row *r = rperf_gen_kind_at(k);

	return r && r->family == RPERF_FAMILY_BANDWIDTH;
}

const char *rperf_gen_kind_name(enum rperf_gen_kind k)
{
	const struct rperf_gen_kind_row *r = rperf_gen_kind_at(k);

	return r ? r->name : "?";
}

int rperf_gen_kind_parse(const char *name, enum rperf_gen_kind *out)
{
	for (size_t i = 0; name && out && i < NKINDS; i++)
		if (!strcmp(name, kinds[i].name)) {
			*out = (enum rperf_gen_kind)(i + 1);
			return 0;
		}
	return EINVAL;
}
