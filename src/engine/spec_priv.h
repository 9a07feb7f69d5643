/* SPDX-License-Identifier: BSD-2-Clause */
/* NUMA node keys, shared by the generator spec (spec.c) and the host
 * selection (spec_host.c). */
#ifndef RPERF_ENGINE_SPEC_PRIV_H
#define RPERF_ENGINE_SPEC_PRIV_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

/* -1 .. RPERF_SPEC_MAX_NODE */
bool rperf_spec_node_ok(int node);
/* An optional NUMA node key: absent = -1; present: an integer in
 * [-1, RPERF_SPEC_MAX_NODE]. 0 or EBADMSG with @why. */
int rperf_spec_get_node(const json_t *o, const char *key, int *out, char *why,
			size_t wl);
/* "cpu_node" and "mem_node": 0 or ENOMEM */
int rperf_spec_set_nodes(json_t *o, int cpu_node, int mem_node);

#endif
