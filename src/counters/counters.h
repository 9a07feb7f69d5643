/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Counters as time series beside the latency. A reading is a
 * set of named values taken at one instant: the RDMA devices' sysfs
 * hw_counters and port counters (counters_sysfs.c), their netdevs'
 * pause/PFC statistics (counters_ethtool.c, the ETHTOOL_GSTATS ioctl), or
 * the `name value` lines of a switch's counters command (counters_hook.c).
 * A series turns readings taken at each interval tick into per-interval
 * deltas (a counter) or the readings themselves (a gauge: a queue's
 * backlog; shown for an interval as the reading nearest its middle). Names are as the
 * kernel (or the command) names them; values are unsigned 64-bit.
 */
#ifndef RPERF_COUNTERS_H
#define RPERF_COUNTERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RPERF_CTR_NAME 96 /* bytes, with the NUL */
#define RPERF_CTR_MAX 512 /* names in one reading or series */
#define RPERF_CTR_MISSING UINT64_MAX /* not read in that interval */
/* cells (rows x names) a series keeps: a REPORT frame stays below 1 MiB */
#define RPERF_CTR_MAX_CELLS 40000
#define RPERF_CTR_SYSFS "/sys/class/infiniband"

struct rperf_ctr_value {
	char name[RPERF_CTR_NAME];
	uint64_t v;
	bool gauge; /* a level (queue backlog), not a running count */
};

struct rperf_ctr_reading {
	size_t n;
	struct rperf_ctr_value e[RPERF_CTR_MAX];
};

/* Append one value: 0, EINVAL (empty or too long a name), E2BIG (full). */
int rperf_ctr_add(struct rperf_ctr_reading *r, const char *name, uint64_t v,
		  bool gauge);

/*
 * RDMA device @dev (NULL or "": every one) under @sysroot (NULL:
 * RPERF_CTR_SYSFS): the files of
 * DEV/hw_counters, DEV/ports/P/hw_counters and DEV/ports/P/counters as
 * "DEV/P/NAME" ("DEV/NAME" device-wide), then the pause/PFC statistics of
 * each port's netdev (DEV/ports/P/gid_attrs/ndevs/0) as "IFNAME/NAME".
 * A file that is not a number is skipped (some are not counters). 0, or
 * ENOENT with @err when there is no such device.
 */
int rperf_ctr_read_host(const char *sysroot, const char *dev,
			struct rperf_ctr_reading *r, char *err, size_t errlen);

/* The ethtool statistics of @ifname whose name holds "pause" or "pfc",
 * as "IFNAME/NAME". 0 (none is fine), or an errno with @err. */
int rperf_ctr_read_ethtool(const char *ifname, struct rperf_ctr_reading *r,
			   char *err, size_t errlen);

/*
 * `name value [gauge]` lines (a switch's counters command) into @r, with
 * @prefix ("" for none) before each name. Blank lines and lines starting
 * with '#' are skipped. 0, or EINVAL with @err naming the first bad line
 * (nothing of @text is kept then).
 */
int rperf_ctr_parse_lines(const char *text, const char *prefix,
			  struct rperf_ctr_reading *r, char *err,
			  size_t errlen);

/* Per-interval values: row i covers [start_ns[i], start_ns[i] + dur_ns[i])
 * (ns from the run's start, between two readings); v[i * ncols + c] is
 * column c's delta (gauge: its reading at the row's end) or
 * RPERF_CTR_MISSING. */
struct rperf_ctr_series {
	size_t ncols;
	char (*names)[RPERF_CTR_NAME];
	bool *gauge;
	size_t nrows, cap;
	uint64_t *start_ns, *dur_ns, *v;
	uint64_t dropped; /* rows not kept (RPERF_CTR_MAX_CELLS) */
	/* the sampler's state */
	bool primed;
	uint64_t prev_t;
	uint64_t *prev; /* [ncols], RPERF_CTR_MISSING: not read */
};

/*
 * A reading taken at @t_ns: the first one that worked fixes the columns
 * (names seen later are ignored); each later one appends the row since the
 * previous reading. @r NULL: the reading failed (the row is all missing,
 * and so are the next row's counters). A counter that went backwards (reset) counts
 * from 0. 0 or ENOMEM.
 */
int rperf_ctr_series_sample(struct rperf_ctr_series *s, uint64_t t_ns,
			    const struct rperf_ctr_reading *r);
/* Take @s's rows (names and values) into @to (emptied first). */
void rperf_ctr_series_move(struct rperf_ctr_series *to,
			   struct rperf_ctr_series *s);
void rperf_ctr_series_fini(struct rperf_ctr_series *s);
/* The row whose start is nearest @start_ns, within half of @span_ns; -1
 * when none: a counter's row for the interval [@start_ns, + @span_ns). */
long rperf_ctr_series_row_at(const struct rperf_ctr_series *s,
			     uint64_t start_ns, uint64_t span_ns);

/* A gauge's row for that interval: the one whose reading (its end) is
 * nearest the interval's middle, within it (a tie: the later); -1 when
 * none. */
long rperf_ctr_series_gauge_at(const struct rperf_ctr_series *s,
			       uint64_t start_ns, uint64_t span_ns);

/*
 * Spearman's rank correlation of @x and @y (@n pairs, ties ranked by
 * their mean rank). NaN when n < 3 or either side is constant.
 */
double rperf_ctr_spearman(const double *x, const double *y, size_t n);

#endif
