/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rdma_cm for an RC QP that rperf created itself: the connection manager
 * resolves the route (from the source address of the chosen device: unbound,
 * Soft-RoCE and some NICs short-circuit to a local device) and exchanges the
 * QP numbers; rperf moves its QP through INIT/RTR/RTS with the attributes
 * rdma_init_qp_attr() computes, then sets the service level and traffic
 * class itself (perftest cannot: its issue #56).
 */
#ifndef RPERF_VERBS_CM_H
#define RPERF_VERBS_CM_H

#include <stddef.h>
#include <stdint.h>

#include <rdma/rdma_cma.h>

#include "verbs/verbs.h"

struct rperf_cm {
	struct rdma_event_channel *ch;
	struct rdma_cm_id *listen_id; /* server */
	struct rdma_cm_id *id; /* the connection */
};

/* The IPv4 address of the device's chosen GID (IPv4-mapped), as text. */
int rperf_cm_gid_ipv4(const struct rperf_dev *d, char *buf, size_t len);
/* The same of a raw GID (a peer's): 0, or EAFNOSUPPORT when it is not
 * IPv4-mapped. */
int rperf_cm_gid_text(const uint8_t gid[16], char *buf, size_t len);

/* Client: the rdma_cm source address: @override (-z/--source_ip) when
 * given, else the IPv4 address of @d's GID (EAFNOSUPPORT with @err). */
int rperf_cm_source(const struct rperf_dev *d, const char *override, char *buf,
		    size_t len, char *err, size_t errlen);

/* Server: listen on the IPv4 address of @d's GID, port @port
 * (EAFNOSUPPORT with @err when the GID has none). */
int rperf_cm_listen_dev(struct rperf_cm *cm, const struct rperf_dev *d,
			uint16_t port, char *err, size_t errlen);
/* Server: listen on @addr:@port. */
int rperf_cm_listen(struct rperf_cm *cm, const char *addr, uint16_t port,
		    char *err, size_t errlen);
/* Server, several connections on one listener (rperf bw -q N): the same
 * into @conn (its id; the events arrive on @lis's channel). Close every
 * @conn before @lis. */
int rperf_cm_accept_on(struct rperf_cm *lis, struct rperf_cm *conn,
		       struct rperf_qp *qp, const struct rperf_verbs_cfg *cfg,
		       int timeout_ms, char *err, size_t errlen);
/* Client: from @src to @dst:@port, connect @qp; returns when established. */
int rperf_cm_connect(struct rperf_cm *cm, struct rperf_qp *qp,
		     const struct rperf_verbs_cfg *cfg, const char *src,
		     const char *dst, uint16_t port, int timeout_ms, char *err,
		     size_t errlen);
void rperf_cm_close(struct rperf_cm *cm);

#endif
