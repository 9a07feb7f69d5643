/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What one plan may cost an agent (rperf agent, rperf lat / bw without
 * HOST), decided by the agent, never by its controller:
 *   - memory: from the PLAN, before anything is allocated, the run's pinned
 *     memory is estimated (queues of every QP and CQ, registered buffers;
 *     both directions with -b) and a run above --max-memory is refused;
 *   - QPs: above --max-qps, refused;
 *   - time: a wedged peer costs at most the server's --stall-limit,
 *     whatever RC timeout and retry count the client asked for;
 *   - trust: QPs connect only to endpoints whose GID is the address of
 *     their host (limits_gid.c).
 * Every refusal is a one-line reason naming the limit and the figure.
 */
#ifndef RPERF_ENGINE_LIMITS_H
#define RPERF_ENGINE_LIMITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gen/rx.h"
#include "verbs/verbs.h"

#define RPERF_LIMITS_STALL_NS RPERF_GEN_STALL_NS /* --stall-limit default */
#define RPERF_LIMITS_MEM_CAP (4ull << 30) /* auto --max-memory at most */
#define RPERF_LIMITS_MEM_FLOOR (64ull << 20) /* ... and at least */
#define RPERF_LIMITS_MAX_QPS 1024 /* --max-qps default (bw's -q maximum) */

/* What a run would create on the server. */
struct rperf_pin_req {
	uint64_t qps;
	uint64_t send_depth, recv_depth; /* per QP (and its CQs) */
	uint64_t inline_size;
	uint64_t buf_bytes; /* registered buffers, all of them */
	int huge_shift; /* buffers in pages of 1 << huge_shift; 0 normal */
};

/* The estimate, its parts for the refusal text. */
struct rperf_pin_est {
	uint64_t per_qp; /* queues of one QP and its two CQs */
	uint64_t bufs; /* buffers, rounded to their pages */
	uint64_t total;
};

/*
 * Bytes @r would pin: every work queue and CQ rounded up to a power of
 * two entries (depth + 1) and to 4 KiB pages, at 512 B per send WQE (plus
 * the inline size), 64 B per receive WQE, 128 B per CQE (rxe's; mlx5's
 * are 64 B), 4 KiB of context per QP, plus the buffers rounded to their
 * pages: the providers' queue layouts (rxe, mlx5), which the lab checks
 * against the host's MemAvailable drop. Packets in flight are not in it.
 */
void rperf_pin_estimate(const struct rperf_pin_req *r, struct rperf_pin_est *e);

/*
 * The automatic --max-memory: a quarter of MemAvailable in
 * @root/proc/meminfo (root "" or NULL: the live system), at most
 * RPERF_LIMITS_MEM_CAP, at least RPERF_LIMITS_MEM_FLOOR. 0 or errno (the
 * file unreadable or without MemAvailable: *out is the floor).
 */
int rperf_limits_auto_memory(const char *root, uint64_t *out);

/* The server's limits as configured (0 fields: the defaults above). */
struct rperf_limits {
	uint64_t max_memory; /* bytes */
	uint64_t max_qps;
	uint64_t stall_ns;
};

/* "1.5 GiB", "512 KiB", "200 B" into @buf. */
void rperf_limits_bytes(uint64_t n, char *buf, size_t len);

/*
 * The GID check: may our QPs connect to the @n endpoints @ep of host @host
 * whose address is @addr (numeric IPv4/IPv6 text: the PLAN's "hosts", or
 * the control connection's peer when @host is NULL)? RoCE: every GID must
 * be that address (IPv4-mapped or IPv6). InfiniBand (no IP in a GID):
 * every GID's subnet prefix must be our port's, and a LID must be given
 * when our port has one. 0, or EACCES with @why naming the endpoint, the
 * host and its address.
 */
int rperf_limits_gid_check_host(const struct rperf_dev *d, const char *host,
				const char *addr,
				const struct rperf_endpoint *ep, size_t n,
				char *why, size_t whylen);
/* A GID as people write it: IPv4 when v4-mapped, else IPv6 (>= 46 B). */
void rperf_limits_gid_text(const uint8_t gid[16], char *buf, size_t len);
/* Numeric IPv4/IPv6 text -> sockaddr_in/in6 in @ss: 0 or EINVAL. */
struct sockaddr_storage;
int rperf_limits_addr_parse(const char *text, struct sockaddr_storage *ss);
/* A client's control-connection source: @d's GID as an address (RoCE,
 * IPv4-mapped or global IPv6) into @buf; ENOTSUP on InfiniBand or with a
 * link-local GID (then the connection is not bound). */
int rperf_limits_gid_source(const struct rperf_dev *d, char *buf, size_t len);
/* The RoCE rule alone: does @gid name the address @ss (a sockaddr_in or
 * sockaddr_in6, v4-mapped accepted)? */
bool rperf_limits_gid_is_addr(const uint8_t gid[16],
			      const struct sockaddr_storage *ss);

#endif
