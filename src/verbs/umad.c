/* SPDX-License-Identifier: BSD-2-Clause */
/* The user MAD interface: open, one round trip, directed-route SMPs
 * (umad_priv.h). */
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

#include "host/sysread.h"
#include "util/err.h"

#define UMAD_MAX 64

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

static void put_be32(uint8_t *p, uint32_t v)
{
	put_be16(p, (uint16_t)(v >> 16));
	put_be16(p + 2, (uint16_t)v);
}

void rperf_umad_get(struct rperf_umad_msg *m, uint32_t agent, uint8_t class,
		    uint16_t attr, uint32_t mod)
{
	struct timespec ts;
	uint32_t tid;

	/* TIDs only need to differ between outstanding requests */
	clock_gettime(CLOCK_MONOTONIC, &ts);
	tid = (uint32_t)ts.tv_nsec ^ (uint32_t)ts.tv_sec << 20 ^
	      ((uint32_t)attr << 16) ^ mod;

	memset(m, 0, sizeof(*m));
	m->hdr.id = agent;
	m->hdr.timeout_ms = RPERF_UMAD_TIMEOUT_MS;
	m->hdr.retries = 2;
	m->mad[0] = 1; /* base version */
	m->mad[1] = class;
	m->mad[2] = 1; /* class version */
	m->mad[3] = 0x01; /* Get */
	put_be32(m->mad + 12, tid);
	put_be16(m->mad + 16, attr);
	put_be32(m->mad + 20, mod);
}

int rperf_umad_rpc(int fd, struct rperf_umad_msg *m, size_t *len, char *why,
		   size_t whylen)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	ssize_t n;
	int rc;

	if (write(fd, m, sizeof(*m)) != (ssize_t)sizeof(*m)) {
		rc = errno ? errno : EIO;
		return rperf_fail(why, whylen, rc, "sending the MAD: %s",
				  strerror(rc));
	}
	rc = poll(&pfd, 1, 3 * RPERF_UMAD_TIMEOUT_MS);
	if (rc <= 0) {
		snprintf(why, whylen, "no MAD response (%s)",
			 rc ? strerror(errno) : "timeout");
		return rc ? errno : ETIMEDOUT;
	}
	n = read(fd, m, sizeof(*m));
	if (n < (ssize_t)sizeof(m->hdr) || m->hdr.status) {
		snprintf(why, whylen, "MAD failed (status %u)", m->hdr.status);
		return m->hdr.status ? (int)m->hdr.status : EIO;
	}
	*len = (size_t)n - sizeof(m->hdr);
	return 0;
}

int rperf_umad_smp_get(int fd, uint32_t agent, uint16_t attr, uint32_t mod,
		       uint8_t hop_port, uint8_t *data, char *why,
		       size_t whylen)
{
	struct rperf_umad_msg m;
	const uint8_t *d;
	size_t len;
	int rc;

	rperf_umad_get(&m, agent, 0x81 /* SubnMgmt, directed route */, attr,
		       mod);
	m.hdr.lid = htons(RPERF_PERMISSIVE_LID);
	if (hop_port) {
		m.mad[7] = 1; /* hop count; hop pointer 0 */
		m.mad[128 + 1] = hop_port; /* initial path [1] */
	}
	put_be16(m.mad + 32, RPERF_PERMISSIVE_LID); /* DrSLID */
	put_be16(m.mad + 34, RPERF_PERMISSIVE_LID); /* DrDLID */
	rc = rperf_umad_rpc(fd, &m, &len, why, whylen);
	if (!rc)
		rc = rperf_smp_data(m.mad, len, attr, &d, why, whylen);
	if (!rc)
		memcpy(data, d, RPERF_SMP_DATA_LEN);
	return rc;
}

int rperf_umad_open(const char *dev, int port, int qpn, uint8_t mgmt_class,
		    uint32_t *agent, char *why, size_t whylen)
{
	struct ib_user_mad_reg_req req;
	char path[64];
	int idx = umad_index(dev, port), fd, rc;

	if (idx < 0) {
		snprintf(why, whylen, "no umad device for %s port %d", dev,
			 port);
		return -ENODEV;
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
	memset(&req, 0, sizeof(req));
	req.qpn = (uint32_t)qpn;
	if (qpn) { /* the GSI: answers of @mgmt_class come to us */
		req.mgmt_class = mgmt_class;
		req.mgmt_class_version = 1;
	}
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

void rperf_umad_close(int fd, uint32_t agent)
{
	ioctl(fd, IB_USER_MAD_UNREGISTER_AGENT, &agent);
	close(fd);
}
