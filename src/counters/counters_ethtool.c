/* SPDX-License-Identifier: BSD-2-Clause */
/* A netdev's pause/PFC statistics through the ETHTOOL_GSTATS ioctl, as
 * `ethtool -S` shows them (counters.h). */
#include "counters/counters.h"

#include <errno.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#define MAX_STATS 4096 /* a driver claiming more is not believed */

static int ethtool(int fd, const char *ifname, void *cmd)
{
	struct ifreq ifr;

	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	ifr.ifr_data = cmd;
	return ioctl(fd, SIOCETHTOOL, &ifr) ? errno : 0;
}

/* The number of statistics (ETHTOOL_GSSET_INFO, ETH_SS_STATS). */
static int nstats(int fd, const char *ifname, uint32_t *n)
{
	struct {
		struct ethtool_sset_info hdr;
		uint32_t len;
	} si;
	int rc;

	memset(&si, 0, sizeof(si));
	si.hdr.cmd = ETHTOOL_GSSET_INFO;
	si.hdr.sset_mask = 1ull << ETH_SS_STATS;
	rc = ethtool(fd, ifname, &si);
	if (rc)
		return rc;
	*n = (si.hdr.sset_mask & (1ull << ETH_SS_STATS)) ? si.len : 0;
	return *n > MAX_STATS ? ERANGE : 0;
}

static bool wanted(const char *name)
{
	return strstr(name, "pause") || strstr(name, "pfc") ||
	       strstr(name, "PAUSE") || strstr(name, "Pause");
}

static int take(const char *ifname, const struct ethtool_gstrings *s,
		const struct ethtool_stats *st, uint32_t n,
		struct rperf_ctr_reading *r)
{
	char name[RPERF_CTR_NAME], one[ETH_GSTRING_LEN + 1];
	int rc = 0;

	for (uint32_t i = 0; i < n && i < st->n_stats && !rc; i++) {
		memcpy(one, s->data + (size_t)i * ETH_GSTRING_LEN,
		       ETH_GSTRING_LEN);
		one[ETH_GSTRING_LEN] = '\0';
		if (wanted(one) && snprintf(name, sizeof(name), "%.40s/%s",
					    ifname, one) < (int)sizeof(name))
			rc = rperf_ctr_add(r, name, st->data[i], false);
	}
	return rc == E2BIG ? 0 : rc;
}

int rperf_ctr_read_ethtool(const char *ifname, struct rperf_ctr_reading *r,
			   char *err, size_t errlen)
{
	struct ethtool_gstrings *s = NULL;
	struct ethtool_stats *st = NULL;
	uint32_t n = 0;
	int fd, rc;

	if (!ifname || !*ifname || strlen(ifname) >= IFNAMSIZ)
		return EINVAL;
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		rc = errno;
		goto out;
	}
	rc = nstats(fd, ifname, &n);
	if (rc || !n)
		goto close_fd;
	s = calloc(1, sizeof(*s) + (size_t)n * ETH_GSTRING_LEN);
	st = calloc(1, sizeof(*st) + (size_t)n * sizeof(uint64_t));
	if (!s || !st) {
		rc = ENOMEM;
		goto free_bufs;
	}
	s->cmd = ETHTOOL_GSTRINGS;
	s->string_set = ETH_SS_STATS;
	s->len = n;
	st->cmd = ETHTOOL_GSTATS;
	st->n_stats = n;
	rc = ethtool(fd, ifname, s);
	if (!rc)
		rc = ethtool(fd, ifname, st);
	if (!rc)
		rc = take(ifname, s, st, n < s->len ? n : s->len, r);
free_bufs:
	free(s);
	free(st);
close_fd:
	close(fd);
out:
	if (rc)
		snprintf(err, errlen, "ethtool statistics of %s: %s", ifname,
			 strerror(rc));
	return rc;
}
