/* SPDX-License-Identifier: BSD-2-Clause */
/* The RDMA side of an rperf lat connection, on either end. */
#ifndef RPERF_LAT_CONN_H
#define RPERF_LAT_CONN_H

#include <stddef.h>
#include <stdint.h>

#include "config/config.h"
#include "engine/spec.h"
#include "gen/nic_ts.h"
#include "verbs/verbs.h"
#include "verbs/verbs_cm.h"

struct rperf_lat_conn {
	struct rperf_verbs_cfg vcfg;
	struct rperf_dev *dev;
	struct rperf_qp *wire; /* to the peer */
	struct rperf_qp *loop_tx, *loop_rx; /* client only */
	struct rperf_buf send_buf; /* client: SEND source */
	struct rperf_buf recv_buf; /* receives land here (one buffer) */
	uint64_t max_size;
	unsigned int rx_depth;
	/* --verb: the remote access of the QPs and of recv_buf (client with
	 * write: the pingpong replies and the loopback WRITEs land there;
	 * server: what the client's verb needs) */
	int access;
	struct rperf_cm cm; /* -R: the wire QP's connection */
	/* client: whether the send CQs of wire and loop_tx carry NIC
	 * completion timestamps (--timestamps nic, or auto on a device that
	 * has them), and auto's note when not */
	struct rperf_nic_stamps stamps;
};

/*
 * Client: open the device, create the wire QP and the loopback pair (already
 * connected to each other), register buffers, post receives; with
 * --timestamps nic or auto, the send CQs with NIC completion timestamps
 * (nic on a device without them: ENOTSUP; auto: CPU stamps and ts_note
 * says why). Server: open
 * the device, create the wire QP with a completion channel, post receives.
 * Return 0 or an errno with a one-line @err.
 */
int rperf_lat_conn_client(struct rperf_lat_conn *c,
			  const struct rperf_cli_config *cfg, uint64_t max_size,
			  char *err, size_t errlen);
int rperf_lat_conn_server(struct rperf_lat_conn *c,
			  const struct rperf_cli_config *cfg,
			  const struct rperf_gen_spec *p, char *err,
			  size_t errlen);
void rperf_lat_conn_close(struct rperf_lat_conn *c);

#endif
