/* SPDX-License-Identifier: BSD-2-Clause */
/* Options, group "run": job edits and sweeps (see options.h for the order). */
#include "job/options_priv.h"

const struct rperf_opt rperf_opts_run[] = {
	{ .name = "sweep",
	  .type = RPERF_OT_STR_LIST,
	  .cmds = R,
	  .off = OFF(sweeps),
	  .metavar = "S.N.KEY=LIST",
	  .help = "Run the job once per value of a comma-separated LIST for one key (bsg.bulk.count=0,1,2; global.duration=1s,2s) and tabulate LSG RTT and BSG Gb/s per value; repeatable (up to 4 keys): the cartesian product of the lists, or with --zip their i-th values together; every point is checked before the first runs." },
	{ .name = "zip",
	  .type = RPERF_OT_FLAG,
	  .cmds = R,
	  .off = OFF(zip),
	  .help = "With several --sweep: run their i-th values together (lists of one length) instead of every combination." },
	{ .name = "same-qps",
	  .type = RPERF_OT_FLAG,
	  .cmds = R,
	  .off = OFF(same_qps),
	  .help = "With --sweep over message sizes (lsg.NAME.size, bsg.NAME.size) and LSG methods (lsg.NAME.method) only: run every point as a round on one set of connections, QPs and buffers (made for the largest size and every method), as perftest's -a and rperf lat --method all, instead of a new experiment per point; the agents must offer rounds." },
	{ .name = "set",
	  .type = RPERF_OT_STR_LIST,
	  .cmds = R,
	  .off = OFF(sets),
	  .metavar = "S.N.KEY=VALUE",
	  .help = "Override one key of the job file (SECTION.NAME.KEY=VALUE, or global.KEY=VALUE), checked like the file's; repeatable, applied in order after --hosts-map." },
	{ .name = "live",
	  .type = RPERF_OT_FLAG,
	  .cmds = R,
	  .off = OFF(live),
	  .help = "Print each source's interval rows (the job's interval, 1 s by default) as its agent's HEARTBEAT brings them during the run: a BSG's Gb/s and messages, an LSG's samples and RTT p50, p99 and max; the report's intervals have every row." },
	{ .name = "hosts-map",
	  .type = RPERF_OT_STR,
	  .cmds = R,
	  .off = OFF(hosts_map),
	  .metavar = "FILE",
	  .help = "Overlay FILE's [host NAME] sections (control, device, gid_index, cpu...) on the job's hosts of the same names; its other hosts are ignored (one map serves many jobs)." },
};

const size_t rperf_nopts_run =
	sizeof(rperf_opts_run) / sizeof(rperf_opts_run[0]);
