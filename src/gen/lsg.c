/* SPDX-License-Identifier: BSD-2-Clause */
#include "gen/lsg_priv.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/gen.h"
#include "gen/dev_ops.h"
#include "gen/nic_ts.h"

/* What each CQ waits for, by --verb (write_imm is no latency verb). */
static const char *const cq_names[][3] = {
	{ "wire SEND", "loopback SEND", "reply" },
	{ "wire WRITE", "loopback WRITE", "reply WRITE" },
	{ "wire WRITE", "loopback WRITE", "reply" },
	{ "wire READ", "loopback READ", "reply" },
	{ "wire atomic", "loopback atomic", "reply" },
};

_Static_assert(sizeof(cq_names) / sizeof(cq_names[0]) == RPERF_VERB_COUNT,
	       "one row of completion names per verb");

/* @verb's row of cq_names under @method */
static int cq_row(int method, int verb)
{
	/* postpoll's SEND verb posts WRITEs */
	if (verb == RPERF_VERB_SEND && method == RPERF_METHOD_POSTPOLL)
		verb = RPERF_VERB_WRITE;
	return verb >= 0 && verb < RPERF_VERB_COUNT ? verb : 0;
}

const char *lsg_cq_name(const struct lsg_run *r, int k)
{
	return cq_names[cq_row(r->cfg->method, r->cfg->verb)][k];
}

const char *rperf_lsg_op_name(int method, int verb)
{
	return cq_names[cq_row(method, verb)][WIRE] + strlen("wire ");
}

int lsg_fail(struct lsg_run *r, int rc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->res->error, sizeof(r->res->error), fmt, ap);
	va_end(ap);
	return rc;
}

/* The operation QP @k posts: SEND, or --verb's (postpoll: WRITE at least). */
static enum ibv_wr_opcode opcode(const struct lsg_run *r, int k)
{
	const struct rperf_lsg_cfg *c = r->cfg;

	if (c->verb == RPERF_VERB_WRITE)
		return IBV_WR_RDMA_WRITE;
	if (k != WIRE || c->method != RPERF_METHOD_POSTPOLL)
		return IBV_WR_SEND;
	if (c->verb == RPERF_VERB_ATOMIC &&
	    c->atomic_op == RPERF_ATOMIC_CMP_SWAP)
		return IBV_WR_ATOMIC_CMP_AND_SWP;
	if (rperf_verb_consumes_recv(c->verb)) /* no receive is posted */
		return IBV_WR_RDMA_WRITE;
	return (enum ibv_wr_opcode)rperf_verb_of(c->verb)->opcode;
}

/* Where QP @k's one-sided operation goes. */
static void target(const struct lsg_run *r, int k, struct ibv_send_wr *wr)
{
	const struct rperf_lsg_cfg *c = r->cfg;
	const struct rperf_buf *lb = r->qps->loop_rx_buf;
	uint64_t addr = k == LOOP ? (uintptr_t)lb->addr : c->remote_addr;
	uint32_t rkey = k == LOOP ? lb->mr->rkey : c->rkey;

	if (wr->opcode == IBV_WR_ATOMIC_CMP_AND_SWP ||
	    wr->opcode == IBV_WR_ATOMIC_FETCH_AND_ADD) {
		wr->wr.atomic.remote_addr = addr;
		wr->wr.atomic.rkey = rkey;
		wr->wr.atomic.compare_add = 1; /* adds 1; CAS: rarely equal */
		wr->wr.atomic.swap = 1;
		return;
	}
	if (r->wpp) /* every size ends at the peer buffer's last byte */
		addr += c->remote_size - c->size;
	wr->wr.rdma.remote_addr = addr;
	wr->wr.rdma.rkey = rkey;
}

static int post_send(struct lsg_run *r, int k)
{
	struct ibv_send_wr wr = { .wr_id = (uint64_t)k,
				  .sg_list = &r->sge,
				  .num_sge = 1,
				  .opcode = opcode(r, k),
				  .send_flags = IBV_SEND_SIGNALED },
			   *bad;

	/* the server sleeps on solicited events: wake it to refill */
	if (k == WIRE && wr.opcode == IBV_WR_SEND && r->cfg->solicit_every &&
	    ++r->wire_posts % r->cfg->solicit_every == 0)
		wr.send_flags |= IBV_SEND_SOLICITED;
	if (wr.opcode != IBV_WR_SEND)
		target(r, k, &wr);
	if (r->inl[k] && wr.opcode != IBV_WR_RDMA_READ &&
	    wr.opcode != IBV_WR_ATOMIC_CMP_AND_SWP &&
	    wr.opcode != IBV_WR_ATOMIC_FETCH_AND_ADD)
		wr.send_flags |= IBV_SEND_INLINE;
	return gen_post_send(&r->dev, r->qp[k], &wr, &bad);
}

int lsg_post_stamped(struct lsg_run *r, struct sample *s, int k)
{
	int rc;

	s->tp[k] = gen_clock_start(&r->dev);
	rc = post_send(r, k);
	if (r->cfg->breakdown)
		s->tpe[k] = gen_clock_end(&r->dev);
	if (rc)
		return lsg_fail(r, rc, "ibv_post_send on the %s QP failed",
				k == WIRE ? "wire" : "loopback");
	return 0;
}

/* pingpong write: the peer's reply has landed when its last byte says so */
static int poll_reply_byte(struct lsg_run *r, struct sample *s)
{
	if (gen_read_u8(&r->dev, r->reply_byte) != r->want)
		return 0;
	s->tc[REPLY] = gen_clock_end(&r->dev);
	s->done[REPLY] = true;
	return 1;
}

/*
 * Poll @k's CQ once; a completion is stamped when the poll that returns it
 * returns (and, with NIC timestamps, its NIC stamp kept). 1 done, 0 not,
 * <0 a negative errno.
 */
int lsg_poll_once(struct lsg_run *r, struct sample *s, int k)
{
	struct ibv_wc wc;
	int n;

	if (k == REPLY && r->wpp)
		return poll_reply_byte(r, s);
	n = r->cqx[k] ? gen_poll_ts(&r->dev, r->cqx[k], &wc, &s->tn[k]) :
			gen_poll_cq(&r->dev, r->cq[k], 1, &wc);
	if (n <= 0)
		return n < 0 ? -EIO : 0;
	s->tc[k] = gen_clock_end(&r->dev);
	s->done[k] = true;
	if (wc.status != IBV_WC_SUCCESS) {
		snprintf(
			r->res->error, sizeof(r->res->error),
			"%s completed with status '%s' (peer gone or path broken)",
			lsg_cq_name(r, k), ibv_wc_status_str(wc.status));
		return -EIO;
	}
	return 1;
}

static int post_and_peek(struct lsg_run *r, struct sample *s, int k)
{
	int rc;

	rc = lsg_post_stamped(r, s, k);
	if (rc)
		return rc;
	rc = lsg_poll_once(r, s, k);
	if (rc < 0)
		return -rc;
	s->pre[k] = rc == 1;
	return 0;
}

/* The peer says nothing during a run: a readable control socket means it
 * sent an error or went away. */
bool lsg_peer_gone(const struct lsg_run *r)
{
	struct pollfd pf = { .fd = r->cfg->peer_fd, .events = POLLIN };

	return r->cfg->peer_fd >= 0 && poll(&pf, 1, 0) > 0;
}

/* Every few thousand empty passes: stop flag, peer, stall limit. */
static int check_waiting(struct lsg_run *r, const struct sample *s,
			 unsigned int left)
{
	int k = (left & 1u << WIRE) ? WIRE : (left & 1u << LOOP) ? LOOP : REPLY;
	uint64_t t0 = k == REPLY ? s->tp[WIRE] : s->tp[k];

	if (*r->cfg->stop)
		return lsg_fail(r, EINTR, "%s", "interrupted");
	if (lsg_peer_gone(r))
		return lsg_fail(
			r, ECONNRESET, "%s",
			"the peer closed the control connection mid-run");
	if (gen_clock_end(&r->dev) - t0 > r->stall_ticks)
		return lsg_fail(r, ETIMEDOUT,
				"a %s did not complete within the stall limit",
				lsg_cq_name(r, k));
	return 0;
}

/*
 * Poll every CQ of @want (a mask of 1 << WIRE, LOOP, REPLY) in one loop
 * until all have completed: each pass polls each pending CQ once, so a
 * completion is stamped at most one pass after it arrived, whichever CQ
 * it is on (never left sitting while another CQ is waited on).
 */
static int wait_all(struct lsg_run *r, struct sample *s, unsigned int want)
{
	uint64_t spins = 0;
	unsigned int left;
	int rc, got;

	for (;;) {
		left = 0;
		got = 0;
		for (int k = WIRE; k <= REPLY; k++) {
			if (!(want & 1u << k) || s->done[k])
				continue;
			rc = lsg_poll_once(r, s, k);
			if (rc < 0)
				return -rc;
			got |= rc;
			left |= rc ? 0 : 1u << k;
		}
		if (!left)
			return 0;
		if (r->cfg->yield && !got)
			sched_yield();
		if (++spins % 4096 == 0) {
			rc = check_waiting(r, s, left);
			if (rc)
				return rc;
		}
	}
}

/* pingpong: SEND, wait for the peer's reply; postpoll: WRITE, poll it. */
static int compare_sample(struct lsg_run *r, struct sample *s)
{
	bool pp = r->cfg->method == RPERF_METHOD_PINGPONG;
	int rc;

	if (r->wpp) { /* the next sequence byte, 1..255 (0: never written) */
		r->want = (uint8_t)(*r->cfg->wseq % 255 + 1);
		*r->cfg->wseq = r->want;
		((volatile uint8_t *)r->qps->send_buf->addr)[r->cfg->size - 1] =
			r->want;
	}
	rc = post_and_peek(r, s, WIRE);
	/* the reply and the SEND's own completion race: poll both */
	if (!rc)
		rc = wait_all(r, s, 1u << WIRE | (pp ? 1u << REPLY : 0));
	if (!rc && r->cfg->method == RPERF_METHOD_PINGPONG && !r->wpp &&
	    rperf_gen_post_recvs(&r->dev, r->qps->wire, r->qps->wire_rx_buf,
				 r->qps->wire_rx_buf->len, 1))
		rc = lsg_fail(r, EIO, "%s", "reposting a reply receive failed");
	return rc;
}

static int one_sample(struct lsg_run *r, struct sample *s, uint64_t i)
{
	int order = r->cfg->pair_order, first, rc;

	memset(s, 0, sizeof(*s));
	if (r->cfg->method != RPERF_METHOD_RPERF)
		return compare_sample(r, s);
	if (order == RPERF_PAIR_SEQUENTIAL) {
		rc = post_and_peek(r, s, WIRE);
		if (!rc)
			rc = wait_all(r, s, 1u << WIRE);
		if (!rc)
			rc = post_and_peek(r, s, LOOP);
		return rc ? rc : wait_all(r, s, 1u << LOOP);
	}
	first = order == RPERF_PAIR_LOOP_FIRST ? LOOP :
		order == RPERF_PAIR_WIRE_FIRST ? WIRE :
						 (int)(i & 1);
	rc = post_and_peek(r, s, first);
	if (!rc)
		rc = post_and_peek(r, s, !first);
	return rc ? rc : wait_all(r, s, 1u << WIRE | 1u << LOOP);
}

/* Keep the loopback receiver's queue full, off the timed path. */
int lsg_refill_loop_rx(struct lsg_run *r)
{
	struct ibv_wc wc[16];
	int n, rc;

	while ((n = gen_poll_cq(&r->dev, r->qps->loop_rx->recv_cq, 16, wc)) >
	       0) {
		for (int j = 0; j < n; j++)
			if (wc[j].status != IBV_WC_SUCCESS)
				return lsg_fail(
					r, EIO, "loopback receive failed: %s",
					ibv_wc_status_str(wc[j].status));
		/* the whole buffer: a later, larger size (-a, --sizes) must
		 * fit every receive still posted from this one */
		rc = rperf_gen_post_recvs(&r->dev, r->qps->loop_rx,
					  r->qps->loop_rx_buf,
					  r->qps->loop_rx_buf->len,
					  (unsigned int)n);
		if (rc)
			return lsg_fail(r, rc, "%s",
					"reposting loopback receives failed");
	}
	return n < 0 ? lsg_fail(r, EIO, "%s", "polling the loopback receiver") :
		       0;
}

/* Keep one raw sample; grows the array outside the timed part. */
static int keep_raw(struct lsg_run *r, int64_t w, int64_t l, int64_t rtt)
{
	struct rperf_lsg_res *res = r->res;

	if (res->nraw == res->raw_cap) {
		size_t cap = res->raw_cap ? res->raw_cap * 2 : 65536;
		void *p = realloc(res->raw, cap * sizeof(*res->raw));

		if (!p)
			return lsg_fail(
				r, ENOMEM, "%s",
				"out of memory keeping samples for --raw");
		res->raw = p;
		res->raw_cap = cap;
	}
	res->raw[res->nraw++] = (struct rperf_raw_sample){
		.wire_ns = w, .loop_ns = l, .rtt_ns = rtt, .size = r->cfg->size
	};
	return 0;
}

/* pingpong and postpoll: one figure per sample (no loopback) */
static int record_compare(struct lsg_run *r, const struct sample *s)
{
	const struct rperf_clock *clk = r->cfg->clk;
	int end = r->cfg->method == RPERF_METHOD_PINGPONG ? REPLY : WIRE;
	int64_t t = lsg_delta_ns(clk, s->tp[WIRE], s->tc[end]);

	rperf_hist_record(r->res->rtt, t);
	if (r->res->half)
		rperf_hist_record(r->res->half, t / 2);
	if (r->cfg->breakdown)
		rperf_hist_record(r->res->post_wire,
				  lsg_delta_ns(clk, s->tp[WIRE], s->tpe[WIRE]));
	r->res->samples++;
	r->res->nonpositive += t <= 0;
	r->res->precompleted += s->pre[WIRE];
	if (lsg_series_add(r, s->tp[WIRE], t))
		return ENOMEM;
	return r->cfg->keep_raw ? keep_raw(r, t, 0, t) : 0;
}

int lsg_record(struct lsg_run *r, const struct sample *s)
{
	const struct rperf_clock *clk = r->cfg->clk;
	int64_t w = lsg_delta_ns(clk, s->tp[WIRE], s->tc[WIRE]);
	int64_t l = lsg_delta_ns(clk, s->tp[LOOP], s->tc[LOOP]);
	int64_t rtt = w - l;

	if (r->cfg->method != RPERF_METHOD_RPERF)
		return record_compare(r, s);
	/* NIC stamps: the completions on the HCA's clock, the posts on ours */
	if (r->cfg->nic)
		rtt = llround(rperf_nic_rtt_ns(r->cfg->nic, clk, s->tn[WIRE],
					       s->tn[LOOP], s->tp[WIRE],
					       s->tp[LOOP]));
	rperf_hist_record(r->res->wire, w);
	rperf_hist_record(r->res->loop, l);
	rperf_hist_record(r->res->rtt, rtt);
	if (r->cfg->breakdown) {
		rperf_hist_record(r->res->post_wire,
				  lsg_delta_ns(clk, s->tp[WIRE], s->tpe[WIRE]));
		rperf_hist_record(r->res->post_loop,
				  lsg_delta_ns(clk, s->tp[LOOP], s->tpe[LOOP]));
	}
	r->res->samples++;
	r->res->nonpositive += rtt <= 0;
	r->res->precompleted += s->pre[WIRE];
	r->res->loop_precompleted += s->pre[LOOP];
	if (lsg_series_add(r, s->tp[WIRE], rtt))
		return ENOMEM;
	return r->cfg->keep_raw ? keep_raw(r, w, l, rtt) : 0;
}

/* The sample's last completion stamp: the time, without another read. */
static uint64_t last_stamp(const struct sample *s)
{
	uint64_t t = 0;

	for (int k = WIRE; k <= REPLY; k++)
		if (s->done[k] && s->tc[k] > t)
			t = s->tc[k];
	return t;
}

/* iters samples taken, or duration_ns over (whichever is set and comes
 * first) */
static bool finished(const struct lsg_run *r, uint64_t t0, uint64_t now)
{
	const struct rperf_lsg_cfg *c = r->cfg;

	if (c->iters && r->res->samples >= c->iters)
		return true;
	if (c->duration_ns) /* now may predate t0 right after the warm-up */
		return now > t0 &&
		       now - t0 >= lsg_ns_to_ticks(c->clk, c->duration_ns);
	return r->res->samples >= c->iters;
}

/* --verb: the one-sided operations stay inside the peer's buffer. */
static int setup_verb(struct lsg_run *r)
{
	const struct rperf_lsg_cfg *c = r->cfg;
	const struct rperf_buf *rx = r->qps->wire_rx_buf;
	bool one_sided = c->verb != RPERF_VERB_SEND ||
			 c->method == RPERF_METHOD_POSTPOLL;

	r->wpp = c->verb == RPERF_VERB_WRITE &&
		 c->method == RPERF_METHOD_PINGPONG;
	if (one_sided && c->remote_size < c->size)
		return lsg_fail(
			r, EINVAL,
			"the peer's buffer (%llu B) is smaller than %llu B",
			(unsigned long long)c->remote_size,
			(unsigned long long)c->size);
	if (rperf_verb_of(c->verb)->operand &&
	    c->size != rperf_verb_of(c->verb)->operand)
		return lsg_fail(r, EINVAL, "%ss are %u B, not %llu B",
				rperf_verb_of(c->verb)->label,
				rperf_verb_of(c->verb)->operand,
				(unsigned long long)c->size);
	if (r->wpp && (!c->wseq || !rx || rx->len < c->size || !c->size))
		return lsg_fail(
			r, EINVAL, "%s",
			"pingpong write needs a reply buffer and a sequence");
	if (r->wpp)
		r->reply_byte =
			(const volatile uint8_t *)rx->addr + rx->len - 1;
	return 0;
}

static int setup(struct lsg_run *r)
{
	const struct rperf_lsg_qps *q = r->qps;
	bool nic = r->cfg->nic && r->cfg->method == RPERF_METHOD_RPERF;

	if (nic && (!q->wire->send_cq_ex || !q->loop_tx->send_cq_ex ||
		    r->cfg->nic->hz <= 0 || r->cfg->nic->mask < 3))
		return lsg_fail(
			r, EINVAL, "%s",
			"NIC timestamps need both send CQs created with completion timestamps and the NIC clock");
	r->cqx[WIRE] = nic ? q->wire->send_cq_ex : NULL;
	r->cqx[LOOP] = nic ? q->loop_tx->send_cq_ex : NULL;

	r->dev = rperf_gen_dev(r->cfg->ops, r->cfg->ops_ctx, r->cfg->clk);
	r->cq[WIRE] = q->wire->send_cq;
	r->cq[LOOP] = q->loop_tx->send_cq;
	r->cq[REPLY] = q->wire->recv_cq;
	r->qp[WIRE] = q->wire->qp;
	r->qp[LOOP] = q->loop_tx->qp;
	r->inl[WIRE] = r->cfg->size <= q->wire->max_inline;
	r->inl[LOOP] = r->cfg->size <= q->loop_tx->max_inline;
	r->sge = (struct ibv_sge){ .addr = (uintptr_t)q->send_buf->addr,
				   .length = (uint32_t)r->cfg->size,
				   .lkey = q->send_buf->mr->lkey };
	r->stall_ticks = lsg_ns_to_ticks(r->cfg->clk, r->cfg->stall_ns);
	if (r->cfg->interval_ns &&
	    rperf_hist_create(RPERF_HIST_DEFAULT_BITS, &r->ivh))
		return lsg_fail(r, ENOMEM, "%s", "out of memory");
	return setup_verb(r);
}

/* The closed loop: the next sample when the previous one completed. */
static int closed_run(struct lsg_run *r)
{
	const struct rperf_lsg_cfg *cfg = r->cfg;
	struct rperf_lsg_res *res = r->res;
	uint64_t t0, next, gap, now, warm = 0;
	struct sample s;
	int rc = 0;

	gap = lsg_ns_to_ticks(cfg->clk, cfg->rate > 0 ?
						(uint64_t)(1e9 / cfg->rate) :
						cfg->gap_ns);
	t0 = next = gen_clock_start(&r->dev);
	while (!rc) {
		if (*cfg->stop) {
			rc = lsg_fail(r, EINTR, "%s", "interrupted");
			break;
		}
		rc = one_sample(r, &s, warm + res->samples);
		if (rc)
			break;
		if (warm < cfg->warmup) {
			warm++;
			t0 = gen_clock_start(&r->dev);
		} else {
			rc = lsg_record(r, &s);
		}
		if (!rc && cfg->method == RPERF_METHOD_RPERF)
			rc = lsg_refill_loop_rx(r);
		/* without a gap, the sample's last stamp is recent enough */
		now = gap ? gen_clock_end(&r->dev) : last_stamp(&s);
		if (!rc && warm >= cfg->warmup && finished(r, t0, now))
			break;
		for (next += gap; gap && now < next;
		     now = gen_clock_end(&r->dev))
			;
	}
	res->warmup = warm;
	res->seconds =
		rperf_clock_ticks_to_ns(
			cfg->clk, (int64_t)(gen_clock_end(&r->dev) - t0)) /
		1e9;
	return rc;
}

int rperf_lsg_run(const struct rperf_lsg_cfg *cfg,
		  const struct rperf_lsg_qps *qps, struct rperf_lsg_res *res)
{
	struct lsg_run r = { .cfg = cfg, .qps = qps, .res = res };
	int rc = setup(&r), end;

	if (rc) {
		rperf_hist_destroy(r.ivh);
		return rc;
	}
	rc = cfg->schedule.kind != RPERF_SCHED_CLOSED ? lsg_open_run(&r) :
							closed_run(&r);
	end = lsg_series_end(&r);
	return rc ? rc : end;
}

double rperf_lsg_rate_of_bps(double rate_bps, uint64_t size)
{
	return rate_bps > 0 && size ? rate_bps / (8.0 * (double)size) : 0;
}

int rperf_lsg_res_init(struct rperf_lsg_res *res, int method, bool breakdown)
{
	bool rp = method == RPERF_METHOD_RPERF;
	int rc;

	memset(res, 0, sizeof(*res));
	rc = rperf_hist_create(RPERF_HIST_DEFAULT_BITS, &res->rtt);
	if (!rc && rp)
		rc = rperf_hist_create(RPERF_HIST_DEFAULT_BITS, &res->wire);
	if (!rc && rp)
		rc = rperf_hist_create(RPERF_HIST_DEFAULT_BITS, &res->loop);
	if (!rc && method == RPERF_METHOD_PINGPONG)
		rc = rperf_hist_create(RPERF_HIST_DEFAULT_BITS, &res->half);
	if (!rc && breakdown)
		rc = rperf_hist_create(RPERF_HIST_DEFAULT_BITS,
				       &res->post_wire);
	if (!rc && breakdown && rp)
		rc = rperf_hist_create(RPERF_HIST_DEFAULT_BITS,
				       &res->post_loop);
	if (rc)
		rperf_lsg_res_fini(res);
	return rc;
}

void rperf_lsg_res_fini(struct rperf_lsg_res *res)
{
	rperf_hist_destroy(res->rtt);
	rperf_hist_destroy(res->wire);
	rperf_hist_destroy(res->loop);
	rperf_hist_destroy(res->half);
	rperf_hist_destroy(res->post_wire);
	rperf_hist_destroy(res->post_loop);
	rperf_hist_destroy(res->lag);
	rperf_lsg_series_fini(&res->series);
	free(res->raw);
	memset(res, 0, sizeof(*res));
}
