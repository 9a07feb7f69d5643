/* SPDX-License-Identifier: BSD-2-Clause */
/* Device, port and GID choice. */
#include "verbs/verbs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/err.h"

static const uint8_t v4_mapped[12] = {
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff
};

static void list_names(struct ibv_device **list, int n, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int i = 0; i < n && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
					 i ? ", " : "",
					 ibv_get_device_name(list[i]));
}

static struct ibv_device *find_device(struct ibv_device **list, int n,
				      const char *name)
{
	for (int i = 0; i < n; i++)
		if (!name || !*name ||
		    strcmp(ibv_get_device_name(list[i]), name) == 0)
			return list[i];
	return NULL;
}

/* Rank a GID for the automatic choice: higher is better, 0 unusable. */
static int gid_rank(const struct ibv_gid_entry *e, bool ipv6)
{
	bool mapped = memcmp(e->gid.raw, v4_mapped, sizeof(v4_mapped)) == 0;
	bool link_local = e->gid.raw[0] == 0xfe &&
			  (e->gid.raw[1] & 0xc0) == 0x80;

	switch (e->gid_type) {
	case IBV_GID_TYPE_ROCE_V2:
		if (ipv6)
			return mapped ? 3 : link_local ? 2 : 4;
		return mapped ? 4 : link_local ? 2 : 3;
	case IBV_GID_TYPE_ROCE_V1:
		return 1;
	default:
		return 1;
	}
}

static int choose_gid(struct rperf_dev *d, const struct rperf_verbs_cfg *cfg,
		      char *err, size_t errlen)
{
	size_t max = (size_t)d->port_attr.gid_tbl_len * d->attr.phys_port_cnt;
	struct ibv_gid_entry *ent, *best = NULL;
	ssize_t n;
	int rank = 0;

	if (!d->roce && cfg->gid_index < 0) {
		d->gid_index = -1; /* IB: LID routing */
		return 0;
	}
	if (cfg->gid_index >= d->port_attr.gid_tbl_len)
		return rperf_fail(
			err, errlen, ERANGE,
			"-x/--gid-index: %d is out of range; accepted: 0 to %d on %s port %d",
			cfg->gid_index, d->port_attr.gid_tbl_len - 1, d->name,
			d->port);
	if (cfg->gid_index >= 0) {
		if (ibv_query_gid(d->ctx, (uint8_t)d->port, cfg->gid_index,
				  &d->gid) ||
		    !(d->gid.global.subnet_prefix | d->gid.global.interface_id))
			return rperf_fail(
				err, errlen, ERANGE,
				"-x/--gid-index: GID %d of %s port %d is empty; accepted: a populated index (see rperf info)",
				cfg->gid_index, d->name, d->port);
		d->gid_index = cfg->gid_index;
		return 0;
	}
	ent = calloc(max ? max : 1, sizeof(*ent));
	if (!ent)
		return ENOMEM;
	n = ibv_query_gid_table(d->ctx, ent, max, 0);
	for (ssize_t i = 0; i < n; i++) {
		if ((int)ent[i].port_num != d->port)
			continue;
		if (gid_rank(&ent[i], cfg->ipv6) > rank) {
			rank = gid_rank(&ent[i], cfg->ipv6);
			best = &ent[i];
		}
	}
	if (best) {
		d->gid_index = (int)best->gid_index;
		d->gid = best->gid;
	}
	free(ent);
	if (!best)
		return rperf_fail(
			err, errlen, ENODEV,
			"%s port %d: no usable GID; accepted: a port with an IP address on its netdev (RoCE) or give -x",
			d->name, d->port);
	return 0;
}

static int open_ctx(struct rperf_dev *d, const struct rperf_verbs_cfg *cfg,
		    char *err, size_t errlen)
{
	struct ibv_device **list;
	struct ibv_device *dev;
	char names[256];
	int n = 0, rc = 0;

	errno = 0;
	list = ibv_get_device_list(&n);
	if (!list || n == 0) {
		rc = list ? ENODEV : errno ? errno : ENODEV;
		snprintf(
			err, errlen,
			"no RDMA device found (%s); accepted: a host with an RDMA device, or the Soft-RoCE lab (tests/lab/rxe-lab demo)",
			strerror(rc));
		if (list)
			ibv_free_device_list(list);
		return ENODEV;
	}
	dev = find_device(list, n, cfg->dev_name);
	if (!dev) {
		list_names(list, n, names, sizeof(names));
		snprintf(err, errlen,
			 "-d/--ib-dev: no device named '%s'; accepted: %s",
			 cfg->dev_name, names);
		ibv_free_device_list(list);
		return ENODEV;
	}
	snprintf(d->name, sizeof(d->name), "%s", ibv_get_device_name(dev));
	d->ctx = ibv_open_device(dev);
	if (!d->ctx)
		rc = errno ? errno : EIO;
	ibv_free_device_list(list);
	if (rc)
		snprintf(err, errlen, "%s: cannot open device: %s", d->name,
			 strerror(rc));
	return rc;
}

static int query_port(struct rperf_dev *d, const struct rperf_verbs_cfg *cfg,
		      char *err, size_t errlen)
{
	if (ibv_query_device(d->ctx, &d->attr))
		return rperf_fail(err, errlen, EIO,
				  "%s: ibv_query_device failed", d->name);
	if (cfg->ib_port < 1 || cfg->ib_port > d->attr.phys_port_cnt)
		return rperf_fail(
			err, errlen, ERANGE,
			"-i/--ib-port: %d is out of range; accepted: 1 to %u on %s",
			cfg->ib_port, d->attr.phys_port_cnt, d->name);
	d->port = cfg->ib_port;
	if (ibv_query_port(d->ctx, (uint8_t)d->port, &d->port_attr))
		return rperf_fail(err, errlen, EIO,
				  "%s port %d: ibv_query_port failed", d->name,
				  d->port);
	if (d->port_attr.state != IBV_PORT_ACTIVE)
		return rperf_fail(
			err, errlen, ENETDOWN,
			"%s port %d is not active; accepted: a port in state ACTIVE (see rperf info)",
			d->name, d->port);
	d->roce = d->port_attr.link_layer == IBV_LINK_LAYER_ETHERNET;
	return 0;
}

int rperf_dev_open(const struct rperf_verbs_cfg *cfg, struct rperf_dev **out,
		   char *err, size_t errlen)
{
	struct rperf_dev *d = calloc(1, sizeof(*d));
	int rc;

	if (!d)
		return ENOMEM;
	d->huge_shift = cfg->huge_shift;
	rc = open_ctx(d, cfg, err, errlen);
	if (rc)
		goto free_dev;
	rc = query_port(d, cfg, err, errlen);
	if (rc)
		goto close_ctx;
	rc = choose_gid(d, cfg, err, errlen);
	if (rc)
		goto close_ctx;
	d->pd = ibv_alloc_pd(d->ctx);
	if (!d->pd) {
		rc = errno ? errno : ENOMEM;
		snprintf(err, errlen, "%s: ibv_alloc_pd: %s", d->name,
			 strerror(rc));
		goto close_ctx;
	}
	*out = d;
	return 0;
close_ctx:
	ibv_close_device(d->ctx);
free_dev:
	free(d);
	return rc;
}

void rperf_dev_close(struct rperf_dev *d)
{
	if (!d)
		return;
	ibv_dealloc_pd(d->pd);
	ibv_close_device(d->ctx);
	free(d);
}

int rperf_port_mtu(const struct rperf_dev *d)
{
	return 128 << d->port_attr.active_mtu;
}

enum ibv_mtu rperf_mtu_enum(int bytes)
{
	switch (bytes) {
	case 256:
		return IBV_MTU_256;
	case 512:
		return IBV_MTU_512;
	case 1024:
		return IBV_MTU_1024;
	case 2048:
		return IBV_MTU_2048;
	case 4096:
		return IBV_MTU_4096;
	default:
		return 0;
	}
}

int rperf_dev_resolve_name(const char *want, char *out, size_t len)
{
	struct ibv_device **list;
	struct ibv_device *dev;
	int n = 0;

	out[0] = '\0';
	list = ibv_get_device_list(&n);
	if (!list)
		return errno ? errno : ENODEV;
	dev = n > 0 ? find_device(list, n, want) : NULL;
	if (dev)
		snprintf(out, len, "%s", ibv_get_device_name(dev));
	ibv_free_device_list(list);
	return dev ? 0 : ENODEV;
}
