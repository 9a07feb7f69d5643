// SPDX-License-Identifier: BSD-2-Clause
/*
 * rperf info as JSON. Contract:
 *
 *   { schema_version, clock{...same object as the run report...}, platform{},
 *     devices: [{name, numa_node, node_guid, fw_ver, pcie: {speed, width} or
 *       null, irq_cpus, ports: [{port, state, link_layer, rate_gbps, mtu,
 *       max_vl_num, lid, speed, width, encoding, [sl2vl: [16 VLs]],
 *       [vlarb: {low: [{vl, weight}], high: [...]}], vl_note, gids: [{index, gid, type, netdev}]}]}],
 *     preflight: [{check, ok, detail}], [devices_errno, devices_note] }
 *
 * numa_node is -1 when unknown (no NUMA, or Soft-RoCE); unknown strings are
 * null; sl2vl only when the table was read (vl_note says why not).
 *
 * devices is an empty array when there are none; devices_errno/devices_note
 * are present only when ibv_get_device_list failed (list_errno != 0).
 */
#include <errno.h>
#include <string.h>

#include "report_int.h"

static json_t *json_gid(const struct rperf_gid_info *g)
{
	json_t *o = json_object();
	int err = 0;

	err |= json_object_set_new(o, "index", json_integer(g->index));
	err |= json_object_set_new(o, "gid", rperf_rpt_json_str(g->gid));
	err |= json_object_set_new(o, "type", rperf_rpt_json_str(g->type));
	err |= json_object_set_new(o, "netdev", rperf_rpt_json_str(g->netdev));
	return rperf_rpt_json_done(o, err);
}

/* "" -> null */
static json_t *opt_str(const char *s)
{
	return rperf_rpt_json_str(s[0] ? s : NULL);
}

/* [vl of SL0, ..., vl of SL15] */
static json_t *json_sl2vl(const struct rperf_port_info *p)
{
	json_t *a = json_array();
	int err = 0;

	for (int sl = 0; !err && sl < 16; sl++)
		err |= json_array_append_new(a, json_integer(p->sl2vl[sl]));
	return rperf_rpt_json_done(a, err);
}

/* {low: [{vl, weight}], high: [...]}: the used entries (weight > 0). */
static json_t *json_vlarb(const struct rperf_port_info *p)
{
	static const char *const names[2] = { "low", "high" };
	json_t *o = json_object();
	int err = o ? 0 : -1;

	for (int k = 0; k < 2 && !err; k++) {
		json_t *a = json_array();

		err |= a ? 0 : -1;
		for (int i = 0; i < 32 && !err; i++)
			if (p->vlarb_weight[k][i])
				err |= json_array_append_new(
					a,
					json_pack("{s:i,s:i}", "vl",
						  p->vlarb_vl[k][i], "weight",
						  p->vlarb_weight[k][i]));
		err |= json_object_set_new(o, names[k], a);
	}
	return rperf_rpt_json_done(o, err);
}

static json_t *json_port(const struct rperf_port_info *p)
{
	json_t *o = json_object();
	json_t *gids = json_array();
	size_t i;
	int err = (o && gids) ? 0 : -1;

	for (i = 0; i < p->ngids && !err; i++)
		err |= json_array_append_new(gids, json_gid(&p->gids[i]));
	err |= json_object_set_new(o, "port", json_integer(p->port));
	err |= json_object_set_new(o, "state", rperf_rpt_json_str(p->state));
	err |= json_object_set_new(o, "link_layer",
				   rperf_rpt_json_str(p->link_layer));
	err |= json_object_set_new(o, "rate_gbps",
				   rperf_rpt_json_real(p->rate_gbps));
	err |= json_object_set_new(o, "mtu", json_integer(p->mtu));
	err |= json_object_set_new(o, "max_vl_num",
				   json_integer(p->max_vl_num));
	err |= json_object_set_new(o, "lid", json_integer(p->lid));
	err |= json_object_set_new(o, "speed", opt_str(p->speed));
	err |= json_object_set_new(o, "width", opt_str(p->width));
	err |= json_object_set_new(o, "encoding", opt_str(p->encoding));
	if (p->has_sl2vl)
		err |= json_object_set_new(o, "sl2vl", json_sl2vl(p));
	if (p->has_vlarb)
		err |= json_object_set_new(o, "vlarb", json_vlarb(p));
	err |= json_object_set_new(o, "vl_note", opt_str(p->vl_note));
	err |= json_object_set_new(o, "gids", gids);
	return rperf_rpt_json_done(o, err);
}

static json_t *json_device(const struct rperf_device_info *d)
{
	json_t *o = json_object();
	json_t *ports = json_array();
	size_t i;
	int err = (o && ports) ? 0 : -1;

	for (i = 0; i < d->nports && !err; i++)
		err |= json_array_append_new(ports, json_port(&d->ports[i]));
	err |= json_object_set_new(o, "name", rperf_rpt_json_str(d->name));
	err |= json_object_set_new(o, "numa_node", json_integer(d->numa_node));
	err |= json_object_set_new(o, "node_guid",
				   rperf_rpt_json_str(d->node_guid));
	err |= json_object_set_new(o, "fw_ver", opt_str(d->fw_ver));
	err |= json_object_set_new(
		o, "pcie", rperf_rpt_json_pcie(d->pcie_speed, d->pcie_width));
	err |= json_object_set_new(o, "irq_cpus", opt_str(d->irq_cpus));
	err |= json_object_set_new(o, "ports", ports);
	return rperf_rpt_json_done(o, err);
}

static json_t *json_devices(const struct rperf_device_list *l)
{
	json_t *a = json_array();
	size_t i;
	int err = 0;

	for (i = 0; l && i < l->n && !err; i++)
		err |= json_array_append_new(a, json_device(&l->dev[i]));
	return rperf_rpt_json_done(a, err);
}

/* What a failed ibv_get_device_list means for the user. */
static const char *devices_note(int e)
{
	if (e == ENOSYS)
		return "kernel has no RDMA support";
	return strerror(e);
}

static int check_info(const struct rperf_info *info)
{
	const struct rperf_device_list *l = info->devices;
	size_t i, j;

	if (!l)
		return 0;
	if (l->n && !l->dev)
		return EINVAL;
	for (i = 0; i < l->n; i++) {
		if (l->dev[i].nports && !l->dev[i].ports)
			return EINVAL;
		for (j = 0; j < l->dev[i].nports; j++)
			if (l->dev[i].ports[j].ngids &&
			    !l->dev[i].ports[j].gids)
				return EINVAL;
	}
	return 0;
}

int rperf_info_json(FILE *f, const struct rperf_info *info)
{
	json_t *root;
	int err;

	if (!f || !info)
		return EINVAL;
	err = check_info(info);
	if (err)
		return err;
	root = json_object();
	if (!root)
		return ENOMEM;
	err |= json_object_set_new(root, "schema_version",
				   json_integer(RPERF_SCHEMA_VERSION));
	err |= json_object_set_new(root, "clock",
				   rperf_rpt_json_clock(info->clock,
							info->selftest));
	err |= json_object_set_new(root, "platform",
				   rperf_rpt_json_platform(info->platform));
	err |= json_object_set_new(root, "devices",
				   json_devices(info->devices));
	if (info->preflight)
		err |= rperf_rpt_json_host(root, NULL, info->preflight);
	if (info->devices && info->devices->list_errno != 0) {
		int e = info->devices->list_errno;

		err |= json_object_set_new(root, "devices_errno",
					   json_integer(e));
		err |= json_object_set_new(root, "devices_note",
					   rperf_rpt_json_str(devices_note(e)));
	}
	return rperf_rpt_json_emit(f, rperf_rpt_json_done(root, err));
}
