/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rperf: parse the command line (src/cli), then dispatch to the command
 * adapters, which alone print errors and choose the exit status.
 */
#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/signals.h"

static int dispatch(const struct rperf_cmdline *cfg)
{
	switch (cfg->cmd) {
	case RPERF_CMD_INFO:
		return rperf_cmd_info(cfg);
	case RPERF_CMD_LAT:
		return rperf_cmd_lat(cfg, rperf_signals_install());
	case RPERF_CMD_BW:
		return rperf_cmd_bw(cfg, rperf_signals_install());
	case RPERF_CMD_RUN:
		return rperf_cmd_run_launch(cfg, rperf_signals_install());
	case RPERF_CMD_AGENT:
		return rperf_cmd_agent(cfg, rperf_signals_install());
	case RPERF_CMD_COMPARE:
		return rperf_cmd_compare(cfg);
	default:
		return RPERF_EXIT_INTERNAL;
	}
}

int main(int argc, char **argv)
{
	struct rperf_cmdline cfg;
	bool run = false;
	int code = rperf_cli_front(argc, argv, &cfg, &run);

	if (run)
		code = rperf_cli_resolve_vl(&cfg); /* --vl picks the SL */
	return run && !code ? dispatch(&cfg) : code;
}
