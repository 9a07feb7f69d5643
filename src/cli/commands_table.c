/* SPDX-License-Identifier: BSD-2-Clause */
/* The commands: names, bits and one-line summaries (from options.c). */
#include "job/options.h"

#include <stddef.h>
#include <string.h>

static const struct {
	enum rperf_cmd cmd;
	const char *name;
	const char *summary;
} commands[] = {
	{ RPERF_CMD_LAT, "lat",
	  "latency (LSG): RPerf RTTs from paired wire + loopback SENDs" },
	{ RPERF_CMD_BW, "bw", "bandwidth (BSG): open-loop bulk traffic" },
	{ RPERF_CMD_RUN, "run", "multi-host experiment from a job file" },
	{ RPERF_CMD_AGENT, "agent", "long-lived per-host agent for rperf run" },
	{ RPERF_CMD_INFO, "info",
	  "clock self-test, versions and RDMA devices" },
	{ RPERF_CMD_COMPARE, "compare",
	  "difference of two latency reports (e.g. the switch's added RTT)" },
};

const char *rperf_cmd_name(enum rperf_cmd cmd)
{
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (commands[i].cmd == cmd)
			return commands[i].name;
	return NULL;
}

const char *rperf_cmd_summary(enum rperf_cmd cmd)
{
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (commands[i].cmd == cmd)
			return commands[i].summary;
	return NULL;
}

enum rperf_cmd rperf_cmd_parse(const char *name)
{
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (strcmp(commands[i].name, name) == 0)
			return commands[i].cmd;
	return RPERF_CMD_NONE;
}
