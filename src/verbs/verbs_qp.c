/* SPDX-License-Identifier: BSD-2-Clause */
/* Buffers, RC QPs and their connection. */
#include "verbs/verbs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* Huge pages of 1 << @shift bytes covering @len; NULL if none are free. */
static void *map_huge(size_t len, int shift, size_t *map_len)
{
	size_t page = (size_t)1 << shift;
	void *p;

	*map_len = (len + page - 1) / page * page;
	p = mmap(NULL, *map_len, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB |
			 (shift << MAP_HUGE_SHIFT),
		 -1, 0);
	if (p == MAP_FAILED) {
		*map_len = 0;
		return NULL;
	}
	return p;
}

/*
 * Buffers: huge pages when asked (falling back to normal pages with a
 * note in d->buf_note), pre-touched (so first-touch places them on the
 * thread's memory policy node) and locked before anything is measured.
 */
int rperf_buf_alloc(struct rperf_dev *d, size_t len, int access,
		    struct rperf_buf *out)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t alloc = (len + (size_t)page - 1) / (size_t)page * (size_t)page;
	int rc;

	memset(out, 0, sizeof(*out));
	alloc = alloc ? alloc : (size_t)page;
	if (d->huge_shift)
		out->addr = map_huge(alloc, d->huge_shift, &out->map_len);
	if (d->huge_shift && !out->addr && !d->buf_note[0])
		snprintf(
			d->buf_note, sizeof(d->buf_note),
			"no free %s huge pages (see /proc/sys/vm/nr_hugepages): normal pages used",
			d->huge_shift == 30 ? "1G" : "2M");
	if (out->map_len) {
		alloc = out->map_len;
	} else {
		rc = posix_memalign(&out->addr, (size_t)page, alloc);
		if (rc)
			return rc;
	}
	memset(out->addr, 0, alloc);
	if (mlock(out->addr, alloc) == 0)
		out->lock_len = alloc;
	else if (!d->buf_note[0])
		snprintf(d->buf_note, sizeof(d->buf_note),
			 "buffers not locked (mlock: %s; raise RLIMIT_MEMLOCK)",
			 strerror(errno));
	out->len = len;
	out->access = access;
	out->mr = ibv_reg_mr(d->pd, out->addr, alloc, access);
	if (!out->mr) {
		rc = errno ? errno : ENOMEM;
		rperf_buf_free(out);
		return rc;
	}
	return 0;
}

void rperf_buf_free(struct rperf_buf *b)
{
	if (b->mr)
		ibv_dereg_mr(b->mr);
	if (b->lock_len)
		munlock(b->addr, b->lock_len);
	if (b->map_len)
		munmap(b->addr, b->map_len);
	else
		free(b->addr);
	memset(b, 0, sizeof(*b));
}

/* A send CQ whose completions carry the NIC's timestamp. */
static struct ibv_cq *create_ts_cq(struct rperf_dev *d,
				   const struct rperf_qp_cfg *cfg,
				   struct rperf_qp *q)
{
	struct ibv_cq_init_attr_ex a = {
		.cqe = cfg->send_depth,
		.channel = cfg->send_events ? q->channel : NULL,
		.wc_flags = IBV_WC_EX_WITH_COMPLETION_TIMESTAMP,
	};

	q->send_cq_ex = ibv_create_cq_ex(d->ctx, &a);
	return q->send_cq_ex ? ibv_cq_ex_to_cq(q->send_cq_ex) : NULL;
}

static int create_cqs(struct rperf_dev *d, const struct rperf_qp_cfg *cfg,
		      struct rperf_qp *q)
{
	if ((cfg->recv_events || cfg->send_events) && cfg->channel) {
		q->channel = cfg->channel;
	} else if (cfg->recv_events || cfg->send_events) {
		int rc = rperf_channel_open(d, &q->channel);

		if (rc)
			return rc;
		q->own_channel = true;
	}
	if (cfg->send_ts)
		q->send_cq = create_ts_cq(d, cfg, q);
	else
		q->send_cq = ibv_create_cq(d->ctx, (int)cfg->send_depth, NULL,
					   cfg->send_events ? q->channel : NULL,
					   0);
	if (!q->send_cq)
		return errno ? errno : ENOMEM;
	if (cfg->send_events && ibv_req_notify_cq(q->send_cq, 0))
		return errno ? errno : EIO;
	q->recv_cq = ibv_create_cq(d->ctx, (int)cfg->recv_depth, NULL,
				   cfg->recv_events ? q->channel : NULL, 0);
	if (!q->recv_cq)
		return errno ? errno : ENOMEM;
	if (cfg->recv_events && ibv_req_notify_cq(q->recv_cq, 0))
		return errno ? errno : EIO;
	return 0;
}

int rperf_qp_create(struct rperf_dev *d, const struct rperf_qp_cfg *cfg,
		    struct rperf_qp **out)
{
	struct ibv_qp_init_attr ia = { 0 };
	struct ibv_qp_attr a = { 0 };
	struct rperf_qp *q = calloc(1, sizeof(*q));
	int rc;

	if (!q)
		return ENOMEM;
	rc = create_cqs(d, cfg, q);
	if (rc)
		goto destroy;
	ia.send_cq = q->send_cq;
	ia.recv_cq = q->recv_cq;
	ia.qp_type = IBV_QPT_RC;
	ia.cap.max_send_wr = cfg->send_depth;
	ia.cap.max_recv_wr = cfg->recv_depth;
	ia.cap.max_send_sge = 1;
	ia.cap.max_recv_sge = 1;
	ia.cap.max_inline_data = cfg->inline_size;
	q->qp = ibv_create_qp(d->pd, &ia);
	if (!q->qp) {
		rc = errno ? errno : ENOMEM;
		goto destroy;
	}
	q->max_inline = ia.cap.max_inline_data;
	q->psn = (uint32_t)lrand48() & 0xffffff;
	a.qp_state = IBV_QPS_INIT;
	a.pkey_index = 0;
	a.port_num = (uint8_t)d->port;
	a.qp_access_flags = (unsigned int)cfg->access; /* 0: SENDs only */
	if (ibv_modify_qp(q->qp, &a,
			  IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
				  IBV_QP_ACCESS_FLAGS)) {
		rc = errno ? errno : EIO;
		goto destroy;
	}
	*out = q;
	return 0;
destroy:
	rperf_qp_destroy(q);
	return rc;
}

void rperf_qp_destroy(struct rperf_qp *q)
{
	if (!q)
		return;
	if (q->qp)
		ibv_destroy_qp(q->qp);
	if (q->send_cq)
		ibv_destroy_cq(q->send_cq);
	if (q->recv_cq)
		ibv_destroy_cq(q->recv_cq);
	if (q->channel && q->own_channel)
		ibv_destroy_comp_channel(q->channel);
	free(q);
}

void rperf_qp_endpoint(const struct rperf_dev *d, const struct rperf_qp *qp,
		       int mtu, struct rperf_endpoint *ep)
{
	memset(ep, 0, sizeof(*ep));
	ep->qpn = qp->qp->qp_num;
	ep->psn = qp->psn;
	ep->lid = d->port_attr.lid;
	if (d->gid_index >= 0)
		memcpy(ep->gid, d->gid.raw, sizeof(ep->gid));
	ep->mtu = mtu ? mtu : rperf_port_mtu(d);
}

static void fill_ah(struct ibv_ah_attr *ah, const struct rperf_dev *d,
		    const struct rperf_verbs_cfg *cfg,
		    const struct rperf_endpoint *r)
{
	static const uint8_t zero[16];

	ah->dlid = r->lid;
	ah->sl = cfg->sl;
	ah->port_num = (uint8_t)d->port;
	if (d->gid_index >= 0 && memcmp(r->gid, zero, sizeof(zero))) {
		ah->is_global = 1;
		memcpy(ah->grh.dgid.raw, r->gid, sizeof(r->gid));
		ah->grh.sgid_index = (uint8_t)d->gid_index;
		ah->grh.hop_limit = 64;
		ah->grh.traffic_class = cfg->tclass;
	}
}

/* READs and atomics outstanding per QP (both directions): the device's
 * limit, at most 16 (what common HCAs take; perftest uses the device's). */
static uint8_t rd_atomic(int dev_max)
{
	return (uint8_t)(dev_max < 1 ? 1 : dev_max > 16 ? 16 : dev_max);
}

bool rperf_endpoint_is_local(const struct rperf_dev *d,
			     const struct rperf_endpoint *ep)
{
	static const uint8_t zero[16];

	if (d->gid_index >= 0)
		return memcmp(d->gid.raw, zero, 16) &&
		       !memcmp(d->gid.raw, ep->gid, 16);
	return ep->lid && ep->lid == d->port_attr.lid;
}

int rperf_qp_connect(struct rperf_qp *qp, const struct rperf_dev *d,
		     const struct rperf_verbs_cfg *cfg,
		     const struct rperf_endpoint *remote, char *err,
		     size_t errlen)
{
	int local_mtu = cfg->mtu ? cfg->mtu : rperf_port_mtu(d);
	int mtu = remote->mtu < local_mtu ? remote->mtu : local_mtu;
	struct ibv_qp_attr a = { 0 };

	a.qp_state = IBV_QPS_RTR;
	a.path_mtu = rperf_mtu_enum(mtu);
	a.dest_qp_num = remote->qpn;
	a.rq_psn = remote->psn;
	a.max_dest_rd_atomic = rd_atomic(d->attr.max_qp_rd_atom);
	a.min_rnr_timer = 12;
	fill_ah(&a.ah_attr, d, cfg, remote);
	if (!a.path_mtu ||
	    ibv_modify_qp(qp->qp, &a,
			  IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU |
				  IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
				  IBV_QP_MAX_DEST_RD_ATOMIC |
				  IBV_QP_MIN_RNR_TIMER)) {
		snprintf(err, errlen, "%s: QP to RTR failed (%s; path MTU %d)",
			 d->name, strerror(errno ? errno : EINVAL), mtu);
		return errno ? errno : EINVAL;
	}
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	a.timeout = cfg->qp_timeout;
	a.retry_cnt = cfg->retry_count;
	a.rnr_retry = 7; /* receives are kept posted; never give up on RNR */
	a.sq_psn = qp->psn;
	a.max_rd_atomic = rd_atomic(d->attr.max_qp_init_rd_atom);
	if (ibv_modify_qp(qp->qp, &a,
			  IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT |
				  IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN |
				  IBV_QP_MAX_QP_RD_ATOMIC)) {
		snprintf(err, errlen, "%s: QP to RTS failed (%s)", d->name,
			 strerror(errno ? errno : EINVAL));
		return errno ? errno : EINVAL;
	}
	return 0;
}

int rperf_qp_connect_pair(struct rperf_qp *a, struct rperf_qp *b,
			  const struct rperf_dev *d,
			  const struct rperf_verbs_cfg *cfg, char *err,
			  size_t errlen)
{
	struct rperf_endpoint ea, eb;
	int rc;

	rperf_qp_endpoint(d, a, cfg->mtu, &ea);
	rperf_qp_endpoint(d, b, cfg->mtu, &eb);
	rc = rperf_qp_connect(a, d, cfg, &eb, err, errlen);
	if (!rc)
		rc = rperf_qp_connect(b, d, cfg, &ea, err, errlen);
	return rc;
}

int rperf_post_recvs(struct rperf_qp *qp, const struct rperf_buf *buf,
		     size_t len, unsigned int n)
{
	struct ibv_sge sge = { .addr = (uintptr_t)buf->addr,
			       .length = (uint32_t)len,
			       .lkey = buf->mr->lkey };
	struct ibv_recv_wr wr = { .sg_list = &sge, .num_sge = 1 }, *bad;

	for (unsigned int i = 0; i < n; i++) {
		wr.wr_id = i;
		if (ibv_post_recv(qp->qp, &wr, &bad))
			return errno ? errno : EIO;
	}
	return 0;
}

uint64_t rperf_rc_stall_ns(unsigned int qp_timeout, unsigned int retry_count)
{
	double t = 4096.0 * (double)(1ull << (qp_timeout & 31)) *
		   (double)(retry_count + 1) * 4;

	return t > 5e9 ? (uint64_t)t : 5000000000ull;
}
