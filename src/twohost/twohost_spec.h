/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What rperf lat and rperf bw take from their command line for the job
 * they control: the generator spec of the client's instance and the check
 * of the device before anything starts.
 */
#ifndef RPERF_TWOHOST_SPEC_H
#define RPERF_TWOHOST_SPEC_H

#include "job/cmdline.h"
#include "engine/spec.h"
#include "verbs/verbs.h"

/* The largest message a two-host server (lat, bw) accepts. */
#define RPERF_SERVER_MAX_SIZE (16u << 20)

/*
 * The one generator of a two-host run as a spec: the command line's
 * (cfg->spec, where every option with a generator key is), of @kind, with
 * the largest size, the duration, -T as the traffic class when --tclass is
 * not given, and -e for the sink too. "from" is "client", "to" "server".
 */
void rperf_twohost_spec(const struct rperf_cmdline *cfg,
			enum rperf_gen_kind kind, struct rperf_gen_spec *s);

/* Open the device of -d, -i, -x into *@d: 0, or errno with @e (class
 * usage, the message names the option). */
struct rperf_err;
int rperf_twohost_dev_open(const struct rperf_cmdline *cfg,
			   struct rperf_dev **d, struct rperf_err *e);
/* Open and close it, so that a bad one is named before anything listens
 * or connects. */
int rperf_twohost_check_device(const struct rperf_cmdline *cfg,
			       struct rperf_err *e);

#endif
