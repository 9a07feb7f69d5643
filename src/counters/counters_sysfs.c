/* SPDX-License-Identifier: BSD-2-Clause */
/* The RDMA devices' sysfs counters and their netdevs' pause/PFC statistics
 * (counters.h). */
#include "counters/counters.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/err.h"

/* A file holding one unsigned number: 0, or -1 (absent, not a number). */
static int read_u64(const char *path, uint64_t *out)
{
	char line[64], *end;
	FILE *f = fopen(path, "r");
	int rc = -1;

	if (!f)
		return -1;
	if (fgets(line, sizeof(line), f) && line[0] >= '0' && line[0] <= '9') {
		errno = 0;
		*out = strtoull(line, &end, 10);
		if (!errno && (!*end || *end == '\n'))
			rc = 0;
	}
	fclose(f);
	return rc;
}

static bool visible(const struct dirent *d)
{
	return d->d_name[0] != '.';
}

/* Every number in @dir as "@prefix/NAME". */
static int read_dir(const char *dir, const char *prefix,
		    struct rperf_ctr_reading *r)
{
	char path[512], name[RPERF_CTR_NAME];
	struct dirent **ents;
	int n = scandir(dir, &ents, NULL, alphasort), rc = 0;

	for (int i = 0; i < n; i++) {
		uint64_t v;

		if (!rc && visible(ents[i])) {
			snprintf(path, sizeof(path), "%s/%s", dir,
				 ents[i]->d_name);
			if (!read_u64(path, &v) &&
			    snprintf(name, sizeof(name), "%s/%s", prefix,
				     ents[i]->d_name) < (int)sizeof(name))
				rc = rperf_ctr_add(r, name, v, false);
		}
		free(ents[i]);
	}
	if (n >= 0)
		free(ents);
	return rc == E2BIG ? 0 : rc; /* a full reading keeps what it has */
}

/* The netdev of a RoCE port, "" on InfiniBand. */
static void port_netdev(const char *pdir, char *ifname, size_t len)
{
	char path[600];
	FILE *f;

	ifname[0] = '\0';
	snprintf(path, sizeof(path), "%.500s/gid_attrs/ndevs/0", pdir);
	f = fopen(path, "r");
	if (!f)
		return;
	if (!fgets(ifname, (int)len, f))
		ifname[0] = '\0';
	ifname[strcspn(ifname, "\n")] = '\0';
	fclose(f);
}

static int read_ports(const char *ddir, const char *dev,
		      struct rperf_ctr_reading *r)
{
	char pdir[384], sub[512], prefix[RPERF_CTR_NAME], ifn[64], e[128];
	struct dirent **ents;
	int n, rc = 0;

	snprintf(pdir, sizeof(pdir), "%s/ports", ddir);
	n = scandir(pdir, &ents, NULL, alphasort);
	for (int i = 0; i < n; i++) {
		if (!rc && visible(ents[i])) {
			snprintf(prefix, sizeof(prefix), "%.40s/%.16s", dev,
				 ents[i]->d_name);
			snprintf(sub, sizeof(sub), "%.300s/%.64s/hw_counters",
				 pdir, ents[i]->d_name);
			rc = read_dir(sub, prefix, r);
			snprintf(sub, sizeof(sub), "%.300s/%.64s/counters",
				 pdir, ents[i]->d_name);
			if (!rc)
				rc = read_dir(sub, prefix, r);
			snprintf(sub, sizeof(sub), "%.300s/%.64s", pdir,
				 ents[i]->d_name);
			port_netdev(sub, ifn, sizeof(ifn));
			/* a netdev without statistics is no error here */
			if (!rc && ifn[0])
				(void)rperf_ctr_read_ethtool(ifn, r, e,
							     sizeof(e));
		}
		free(ents[i]);
	}
	if (n >= 0)
		free(ents);
	return rc;
}

int rperf_ctr_read_host(const char *sysroot, const char *dev,
			struct rperf_ctr_reading *r, char *err, size_t errlen)
{
	char ddir[320], sub[352];
	struct dirent **ents;
	int n, rc = 0, ndev = 0;

	if (!sysroot)
		sysroot = RPERF_CTR_SYSFS;
	n = scandir(sysroot, &ents, NULL, alphasort);
	for (int i = 0; i < n; i++) {
		if (!rc && visible(ents[i]) &&
		    (!dev || !*dev || !strcmp(dev, ents[i]->d_name))) {
			ndev++;
			snprintf(ddir, sizeof(ddir), "%.200s/%.64s", sysroot,
				 ents[i]->d_name);
			snprintf(sub, sizeof(sub), "%s/hw_counters", ddir);
			rc = read_dir(sub, ents[i]->d_name, r);
			if (!rc)
				rc = read_ports(ddir, ents[i]->d_name, r);
		}
		free(ents[i]);
	}
	if (n >= 0)
		free(ents);
	if (!rc && !ndev)
		return rperf_fail(err, errlen, ENOENT,
				  "no RDMA device %s under %s",
				  dev && *dev ? dev : "at all", sysroot);
	if (rc)
		snprintf(err, errlen, "reading counters under %s: %s", sysroot,
			 strerror(rc));
	return rc;
}
