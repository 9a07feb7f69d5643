/* SPDX-License-Identifier: BSD-2-Clause */
#include "lat/lat_wecho.h"

#include <errno.h>
#include <poll.h>

#include "gen/echo.h"

#define CHECK_SPINS 1024 /* polls of the byte between control checks */

int rperf_lat_wecho_loop(struct rperf_lat_conn *c, struct rperf_lat_wecho *w,
			 int fd, volatile sig_atomic_t *stop,
			 uint64_t *answered, struct rperf_err *e)
{
	struct pollfd pf = { .fd = fd, .events = POLLIN };
	char why[160];
	uint64_t spins = 0;

	if (!w->size || w->size > c->recv_buf.len || w->size > w->peer.size)
		return rperf_err_set(e, RPERF_ERRC_RUNTIME, EINVAL,
				     "pingpong write: no valid size");
	for (;;) {
		bool ans;
		int rc = rperf_echo_write(c->wire, &c->recv_buf, w->size,
					  w->peer.addr + w->peer.size,
					  w->peer.rkey, &w->seq, &ans, why,
					  sizeof(why));
		*answered += ans;
		if (!rc)
			rc = rperf_echo_reap(c->wire, "WRITE", why,
					     sizeof(why));
		if (rc)
			return rperf_err_set(e, RPERF_ERRC_RUNTIME, rc, "%s",
					     why);
		if (++spins % CHECK_SPINS)
			continue;
		if (*stop)
			return rperf_err_set(e, RPERF_ERRC_RUNTIME, EIO,
					     "interrupted");
		if (poll(&pf, 1, 0) > 0)
			return 0; /* DONE (or the client went away) */
	}
}
