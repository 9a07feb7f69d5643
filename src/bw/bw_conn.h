/* SPDX-License-Identifier: BSD-2-Clause */
/* The RDMA side of an rperf bw connection (either end) and its endpoints. */
#ifndef RPERF_BW_CONN_H
#define RPERF_BW_CONN_H

#include <stddef.h>
#include <stdint.h>

#include "engine/spec.h"
#include "config/config.h"
#include "gen/rx.h"
#include "ctrl/ctrl.h"
#include "verbs/verbs.h"
#include "verbs/verbs_cm.h"

/* What the peer's ENDPOINT said: one endpoint per QP, its buffer. */
struct rperf_bw_peer {
	struct rperf_endpoint *ep; /* [nqp] */
	size_t nqp;
	uint64_t addr;
	uint32_t rkey;
	uint64_t size;
	struct rperf_ctrl_endpoint buf; /* as advertised (QP 0's fields) */
};

/* Both return 0 or an errno with a one-line @err (ERANGE: a depth above
 * the device's max_qp_wr, ENODEV: no such device). */
int rperf_bw_conn_client(struct rperf_gen_conn *c,
			 const struct rperf_cli_config *cfg, uint64_t max_size,
			 char *err, size_t errlen);
int rperf_bw_conn_server(struct rperf_gen_conn *c,
			 const struct rperf_cli_config *cfg,
			 const struct rperf_gen_spec *p, char *err,
			 size_t errlen);
void rperf_bw_conn_close(struct rperf_gen_conn *c);

/* ENDPOINT of all our QPs: QP 0's fields plus "qpns"/"psns" arrays. */
int rperf_bw_send_endpoints(struct rperf_ctrl_session *s,
			    const struct rperf_ctrl_io *io,
			    const struct rperf_gen_conn *c);
/* Receive the peer's ENDPOINT (exactly c->nqp QPs) into @peer (allocated;
 * free with rperf_bw_peer_free). EPROTO/EBADMSG with @why. */
int rperf_bw_recv_endpoints(struct rperf_ctrl_session *s,
			    const struct rperf_ctrl_io *io,
			    const struct rperf_gen_conn *c,
			    struct rperf_bw_peer *peer, char *why,
			    size_t whylen);
void rperf_bw_peer_free(struct rperf_bw_peer *peer);
/* Connect QP i to peer->ep[i] for every QP (-R: through rdma_cm). */
int rperf_bw_connect_all(struct rperf_gen_conn *c,
			 const struct rperf_bw_peer *peer, char *err,
			 size_t errlen);
/* Path MTU the QPs use towards @peer. */
int rperf_bw_path_mtu(const struct rperf_gen_conn *c,
		      const struct rperf_bw_peer *peer);

#endif
