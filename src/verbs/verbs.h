/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Thin verbs layer: open a device/port and choose a GID, register page-aligned
 * buffers, create RC QPs and connect them (to a peer or to each other for the
 * loopback pair). Errors come back as errno values with a one-line message.
 */
#ifndef RPERF_VERBS_H
#define RPERF_VERBS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <infiniband/verbs.h>

struct rperf_verbs_cfg {
	const char *dev_name; /* NULL or "": first device with an active port */
	int ib_port;
	int gid_index; /* -1: automatic */
	bool ipv6; /* automatic choice prefers IPv6 GIDs */
	int mtu; /* bytes; 0: the port's active MTU */
	uint32_t inline_size;
	uint8_t qp_timeout;
	uint8_t retry_count;
	uint8_t sl;
	uint8_t tclass;
	int huge_shift; /* buffers in pages of 1 << huge_shift (21, 30); 0 no */
};

struct rperf_dev {
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_device_attr attr;
	struct ibv_port_attr port_attr;
	int port;
	int gid_index; /* -1: none (IB without GRH) */
	union ibv_gid gid;
	bool roce;
	char name[64];
	int huge_shift; /* from rperf_verbs_cfg */
	char buf_note[192]; /* hugepage fallback / mlock failure, "" if none */
};

/* Connection facts one QP needs about the other. */
struct rperf_endpoint {
	uint32_t qpn;
	uint32_t psn;
	uint16_t lid;
	uint8_t gid[16];
	int mtu; /* bytes */
};

struct rperf_buf {
	void *addr;
	size_t len;
	struct ibv_mr *mr;
	size_t map_len; /* > 0: mmap()ed huge pages of this length */
	size_t lock_len; /* > 0: mlock()ed */
	int access; /* the MR's IBV_ACCESS_* flags */
};

struct rperf_qp {
	struct ibv_qp *qp;
	struct ibv_cq *send_cq;
	struct ibv_cq *recv_cq;
	/* completion events: the recv CQ with recv_events, the send CQ with
	 * send_events (one channel for both); NULL without either */
	struct ibv_comp_channel *channel;
	bool own_channel; /* created for this QP (else rperf_qp_cfg's) */
	/* with send_ts: the send CQ as created (ibv_create_cq_ex with
	 * completion timestamps; send_cq is its ibv_cq); NULL otherwise */
	struct ibv_cq_ex *send_cq_ex;
	uint32_t psn;
	uint32_t max_inline;
};

struct rperf_qp_cfg {
	uint32_t send_depth;
	uint32_t recv_depth;
	uint32_t inline_size;
	bool recv_events; /* a completion channel for the recv CQ */
	bool send_events; /* ... and/or for the send CQ */
	/* with recv_events/send_events: a channel shared by many QPs
	 * (rperf_channel_open, not owned); NULL: the QP gets its own */
	struct ibv_comp_channel *channel;
	bool send_ts; /* send CQ with NIC completion timestamps */
	int access; /* qp_access_flags (IBV_ACCESS_REMOTE_WRITE...); 0: SENDs */
};

/*
 * The name of the device rperf_dev_open would open for @want (NULL or "": the
 * first one), without opening it. 0, or ENODEV / the listing's errno.
 */
int rperf_dev_resolve_name(const char *want, char *out, size_t len);
int rperf_dev_open(const struct rperf_verbs_cfg *cfg, struct rperf_dev **out,
		   char *err, size_t errlen);
void rperf_dev_close(struct rperf_dev *d);

int rperf_buf_alloc(struct rperf_dev *d, size_t len, int access,
		    struct rperf_buf *out);
void rperf_buf_free(struct rperf_buf *b);

int rperf_qp_create(struct rperf_dev *d, const struct rperf_qp_cfg *cfg,
		    struct rperf_qp **out);
void rperf_qp_destroy(struct rperf_qp *qp);
void rperf_qp_endpoint(const struct rperf_dev *d, const struct rperf_qp *qp,
		       int mtu, struct rperf_endpoint *ep);
/* INIT -> RTR -> RTS towards @remote. */
int rperf_qp_connect(struct rperf_qp *qp, const struct rperf_dev *d,
		     const struct rperf_verbs_cfg *cfg,
		     const struct rperf_endpoint *remote, char *err,
		     size_t errlen);
/* A peer's endpoint that is @d's own port (same GID, or same LID without
 * a GRH): a client and server on one device and port measure a loopback
 * inside the device, not a wire. is_local: whether it is; check_remote:
 * EINVAL with @err naming the device (and -d, the fix), else 0. (Two
 * ports of one HCA have different GIDs: a legitimate path.) */
bool rperf_endpoint_is_local(const struct rperf_dev *d,
			     const struct rperf_endpoint *ep);
/* Connect two QPs of @d to each other (the LSG's loopback pair). */
int rperf_qp_connect_pair(struct rperf_qp *a, struct rperf_qp *b,
			  const struct rperf_dev *d,
			  const struct rperf_verbs_cfg *cfg, char *err,
			  size_t errlen);

/* A completion channel for many CQs (its fd non-blocking). 0 or errno. */
int rperf_channel_open(struct rperf_dev *d, struct ibv_comp_channel **out);
void rperf_channel_close(struct ibv_comp_channel *ch); /* NULL: nothing */
/*
 * Take every pending event of @ch (never blocks), acknowledging each; with
 * @rearm >= 0 re-arm the event's CQ (solicited only when 1). *n: events
 * taken. 0 or EIO (re-arming failed or the channel broke).
 */
int rperf_channel_take(struct ibv_comp_channel *ch, int rearm, unsigned int *n);

/* Post @n receives of @len bytes from @buf (all into the same buffer). */
int rperf_post_recvs(struct rperf_qp *qp, const struct rperf_buf *buf,
		     size_t len, unsigned int n);

/*
 * How long a waiting generator tolerates no progress before it declares the
 * peer or the path stalled: four times what RC takes to give up (retry_count
 * + 1 timeouts of 4.096 us * 2^qp_timeout), at least 5 s.
 */
uint64_t rperf_rc_stall_ns(unsigned int qp_timeout, unsigned int retry_count);

/* The HCA's completion-timestamp clock. */
struct rperf_dev_ts {
	double hz; /* hca_core_clock (kHz) * 1000 */
	uint64_t mask; /* completion_timestamp_mask: the counter's width */
	double measured_hz; /* the raw clock against CLOCK_MONOTONIC_RAW; 0 if
			     * the provider cannot read it */
	double check_ppm; /* measured vs hca_core_clock; 0 when not measured */
};

/*
 * Frequency and width of @d's completion timestamps, cross-checked over
 * @window_ms (0: no check). ENOTSUP with @err naming the device when it has
 * none (Soft-RoCE).
 */
int rperf_dev_query_ts(struct rperf_dev *d, double window_ms,
		       struct rperf_dev_ts *out, char *err, size_t errlen);

/* Port's active MTU in bytes; an IBV_MTU_* for a byte count (0 if invalid). */
int rperf_port_mtu(const struct rperf_dev *d);
enum ibv_mtu rperf_mtu_enum(int bytes);

#endif
