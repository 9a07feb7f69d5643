/* SPDX-License-Identifier: BSD-2-Clause */
#include "cli/cli.h"

#include <errno.h>
#include <stdio.h>

#include "cli/commands.h"
#include "cli/help.h"
#include "cli/options.h"
#include "cli/parse.h"
#include "cli/signals.h"
#include "bw/bw.h"
#include "lat/lat.h"
#include "version.h"

int rperf_cmd_not_built(const struct rperf_cli_config *cfg)
{
	fprintf(stderr,
		"rperf %s: not built yet in rperf %s (options were checked; no measurement was made). Available now: rperf info.\n",
		rperf_cmd_name(cfg->cmd), RPERF_VERSION);
	return RPERF_EXIT_USAGE;
}

/* rperf bw: the options of the table not built yet. */
static int check_built_bw(const struct rperf_cli_config *cfg)
{
	if (cfg->rdma_cm) {
		fprintf(stderr,
			"rperf: -R/--rdma_cm: not built yet in rperf %s; accepted: the default connection over rperf's TCP control channel\n",
			RPERF_VERSION);
		return RPERF_EXIT_USAGE;
	}
	return 0;
}

static int run_command(const struct rperf_cli_config *cfg)
{
	int rc;

	switch (cfg->cmd) {
	case RPERF_CMD_INFO:
		return rperf_cmd_info(cfg);
	case RPERF_CMD_LAT:
		if (cfg->host)
			return rperf_lat_client(cfg, rperf_signals_install());
		return rperf_lat_server(cfg, rperf_signals_install());
	case RPERF_CMD_BW:
		rc = check_built_bw(cfg);
		if (rc)
			return rc;
		if (cfg->host)
			return rperf_bw_client(cfg, rperf_signals_install());
		return rperf_bw_server(cfg, rperf_signals_install());
	case RPERF_CMD_RUN:
		return rperf_cmd_run(cfg, rperf_signals_install());
	case RPERF_CMD_AGENT:
		return rperf_cmd_agent(cfg, rperf_signals_install());
	default:
		return RPERF_EXIT_INTERNAL;
	}
}

int rperf_cli_main(int argc, char **argv)
{
	struct rperf_cli_config cfg;
	enum rperf_cli_action act;
	char err[512];
	int rc;

	rc = rperf_cli_parse(argc, argv, &cfg, &act, err, sizeof(err));
	if (rc == ENOMEM) {
		fprintf(stderr, "rperf: out of memory\n");
		return RPERF_EXIT_INTERNAL;
	}
	if (rc) {
		fprintf(stderr, "rperf: %s\n", err);
		return RPERF_EXIT_USAGE;
	}
	switch (act) {
	case RPERF_ACT_HELP:
		rperf_cli_help(stdout, cfg.cmd);
		return RPERF_EXIT_OK;
	case RPERF_ACT_VERSION:
		printf("rperf %s\n", RPERF_VERSION);
		return RPERF_EXIT_OK;
	case RPERF_ACT_MARKDOWN:
		rperf_cli_markdown(stdout);
		return RPERF_EXIT_OK;
	default:
		rc = rperf_cli_resolve_vl(&cfg);
		return rc ? rc : run_command(&cfg);
	}
}
