/* SPDX-License-Identifier: BSD-2-Clause */
#include "gen/bsg.h"

#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include <rperf/clock.h>

#include "gen/gen.h"
#include "gen/dev_ops.h"
#include "gen/bsg_sizes.h"
#include "gen/size_dist.h"
#include "util/mono.h"

#define POLL_BATCH 32
#define IDLE_CLOCK 64 /* empty passes between clock reads */
#define PEER_CHECK_NS 100000000ull
#define SLEEP_MAX_NS 1000000ull
#define EVENT_QPS 64 /* channels waited on at once */

struct qstate {
	const struct rperf_bsg_qp *q;
	struct ibv_send_wr *wr;
	struct ibv_sge *sge;
	uint64_t posted, completed, limit;
	uint32_t outstanding, unsignaled;
	bool final; /* limit will not change any more */
	bool capped; /* final, but a deadline or the stop flag may cut it */
	struct rperf_bsg_sizes z; /* varying sizes (bsg_sizes.h) */
};

struct run {
	const struct rperf_bsg_cfg *cfg;
	struct qstate *qs;
	size_t nqs;
	struct rperf_bsg_res *res;
	struct rperf_gen_dev dev;
	struct rperf_tbucket tb;
	uint64_t t0; /* precise start (seconds) */
	uint64_t t0c, now, last_done, next_tick, last_tick,
		next_peer; /* pass */
	uint64_t last_progress; /* a post or a completion */
	uint64_t tick_msgs;
	uint64_t rng; /* size draws */
	bool armed;
	bool ending; /* finalize()d: the last WRs go out whatever the phase */
};

static uint64_t now_ns(void)
{
	return rperf_clock_posix_now();
}

/* CLOCK_MONOTONIC (the engine's barrier clock), for first_ns/last_ns. */
/*
 * The per-pass clock (deadlines, intervals, stalls): CLOCK_MONOTONIC_COARSE
 * costs no hardware read (a VM whose clocksource is an emulated HPET pays
 * microseconds per precise read). The rate limiter needs the precise one.
 */
static bool on_off(const struct rperf_bsg_cfg *cfg)
{
	return cfg->on_ns && cfg->off_ns;
}

static uint64_t pass_ns(const struct run *r)
{
	struct timespec ts;

	if (r->cfg->limit_per_s > 0 || on_off(r->cfg) ||
	    clock_gettime(CLOCK_MONOTONIC_COARSE, &ts))
		return now_ns();
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static double cpu_now(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru))
		return 0;
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
	       (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

static int fail(struct run *r, int rc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct run *r, int rc, const char *fmt, ...)
{
	va_list ap;

	if (!r->res->error[0]) {
		va_start(ap, fmt);
		vsnprintf(r->res->error, sizeof(r->res->error), fmt, ap);
		va_end(ap);
	}
	return rc;
}

/* The opcode every WR of the run carries (WRITE_WITH_IMM: on the last WR
 * of each list only, the others are plain WRITEs). */
static enum ibv_wr_opcode base_opcode(const struct rperf_bsg_cfg *cfg)
{
	if (cfg->verb == RPERF_VERB_ATOMIC &&
	    cfg->atomic_op == RPERF_ATOMIC_CMP_SWAP)
		return IBV_WR_ATOMIC_CMP_AND_SWP;
	return (enum ibv_wr_opcode)rperf_verb_of(cfg->verb)->opcode;
}

static void prepare_wrs(const struct rperf_bsg_cfg *cfg, struct qstate *s)
{
	const struct rperf_bsg_qp *q = s->q;
	/* READ and atomics land in the local buffer: never inline */
	unsigned int inl =
		cfg->size <= q->qp->max_inline &&
				!rperf_verb_responder_only(cfg->verb) ?
			IBV_SEND_INLINE :
			0;

	for (uint32_t i = 0; i < cfg->post_list; i++) {
		s->sge[i] = (struct ibv_sge){ .addr = (uintptr_t)q->buf->addr,
					      .length = (uint32_t)cfg->size,
					      .lkey = q->buf->mr->lkey };
		s->wr[i] = (struct ibv_send_wr){
			.sg_list = &s->sge[i],
			.num_sge = 1,
			.opcode = base_opcode(cfg),
			.send_flags = inl,
			.next = i + 1 < cfg->post_list ? &s->wr[i + 1] : NULL,
		};
		if (rperf_verb_of(cfg->verb)->operand) {
			/* fetch-and-add adds 1; compare-and-swap swaps the
			 * value with itself + 1 when it is 0 (then it stays
			 * 1: later ones compare unequal, as in perftest) */
			s->wr[i].wr.atomic.remote_addr = q->raddr;
			s->wr[i].wr.atomic.rkey = q->rkey;
			s->wr[i].wr.atomic.compare_add =
				cfg->atomic_op == RPERF_ATOMIC_CMP_SWAP ? 0 : 1;
			s->wr[i].wr.atomic.swap = 1;
		} else {
			s->wr[i].wr.rdma.remote_addr = q->raddr;
			s->wr[i].wr.rdma.rkey = q->rkey;
		}
	}
}

/* Sizes of the next @k WRs of @s; the count that will be posted (fewer
 * when the byte budget ends inside: that WR ends the QP). */
static uint32_t size_wrs(struct run *r, struct qstate *s, uint32_t k)
{
	bool last = false;

	for (uint32_t j = 0; j < k && !last; j++) {
		s->sge[j].length = (uint32_t)rperf_bsg_sizes_next(
			&s->z, r->cfg->sizes, r->cfg->size, &r->rng,
			s->posted + j, &last);
		if (last) {
			s->limit = s->posted + j + 1;
			s->final = true;
			s->capped = false;
			return j + 1;
		}
	}
	return k;
}

/* An on/off source in its off phase (then *left: ns until it is on). */
static bool off_now(const struct run *r, uint64_t *left)
{
	uint64_t cycle, at;

	if (!on_off(r->cfg) || r->now < r->t0c)
		return false;
	cycle = r->cfg->on_ns + r->cfg->off_ns;
	at = (r->now - r->t0c) % cycle;
	if (left)
		*left = cycle - at;
	return at >= r->cfg->on_ns;
}

/* Post one list of up to post_list WRs on @s if the queue has room. */
static int post_batch(struct run *r, struct qstate *s, bool *posted)
{
	const struct rperf_bsg_cfg *cfg = r->cfg;
	uint64_t left = s->limit - s->posted;
	uint32_t k = left < cfg->post_list ? (uint32_t)left : cfg->post_list;
	struct ibv_send_wr *bad = NULL, *last;
	int rc;

	*posted = false;
	if (!k || s->outstanding + k > cfg->tx_depth ||
	    (!r->ending && off_now(r, NULL)))
		return 0;
	if (cfg->limit_per_s > 0 && rperf_tbucket_take(&r->tb, k, r->now))
		return 0;
	if (s->z.cum)
		k = size_wrs(r, s, k);
	for (uint32_t j = 0; j < k; j++) {
		struct ibv_send_wr *w = &s->wr[j];
		bool end = s->posted + j + 1 == s->limit && s->final;
		bool stall = j + 1 == k && s->outstanding + k + cfg->post_list >
						   cfg->tx_depth;

		s->unsignaled++;
		w->send_flags &= ~(unsigned int)IBV_SEND_SIGNALED;
		if (s->unsignaled >= cfg->cq_mod || end || stall) {
			w->send_flags |= IBV_SEND_SIGNALED;
			w->wr_id = s->unsignaled;
			s->unsignaled = 0;
			r->res->signaled++;
		}
	}
	last = &s->wr[k - 1];
	last->next = NULL;
	if (cfg->verb == RPERF_VERB_WRITE_IMM) {
		last->opcode = IBV_WR_RDMA_WRITE_WITH_IMM;
		last->imm_data = htonl(k);
	}
	rc = gen_post_send(&r->dev, s->q->qp->qp, s->wr, &bad);
	last->next = k < cfg->post_list ? &s->wr[k] : NULL;
	last->opcode = base_opcode(cfg);
	if (rc)
		return fail(r, rc, "ibv_post_send failed: %s", strerror(rc));
	s->posted += k;
	s->outstanding += k;
	r->res->posted += k;
	r->res->post_calls++;
	*posted = true;
	return 0;
}

static int poll_one(struct run *r, struct qstate *s, int *got)
{
	struct ibv_wc wc[POLL_BATCH];
	int n = gen_poll_cq(&r->dev, s->q->qp->send_cq, POLL_BATCH, wc);

	*got = n > 0 ? n : 0;
	if (n < 0)
		return fail(r, EIO, "%s", "ibv_poll_cq failed");
	for (int i = 0; i < n; i++) {
		if (wc[i].status != IBV_WC_SUCCESS)
			return fail(
				r, EIO,
				"a work completion failed with status '%s' (peer gone or path broken)",
				ibv_wc_status_str(wc[i].status));
		s->outstanding -= (uint32_t)wc[i].wr_id;
		s->completed += wc[i].wr_id;
		r->res->messages += wc[i].wr_id;
		r->res->bytes +=
			s->z.cum ? rperf_bsg_sizes_done(&s->z, s->completed) :
				   wc[i].wr_id * r->cfg->size;
	}
	return 0;
}

/* Stop posting: every QP ends with a signaled WR (one more if needed). */
static void finalize(struct run *r)
{
	r->ending = true;
	for (size_t i = 0; i < r->nqs; i++) {
		struct qstate *s = &r->qs[i];
		uint64_t limit = s->posted + (s->unsignaled ? 1 : 0);

		if (s->final && !s->capped)
			continue;
		if (limit < s->limit)
			s->limit = limit;
		s->final = true;
		s->capped = false;
	}
}

static bool all_done(const struct run *r)
{
	for (size_t i = 0; i < r->nqs; i++)
		if (!r->qs[i].final || r->qs[i].completed < r->qs[i].limit)
			return false;
	return true;
}

static void tick(struct run *r)
{
	const struct rperf_bsg_cfg *cfg = r->cfg;
	struct rperf_bsg_tick t;

	if (!cfg->interval_ns || !cfg->on_interval || r->now < r->next_tick)
		return;
	t.messages = r->res->messages;
	t.bytes = r->res->bytes;
	t.t_start = (double)(r->last_tick - r->t0c) / 1e9;
	t.t_end = (double)(r->now - r->t0c) / 1e9;
	cfg->on_interval(cfg->arg, &t);
	r->last_tick = r->now;
	while (r->next_tick <= r->now)
		r->next_tick += cfg->interval_ns;
}

static bool peer_gone(struct run *r)
{
	struct pollfd pf = { .fd = r->cfg->peer_fd, .events = POLLIN };

	if (r->cfg->peer_fd < 0 || r->now < r->next_peer)
		return false;
	r->next_peer = r->now + PEER_CHECK_NS;
	return poll(&pf, 1, 0) > 0;
}

static bool outstanding(const struct run *r)
{
	for (size_t i = 0; i < r->nqs; i++)
		if (r->qs[i].outstanding)
			return true;
	return false;
}

/* Deadlines, the stop flag, the peer, stalls: 0 or an error. */
static int checks(struct run *r)
{
	const struct rperf_bsg_cfg *cfg = r->cfg;

	if (cfg->stop && *cfg->stop && !r->res->stopped) {
		r->res->stopped = true;
		finalize(r);
	}
	if ((cfg->duration_ns && r->now - r->t0c >= cfg->duration_ns) ||
	    (cfg->stop_at_ns && rperf_mono_ns() >= cfg->stop_at_ns))
		finalize(r);
	tick(r);
	if (peer_gone(r))
		return fail(r, ECONNRESET, "%s",
			    "the peer closed the control connection mid-run");
	if (r->now > r->last_progress &&
	    r->now - r->last_progress > cfg->stall_ns && outstanding(r))
		return fail(
			r, ETIMEDOUT,
			"no completion for %.1f s: the peer or the path stalled",
			(double)cfg->stall_ns / 1e9);
	return 0;
}

/* The distinct completion channels of the QPs (QPs may share one), at
 * most EVENT_QPS; true when some were left out. */
static bool event_fds(const struct run *r, struct pollfd *pf,
		      struct ibv_comp_channel **ch, nfds_t *n)
{
	*n = 0;
	for (size_t i = 0; i < r->nqs; i++) {
		struct ibv_comp_channel *c = r->qs[i].q->qp->channel;
		nfds_t j = 0;

		while (j < *n && ch[j] != c)
			j++;
		if (j < *n)
			continue;
		if (*n == EVENT_QPS)
			return true;
		ch[*n] = c;
		pf[(*n)++] = (struct pollfd){ .fd = c->fd, .events = POLLIN };
	}
	return false;
}

/* Events mode: arm every send CQ once, then wait on the channels. */
static int wait_events(struct run *r)
{
	struct ibv_comp_channel *ch[EVENT_QPS];
	struct pollfd pf[EVENT_QPS];
	unsigned int k;
	bool more;
	nfds_t n;

	if (!r->armed) {
		for (size_t i = 0; i < r->nqs; i++)
			if (ibv_req_notify_cq(r->qs[i].q->qp->send_cq, 0))
				return fail(r, EIO, "%s",
					    "ibv_req_notify_cq failed");
		r->armed = true;
		return 0; /* poll once more: a completion may predate it */
	}
	more = event_fds(r, pf, ch, &n);
	if (poll(pf, n, 100) < 0 && errno != EINTR)
		return fail(r, errno, "poll: %s", strerror(errno));
	for (nfds_t i = 0; i < n; i++) {
		if (!(pf[i].revents & POLLIN))
			continue;
		if (rperf_channel_take(ch[i], -1, &k))
			return fail(r, EIO, "%s", "ibv_get_cq_event failed");
		r->armed = false;
	}
	if (more)
		r->armed = false; /* the others are polled on the next pass */
	return 0;
}

/* Nothing happened this pass: wait a little (rate limit, events). */
static int idle(struct run *r, bool can_post_later)
{
	const struct rperf_bsg_cfg *cfg = r->cfg;
	uint64_t left;

	if (can_post_later && !outstanding(r) && off_now(r, &left)) {
		struct timespec ts = {
			0, (long)(left < SLEEP_MAX_NS ? left : SLEEP_MAX_NS)
		};

		nanosleep(&ts, NULL); /* the off phase, 1 ms at a time */
		return 0;
	}

	if (cfg->limit_per_s > 0 && can_post_later) {
		/* a quarter of the time one list's tokens take, <= 1 ms */
		double batch_ns = (double)cfg->post_list / r->tb.per_ns / 4;
		uint64_t w = batch_ns > (double)SLEEP_MAX_NS ?
				     SLEEP_MAX_NS :
				     (uint64_t)batch_ns + 1;
		struct timespec ts;

		ts.tv_sec = 0;
		ts.tv_nsec = (long)w;
		nanosleep(&ts, NULL);
		return 0;
	}
	return cfg->events ? wait_events(r) : 0;
}

static int pass(struct run *r, unsigned int *idle_passes)
{
	bool progress = false, room = false;
	int rc = 0, got;

	for (size_t i = 0; i < r->nqs && !rc; i++) {
		bool posted;

		rc = post_batch(r, &r->qs[i], &posted);
		progress |= posted;
		room |= !posted && r->qs[i].posted < r->qs[i].limit &&
			r->qs[i].outstanding + 1 <= r->cfg->tx_depth;
	}
	for (size_t i = 0; i < r->nqs && !rc; i++) {
		rc = poll_one(r, &r->qs[i], &got);
		progress |= got > 0;
		if (got)
			r->last_done = pass_ns(r);
	}
	if (!rc && r->cfg->on_pass) {
		bool did = false;

		rc = r->cfg->on_pass(r->cfg->pass_arg, &did);
		if (rc)
			return fail(r, rc, "the receive side failed: %s",
				    strerror(rc));
		progress |= did;
	}
	if (rc)
		return rc;
	if (progress || ++*idle_passes >= IDLE_CLOCK || r->cfg->events ||
	    r->cfg->limit_per_s > 0 || on_off(r->cfg)) {
		r->now = pass_ns(r);
		*idle_passes = 0;
		if (progress)
			r->last_progress = r->now;
		rc = checks(r);
	}
	if (!rc && !progress)
		rc = idle(r, room);
	return rc;
}

/* The budgets and the size ring of QP @i: 0 or ENOMEM. */
static int setup_shape(struct run *r, struct qstate *s, size_t i)
{
	const struct rperf_bsg_cfg *cfg = r->cfg;
	uint64_t m = rperf_bsg_share(cfg->max_messages, r->nqs, i);
	uint64_t b = cfg->max_bytes ?
			     rperf_bsg_share(cfg->max_bytes, r->nqs, i) :
			     UINT64_MAX;

	if (cfg->max_messages) {
		s->capped = !s->final || m < s->limit;
		s->limit = m < s->limit ? m : s->limit;
		s->final = true;
	}
	if (!b) {
		s->limit = 0;
		s->final = true;
		s->capped = false;
	}
	return rperf_bsg_sizes_init(&s->z, cfg->tx_depth, b,
				    cfg->max_bytes ||
					    (cfg->sizes && cfg->sizes->n));
}

static int setup(struct run *r, const struct rperf_bsg_qp *qps)
{
	const struct rperf_bsg_cfg *cfg = r->cfg;

	r->qs = calloc(r->nqs, sizeof(*r->qs));
	if (!r->qs)
		return ENOMEM;
	for (size_t i = 0; i < r->nqs; i++) {
		struct qstate *s = &r->qs[i];

		s->q = &qps[i];
		s->wr = calloc(cfg->post_list, sizeof(*s->wr));
		s->sge = calloc(cfg->post_list, sizeof(*s->sge));
		if (!s->wr || !s->sge)
			return ENOMEM;
		prepare_wrs(cfg, s);
		s->final = cfg->iters && !cfg->duration_ns && !cfg->infinite;
		s->limit = s->final ? cfg->iters : UINT64_MAX;
		if (setup_shape(r, s, i))
			return ENOMEM;
	}
	return 0;
}

static void teardown(struct run *r)
{
	for (size_t i = 0; r->qs && i < r->nqs; i++) {
		free(r->qs[i].wr);
		free(r->qs[i].sge);
		rperf_bsg_sizes_fini(&r->qs[i].z);
	}
	free(r->qs);
}

int rperf_bsg_run(const struct rperf_bsg_cfg *cfg,
		  const struct rperf_bsg_qp *qps, size_t nqps,
		  struct rperf_bsg_res *res)
{
	struct run r = { .cfg = cfg,
			 .nqs = nqps,
			 .res = res,
			 .dev = rperf_gen_dev(cfg->ops, cfg->ops_ctx, NULL) };
	unsigned int idle_passes = 0;
	double cpu0 = cpu_now();
	int rc;

	memset(res, 0, sizeof(*res));
	if (!nqps || !cfg->tx_depth || !cfg->cq_mod || !cfg->post_list ||
	    cfg->post_list > cfg->tx_depth || cfg->verb < 0 ||
	    cfg->verb >= RPERF_VERB_COUNT ||
	    (rperf_verb_of(cfg->verb)->operand &&
	     cfg->size != rperf_verb_of(cfg->verb)->operand) ||
	    (cfg->sizes && cfg->sizes->n &&
	     (rperf_size_dist_max(cfg->sizes) != cfg->size ||
	      rperf_verb_of(cfg->verb)->operand)))
		return fail(&r, EINVAL, "%s",
			    "invalid generator configuration");
	rc = setup(&r, qps);
	if (rc) {
		teardown(&r);
		return fail(&r, rc, "%s", "out of memory");
	}
	r.rng = cfg->seed;
	res->first_ns = rperf_mono_ns();
	r.t0 = now_ns();
	r.t0c = r.now = r.last_done = r.last_tick = pass_ns(&r);
	r.last_progress = r.t0c;
	r.next_tick = r.t0c + cfg->interval_ns;
	r.next_peer = r.t0c + PEER_CHECK_NS;
	if (cfg->limit_per_s > 0)
		rperf_tbucket_init(&r.tb, cfg->limit_per_s,
				   cfg->burst > cfg->post_list ? cfg->burst :
								 cfg->post_list,
				   r.t0);
	while (!rc && !all_done(&r))
		rc = pass(&r, &idle_passes);
	/* the last completion was polled in the last pass: time the end here
	 * (after a failure, the coarse time of the last completion) */
	r.now = now_ns();
	res->seconds = rc ? (double)(r.last_done - r.t0c) / 1e9 :
			    (double)(r.now - r.t0) / 1e9;
	res->last_ns = rc ? r.last_done : rperf_mono_ns();
	res->cpu_seconds = cpu_now() - cpu0;
	teardown(&r);
	return rc;
}
