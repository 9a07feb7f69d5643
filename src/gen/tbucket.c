/* SPDX-License-Identifier: BSD-2-Clause */
/* The BSG's token bucket (declared in gen/bsg.h; pure, unit tested). */
#include "gen/bsg.h"

void rperf_tbucket_init(struct rperf_tbucket *tb, double per_s, double burst,
			uint64_t now_ns)
{
	tb->per_ns = per_s / 1e9;
	tb->burst = burst < 1 ? 1 : burst;
	tb->tokens = tb->burst;
	tb->last_ns = now_ns;
}

uint64_t rperf_tbucket_take(struct rperf_tbucket *tb, double n, uint64_t now_ns)
{
	double need;

	if (n > tb->burst)
		n = tb->burst;
	if (now_ns > tb->last_ns) {
		tb->tokens += (double)(now_ns - tb->last_ns) * tb->per_ns;
		if (tb->tokens > tb->burst)
			tb->tokens = tb->burst;
		tb->last_ns = now_ns;
	}
	if (tb->tokens >= n) {
		tb->tokens -= n;
		return 0;
	}
	need = (n - tb->tokens) / tb->per_ns;
	return need < 1 ? 1 : (uint64_t)need + 1;
}
