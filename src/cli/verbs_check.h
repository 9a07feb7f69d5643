/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The combinations of --verb with the rest of the command line (perftest's
 * other tests: ib_read_bw, ib_atomic_bw, ib_write_lat, ib_read_lat,
 * ib_atomic_lat), checked and completed after the options are parsed.
 */
#ifndef RPERF_CLI_VERBS_CHECK_H
#define RPERF_CLI_VERBS_CHECK_H

#include <stdbool.h>
#include <stddef.h>

#include "job/cmdline.h"

/* Which of the options involved the user gave (not their defaults). */
struct rperf_verbs_given {
	bool size; /* -s, --sizes or -a */
	bool method;
	bool atomic_type;
	bool verb;
};

/*
 * Refuse what makes no sense (0 or EINVAL with a one-line @err naming the
 * option and what is accepted) and complete the rest: --verb atomic without
 * a size measures 8 B; lat --verb read/atomic without --method is postpoll.
 */
int rperf_cli_verbs_check(struct rperf_cmdline *cfg,
			  const struct rperf_verbs_given *given, char *err,
			  size_t errlen);

#endif
