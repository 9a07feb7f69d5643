/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The RDMA device's retransmission-related hardware counters, read from
 * sysfs (SYSROOT/DEV/ports/PORT/hw_counters/NAME, SYSROOT normally
 * /sys/class/infiniband) before and after a run, so a report can say whether
 * RC retransmitted. Only the names in rperf_hwcnt_names() are read: rxe's
 * (completer_retry_err, rcvd_seq_err, retry_exceeded_err, ...) and mlx5's
 * (local_ack_timeout_err, packet_seq_err, out_of_sequence, ...). A device
 * that has none of them (or no hw_counters folder) is "unreadable": ENOENT.
 * The counters are the whole device's: other traffic on it counts too.
 */
#ifndef RPERF_VERBS_HWCNT_H
#define RPERF_VERBS_HWCNT_H

#include <stddef.h>
#include <stdint.h>

#define RPERF_HWCNT_MAX 16
#define RPERF_HWCNT_NAME 32
#define RPERF_HWCNT_SYSFS "/sys/class/infiniband"

struct rperf_hwcnt {
	unsigned int n;
	char name[RPERF_HWCNT_MAX][RPERF_HWCNT_NAME];
	uint64_t val[RPERF_HWCNT_MAX];
};

/* Read DEV's port PORT counters under @sysroot (NULL: RPERF_HWCNT_SYSFS).
 * 0; ENOENT (none of the names there) or EINVAL (bad argument, a value that
 * is not a number) with @err. */
int rperf_hwcnt_read(const char *sysroot, const char *dev, int port,
		     struct rperf_hwcnt *out, char *err, size_t errlen);

/* @after - @before for the names in both (a counter that went backwards,
 * e.g. reset, counts from 0). Returns the sum of the deltas. */
uint64_t rperf_hwcnt_delta(const struct rperf_hwcnt *before,
			   const struct rperf_hwcnt *after,
			   struct rperf_hwcnt *delta);

#endif
