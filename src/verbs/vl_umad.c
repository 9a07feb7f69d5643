/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Reading a local port's SL->VL and VL arbitration tables with SMPs
 * through the kernel's user MAD interface (/dev/infiniband/umadN, the
 * ABI of <rdma/ib_user_mad.h>; no libibumad/libibmad needed). A directed
 * route SubnGet with hop count 0 reaches the local port whether or not
 * the subnet manager has given it a LID. Needs read/write access to the
 * umad device: root, or the rdma group on most distributions.
 */
#include "verbs/vl.h"

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

#define UMAD_MAX 64
#define SMP_TIMEOUT_MS 1000
#define PERMISSIVE_LID 0xffff

struct umad_msg {
	struct ib_user_mad_hdr hdr;
	uint8_t mad[RPERF_MAD_SIZE];
};

/* The umadN of (@dev, @port) from /sys/class/infiniband_mad; -1 if none. */
static int umad_index(const char *dev, int port)
{
	char rel[64], name[64];
	long p;

	for (int i = 0; i < UMAD_MAX; i++) {
		snprintf(rel, sizeof(rel), "class/infiniband_mad/umad%d/ibdev",
			 i);
		if (rperf_read_line("/sys", rel, name, sizeof(name)))
			continue;
		snprintf(rel, sizeof(rel), "class/infiniband_mad/umad%d/port",
			 i);
		if (strcmp(name, dev) == 0 &&
		    !rperf_read_long("/sys", rel, &p) && p == port)
			return i;
	}
	return -1;
}

static void put_be16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

/* A directed-route SubnGet(@attr, @mod) with hop count 0. */
static void build_get(struct umad_msg *m, uint32_t agent, uint16_t attr,
		      uint32_t mod, uint32_t tid)
{
	memset(m, 0, sizeof(*m));
	m->hdr.id = agent;
	m->hdr.timeout_ms = SMP_TIMEOUT_MS;
	m->hdr.retries = 2;
	m->hdr.lid = htons(PERMISSIVE_LID);
	m->mad[0] = 1; /* base version */
	m->mad[1] = 0x81; /* SubnMgmt, directed route */
	m->mad[2] = 1; /* class version */
	m->mad[3] = 0x01; /* Get */
	m->mad[12] = (uint8_t)(tid >> 24);
	m->mad[13] = (uint8_t)(tid >> 16);
	m->mad[14] = (uint8_t)(tid >> 8);
	m->mad[15] = (uint8_t)tid;
	put_be16(m->mad + 16, attr);
	m->mad[20] = (uint8_t)(mod >> 24);
	m->mad[21] = (uint8_t)(mod >> 16);
	m->mad[22] = (uint8_t)(mod >> 8);
	m->mad[23] = (uint8_t)mod;
	put_be16(m->mad + 32, PERMISSIVE_LID); /* DrSLID */
	put_be16(m->mad + 34, PERMISSIVE_LID); /* DrDLID */
}

/* One SMP round trip on @fd; the response's 64 data bytes into @data. */
static int smp_get(int fd, uint32_t agent, uint16_t attr, uint32_t mod,
		   uint8_t *data, char *why, size_t whylen)
{
	struct umad_msg m;
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	const uint8_t *d;
	uint32_t tid = (uint32_t)time(NULL) ^ ((uint32_t)attr << 16) ^ mod;
	ssize_t n;
	int rc;

	build_get(&m, agent, attr, mod, tid);
	if (write(fd, &m, sizeof(m)) != (ssize_t)sizeof(m)) {
		rc = errno ? errno : EIO;
		snprintf(why, whylen, "sending the SMP: %s", strerror(rc));
		return rc;
	}
	rc = poll(&pfd, 1, 3 * SMP_TIMEOUT_MS);
	if (rc <= 0) {
		snprintf(why, whylen, "no SMP response (%s)",
			 rc ? strerror(errno) : "timeout");
		return rc ? errno : ETIMEDOUT;
	}
	n = read(fd, &m, sizeof(m));
	if (n < (ssize_t)sizeof(m.hdr) || m.hdr.status) {
		snprintf(why, whylen, "SMP failed (status %u)", m.hdr.status);
		return m.hdr.status ? (int)m.hdr.status : EIO;
	}
	rc = rperf_smp_data(m.mad, (size_t)n - sizeof(m.hdr), attr, &d, why,
			    whylen);
	if (!rc)
		memcpy(data, d, RPERF_SMP_DATA_LEN);
	return rc;
}

static int umad_open(const char *dev, int port, uint32_t *agent, char *why,
		     size_t whylen)
{
	struct ib_user_mad_reg_req req;
	char path[64];
	int idx = umad_index(dev, port), fd, rc;

	if (idx < 0) {
		snprintf(why, whylen, "no umad device for %s port %d", dev,
			 port);
		return ENODEV;
	}
	snprintf(path, sizeof(path), "/dev/infiniband/umad%d", idx);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		rc = errno;
		snprintf(
			why, whylen,
			"%s: %s (needs read/write access: root or the rdma group)",
			path, strerror(rc));
		return -rc;
	}
	memset(&req, 0, sizeof(req)); /* qpn 0 (SMI), no unsolicited class */
	if (ioctl(fd, IB_USER_MAD_ENABLE_PKEY) < 0 ||
	    ioctl(fd, IB_USER_MAD_REGISTER_AGENT, &req) < 0) {
		rc = errno;
		snprintf(why, whylen, "%s: registering a MAD agent: %s", path,
			 strerror(rc));
		close(fd);
		return -rc;
	}
	*agent = req.id;
	return fd;
}

int rperf_vl_read_tables(const char *dev, int port, struct rperf_sl2vl *t,
			 struct rperf_vlarb_block *low,
			 struct rperf_vlarb_block *high, char *why,
			 size_t whylen)
{
	uint8_t data[RPERF_SMP_DATA_LEN];
	uint32_t agent = 0;
	int fd, rc;

	if (!rperf_safe_name(dev)) {
		snprintf(why, whylen, "bad device name");
		return EINVAL;
	}
	fd = umad_open(dev, port, &agent, why, whylen);
	if (fd < 0)
		return -fd;
	rc = smp_get(fd, agent, RPERF_ATTR_SL2VL, 0, data, why, whylen);
	if (!rc)
		rc = rperf_sl2vl_decode(data, sizeof(data), t);
	if (!rc && low &&
	    !smp_get(fd, agent, RPERF_ATTR_VLARB, 1, data, why, whylen))
		rperf_vlarb_decode(data, sizeof(data), low);
	if (!rc && high &&
	    !smp_get(fd, agent, RPERF_ATTR_VLARB, 2, data, why, whylen))
		rperf_vlarb_decode(data, sizeof(data), high);
	ioctl(fd, IB_USER_MAD_UNREGISTER_AGENT, &agent);
	close(fd);
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
		if (want && strcmp(ibv_get_device_name(list[i]), want) != 0)
			continue;
		snprintf(out->dev, sizeof(out->dev), "%s",
			 ibv_get_device_name(list[i]));
		ctx = ibv_open_device(list[i]);
	}
	if (list)
		ibv_free_device_list(list);
	if (!ctx) {
		snprintf(out->why, sizeof(out->why), "cannot open %s",
			 out->dev[0] ? out->dev : "an RDMA device");
		return rc;
	}
	rc = ibv_query_port(ctx, (uint8_t)port, &pa) ? EIO : 0;
	ibv_close_device(ctx);
	if (rc) {
		snprintf(out->why, sizeof(out->why), "%s port %d: query failed",
			 out->dev, port);
		return rc;
	}
	out->roce = pa.link_layer == IBV_LINK_LAYER_ETHERNET;
	if (out->roce)
		return 0;
	out->read_rc = rperf_vl_read_tables(out->dev, port, &out->t, NULL, NULL,
					    out->why, sizeof(out->why));
	out->has_table = out->read_rc == 0;
	return 0;
}
