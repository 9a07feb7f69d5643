/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rperf bw --reversed (perftest's meaning): the server generates, the
 * client only receives. The client's side of a round: take what arrives
 * (and keep the receive queues full) for the round's duration, or until
 * SIGINT with --run_infinitely; in iteration mode the server's generator
 * ends the round by itself, so DONE goes at once and the receiving goes
 * on until the RESULT arrives (bw_client.c, as with -b).
 */
#include "bw/bw_reversed.h"

#include <string.h>
#include <unistd.h>

#include <rperf/clock.h>

#include "host/cputime.h"

#define IDLE_SLEEP_US 1000 /* nothing to drain (plain WRITEs): nap */

static void tick(const struct rperf_bsg_cfg *b, const struct rperf_rx_count *x,
		 uint64_t t0, uint64_t *last, uint64_t now)
{
	struct rperf_bsg_tick t;

	if (!b->interval_ns || !b->on_interval || now - *last < b->interval_ns)
		return;
	t.messages = x->messages;
	t.bytes = x->bytes;
	t.t_start = (double)(*last - t0) / 1e9;
	t.t_end = (double)(now - t0) / 1e9;
	b->on_interval(b->arg, &t);
	*last = now;
}

int rperf_bw_reversed_run(struct rperf_gen_conn *c,
			  const struct rperf_bsg_cfg *b,
			  struct rperf_rx_count *x, struct rperf_bsg_res *g)
{
	uint64_t t0 = rperf_clock_posix_now(), last = t0, now = t0;
	double cpu0 = rperf_cpu_seconds_process();
	int rc = 0, got;

	memset(g, 0, sizeof(*g));
	while (!rc && (b->duration_ns || b->infinite)) {
		if (b->stop && *b->stop) {
			g->stopped = true;
			break;
		}
		if (b->duration_ns && now - t0 >= b->duration_ns)
			break;
		got = 0;
		if (c->recvs)
			rc = rperf_rx_drain(c, x, &got, g->error,
					    sizeof(g->error));
		if (!got && !c->recvs)
			usleep(IDLE_SLEEP_US);
		now = rperf_clock_posix_now();
		tick(b, x, t0, &last, now);
	}
	g->seconds = (double)(now - t0) / 1e9;
	g->cpu_seconds = rperf_cpu_seconds_process() - cpu0;
	return rc;
}
