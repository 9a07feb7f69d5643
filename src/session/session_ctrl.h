/* SPDX-License-Identifier: BSD-2-Clause */
/* The control-channel steps the two-host commands share (lat, bw). */
#ifndef RPERF_SESSION_CTRL_H
#define RPERF_SESSION_CTRL_H

#include <signal.h>
#include <stdbool.h>

#include "ctrl/ctrl.h"
#include "verbs/verbs.h"

#define RPERF_SESSION_TIMEOUT_MS 30000

/* Did the peer of @fd (the control socket) close it or reset it? Peeks,
 * never consumes a message. */
bool rperf_session_peer_gone(int fd);
/* Server, after the endpoint exchange (the GID check): REFUSE with @why
 * out, @e set to it (usage class). Returns EACCES. */
struct rperf_err;
int rperf_session_refuse_late(struct rperf_ctrl_session *s,
			      const struct rperf_ctrl_io *io, const char *why,
			      struct rperf_err *e);

/* Send ENDPOINT for @qp; @buf (may be NULL) is offered for RDMA WRITEs. */
int rperf_session_send_endpoint(struct rperf_ctrl_session *s,
				const struct rperf_ctrl_io *io,
				const struct rperf_dev *d,
				const struct rperf_qp *qp, int mtu,
				const struct rperf_buf *buf);
/* Receive a message that must be @want; a REFUSE/ERROR gives EPROTO with its
 * reason in @why; anything else EPROTO too. */
int rperf_session_expect(struct rperf_ctrl_session *s,
			 const struct rperf_ctrl_io *io,
			 enum rperf_ctrl_type want, struct rperf_ctrl_msg *out,
			 char *why, size_t whylen);
/* Decoded ENDPOINT -> verbs endpoint (+ the peer's buffer, may be NULL). */
int rperf_session_endpoint_from(const struct rperf_ctrl_msg *m,
				struct rperf_endpoint *ep,
				struct rperf_ctrl_endpoint *raw);
/* Send REFUSE or ERROR with @reason (best effort: errors ignored). */
void rperf_session_send_reason(struct rperf_ctrl_session *s,
			       const struct rperf_ctrl_io *io,
			       enum rperf_ctrl_type t, const char *reason);

/*
 * Client: HELLO for @command, WELCOME back. 0; EPROTO when the server
 * refused (its reason in @why); another errno on a broken channel (@why).
 */
int rperf_session_hello(struct rperf_ctrl_session *s,
			const struct rperf_ctrl_io *io, const char *command,
			char *why, size_t whylen);
/*
 * Server: HELLO in (version and command checked), WELCOME with @max_size out.
 * 0; EPROTO when the client was refused (REFUSE sent, reason in @why);
 * another errno on a broken channel (@why says what).
 */
int rperf_session_greet(struct rperf_ctrl_session *s,
			const struct rperf_ctrl_io *io, const char *command,
			uint64_t max_size, char *why, size_t whylen);

/* Server: the same from a HELLO received already (@m; the session's
 * state must be past it, see rperf_ctrl_session_check()). */
int rperf_session_greet_hello(struct rperf_ctrl_session *s,
			      const struct rperf_ctrl_io *io,
			      const struct rperf_ctrl_msg *m,
			      const char *command, uint64_t max_size, char *why,
			      size_t whylen);

/* Client: BYE out, BYE in (best effort: the results are already in). */
void rperf_session_bye(struct rperf_ctrl_session *s,
		       const struct rperf_ctrl_io *io);
/*
 * Client: connect the control channel to HOST:-p from @source (NULL: any
 * local address), retrying for --connect-timeout. 0, or the errno with a
 * one-line @why naming @command.
 */
struct rperf_cli_config;
int rperf_session_connect(const struct rperf_cli_config *cfg,
			  const char *source, volatile sig_atomic_t *stop,
			  const char *command, int *fd, char *why,
			  size_t whylen);

#endif
