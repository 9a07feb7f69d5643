/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * --vl N (rperf lat/bw clients): pick the SL that the local port's SL->VL
 * table maps to VL N, and say which VL the run's SL maps to when the table
 * can be read. Switches map SLs to VLs with their own tables: the local
 * table decides the first hop only.
 */
#include "cli/commands.h"

#include <errno.h>
#include <stdio.h>

#include "cli/cli.h"
#include "verbs/vl.h"

int rperf_cli_resolve_vl(struct rperf_cmdline *cfg)
{
	struct rperf_vl_port vp;
	char msg[320];
	int sl = 0, rc;

	if (!(cfg->cmd & RPERF_CMD_TRAFFIC) || !cfg->host)
		return 0;
	rc = rperf_vl_port_query(cfg->sel.device, (int)cfg->sel.port, &vp);
	if (rc && cfg->vl < 0)
		return 0; /* the command reports the device problem itself */
	if (rc) {
		fprintf(stderr,
			"rperf: --vl: %s; accepted: an InfiniBand device and port (see rperf info)\n",
			vp.why);
		return RPERF_EXIT_USAGE;
	}
	if (vp.roce && cfg->vl >= 0) {
		fprintf(stderr,
			"rperf: --vl: %s port %lld is RoCE (Ethernet), which has no virtual lanes; accepted: --tclass TC (the GRH traffic class, carried as the IP DS field) on RoCE\n",
			vp.dev, (long long)cfg->sel.port);
		return RPERF_EXIT_USAGE;
	}
	if (vp.roce)
		return 0;
	if (cfg->vl >= 0) {
		rc = rperf_vl_pick_sl(vp.has_table ? &vp.t : NULL, vp.read_rc,
				      vp.why, (int)cfg->vl, &sl, msg,
				      sizeof(msg));
		if (rc) {
			fprintf(stderr, "rperf: --vl: %s\n", msg);
			return RPERF_EXIT_USAGE;
		}
		cfg->spec.path.sl = sl;
	}
	if (vp.has_table && !cfg->jsonl) /* stdout: errors keep one line */
		printf("rperf: note: SL %lld maps to VL %u on %s port %lld (the local port's table; switches map SLs with their own)\n",
		       (long long)cfg->spec.path.sl,
		       vp.t.vl[cfg->spec.path.sl & 15], vp.dev,
		       (long long)cfg->sel.port);
	fflush(stdout);
	return 0;
}
