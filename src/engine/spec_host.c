/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The host selection of a PLAN (struct rperf_host_sel in spec.h): device,
 * port, GID index, CPU, NUMA nodes and the buffers' huge pages, and the
 * NUMA node keys a generator spec shares with it.
 */
#include "engine/spec.h"
#include "engine/spec_priv.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ctrl/ctrl.h"
#include "util/err.h"

const struct rperf_name rperf_hugepage_names[] = {
	{ "none", NULL },
	{ "2M", NULL },
	{ "1G", NULL },
	{ NULL, NULL },
};

int rperf_hugepage_shift(int hugepages)
{
	return hugepages == RPERF_HUGEPAGES_1G ? 30 :
	       hugepages == RPERF_HUGEPAGES_2M ? 21 :
						 0;
}

bool rperf_spec_node_ok(int node)
{
	return node >= -1 && node <= RPERF_SPEC_MAX_NODE;
}

int rperf_spec_get_node(const json_t *o, const char *key, int *out, char *why,
			size_t wl)
{
	int64_t v;

	*out = -1;
	if (!json_object_get(o, key))
		return 0;
	if (rperf_ctrl_get_i64(o, key, -1, RPERF_SPEC_MAX_NODE, &v))
		return rperf_fail(why, wl, EBADMSG,
				  "'%s' not an integer in [-1, %d]", key,
				  RPERF_SPEC_MAX_NODE);
	*out = (int)v;
	return 0;
}

int rperf_spec_set_nodes(json_t *o, int cpu_node, int mem_node)
{
	int rc = rperf_ctrl_set_i64(o, "cpu_node", cpu_node);

	return rc ? rc : rperf_ctrl_set_i64(o, "mem_node", mem_node);
}

static bool host_sel_ok(const struct rperf_host_sel *h)
{
	return memchr(h->device, '\0', sizeof(h->device)) && h->port >= 1 &&
	       h->port <= 255 && h->gid_index >= -1 && h->gid_index <= 255 &&
	       h->cpu >= -1 && h->cpu < RPERF_SPEC_MAX_CPU &&
	       rperf_spec_node_ok(h->cpu_node) &&
	       rperf_spec_node_ok(h->mem_node) && h->hugepages >= 0 &&
	       h->hugepages < RPERF_HUGEPAGES_N;
}

/* "hugepages": optional, absent = none. */
static int get_hugepages(const json_t *o, int *out, char *why, size_t wl)
{
	char buf[8];

	*out = RPERF_HUGEPAGES_NONE;
	if (!json_object_get(o, "hugepages"))
		return 0;
	if (rperf_ctrl_get_str(o, "hugepages", buf, sizeof(buf)) ||
	    rperf_name_find(rperf_hugepage_names, RPERF_HUGEPAGES_N, buf, out))
		return rperf_fail(why, wl, EBADMSG,
				  "'hugepages' not one of none, 2M, 1G");
	return 0;
}

int rperf_host_sel_encode(const struct rperf_host_sel *h, json_t **out)
{
	json_t *o;
	int rc = 0;

	if (!h || !out || !host_sel_ok(h))
		return EINVAL;
	o = json_object();
	if (!o)
		return ENOMEM;
	if (rperf_ctrl_set_str(o, "device", h->device) ||
	    rperf_ctrl_set_i64(o, "port", h->port) ||
	    rperf_ctrl_set_i64(o, "gid_index", h->gid_index) ||
	    rperf_ctrl_set_i64(o, "cpu", h->cpu) ||
	    rperf_spec_set_nodes(o, h->cpu_node, h->mem_node) ||
	    (h->hugepages &&
	     rperf_ctrl_set_str(o, "hugepages",
				rperf_hugepage_names[h->hugepages].name)))
		rc = ENOMEM;
	return rperf_ctrl_json_out(o, rc, out);
}

int rperf_host_sel_decode(const json_t *obj, struct rperf_host_sel *h,
			  char *why, size_t whylen)
{
	struct rperf_host_sel t;
	int64_t port, gid, cpu;

	if (!obj || !h || !why || !whylen)
		return EINVAL;
	memset(&t, 0, sizeof(t));
	if (!json_is_object(obj) ||
	    rperf_ctrl_get_str(obj, "device", t.device, sizeof(t.device)))
		return rperf_fail(why, whylen, EBADMSG,
				  "'device' missing or not a string of "
				  "< %d bytes",
				  RPERF_NAME_LEN);
	if (rperf_ctrl_get_i64(obj, "port", 1, 255, &port))
		return rperf_fail(why, whylen, EBADMSG,
				  "'port' missing or not in [1, 255]");
	if (rperf_ctrl_get_i64(obj, "gid_index", -1, 255, &gid))
		return rperf_fail(why, whylen, EBADMSG,
				  "'gid_index' missing or not in [-1, 255]");
	if (rperf_ctrl_get_i64(obj, "cpu", -1, RPERF_SPEC_MAX_CPU - 1, &cpu))
		return rperf_fail(why, whylen, EBADMSG,
				  "'cpu' missing or not in [-1, %d]",
				  RPERF_SPEC_MAX_CPU - 1);
	t.port = (int)port;
	t.gid_index = (int)gid;
	t.cpu = (int)cpu;
	if (rperf_spec_get_node(obj, "cpu_node", &t.cpu_node, why, whylen) ||
	    rperf_spec_get_node(obj, "mem_node", &t.mem_node, why, whylen) ||
	    get_hugepages(obj, &t.hugepages, why, whylen))
		return EBADMSG;
	*h = t;
	return 0;
}
