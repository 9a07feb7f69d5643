/* SPDX-License-Identifier: BSD-2-Clause */
/* RDMA device and port facts for rperf info. */
#include <rperf/devinfo.h>

#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <infiniband/verbs.h>

#include "host/locality.h"
#include "verbs/rate.h"
#include "verbs/vl.h"

/* Speed/width names and encoding of an InfiniBand port. */
static void ib_link_names(const struct ibv_port_attr *pa,
			  struct rperf_port_info *pi)
{
	const struct rperf_ib_speed *s = rperf_ib_speed_find(pa->active_speed);
	int lanes = rperf_ib_width_lanes(pa->active_width);

	if (s) {
		snprintf(pi->speed, sizeof(pi->speed), "%s", s->name);
		snprintf(pi->encoding, sizeof(pi->encoding), "%s", s->encoding);
	}
	if (lanes)
		snprintf(pi->width, sizeof(pi->width), "%dx", lanes);
}

/*
 * The VL tables are SMP attributes: reading them takes a SubnGet through
 * /dev/infiniband/umadN (root or the rdma group). Read them, or say why not.
 */
static void vl_tables(const char *dev, const struct ibv_port_attr *pa,
		      struct rperf_port_info *pi)
{
	struct rperf_vlarb_block b[2];
	struct rperf_sl2vl t;
	char why[160];

	if (pa->link_layer == IBV_LINK_LAYER_ETHERNET) {
		snprintf(
			pi->vl_note, sizeof(pi->vl_note),
			"Ethernet port: no SL to VL tables (RoCE classes traffic with --tclass)");
		return;
	}
	memset(b, 0, sizeof(b));
	if (rperf_vl_read_tables(dev, pi->port, &t, &b[0], &b[1], why,
				 sizeof(why))) {
		snprintf(pi->vl_note, sizeof(pi->vl_note),
			 "SL to VL and VL arbitration tables not read: %s",
			 why);
		return;
	}
	pi->has_sl2vl = true;
	memcpy(pi->sl2vl, t.vl, sizeof(pi->sl2vl));
	/* a failed VL arbitration SMP leaves its block zeroed: not shown */
	for (int k = 0; k < 2; k++)
		for (int i = 0; i < RPERF_VLARB_ENTRIES; i++) {
			pi->vlarb_vl[k][i] = b[k].e[i].vl;
			pi->vlarb_weight[k][i] = b[k].e[i].weight;
			pi->has_vlarb |= b[k].e[i].weight != 0;
		}
}

static const char *port_state_name(enum ibv_port_state s)
{
	switch (s) {
	case IBV_PORT_DOWN:
		return "DOWN";
	case IBV_PORT_INIT:
		return "INIT";
	case IBV_PORT_ARMED:
		return "ARMED";
	case IBV_PORT_ACTIVE:
		return "ACTIVE";
	case IBV_PORT_ACTIVE_DEFER:
		return "ACTIVE_DEFER";
	default:
		return "NOP";
	}
}

static const char *gid_type_name(unsigned int t)
{
	switch (t) {
	case IBV_GID_TYPE_IB:
		return "IB";
	case IBV_GID_TYPE_ROCE_V1:
		return "RoCE v1";
	case IBV_GID_TYPE_ROCE_V2:
		return "RoCE v2";
	default:
		return "";
	}
}

static void format_gid(const union ibv_gid *g, char *buf, size_t len)
{
	const uint8_t *r = g->raw;

	snprintf(
		buf, len,
		"%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x",
		r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8], r[9],
		r[10], r[11], r[12], r[13], r[14], r[15]);
}

static int fill_gids(struct ibv_context *ctx, const struct ibv_port_attr *pa,
		     int port, int nports, struct rperf_port_info *pi)
{
	size_t max = (size_t)pa->gid_tbl_len * (size_t)nports;
	struct ibv_gid_entry *ent;
	ssize_t n;

	if (pa->gid_tbl_len <= 0)
		return 0;
	ent = calloc(max, sizeof(*ent));
	if (!ent)
		return ENOMEM;
	/* All ports at once: the table API has no per-port variant. */
	n = ibv_query_gid_table(ctx, ent, max, 0);
	if (n < 0) {
		free(ent);
		return 0; /* an old kernel: report no GIDs rather than fail */
	}
	pi->gids = calloc((size_t)n ? (size_t)n : 1, sizeof(*pi->gids));
	if (!pi->gids) {
		free(ent);
		return ENOMEM;
	}
	for (ssize_t i = 0; i < n; i++) {
		struct rperf_gid_info *g = &pi->gids[pi->ngids];
		char ifname[IF_NAMESIZE] = "";

		if ((int)ent[i].port_num != port)
			continue;
		g->index = (int)ent[i].gid_index;
		format_gid(&ent[i].gid, g->gid, sizeof(g->gid));
		snprintf(g->type, sizeof(g->type), "%s",
			 gid_type_name(ent[i].gid_type));
		if (ent[i].ndev_ifindex &&
		    if_indextoname(ent[i].ndev_ifindex, ifname))
			snprintf(g->netdev, sizeof(g->netdev), "%s", ifname);
		pi->ngids++;
	}
	free(ent);
	return 0;
}

static int fill_port(struct ibv_context *ctx, const char *dev, int port,
		     int nports, struct rperf_port_info *pi)
{
	struct ibv_port_attr pa;

	if (ibv_query_port(ctx, (uint8_t)port, &pa))
		return errno ? errno : EIO;
	pi->port = port;
	snprintf(pi->state, sizeof(pi->state), "%s", port_state_name(pa.state));
	snprintf(pi->link_layer, sizeof(pi->link_layer), "%s",
		 pa.link_layer == IBV_LINK_LAYER_ETHERNET ? "Ethernet" :
							    "InfiniBand");
	pi->mtu = 128 << pa.active_mtu;
	pi->max_vl_num = rperf_vl_count(pa.max_vl_num);
	pi->lid = pa.lid;
	if (fill_gids(ctx, &pa, port, nports, pi))
		return ENOMEM;
	if (pa.link_layer == IBV_LINK_LAYER_ETHERNET)
		pi->rate_gbps =
			rperf_netdev_gbps(pi->ngids ? pi->gids[0].netdev : "");
	else
		pi->rate_gbps =
			rperf_ib_rate_gbps(pa.active_speed, pa.active_width);
	if (pa.link_layer != IBV_LINK_LAYER_ETHERNET)
		ib_link_names(&pa, pi);
	vl_tables(dev, &pa, pi);
	return 0;
}

static int fill_device(struct ibv_device *d, struct rperf_device_info *di)
{
	struct rperf_nic_locality loc;
	struct ibv_device_attr da;
	struct ibv_context *ctx;
	uint64_t guid;
	int rc = 0;

	snprintf(di->name, sizeof(di->name), "%s", ibv_get_device_name(d));
	if (rperf_nic_locality("/sys", "/proc", di->name, &loc) == 0) {
		snprintf(di->fw_ver, sizeof(di->fw_ver), "%s", loc.fw_ver);
		snprintf(di->pcie_speed, sizeof(di->pcie_speed), "%s",
			 loc.pcie_speed);
		di->pcie_width = loc.pcie_width;
		snprintf(di->irq_cpus, sizeof(di->irq_cpus), "%s",
			 loc.irq_cpus_str);
	}
	di->numa_node = loc.numa_node;
	guid = be64toh(ibv_get_device_guid(d));
	snprintf(di->node_guid, sizeof(di->node_guid), "%04x:%04x:%04x:%04x",
		 (unsigned)(guid >> 48) & 0xffff,
		 (unsigned)(guid >> 32) & 0xffff,
		 (unsigned)(guid >> 16) & 0xffff, (unsigned)guid & 0xffff);
	ctx = ibv_open_device(d);
	if (!ctx)
		return 0; /* listed but not openable: name only */
	if (ibv_query_device(ctx, &da)) {
		rc = errno ? errno : EIO;
		goto close_dev;
	}
	di->ports = calloc(da.phys_port_cnt ? da.phys_port_cnt : 1,
			   sizeof(*di->ports));
	if (!di->ports) {
		rc = ENOMEM;
		goto close_dev;
	}
	for (int p = 1; p <= da.phys_port_cnt && !rc; p++) {
		rc = fill_port(ctx, di->name, p, da.phys_port_cnt,
			       &di->ports[di->nports]);
		if (!rc)
			di->nports++;
	}
close_dev:
	ibv_close_device(ctx);
	return rc;
}

int rperf_devices_list(struct rperf_device_list *out)
{
	struct ibv_device **list;
	int n = 0, rc = 0;

	memset(out, 0, sizeof(*out));
	errno = 0;
	list = ibv_get_device_list(&n);
	if (!list) {
		out->list_errno = errno ? errno : ENODEV;
		return 0;
	}
	if (n > 0) {
		out->dev = calloc((size_t)n, sizeof(*out->dev));
		if (!out->dev) {
			rc = ENOMEM;
			goto free_list;
		}
	}
	for (int i = 0; i < n && !rc; i++) {
		rc = fill_device(list[i], &out->dev[out->n]);
		out->n++;
	}
free_list:
	ibv_free_device_list(list);
	if (rc)
		rperf_devices_free(out);
	return rc;
}

void rperf_devices_free(struct rperf_device_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		for (size_t p = 0; p < l->dev[i].nports; p++)
			free(l->dev[i].ports[p].gids);
		free(l->dev[i].ports);
	}
	free(l->dev);
	l->dev = NULL;
	l->n = 0;
}
