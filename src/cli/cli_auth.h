/* SPDX-License-Identifier: BSD-2-Clause */
/* The control channel's authentication from the options of `rperf run` and
 * `rperf agent`: --key-file (TLS-PSK), --cert/--key/--ca, --insecure. */
#ifndef RPERF_CLI_AUTH_H
#define RPERF_CLI_AUTH_H

#include <stddef.h>
#include <stdint.h>

#include "job/cmdline.h"
#include "ctrl/ctrl_tls.h"
#include "engine/proto.h"

struct cli_auth {
	uint8_t key[RPERF_PROTO_MAX_KEY]; /* --key-file's bytes */
	struct rperf_ctrl_auth auth; /* points into key[] and cfg */
};

/*
 * Fill @a from @cfg: the key file read (refused when not a regular file,
 * empty or readable by group/others), or the certificate trio, checked by
 * building a TLS context of the @server end once; none of them is an
 * error (EACCES) unless --insecure (or @launched: rperf run --mpi hands its
 * agents a key of its own). 0 or errno with a one-line @err.
 */
int cli_auth_load(const struct rperf_cmdline *cfg, bool server, bool launched,
		  struct cli_auth *a, char *err, size_t errlen);
/* Forget the key bytes. */
void cli_auth_clear(struct cli_auth *a);

#endif
