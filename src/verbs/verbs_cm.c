/* SPDX-License-Identifier: BSD-2-Clause */
#include "verbs/verbs_cm.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>

#include "util/err.h"

static const uint8_t v4_mapped[12] = {
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff
};

int rperf_cm_gid_text(const uint8_t gid[16], char *buf, size_t len)
{
	if (memcmp(gid, v4_mapped, sizeof(v4_mapped)))
		return EAFNOSUPPORT;
	return inet_ntop(AF_INET, gid + 12, buf, (socklen_t)len) ? 0 : errno;
}

int rperf_cm_gid_ipv4(const struct rperf_dev *d, char *buf, size_t len)
{
	return d->gid_index < 0 ? EAFNOSUPPORT :
				  rperf_cm_gid_text(d->gid.raw, buf, len);
}

static int to_addr(const char *host, uint16_t port, struct sockaddr_storage *ss)
{
	struct addrinfo hints = { .ai_family = AF_INET }, *ai = NULL;
	char svc[8];

	snprintf(svc, sizeof(svc), "%u", port);
	if (getaddrinfo(host, svc, &hints, &ai) || !ai)
		return ENOENT;
	memcpy(ss, ai->ai_addr, ai->ai_addrlen);
	freeaddrinfo(ai);
	return 0;
}

/* Wait up to @timeout_ms for the next event; it must be @want. */
static int wait_event(struct rperf_cm *cm, enum rdma_cm_event_type want,
		      int timeout_ms, struct rdma_cm_id **id,
		      struct rdma_conn_param *param)
{
	struct pollfd pf = { .fd = cm->ch->fd, .events = POLLIN };
	struct rdma_cm_event *ev;
	int rc = 0;

	if (poll(&pf, 1, timeout_ms) <= 0)
		return ETIMEDOUT;
	if (rdma_get_cm_event(cm->ch, &ev))
		return errno ? errno : EIO;
	if (ev->event != want)
		rc = ev->event == RDMA_CM_EVENT_REJECTED    ? ECONNREFUSED :
		     ev->event == RDMA_CM_EVENT_UNREACHABLE ? EHOSTUNREACH :
							      EPROTO;
	if (!rc && id)
		*id = ev->id;
	if (!rc && param)
		*param = ev->param.conn;
	rdma_ack_cm_event(ev);
	return rc;
}

/* INIT (if needed), RTR, RTS from the CM's attributes, plus SL/tclass. */
static int cm_modify(struct rdma_cm_id *id, struct rperf_qp *qp,
		     const struct rperf_verbs_cfg *cfg)
{
	static const enum ibv_qp_state states[] = { IBV_QPS_RTR, IBV_QPS_RTS };
	struct ibv_qp_attr a;
	int mask;

	for (size_t i = 0; i < 2; i++) {
		memset(&a, 0, sizeof(a));
		a.qp_state = states[i];
		if (rdma_init_qp_attr(id, &a, &mask))
			return errno ? errno : EINVAL;
		if (states[i] == IBV_QPS_RTR) {
			a.ah_attr.sl = cfg->sl;
			if (a.ah_attr.is_global)
				a.ah_attr.grh.traffic_class = cfg->tclass;
			if (cfg->mtu && rperf_mtu_enum(cfg->mtu) < a.path_mtu)
				a.path_mtu = rperf_mtu_enum(cfg->mtu);
		} else {
			a.timeout = cfg->qp_timeout;
			a.retry_cnt = cfg->retry_count;
			a.rnr_retry = 7;
			mask |= IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT |
				IBV_QP_RNR_RETRY;
		}
		if (ibv_modify_qp(qp->qp, &a, mask))
			return errno ? errno : EINVAL;
	}
	return 0;
}

static int open_channel(struct rperf_cm *cm, struct rdma_cm_id **id)
{
	memset(cm, 0, sizeof(*cm));
	cm->ch = rdma_create_event_channel();
	if (!cm->ch)
		return errno ? errno : ENODEV;
	if (rdma_create_id(cm->ch, id, NULL, RDMA_PS_TCP))
		return errno ? errno : ENODEV;
	return 0;
}

int rperf_cm_listen(struct rperf_cm *cm, const char *addr, uint16_t port,
		    char *err, size_t errlen)
{
	struct sockaddr_storage ss;
	int rc = open_channel(cm, &cm->listen_id);

	if (!rc)
		rc = to_addr(addr, port, &ss);
	if (!rc && (rdma_bind_addr(cm->listen_id, (struct sockaddr *)&ss) ||
		    rdma_listen(cm->listen_id, 1)))
		rc = errno ? errno : EADDRINUSE;
	if (rc)
		snprintf(err, errlen,
			 "rdma_cm: cannot listen on %s port %u: %s", addr, port,
			 strerror(rc));
	return rc;
}

int rperf_cm_source(const struct rperf_dev *d, const char *override, char *buf,
		    size_t len, char *err, size_t errlen)
{
	if (override) {
		snprintf(buf, len, "%s", override);
		return 0;
	}
	if (rperf_cm_gid_ipv4(d, buf, len))
		return rperf_fail(
			err, errlen, EAFNOSUPPORT,
			"-R: %s has no IPv4 GID to bind rdma_cm to; accepted: a RoCE port with an IPv4 address (-x), or -z/--source_ip",
			d->name);
	return 0;
}

int rperf_cm_listen_dev(struct rperf_cm *cm, const struct rperf_dev *d,
			uint16_t port, char *err, size_t errlen)
{
	char addr[INET_ADDRSTRLEN];

	if (rperf_cm_gid_ipv4(d, addr, sizeof(addr)))
		return rperf_fail(
			err, errlen, EAFNOSUPPORT,
			"-R: %s has no IPv4 GID to listen on with rdma_cm",
			d->name);
	return rperf_cm_listen(cm, addr, port, err, errlen);
}

/* What both ends send: one READ/atomic in flight each way, RNR retry 7
 * (without end). */
static struct rdma_conn_param conn_param(const struct rperf_qp *qp)
{
	return (struct rdma_conn_param){ .qp_num = qp->qp->qp_num,
					 .responder_resources = 1,
					 .initiator_depth = 1,
					 .rnr_retry_count = 7 };
}

int rperf_cm_accept_on(struct rperf_cm *lis, struct rperf_cm *conn,
		       struct rperf_qp *qp, const struct rperf_verbs_cfg *cfg,
		       int timeout_ms, char *err, size_t errlen)
{
	struct rdma_conn_param p = conn_param(qp);
	int rc;

	rc = wait_event(lis, RDMA_CM_EVENT_CONNECT_REQUEST, timeout_ms,
			&conn->id, NULL);
	if (!rc)
		rc = cm_modify(conn->id, qp, cfg);
	if (!rc && rdma_accept(conn->id, &p))
		rc = errno ? errno : EIO;
	if (!rc)
		rc = wait_event(lis, RDMA_CM_EVENT_ESTABLISHED, timeout_ms,
				NULL, NULL);
	if (rc)
		snprintf(err, errlen, "rdma_cm: accepting the connection: %s",
			 strerror(rc));
	return rc;
}

/* The route's type of service (-T/--tos): the CM's own packets carry it. */
static int set_tos(struct rdma_cm_id *id, uint8_t tos)
{
	if (!tos)
		return 0;
	return rdma_set_option(id, RDMA_OPTION_ID, RDMA_OPTION_ID_TOS, &tos,
			       sizeof(tos)) ?
		       errno :
		       0;
}

static int resolve(struct rperf_cm *cm, const char *src, const char *dst,
		   uint16_t port, int timeout_ms, uint8_t tos)
{
	struct sockaddr_storage s, d;
	int rc = to_addr(src, 0, &s);

	if (!rc)
		rc = to_addr(dst, port, &d);
	if (!rc && rdma_resolve_addr(cm->id, (struct sockaddr *)&s,
				     (struct sockaddr *)&d, timeout_ms))
		rc = errno ? errno : EHOSTUNREACH;
	if (!rc)
		rc = wait_event(cm, RDMA_CM_EVENT_ADDR_RESOLVED, timeout_ms,
				NULL, NULL);
	if (!rc)
		rc = set_tos(cm->id, tos);
	if (!rc && rdma_resolve_route(cm->id, timeout_ms))
		rc = errno ? errno : EHOSTUNREACH;
	if (!rc)
		rc = wait_event(cm, RDMA_CM_EVENT_ROUTE_RESOLVED, timeout_ms,
				NULL, NULL);
	return rc;
}

int rperf_cm_connect(struct rperf_cm *cm, struct rperf_qp *qp,
		     const struct rperf_verbs_cfg *cfg, const char *src,
		     const char *dst, uint16_t port, int timeout_ms, char *err,
		     size_t errlen)
{
	struct rdma_conn_param p = conn_param(qp);
	int rc = open_channel(cm, &cm->id);

	if (!rc)
		rc = resolve(cm, src, dst, port, timeout_ms, cfg->tclass);
	p.retry_count = cfg->retry_count;
	if (!rc && rdma_connect(cm->id, &p))
		rc = errno ? errno : EIO;
	if (!rc)
		rc = wait_event(cm, RDMA_CM_EVENT_CONNECT_RESPONSE, timeout_ms,
				NULL, NULL);
	if (!rc)
		rc = cm_modify(cm->id, qp, cfg);
	if (!rc && rdma_establish(cm->id))
		rc = errno ? errno : EIO;
	if (rc)
		snprintf(err, errlen,
			 "rdma_cm: connecting from %s to %s port %u: %s", src,
			 dst, port, strerror(rc));
	return rc;
}

void rperf_cm_close(struct rperf_cm *cm)
{
	if (cm->id) {
		rdma_disconnect(cm->id);
		rdma_destroy_id(cm->id);
	}
	if (cm->listen_id)
		rdma_destroy_id(cm->listen_id);
	if (cm->ch)
		rdma_destroy_event_channel(cm->ch);
	memset(cm, 0, sizeof(*cm));
}
