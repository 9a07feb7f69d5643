/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The QPs of one end of a generator connection (rperf bw's either end, the
 * engine's sink), and its receive side: count what arrives, refill. One
 * sink for both ways of running a generator.
 */
#ifndef RPERF_GEN_RX_H
#define RPERF_GEN_RX_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "verbs/verbs.h"
#include "verbs/verbs_cm.h"

/* The default stall limit (--stall-limit): a receive side busy-polls this
 * long without a completion before it sleeps on completion events. */
#define RPERF_GEN_STALL_NS 5000000000ull

struct rperf_gen_conn {
	struct rperf_verbs_cfg vcfg;
	struct rperf_dev *dev;
	struct rperf_qp **qp;
	size_t nqp;
	/* every QP's completion events (one fd for all); NULL: none */
	struct ibv_comp_channel *channel;
	struct rperf_buf buf; /* client: source; server: receive/WRITE target */
	uint64_t max_size;
	unsigned int
		rx_depth; /* receives kept posted per QP (server, -b client) */
	bool recvs; /* the verb consumes receives (server, -b client) */
	bool echo; /* pingpong: every SEND received is sent back at once
		      (gen/echo.h), not counted and reposted in batches */
	/* -R, rdma_cm = true: one rdma_cm connection per QP (verbs_cm.h,
	 * shared with rperf lat); the listening end's cm[0] also listens */
	struct rperf_cm *cm;
	bool cm_server;
	char cm_src[64]; /* dialling end: source address (-z, else the GID's) */
	char cm_dst[256]; /* dialling end: the listening end's address */
	uint16_t cm_port; /* the listening end's port */
};

/* @depth (the option @opt) against what @d allows per queue (the smaller
 * of max_qp_wr and max_cqe): 0 or ERANGE with @err naming both. */
int rperf_gen_depth_check(const struct rperf_dev *d, const char *opt,
			  uint64_t depth, char *err, size_t errlen);
/* Open one end on c->dev (c->max_size, c->recvs, c->rx_depth set): @n QPs
 * of @q (receive or send events: one completion channel for all, put into
 * @q), a c->max_size buffer with @access, c->rx_depth receives posted on
 * every QP when c->recvs. 0 or errno with @err naming the step; what was
 * made is freed by rperf_gen_conn_free either way. */
int rperf_gen_conn_open(struct rperf_gen_conn *c, struct rperf_qp_cfg *q,
			size_t n, int access, char *err, size_t errlen);
/* rdma_cm, the QPs, the channel and the buffer (not the device). */
void rperf_gen_conn_free(struct rperf_gen_conn *c);

/* rdma_cm for every QP of an open end (rperf bw -R, a plan's BSG with
 * rdma_cm = true). listen: on the IPv4 address of c->dev's GID at @port
 * (0: one the kernel picks), the port in c->cm_port. dial: from @src (NULL:
 * the GID's address) to @dst:@port. connect: QP i accepted or dialled in
 * turn, each within @ms. cm_close: every connection, then the listener.
 * 0 or errno with @err. */
int rperf_gen_conn_cm_listen(struct rperf_gen_conn *c, uint16_t port, char *err,
			     size_t errlen);
int rperf_gen_conn_cm_dial(struct rperf_gen_conn *c, const char *src,
			   const char *dst, uint16_t port, char *err,
			   size_t errlen);
int rperf_gen_conn_cm_connect(struct rperf_gen_conn *c, int ms, char *err,
			      size_t errlen);
void rperf_gen_conn_cm_close(struct rperf_gen_conn *c);

/* What arrived in one round (SENDs; WRITE_WITH_IMM, whose immediate
 * carries how many WRITEs its list held). */
struct rperf_rx_count {
	uint64_t messages, bytes;
	uint64_t first_ns, last_ns; /* first and last receive completion */
	uint64_t sleeps; /* times the wait slept on completion events */
};

/* Take the receive completions of every QP, post as many receives again;
 * *got: completions taken. 0, EIO (a failed completion or verb: @err) */
int rperf_rx_drain(struct rperf_gen_conn *c, struct rperf_rx_count *x, int *got,
		   char *err, size_t errlen);

/* First to last receive completion, seconds (0 if fewer than two). */
double rperf_rx_seconds(const struct rperf_rx_count *x);

/* How rperf_rx_wait waits. */
struct rperf_rx_wait {
	int fd; /* the control socket: readable (a message, EOF) ends it */
	const volatile sig_atomic_t *stop; /* NULL: none */
	/* busy-poll while completions come; after this long without one,
	 * sleep on the connection's completion channel (woken by a
	 * completion or @fd). 0: sleep whenever nothing is there (-e) */
	uint64_t spin_ns;
	uint64_t idle_ns; /* nothing arrived for this long: ETIMEDOUT; 0 never */
};

/* Drain until @w->fd is readable: 0; EINTR (*stop), ETIMEDOUT (idle_ns)
 * or a drain/verbs error (@err). Without a channel (or receives) it never
 * busy-polls past spin_ns either: it then polls @fd every 200 ms. */
int rperf_rx_wait(struct rperf_gen_conn *c, struct rperf_rx_count *x,
		  const struct rperf_rx_wait *w, char *err, size_t errlen);

#endif
