/* SPDX-License-Identifier: BSD-2-Clause */
#define _GNU_SOURCE
#include "twohost/twohost_place.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "engine/spec.h"
#include "host/place.h"
#include "host/preflight.h"
#include "verbs/verbs.h"

#define BUSY_SAMPLE_MS 50

static void fill_platform(const struct rperf_twohost_host *h, const char *dev,
			  struct rperf_platform *plat)
{
	snprintf(plat->device, sizeof(plat->device), "%s", dev);
	snprintf(plat->fw_ver, sizeof(plat->fw_ver), "%s", h->nic.fw_ver);
	snprintf(plat->pcie_speed, sizeof(plat->pcie_speed), "%s",
		 h->nic.pcie_speed);
	plat->pcie_width = h->nic.pcie_width;
}

void rperf_twohost_say_preflight(const struct rperf_twohost_host *h,
				 const struct rperf_say *say)
{
	const struct rperf_preflight *pf = &h->preflight;

	for (size_t i = 0; i < pf->n && i < RPERF_MAX_CHECKS; i++)
		if (!pf->c[i].ok)
			rperf_say(say, "warning: preflight %s: %s",
				  pf->c[i].check, pf->c[i].detail);
}

int rperf_twohost_place(const struct rperf_cmdline *cfg,
			struct rperf_twohost_host *h,
			struct rperf_platform *plat, struct rperf_err *e)
{
	struct rperf_place_req req = { cfg->sel.cpu, cfg->sel.cpu_node,
				       cfg->sel.mem_node,
				       rperf_place_affinity_restricted() };
	struct rperf_preflight_in in = { .sys = "/sys",
					 .proc = "/proc",
					 .busy_sample_ms = BUSY_SAMPLE_MS };
	char dev[64], msg[320];
	int rc;

	memset(h, 0, sizeof(*h));
	rperf_platform_collect(plat);
	/* no device here: dev_open says so later, with the accepted names */
	if (rperf_dev_resolve_name(cfg->sel.device, dev, sizeof(dev)) ||
	    rperf_nic_locality(in.sys, in.proc, dev, &h->nic))
		h->nic.numa_node = -1;
	rc = rperf_place_decide(&req, h->nic.numa_node,
				rperf_place_node_of_cpu(cfg->sel.cpu),
				rperf_place_nnodes(), &h->place, msg,
				sizeof(msg));
	if (!rc)
		rc = rperf_place_apply(&h->place, msg, sizeof(msg));
	if (rc)
		return rperf_err_set(e, RPERF_ERRC_USAGE, rc, "%s", msg);
	if (cfg->sel.hugepages >= 0 && cfg->sel.hugepages < RPERF_HUGEPAGES_N)
		snprintf(h->place.hugepages, sizeof(h->place.hugepages), "%s",
			 rperf_hugepage_names[cfg->sel.hugepages].name);
	fill_platform(h, dev, plat);
	if (!dev[0])
		return 0; /* no device: the run fails at dev_open */
	in.cpu = h->place.cpu >= 0 ? h->place.cpu : sched_getcpu();
	in.nic = &h->nic;
	in.place = &h->place;
	rperf_preflight_run(&in, &h->preflight);
	return 0;
}

bool rperf_twohost_remote_warning(const struct rperf_twohost_host *h, char *buf,
				  size_t len)
{
	const struct rperf_placement *p = &h->place;

	if (!p->remote)
		return false;
	snprintf(
		buf, len,
		"remote placement: the NIC is on node %d, the measuring thread on node %d (%s), its buffers on node %d (%s)",
		p->nic_node, p->cpu_node, p->cpu_source, p->mem_node,
		p->mem_source);
	return true;
}

int rperf_twohost_place_client(const struct rperf_cmdline *cfg,
			       struct rperf_twohost_host *h,
			       struct rperf_platform *plat,
			       struct rperf_twohost_notes *notes,
			       struct rperf_err *e)
{
	char remote[256];
	int rc = rperf_twohost_place(cfg, h, plat, e);

	if (!rc && rperf_twohost_remote_warning(h, remote, sizeof(remote)))
		rperf_twohost_warn(notes, "%s", remote);
	return rc;
}
