/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A rate as text with three significant digits and a unit that keeps them:
 * Gb/s from 1 Gb/s up, Mb/s below ("9.87 Gb/s", "352 Mb/s", "3.52 Mb/s",
 * "0.357 Mb/s"); decimal units (1 Gb/s = 10^9 bit/s). Pure, unit tested.
 */
#ifndef RPERF_RATE_TEXT_H
#define RPERF_RATE_TEXT_H

#include <stddef.h>

/* @gbps (>= 0; NaN or negative: "?") into @b of @n bytes. */
void rperf_rate_text(char *b, size_t n, double gbps);

#endif
