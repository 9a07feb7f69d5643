/* SPDX-License-Identifier: BSD-2-Clause */
/* The loop's private state: serve.c (poll, accept) and serve_conn.c (one
 * pending connection: its first frame, refusals, lingering). */
#ifndef RPERF_SERVE_PRIV_H
#define RPERF_SERVE_PRIV_H

#include <stdbool.h>

#include "serve/serve.h"

#define SERVE_PEER_LEN 64
#define SERVE_EMFILE_PAUSE_MS 100 /* out of fds: accept again after */

enum conn_state {
	CONN_FREE = 0,
	CONN_TLS, /* TLS handshake (cfg.tls): the handshake pool */
	CONN_PENDING, /* reading the first frame */
	CONN_LINGER, /* refused: draining until EOF or the deadline */
};

struct serve_conn {
	enum conn_state st;
	int fd;
	char peer[SERVE_PEER_LEN];
	uint64_t deadline_ns;
	uint8_t hdr[RPERF_CTRL_HDR_LEN];
	size_t have; /* bytes of the frame read so far */
	uint8_t *frame; /* header + payload once the header passed */
	size_t need; /* the whole frame's bytes once the header passed */
	struct rperf_ctrl_tls *tls; /* cfg.tls: the session, else NULL */
	short want; /* CONN_TLS: the event the handshake waits for */
	bool hs_slot; /* counted in the handshake pool, not in open */
	char addr[SERVE_PEER_LEN]; /* peer without the port */
	uint64_t born_ns; /* accept time: the oldest is evicted first */
};

struct rperf_serve {
	struct rperf_serve_cfg cfg; /* cfg.what points at what[] */
	char what[64]; /* a copy: the caller's string may not outlive create */
	struct serve_conn *conns; /* nconns = cfg.max_conns (+ handshakes) */
	unsigned int nconns;
	struct pollfd *pf; /* lfd + conns + owner fds */
	unsigned int open; /* held against cfg.max_conns */
	unsigned int nhs; /* held in the handshake pool */
	unsigned int max_hs; /* its size: RPERF_SERVE_MAX_HANDSHAKES (or
				less under a low open-file limit) */
	uint64_t accept_pause_until_ns;
	bool quit;
	struct rperf_serve_stats stats;
};

/* One line through cfg.log, printf-style. */
void serve_log(struct rperf_serve *l, const char *peer, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Free slot @c (closes its fd). */
void serve_conn_close(struct rperf_serve *l, struct serve_conn *c);
/* REFUSE on @c's fd (non-blocking, best effort) that cfg.max_conns
 * connections are open already, then linger. */
void serve_conn_refuse_full(struct rperf_serve *l, struct serve_conn *c);
/* @c's fd is readable (or hung up): read what is there, act on it. */
void serve_conn_on_input(struct rperf_serve *l, struct serve_conn *c);
/* A new TLS connection (cfg.tls) in slot @c. */
void serve_conn_tls_start(struct rperf_serve *l, struct serve_conn *c);
/* @c's deadline passed. */
void serve_conn_on_deadline(struct rperf_serve *l, struct serve_conn *c);

#endif
