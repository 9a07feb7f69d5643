/* SPDX-License-Identifier: BSD-2-Clause */
/* The defaults that depend on other options, applied after parsing. */
#include "cli/parse_defaults.h"

#include <stdint.h>
#include <string.h>

/*
 * rperf lat's warm-up when --warmup is not given: a tenth of -n, at least
 * 10 (or -n itself when smaller) and at most 1000; 1000 with -D. So
 * `-a -n 200` warms up 20 samples per size, not 1000.
 */
static uint64_t warmup_default(const struct rperf_cmdline *cfg)
{
	uint64_t w = cfg->spec.test.iters / 10;

	if (cfg->global.duration_ns || w > RPERF_WARMUP_MAX)
		return RPERF_WARMUP_MAX;
	if (w < 10)
		w = cfg->spec.test.iters < 10 ? cfg->spec.test.iters : 10;
	return w;
}

void rperf_cli_defaults_after(struct rperf_cmdline *cfg, bool warmup_given)
{
	static const double pct[] = { 50, 99, 99.9, 99.99 };

	if (cfg->all_sizes) {
		cfg->nsizes = 0;
		for (uint64_t s = 2;
		     s <= (cfg->all_max ? cfg->all_max : 8ull << 20); s <<= 1)
			cfg->sizes[cfg->nsizes++] = s;
	} else if (!cfg->nsizes) {
		/* perftest's defaults: ib_*_bw 65536 B, rperf lat 64 B */
		cfg->sizes[0] = cfg->cmd == RPERF_CMD_BW ? 65536 : 64;
		cfg->nsizes = 1;
	}
	if (!cfg->npercentiles) {
		memcpy(cfg->percentiles, pct, sizeof(pct));
		cfg->npercentiles = sizeof(pct) / sizeof(pct[0]);
	}
	if (!warmup_given && cfg->cmd == RPERF_CMD_LAT) /* bw: none */
		cfg->spec.warmup_samples = warmup_default(cfg);
	if (cfg->global.duration_ns)
		cfg->spec.test.iters = 0;
}
