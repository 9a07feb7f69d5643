/* SPDX-License-Identifier: BSD-2-Clause */
/* rperf: thin main; everything lives in librperf (src/cli). */
#include "cli/cli.h"

int main(int argc, char **argv)
{
	return rperf_cli_main(argc, argv);
}
