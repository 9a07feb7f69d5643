/* SPDX-License-Identifier: BSD-2-Clause */
/* Output files checked before a measurement starts (lat, bw clients). */
#ifndef RPERF_CLI_OUT_CHECK_H
#define RPERF_CLI_OUT_CHECK_H

#include <stddef.h>

#include "job/cmdline.h"

/*
 * Can every output file of @cfg be written at the end (--out_json /
 * --out_json_file, --raw, --hist, --csv)? Each is probed the way the
 * atomic writer will write it. 0, or the errno with a one-line @err
 * naming the option, the file and the fix.
 */
int rperf_cli_check_outputs(const struct rperf_cmdline *cfg, char *err,
			    size_t errlen);

#endif
