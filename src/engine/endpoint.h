/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * One conversion between the verbs endpoint of a QP and its wire form
 * (ctrl's ENDPOINT), for every way a generator is connected: the engine's
 * instances and the two-host commands alike.
 */
#ifndef RPERF_ENGINE_ENDPOINT_H
#define RPERF_ENGINE_ENDPOINT_H

#include <stdint.h>

#include "ctrl/ctrl.h"
#include "verbs/verbs.h"

/* @qp's endpoint on @d at @mtu, plus @buf's address, key and access (may
 * be NULL). */
void rperf_endpoint_to_wire(const struct rperf_dev *d,
			    const struct rperf_qp *qp, int mtu,
			    const struct rperf_buf *buf,
			    struct rperf_ctrl_endpoint *out);
void rperf_endpoint_from_wire(const struct rperf_ctrl_endpoint *in,
			      struct rperf_endpoint *out);
/* IBV_ACCESS_REMOTE_* -> the wire's RPERF_EP_REMOTE_* bits. */
uint32_t rperf_endpoint_access_bits(int ibv_access);

#endif
