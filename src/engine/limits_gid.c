/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The GID check (limits.h): a server connects its QPs only to the
 * endpoints of the host it talks to. On RoCE a GID is an IP address (an
 * IPv4-mapped or IPv6 one), and it must be the control connection's peer
 * address; the client binds its control connection to its RDMA address
 * (rperf_limits_gid_source) so that the two agree. On InfiniBand a GID is
 * no IP address: the endpoint must be on our subnet (same GID prefix) and
 * carry a LID when our port has one.
 */
#include "engine/limits.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "verbs/verbs.h"
#include "util/err.h"

static const uint8_t v4_mapped[12] = {
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff
};

bool rperf_limits_gid_is_addr(const uint8_t gid[16],
			      const struct sockaddr_storage *ss)
{
	if (ss->ss_family == AF_INET) {
		const struct sockaddr_in *a = (const void *)ss;

		return !memcmp(gid, v4_mapped, sizeof(v4_mapped)) &&
		       !memcmp(gid + 12, &a->sin_addr, 4);
	}
	if (ss->ss_family == AF_INET6) {
		const struct sockaddr_in6 *a = (const void *)ss;

		return !memcmp(gid, &a->sin6_addr, 16);
	}
	return false;
}

void rperf_limits_gid_text(const uint8_t gid[16], char *buf, size_t len)
{
	if (!memcmp(gid, v4_mapped, sizeof(v4_mapped)))
		inet_ntop(AF_INET, gid + 12, buf, (socklen_t)len);
	else
		inet_ntop(AF_INET6, gid, buf, (socklen_t)len);
}

/* The peer address as people write it (a v4-mapped IPv6 one as IPv4). */
static void addr_text(const struct sockaddr_storage *ss, char *buf, size_t len)
{
	const struct sockaddr_in6 *a6 = (const void *)ss;
	const struct sockaddr_in *a4 = (const void *)ss;
	const char *ok;

	if (ss->ss_family == AF_INET6)
		ok = IN6_IS_ADDR_V4MAPPED(&a6->sin6_addr) ?
			     inet_ntop(AF_INET, a6->sin6_addr.s6_addr + 12, buf,
				       (socklen_t)len) :
			     inet_ntop(AF_INET6, &a6->sin6_addr, buf,
				       (socklen_t)len);
	else
		ok = inet_ntop(AF_INET, &a4->sin_addr, buf, (socklen_t)len);
	if (!ok)
		snprintf(buf, len, "?");
}

static int check_ib(const struct rperf_dev *d, const uint8_t gid[16],
		    uint16_t lid, char *why, size_t whylen)
{
	char ours[INET6_ADDRSTRLEN], theirs[INET6_ADDRSTRLEN];

	if (d->port_attr.lid && !lid)
		return rperf_fail(
			why, whylen, EACCES,
			"endpoint without a LID, and this InfiniBand port (LID %u) needs one",
			(unsigned int)d->port_attr.lid);
	if (d->gid_index < 0 || !memcmp(gid, d->gid.raw, 8))
		return 0;
	rperf_limits_gid_text(gid, theirs, sizeof(theirs));
	rperf_limits_gid_text(d->gid.raw, ours, sizeof(ours));
	return rperf_fail(
		why, whylen, EACCES,
		"endpoint GID %s is not on this InfiniBand subnet (ours %s)",
		theirs, ours);
}

/* RoCE: @gid must be the address @ss: the control connection's peer's
 * (@whose NULL) or host @whose's. */
static int check_roce(const struct sockaddr_storage *ss, const char *whose,
		      const uint8_t gid[16], char *why, size_t whylen)
{
	char peer[INET6_ADDRSTRLEN], g[INET6_ADDRSTRLEN];

	if (rperf_limits_gid_is_addr(gid, ss))
		return 0;
	rperf_limits_gid_text(gid, g, sizeof(g));
	addr_text(ss, peer, sizeof(peer));
	if (whose)
		snprintf(
			why, whylen,
			"endpoint GID %s is not the address of host %s (%s): a third party's endpoint is never connected",
			g, whose, peer);
	else
		snprintf(
			why, whylen,
			"endpoint GID %s is not the control connection's address %s (a client binds its control connection to its RDMA address; a client's --bind must be that address)",
			g, peer);
	return EACCES;
}

static int check_all(const struct rperf_dev *d,
		     const struct sockaddr_storage *ss, const char *whose,
		     const struct rperf_endpoint *ep, size_t n, char *why,
		     size_t whylen)
{
	int rc = 0;

	for (size_t i = 0; !rc && i < n; i++)
		rc = d->roce ? check_roce(ss, whose, ep[i].gid, why, whylen) :
			       check_ib(d, ep[i].gid, ep[i].lid, why, whylen);
	return rc;
}

int rperf_limits_addr_parse(const char *text, struct sockaddr_storage *ss)
{
	struct sockaddr_in *a4 = (void *)ss;
	struct sockaddr_in6 *a6 = (void *)ss;

	memset(ss, 0, sizeof(*ss));
	if (inet_pton(AF_INET, text, &a4->sin_addr) == 1) {
		a4->sin_family = AF_INET;
		return 0;
	}
	if (inet_pton(AF_INET6, text, &a6->sin6_addr) == 1) {
		a6->sin6_family = AF_INET6;
		return 0;
	}
	return EINVAL;
}

int rperf_limits_gid_check_host(const struct rperf_dev *d, const char *host,
				const char *addr,
				const struct rperf_endpoint *ep, size_t n,
				char *why, size_t whylen)
{
	struct sockaddr_storage ss;

	if (d->roce && (!addr || rperf_limits_addr_parse(addr, &ss)))
		return rperf_fail(
			why, whylen, EACCES,
			"endpoint of host %s not connected: the plan gives no address for it (a controller older than this agent?)",
			host ? host : "the controller's");
	return check_all(d, &ss, host, ep, n, why, whylen);
}

int rperf_limits_gid_source(const struct rperf_dev *d, char *buf, size_t len)
{
	const uint8_t *gid = d->gid.raw;

	if (!d->roce || d->gid_index < 0)
		return ENOTSUP; /* InfiniBand: no IP address in a GID */
	if (!memcmp(gid, v4_mapped, sizeof(v4_mapped)))
		return inet_ntop(AF_INET, gid + 12, buf, (socklen_t)len) ?
			       0 :
			       errno;
	if (gid[0] == 0xfe && (gid[1] & 0xc0) == 0x80)
		return ENOTSUP; /* link-local: needs a scope, not bindable */
	return inet_ntop(AF_INET6, gid, buf, (socklen_t)len) ? 0 : errno;
}
