/* SPDX-License-Identifier: BSD-2-Clause */
/* Retransmission-related hardware counters from sysfs (hwcnt.h). */
#include "verbs/hwcnt.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/err.h"

static const char *const names[] = {
	/* rxe */
	"completer_retry_err",
	"retry_exceeded_err",
	"retry_rnr_exceeded_err",
	"rcvd_seq_err",
	"out_of_seq_request",
	"duplicate_request",
	"rcvd_rnr_err",
	"send_rnr_err",
	/* mlx5 */
	"local_ack_timeout_err",
	"packet_seq_err",
	"out_of_sequence",
	"implied_nak_seq_err",
	"rnr_nak_retry_err",
	NULL,
};

/* One counter file: 0, ENOENT (absent) or EINVAL (not a number). */
static int read_one(const char *path, uint64_t *out)
{
	char line[64], *end;
	FILE *f = fopen(path, "r");
	int rc = 0;

	if (!f)
		return ENOENT;
	if (!fgets(line, sizeof(line), f)) {
		rc = EINVAL;
	} else {
		errno = 0;
		*out = strtoull(line, &end, 10);
		if (errno || end == line || (*end && *end != '\n'))
			rc = EINVAL;
	}
	fclose(f);
	return rc;
}

int rperf_hwcnt_read(const char *sysroot, const char *dev, int port,
		     struct rperf_hwcnt *out, char *err, size_t errlen)
{
	char path[512];

	memset(out, 0, sizeof(*out));
	if (!sysroot)
		sysroot = RPERF_HWCNT_SYSFS;
	if (!dev || !*dev || strchr(dev, '/') || port < 1)
		return rperf_fail(err, errlen, EINVAL,
				  "hw counters: bad device or port");
	for (size_t i = 0; names[i] && out->n < RPERF_HWCNT_MAX; i++) {
		uint64_t v;
		int rc;

		snprintf(path, sizeof(path), "%s/%s/ports/%d/hw_counters/%s",
			 sysroot, dev, port, names[i]);
		rc = read_one(path, &v);
		if (rc == ENOENT)
			continue;
		if (rc)
			return rperf_fail(err, errlen, rc,
					  "hw counters: %s is not a number",
					  path);
		snprintf(out->name[out->n], RPERF_HWCNT_NAME, "%s", names[i]);
		out->val[out->n++] = v;
	}
	if (!out->n)
		return rperf_fail(
			err, errlen, ENOENT,
			"no retransmission counters in %s/%s/ports/%d/hw_counters",
			sysroot, dev, port);
	return 0;
}

uint64_t rperf_hwcnt_delta(const struct rperf_hwcnt *before,
			   const struct rperf_hwcnt *after,
			   struct rperf_hwcnt *delta)
{
	uint64_t sum = 0;

	memset(delta, 0, sizeof(*delta));
	for (unsigned int i = 0; i < after->n; i++) {
		for (unsigned int j = 0; j < before->n; j++) {
			uint64_t d;

			if (strcmp(after->name[i], before->name[j]))
				continue;
			d = after->val[i] >= before->val[j] ?
				    after->val[i] - before->val[j] :
				    after->val[i];
			memcpy(delta->name[delta->n], after->name[i],
			       RPERF_HWCNT_NAME);
			delta->val[delta->n++] = d;
			sum += d;
			break;
		}
	}
	return sum;
}
