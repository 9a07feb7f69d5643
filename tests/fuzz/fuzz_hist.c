// SPDX-License-Identifier: BSD-2-Clause
/*
 * libFuzzer target for rperf_hist_deserialize(). Each input is tried twice:
 * as is, and with the header length and CRC-32C trailer fixed up so the
 * fuzzer reaches the semantic checks behind the checksum. Whatever is
 * accepted must re-serialize to the identical bytes, and every query must
 * behave (aborts on any inconsistency).
 *
 * clang -fsanitize=fuzzer,address,undefined -I include src/hist/\*.c \
 *       tests/fuzz/fuzz_hist.c -lm
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/hist/hist_internal.h"
#include "rperf/hist.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_queries(const struct rperf_hist *h)
{
	static const double ps[] = { 0, 1, 50, 90, 99, 99.9, 99.99, 100 };
	int64_t out[8], min = rperf_hist_min(h), max = rperf_hist_max(h);
	struct rperf_hist_iter it;
	size_t i;

	rperf_hist_percentiles(h, ps, 8, out);
	for (i = 0; i < 8; i++) {
		if (out[i] < min || out[i] > max ||
		    out[i] != rperf_hist_percentile(h, ps[i]) ||
		    (i && out[i] < out[i - 1]))
			abort();
	}
	rperf_hist_iter_init(&it, h);
	while (rperf_hist_next(&it))
		if (it.lo > it.hi || it.value < it.lo || it.value > it.hi)
			abort();
	if (it.cumulative != rperf_hist_count(h) ||
	    rperf_hist_count_negative(h) > rperf_hist_count_nonpositive(h) ||
	    rperf_hist_count_nonpositive(h) > rperf_hist_count(h))
		abort();
	(void)rperf_hist_mean(h);
	(void)rperf_hist_stdev(h);
}

static void try_input(const uint8_t *data, size_t size)
{
	struct rperf_hist *h = NULL, *sum = NULL;
	uint8_t *out;
	size_t len;

	if (rperf_hist_deserialize(data, size, &h))
		return;
	len = rperf_hist_serialized_size(h);
	out = malloc(len);
	if (!out || len != size || rperf_hist_serialize(h, out, len, &len) ||
	    len != size || memcmp(out, data, size))
		abort();
	free(out);
	check_queries(h);
	if (!rperf_hist_create(rperf_hist_bits(h), &sum)) {
		/* counts near 2^64 may not be doubled: EOVERFLOW, never a
		 * wrapped total */
		int rc = rperf_hist_merge(sum, h);

		if (!rc)
			rc = rperf_hist_merge(sum, h);
		if ((rc && rc != EOVERFLOW) ||
		    (!rc && rperf_hist_count(sum) != 2 * rperf_hist_count(h)))
			abort();
		check_queries(sum);
		rperf_hist_destroy(sum);
	}
	rperf_hist_destroy(h);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *fixed;
	uint32_t crc, blen;

	try_input(data, size);
	if (size < 16 || size - 16 > UINT32_MAX)
		return 0;
	fixed = malloc(size);
	if (!fixed)
		return 0;
	memcpy(fixed, data, size);
	blen = (uint32_t)(size - 16);
	memcpy(fixed, "RPHG", 4);
	fixed[8] = (uint8_t)blen;
	fixed[9] = (uint8_t)(blen >> 8);
	fixed[10] = (uint8_t)(blen >> 16);
	fixed[11] = (uint8_t)(blen >> 24);
	crc = hist_crc32c(fixed, size - 4);
	fixed[size - 4] = (uint8_t)crc;
	fixed[size - 3] = (uint8_t)(crc >> 8);
	fixed[size - 2] = (uint8_t)(crc >> 16);
	fixed[size - 1] = (uint8_t)(crc >> 24);
	try_input(fixed, size);
	free(fixed);
	return 0;
}
