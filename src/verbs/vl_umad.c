/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Reading a local port's SL->VL and VL arbitration tables with SMPs
 * through the kernel's user MAD interface (umad_priv.h). A directed route
 * SubnGet with hop count 0 reaches the local port whether or not the
 * subnet manager has given it a LID.
 */
#include "verbs/vl.h"
#include "verbs/umad_priv.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <infiniband/verbs.h>
#include <rdma/ib_user_mad.h>

#include "host/sysread.h"
#include "util/err.h"

int rperf_vl_read_tables(const char *dev, int port, struct rperf_sl2vl *t,
			 struct rperf_vlarb_block *low,
			 struct rperf_vlarb_block *high, char *why,
			 size_t whylen)
{
	uint8_t data[RPERF_SMP_DATA_LEN];
	uint32_t agent = 0;
	int fd, rc;

	if (!rperf_safe_name(dev))
		return rperf_fail(why, whylen, EINVAL, "bad device name");
	fd = rperf_umad_open(dev, port, 0, 0, &agent, why, whylen);
	if (fd < 0)
		return -fd;
	rc = rperf_umad_smp_get(fd, agent, RPERF_ATTR_SL2VL, 0, 0, data, why,
				whylen);
	if (!rc)
		rc = rperf_sl2vl_decode(data, sizeof(data), t);
	if (!rc && low &&
	    !rperf_umad_smp_get(fd, agent, RPERF_ATTR_VLARB, 1, 0, data, why,
				whylen))
		rperf_vlarb_decode(data, sizeof(data), low);
	if (!rc && high &&
	    !rperf_umad_smp_get(fd, agent, RPERF_ATTR_VLARB, 2, 0, data, why,
				whylen))
		rperf_vlarb_decode(data, sizeof(data), high);
	rperf_umad_close(fd, agent);
	return rc;
}

int rperf_vl_port_query(const char *want, int port, struct rperf_vl_port *out)
{
	struct ibv_device **list;
	struct ibv_context *ctx = NULL;
	struct ibv_port_attr pa;
	int n = 0, rc = ENODEV;

	memset(out, 0, sizeof(*out));
	list = ibv_get_device_list(&n);
	for (int i = 0; list && i < n && !ctx; i++) {
		if (want && *want &&
		    strcmp(ibv_get_device_name(list[i]), want) != 0)
			continue;
		snprintf(out->dev, sizeof(out->dev), "%s",
			 ibv_get_device_name(list[i]));
		ctx = ibv_open_device(list[i]);
	}
	if (list)
		ibv_free_device_list(list);
	if (!ctx)
		return rperf_fail(out->why, sizeof(out->why), rc,
				  "cannot open %s",
				  out->dev[0] ? out->dev : "an RDMA device");
	rc = ibv_query_port(ctx, (uint8_t)port, &pa) ? EIO : 0;
	ibv_close_device(ctx);
	if (rc)
		return rperf_fail(out->why, sizeof(out->why), rc,
				  "%s port %d: query failed", out->dev, port);
	out->roce = pa.link_layer == IBV_LINK_LAYER_ETHERNET;
	if (out->roce)
		return 0;
	out->read_rc = rperf_vl_read_tables(out->dev, port, &out->t, NULL, NULL,
					    out->why, sizeof(out->why));
	out->has_table = out->read_rc == 0;
	return 0;
}
