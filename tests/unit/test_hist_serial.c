// SPDX-License-Identifier: BSD-2-Clause
/*
 * Unit tests of histogram serialization: round trip, ENOSPC sizing, every
 * truncation and bit flip, semantically bad fields under a valid CRC, and
 * (with RPERF_HIST_CORPUS=dir) writing the fuzzer seed corpus. Shared
 * helpers are in hist_fixture.h.
 */
#include "hist_fixture.h"

static void test_serial_roundtrip(void **state)
{
	struct rperf_hist *h = make(NEGATIVE, 300000, 31), *d;
	uint8_t *buf, *buf2;
	size_t len, len2, need = 0;

	(void)state;
	rperf_hist_record(h, INT64_MIN);
	rperf_hist_record(h, INT64_MAX);
	len = rperf_hist_serialized_size(h);
	buf = malloc(len);
	buf2 = malloc(len);
	assert_true(buf && buf2);
	assert_int_equal(rperf_hist_serialize(h, NULL, 0, &need), ENOSPC);
	assert_int_equal(need, len);
	assert_int_equal(rperf_hist_serialize(h, buf, len - 1, &need), ENOSPC);
	assert_int_equal(need, len);
	assert_int_equal(rperf_hist_serialize(h, buf, len, &need), 0);
	assert_int_equal(need, len);
	assert_int_equal(rperf_hist_deserialize(buf, len, &d), 0);
	assert_same(h, d);
	assert_int_equal(rperf_hist_serialize(d, buf2, len, &len2), 0);
	assert_int_equal(len2, len);
	assert_memory_equal(buf, buf2, len);
	rperf_hist_destroy(d);
	rperf_hist_destroy(h);
	free(buf);
	free(buf2);
}

static void expect_bad(const uint8_t *buf, size_t len)
{
	struct rperf_hist *d = NULL;

	assert_int_equal(rperf_hist_deserialize(buf, len, &d), EBADMSG);
	assert_null(d);
}

static struct rperf_hist *make_small(void)
{
	struct rperf_hist *h = make(UNIFORM, 0, 0);
	static const int64_t vals[] = { -70000, -3, 0, 0, 5, 300, 301, 1000000 };
	size_t i;

	for (i = 0; i < sizeof(vals) / sizeof(vals[0]); i++)
		rperf_hist_record(h, vals[i]);
	return h;
}

static void test_serial_hostile(void **state)
{
	struct rperf_hist *h = make_small();
	uint8_t buf[256], bad[257];
	size_t len, i, bit;

	(void)state;
	assert_int_equal(rperf_hist_serialize(h, buf, sizeof(buf), &len), 0);
	expect_bad(NULL, 0);
	for (i = 0; i < len; i++) /* every truncation */
		expect_bad(buf, i);
	memcpy(bad, buf, len);
	bad[len] = 0;
	expect_bad(bad, len + 1); /* trailing byte */
	for (i = 0; i < len; i++) { /* every single-bit and byte flip */
		for (bit = 0; bit <= 8; bit++) {
			memcpy(bad, buf, len);
			bad[i] ^= bit == 8 ? 0xff : (uint8_t)(1u << bit);
			expect_bad(bad, len);
		}
	}
	rperf_hist_destroy(h);
}

/* Re-seal a modified body with a valid CRC so the semantic checks run. */
static void seal(uint8_t *buf, size_t len)
{
	uint32_t crc = hist_crc32c(buf, len - 4);

	buf[len - 4] = (uint8_t)crc;
	buf[len - 3] = (uint8_t)(crc >> 8);
	buf[len - 2] = (uint8_t)(crc >> 16);
	buf[len - 1] = (uint8_t)(crc >> 24);
}

/* Accepted input must re-serialize to the same bytes. */
static void try_sealed(uint8_t *buf, size_t len)
{
	struct rperf_hist *d = NULL;
	uint8_t out[256];
	size_t olen;

	seal(buf, len);
	if (rperf_hist_deserialize(buf, len, &d))
		return;
	assert_int_equal(rperf_hist_serialize(d, out, sizeof(out), &olen), 0);
	assert_int_equal(olen, len);
	assert_memory_equal(out, buf, len);
	rperf_hist_destroy(d);
}

static void test_serial_semantic(void **state)
{
	/* offsets per hist_serial.c: count 12, min 13, max 21, nbuckets 61 */
	static const struct {
		size_t off;
		uint8_t flip;
	} bad_fields[] = {
		{ 12, 0x01 }, /* counts do not add up */
		{ 15, 0x10 }, /* min off its bucket */
		{ 23, 0x10 }, /* max off its bucket */
		{ 20, 0x80 }, /* min > max */
		{ 5, 0x07 }, /* bits out of range */
		{ 4, 0x03 }, /* version */
		{ 61, 0x01 }, /* bucket count vs body length */
		{ 62, 0x80 }, /* varint runs into the next field */
	};
	struct rperf_hist *h = make_small();
	uint8_t buf[256], bad[256];
	size_t len, i, bit;

	(void)state;
	assert_int_equal(rperf_hist_serialize(h, buf, sizeof(buf), &len), 0);
	assert_int_equal(buf[12], 8); /* count */
	for (i = 12; i < len - 4; i++) { /* flips with a valid CRC */
		for (bit = 0; bit < 8; bit++) {
			memcpy(bad, buf, len);
			bad[i] ^= (uint8_t)(1u << bit);
			try_sealed(bad, len);
		}
	}
	for (i = 0; i < sizeof(bad_fields) / sizeof(bad_fields[0]); i++) {
		memcpy(bad, buf, len);
		bad[bad_fields[i].off] ^= bad_fields[i].flip;
		seal(bad, len);
		expect_bad(bad, len);
	}
	rperf_hist_destroy(h);
}

static void write_seed(const char *dir, const char *name,
		       const struct rperf_hist *h)
{
	uint8_t buf[65536];
	char path[4096];
	size_t len;
	FILE *f;

	assert_int_equal(rperf_hist_serialize(h, buf, sizeof(buf), &len), 0);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(buf, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

/* RPERF_HIST_CORPUS=dir: write the fuzzer seeds (tests/fuzz/corpus/hist). */
static void test_write_corpus(void **state)
{
	const char *dir = getenv("RPERF_HIST_CORPUS");
	struct rperf_hist *h;

	(void)state;
	if (!dir)
		skip();
	h = make(UNIFORM, 0, 0);
	write_seed(dir, "empty", h);
	rperf_hist_destroy(h);
	h = make_small();
	write_seed(dir, "small", h);
	rperf_hist_record(h, INT64_MIN);
	rperf_hist_record(h, INT64_MAX);
	write_seed(dir, "extremes", h);
	rperf_hist_destroy(h);
	h = make(NEGATIVE, 2000, 41);
	write_seed(dir, "negative", h);
	rperf_hist_destroy(h);
	assert_int_equal(rperf_hist_create(RPERF_HIST_MIN_BITS, &h), 0);
	rperf_hist_record_n(h, 12345, 3);
	rperf_hist_record(h, -9);
	write_seed(dir, "bits2", h);
	rperf_hist_destroy(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_serial_roundtrip),
		cmocka_unit_test(test_serial_hostile),
		cmocka_unit_test(test_serial_semantic),
		cmocka_unit_test(test_write_corpus),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
