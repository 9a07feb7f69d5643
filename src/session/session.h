/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What the two-host commands (rperf lat, rperf bw) share around their
 * generators: the verbs configuration from the command line and pinning. The
 * lifecycle of a client and a server is in session_life.h.
 */
#ifndef RPERF_SESSION_H
#define RPERF_SESSION_H

#include <stddef.h>
#include <stdint.h>

#include "config/config.h"
#include "engine/spec.h"
#include "verbs/verbs.h"

/* The largest message a two-host server (lat, bw) accepts. */
#define RPERF_SERVER_MAX_SIZE (16u << 20)

/* Device/port/GID/path settings of @cfg (--tclass, else -T, else 0). */
void rperf_session_verbs_cfg(const struct rperf_cli_config *cfg,
			     struct rperf_verbs_cfg *v);

/*
 * The one generator of a two-host run as a spec (its PARAMS): @kind's
 * defaults, then @cfg's path, largest size, duration or iterations,
 * depths, QPs, verb and the test keys (method, atomic operation, rdma_cm,
 * -b, --reversed). "from" is "client", "to" "server".
 */
void rperf_session_spec(const struct rperf_cli_config *cfg,
			enum rperf_gen_kind kind, struct rperf_gen_spec *s);

/*
 * Open the device of @cfg with its path settings into @v and @d; on a
 * server @path (the client's PARAMS choices; NULL on a client) overrides
 * them. 0 or errno with @err (ENODEV: no such device).
 */
int rperf_session_dev_open(const struct rperf_cli_config *cfg,
			   const struct rperf_path_spec *path,
			   struct rperf_verbs_cfg *v, struct rperf_dev **d,
			   char *err, size_t errlen);

/*
 * Server: what a client's PARAMS @s would pin (lat: the wire QP, 16
 * replies deep, rx_depth receives, one buffer; bw: qps QPs, tx_depth deep
 * with -b, one buffer; the buffers' page size and the inline size are
 * this server's) against this server's --max-memory/--max-qps, before
 * anything is allocated: 0 with *stall_ns the run's stall limit for its
 * path on this server (rperf_limits_stall_ns), or EDQUOT with @why.
 */
int rperf_session_admit(const struct rperf_cli_config *cfg,
			const struct rperf_gen_spec *s, uint64_t *stall_ns,
			char *why, size_t whylen);

/*
 * Server: a client's PARAMS @obj as its generator @s: a spec within what
 * a two-host server runs (rperf_gen_spec_decode_test, rx_depth given),
 * its largest message at most @server_max (else EMSGSIZE: "message size N
 * B is above what this server allows (M B)"), admitted by
 * rperf_session_admit. 0 with *stall_ns, or EBADMSG/EMSGSIZE/EDQUOT with
 * the refusal in @why.
 */
int rperf_session_params(const struct rperf_cli_config *cfg, const json_t *obj,
			 uint64_t server_max, struct rperf_gen_spec *s,
			 uint64_t *stall_ns, char *why, size_t whylen);

/* rperf_place_pin() for --cpu, with the one-line error (usage class) in @e. */
struct rperf_err;
int rperf_session_pin_cpu(int64_t cpu, struct rperf_err *e);

#endif
