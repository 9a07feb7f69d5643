/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * An integer field of a struct found by offset and width (1, 2, 4 or 8
 * bytes), as the key tables address them (job/options.h, engine/spec.c).
 */
#ifndef RPERF_UTIL_FIELD_H
#define RPERF_UTIL_FIELD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* The low @width bytes of @v at @p. */
static inline void rperf_field_store(void *p, size_t width, uint64_t v)
{
	uint8_t u8 = (uint8_t)v;
	uint16_t u16 = (uint16_t)v;
	uint32_t u32 = (uint32_t)v;

	if (width == 1)
		memcpy(p, &u8, 1);
	else if (width == 2)
		memcpy(p, &u16, 2);
	else if (width == 4)
		memcpy(p, &u32, 4);
	else
		memcpy(p, &v, 8);
}

/* The field at @p; a 4-byte one sign-extended when @is_int (an int whose
 * -1 means "automatic"), else zero-extended. */
static inline uint64_t rperf_field_load(const void *p, size_t width,
					bool is_int)
{
	uint8_t u8;
	uint16_t u16;
	uint32_t u32;
	uint64_t u64;

	if (width == 1)
		return memcpy(&u8, p, 1), u8;
	if (width == 2)
		return memcpy(&u16, p, 2), u16;
	if (width == 4) {
		memcpy(&u32, p, 4);
		return is_int ? (uint64_t)(int64_t)(int32_t)u32 : u32;
	}
	return memcpy(&u64, p, 8), u64;
}

#endif
