// SPDX-License-Identifier: BSD-2-Clause
/* rperf info as readable text: clock self-test, platform, RDMA devices. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "report_int.h"

static void print_selftest(FILE *f, const struct rperf_clock_selftest *st)
{
	if (!st) {
		fprintf(f, "  self-test    : not run\n");
		return;
	}
	fprintf(f, "  read overhead: min %.1f ns, median %.1f ns\n",
		st->overhead_ns_min, st->overhead_ns_median);
	fprintf(f, "  resolution   : %.2f ns\n", st->resolution_ns);
	fprintf(f,
		"  largest gap  : %.1f ns while spinning %.0f ms (%" PRIu64
		" reads)\n",
		st->max_gap_ns, st->spin_ms, st->reads);
}

static void print_clock(FILE *f, const struct rperf_clock *c,
			const struct rperf_clock_selftest *st)
{
	fprintf(f, "clock\n");
	if (!c) {
		fprintf(f, "  source       : unknown\n");
		return;
	}
	fprintf(f, "  source       : %s (%s%s)\n",
		rperf_clock_source_name(c->source),
		c->trusted ? "trusted" : "UNTRUSTED",
		c->forced ? ", forced" : "");
	fprintf(f,
		"  flags        : invariant_tsc=%s hypervisor=%s "
		"clocksource=%s\n",
		rperf_rpt_yesno(c->platform.invariant_tsc),
		rperf_rpt_yesno(c->platform.hypervisor),
		c->platform.clocksource[0] ? c->platform.clocksource :
					     "unknown");
	fprintf(f, "  frequency    : %.0f Hz (method %s, error %.2f ppm)\n",
		c->hz, c->method, c->error_ppm);
	if (c->cpuid15_hz != 0)
		fprintf(f, "  nominal      : %.0f Hz (cross-check %.2f ppm)\n",
			c->cpuid15_hz, c->cross_check_ppm);
	print_selftest(f, st);
	fprintf(f, "  reason       : %s\n", c->reason);
}

static void print_platform(FILE *f, const struct rperf_platform *p)
{
	fprintf(f, "platform\n");
	if (!p) {
		fprintf(f, "  unknown\n");
		return;
	}
	fprintf(f, "  host         : %s\n", p->hostname);
	fprintf(f, "  os           : %s\n", p->os[0] ? p->os : "unknown");
	fprintf(f, "  kernel       : %s (%s)\n", p->kernel, p->arch);
	fprintf(f, "  cpu          : %s\n",
		p->cpu_model[0] ? p->cpu_model : "unknown");
	fprintf(f, "  cpus online  : %ld, NUMA nodes: %d\n", p->cpus_online,
		p->numa_nodes);
	fprintf(f,
		"  versions     : rperf %s, libibverbs %s, librdmacm %s, %s\n",
		p->rperf_version, p->ibverbs_version, p->rdmacm_version,
		p->json_library);
	fprintf(f, "  rdma-core    : %s\n",
		p->rdma_core_version[0] ? p->rdma_core_version : "unknown");
	fprintf(f, "  numa         : %s\n",
		p->numa_summary[0] ? p->numa_summary : "unknown");
	fprintf(f, "  collected at : %s\n", p->timestamp);
}

/* SL:VL pairs and the used VL arbitration entries, when they were read. */
static void print_vl_tables(FILE *f, const struct rperf_port_info *p)
{
	if (p->has_sl2vl) {
		fprintf(f, "      sl2vl:");
		for (int sl = 0; sl < 16; sl++)
			fprintf(f, " %d:%u", sl, p->sl2vl[sl]);
		fprintf(f, "\n");
	}
	if (p->has_vlarb)
		for (int k = 0; k < 2; k++) {
			fprintf(f, "      vlarb %s:", k ? "high" : "low");
			for (int e = 0; e < 32; e++)
				if (p->vlarb_weight[k][e])
					fprintf(f, " %u:%u", p->vlarb_vl[k][e],
						p->vlarb_weight[k][e]);
			fprintf(f, " (VL:weight)\n");
		}
}

static void print_port(FILE *f, const struct rperf_port_info *p)
{
	size_t i;

	fprintf(f, "    port %d: %s, %s, %.2f Gb/s, mtu %d, %d VLs", p->port,
		p->state, p->link_layer, p->rate_gbps, p->mtu, p->max_vl_num);
	if (p->speed[0])
		fprintf(f, ", %s %s (%s), lid %d", p->width, p->speed,
			p->encoding, p->lid);
	fprintf(f, "\n");
	print_vl_tables(f, p);
	if (p->vl_note[0])
		fprintf(f, "      vl: %s\n", p->vl_note);
	for (i = 0; i < p->ngids; i++) {
		const struct rperf_gid_info *g = &p->gids[i];

		fprintf(f, "      gid[%d] %s %s %s\n", g->index, g->gid,
			g->type[0] ? g->type : "-",
			g->netdev[0] ? g->netdev : "-");
	}
}

static void print_devices(FILE *f, const struct rperf_device_list *l)
{
	size_t i, j;

	fprintf(f, "devices\n");
	if (!l || l->n == 0) {
		int e = l ? l->list_errno : 0;

		if (e)
			fprintf(f,
				"  no RDMA device found (ibv_get_device_list: "
				"%s); use the Soft-RoCE lab: tests/lab/rxe-lab "
				"demo\n",
				strerror(e));
		else
			fprintf(f, "  no RDMA device found; use the Soft-RoCE "
				   "lab: tests/lab/rxe-lab demo\n");
		if (e == ENOSYS)
			fprintf(f, "  (the kernel has no RDMA support)\n");
		return;
	}
	for (i = 0; i < l->n; i++) {
		const struct rperf_device_info *d = &l->dev[i];

		fprintf(f, "  %s (numa node %d%s, node guid %s, fw %s)\n",
			d->name, d->numa_node,
			d->numa_node < 0 ? ": unknown/no NUMA" : "",
			d->node_guid, d->fw_ver[0] ? d->fw_ver : "unknown");
		if (d->pcie_width || d->pcie_speed[0])
			fprintf(f, "    pcie: %s x%d\n", d->pcie_speed,
				d->pcie_width);
		fprintf(f, "    irq cpus: %s\n",
			d->irq_cpus[0] ? d->irq_cpus : "none found");
		for (j = 0; j < d->nports; j++)
			print_port(f, &d->ports[j]);
	}
}

static void print_preflight(FILE *f, const struct rperf_preflight *pf)
{
	if (!pf)
		return;
	fprintf(f, "preflight\n");
	for (size_t i = 0; i < pf->n && i < RPERF_MAX_CHECKS; i++)
		fprintf(f, "  %-13s: %s %s\n", pf->c[i].check,
			pf->c[i].ok ? "ok  " : "WARN", pf->c[i].detail);
}

int rperf_info_text(FILE *f, const struct rperf_info *info)
{
	const struct rperf_device_list *l;
	size_t i, j;

	if (!f || !info)
		return EINVAL;
	l = info->devices;
	if (l && l->n && !l->dev)
		return EINVAL;
	for (i = 0; l && i < l->n; i++) {
		const struct rperf_device_info *d = &l->dev[i];

		if (d->nports && !d->ports)
			return EINVAL;
		for (j = 0; j < d->nports; j++)
			if (d->ports[j].ngids && !d->ports[j].gids)
				return EINVAL;
	}
	print_clock(f, info->clock, info->selftest);
	print_platform(f, info->platform);
	print_devices(f, info->devices);
	print_preflight(f, info->preflight);
	return rperf_rpt_io_status(f);
}
