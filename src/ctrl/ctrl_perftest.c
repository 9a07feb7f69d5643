/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Recognise perftest's control exchange (linux-rdma/perftest,
 * perftest_communication.c) in the first bytes a peer sends, so that a
 * perftest peer on rperf's port is named instead of failing as "bad
 * magic". Over TCP its client writes first (its server reads first, then
 * answers the same way): exchange_versions() sends the version string in a
 * 16-byte field ("6.21" padded with NULs, MAX_VERSION); without a version
 * exchange the first message is the QP key "%04x:%04x:%06x:..."
 * (KEY_PRINT_FMT). rperf's frames start with the magic "RPFR" instead.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "ctrl/ctrl.h"

#define PERFTEST_VERSION_LEN 16 /* MAX_VERSION */

/* "D+.D+" then NULs up to @n bytes (at most the 16-byte field). */
static bool version_string(const uint8_t *b, size_t n, char *ver, size_t len)
{
	size_t digits = 0, dots = 0, text;

	if (n < 4 || !isdigit(b[0]))
		return false;
	for (text = 0; text < n && text < PERFTEST_VERSION_LEN && b[text];
	     text++) {
		if (b[text] == '.')
			dots++;
		else if (isdigit(b[text]))
			digits++;
		else
			return false;
	}
	if (!dots || digits < 2 || b[text - 1] == '.')
		return false;
	for (size_t k = text; k < n && k < PERFTEST_VERSION_LEN; k++)
		if (b[k])
			return false;
	snprintf(ver, len, "version %.*s", (int)text, (const char *)b);
	return true;
}

/* "xxxx:xxxx:" (lid, out_reads) of KEY_PRINT_FMT. */
static bool key_message(const uint8_t *b, size_t n)
{
	static const char shape[] = "hhhh:hhhh:";

	if (n < sizeof(shape) - 1)
		return false;
	for (size_t i = 0; i < sizeof(shape) - 1; i++)
		if (shape[i] == ':' ? b[i] != ':' : !isxdigit(b[i]))
			return false;
	return true;
}

bool rperf_ctrl_perftest_peer(const uint8_t *b, size_t n, char *what,
			      size_t whatlen)
{
	char ver[32];

	if (!b)
		return false;
	if (version_string(b, n, ver, sizeof(ver))) {
		if (what && whatlen)
			snprintf(
				what, whatlen,
				"the peer speaks perftest's protocol (%s), not rperf's",
				ver + strlen("version "));
		return true;
	}
	if (key_message(b, n)) {
		if (what && whatlen)
			snprintf(
				what, whatlen,
				"the peer speaks perftest's protocol (its QP key message), not rperf's");
		return true;
	}
	return false;
}
