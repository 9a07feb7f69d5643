/* SPDX-License-Identifier: BSD-2-Clause */
/* The real engine behind the agent (tests substitute a fake one). */
#include "agent/agent.h"

const struct rperf_agent_engine rperf_agent_real_engine = {
	.create = rperf_engine_create,
	.endpoints = rperf_engine_endpoints,
	.connect = rperf_engine_connect,
	.go = rperf_engine_go,
	.fd = rperf_engine_fd,
	.poll = rperf_engine_poll,
	.failed = rperf_engine_failed,
	.halt = rperf_engine_halt,
	.stop = rperf_engine_stop,
	.report = rperf_engine_report,
	.destroy = rperf_engine_destroy,
	.link_layer = rperf_engine_link_layer,
	.link_gbps = rperf_engine_link_gbps,
	.round = rperf_engine_round,
	.live_on = rperf_engine_live_on,
	.live_take = rperf_engine_live_take,
};
