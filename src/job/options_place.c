/* SPDX-License-Identifier: BSD-2-Clause */
/* Options, group "place" (see options.h for the order). */
#include "job/options_priv.h"

#include "engine/spec.h" /* rperf_hugepage_names */

const struct rperf_opt rperf_opts_place[] = {
	/* placement and virtual lanes (host/place.c, verbs/vl.c) */
	{ .name = "cpu-node",
	  .type = RPERF_OT_INT,
	  .cmds = T,
	  .min = 0,
	  .max = 4095,
	  .metavar = "N",
	  .dflt = "the NIC's node",
	  .scope = RPERF_SCOPE_HOST,
	  .job = JOB_NODE("cpu_node", HO, 150, JHOST(cpu_node)),
	  .help = "Run the measuring thread on NUMA node N." },
	{ .name = "mem-node",
	  .type = RPERF_OT_INT,
	  .cmds = T,
	  .min = 0,
	  .max = 4095,
	  .metavar = "N",
	  .dflt = "the NIC's node",
	  .scope = RPERF_SCOPE_HOST,
	  .job = JOB_NODE("mem_node", HO, 160, JHOST(mem_node)),
	  .help = "Bind the generator's buffers to NUMA node N." },
	{ .name = "use_hugepages",
	  .type = RPERF_OT_ENUM,
	  .cmds = T,
	  .choices = rperf_hugepage_names,
	  .bare = "2M",
	  .metavar = "SIZE",
	  .dflt = "none",
	  .scope = RPERF_SCOPE_HOST,
	  .job = JOB_ENUM("hugepages", HO, 165, JHOST(hugepages),
			  rperf_hugepage_names, 0),
	  .help = "Generator buffers in huge pages: 2M or 1G (--use_hugepages alone: 2M; a size needs the =); falls back to normal pages with a warning." },
	{ .name = "vl",
	  .type = RPERF_OT_INT,
	  .cmds = T,
	  .off = OFF(vl),
	  .min = 0,
	  .max = 14,
	  .metavar = "VL",
	  .help = "InfiniBand: use an SL that the local port maps to virtual lane VL (not with -S)." },
};

const size_t rperf_nopts_place =
	sizeof(rperf_opts_place) / sizeof(rperf_opts_place[0]);
