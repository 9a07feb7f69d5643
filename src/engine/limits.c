/* SPDX-License-Identifier: BSD-2-Clause */
/* The server's resource and time limits per client (limits.h). */
#include "engine/limits.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "verbs/verbs.h"

#define PAGE 4096ull
#define SEND_WQE 512ull
#define RECV_WQE 64ull
#define CQE 128ull /* rxe: a kernel ib_wc rounded up; mlx5 64 */
#define QP_CTX 4096ull

static uint64_t pow2_at_least(uint64_t n)
{
	uint64_t p = 1;

	while (p < n && p < (1ull << 62))
		p <<= 1;
	return p;
}

static uint64_t round_up(uint64_t n, uint64_t unit)
{
	return (n + unit - 1) / unit * unit;
}

/* One queue: depth + 1 entries rounded to a power of two, in pages. */
static uint64_t ring(uint64_t depth, uint64_t entry)
{
	return round_up(pow2_at_least(depth + 1) * entry, PAGE);
}

void rperf_pin_estimate(const struct rperf_pin_req *r, struct rperf_pin_est *e)
{
	uint64_t page = r->huge_shift > 0 && r->huge_shift < 40 ?
				1ull << r->huge_shift :
				PAGE;
	uint64_t send = r->send_depth ? r->send_depth : 1;
	uint64_t recv = r->recv_depth ? r->recv_depth : 1;

	e->per_qp = ring(send, SEND_WQE + round_up(r->inline_size, 64)) +
		    ring(recv, RECV_WQE) + ring(send, CQE) + ring(recv, CQE) +
		    QP_CTX;
	e->bufs = round_up(r->buf_bytes ? r->buf_bytes : 1, page);
	e->total = r->qps * e->per_qp + e->bufs;
}

/* "MemAvailable:   1234 kB" of @root/proc/meminfo, bytes. */
static int mem_available(const char *root, uint64_t *out)
{
	char path[512], line[256];
	unsigned long long kb;
	int rc = ENOENT;
	FILE *f;

	snprintf(path, sizeof(path), "%s/proc/meminfo", root ? root : "");
	f = fopen(path, "r");
	if (!f)
		return errno;
	while (rc && fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1 &&
		    kb < (1ull << 50))
			*out = kb * 1024, rc = 0;
	fclose(f);
	return rc;
}

int rperf_limits_auto_memory(const char *root, uint64_t *out)
{
	uint64_t avail = 0;
	int rc = mem_available(root, &avail);

	*out = RPERF_LIMITS_MEM_FLOOR;
	if (rc)
		return rc;
	avail /= 4;
	*out = avail > RPERF_LIMITS_MEM_CAP   ? RPERF_LIMITS_MEM_CAP :
	       avail < RPERF_LIMITS_MEM_FLOOR ? RPERF_LIMITS_MEM_FLOOR :
						avail;
	return 0;
}

void rperf_limits_bytes(uint64_t n, char *buf, size_t len)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	double v = (double)n;
	int u = 0;

	while (v >= 1024 && u < 4)
		v /= 1024, u++;
	if (u == 0)
		snprintf(buf, len, "%" PRIu64 " B", n);
	else
		snprintf(buf, len, "%.*f %s",
			 v < 10	 ? 2 :
			 v < 100 ? 1 :
				   0,
			 v, unit[u]);
}
