/* SPDX-License-Identifier: BSD-2-Clause */
/* A rate as text, three significant digits (rate_text.h). */
#include <math.h>
#include <stdio.h>

#include "util/rate_text.h"

/* @v with three significant digits, v >= 0 */
static void sig3(char *b, size_t n, double v, const char *unit)
{
	int decimals = v >= 99.95 ? 0 : v >= 9.995 ? 1 : v >= 0.9995 ? 2 : 3;

	/* below 1: as many decimals as keep 3 digits (0.0357 -> 4) */
	for (double x = v; decimals >= 3 && x > 0 && x < 0.09995; x *= 10)
		decimals++;
	if (v == 0)
		decimals = 0;
	snprintf(b, n, "%.*f %s", decimals > 12 ? 12 : decimals, v, unit);
}

void rperf_rate_text(char *b, size_t n, double gbps)
{
	if (!(gbps >= 0) || isinf(gbps))
		snprintf(b, n, "?");
	else if (gbps >= 0.9995)
		sig3(b, n, gbps, "Gb/s");
	else
		sig3(b, n, gbps * 1e3, "Mb/s");
}
