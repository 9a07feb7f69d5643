/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Input files (key file, job file, hosts map, compare inputs) are opened
 * only when they are regular files, and never block on the way: the open
 * itself is non-blocking (a FIFO without a writer would hang a plain
 * open()), the type is checked with fstat() before the first read.
 */
#ifndef RPERF_UTIL_REGULAR_H
#define RPERF_UTIL_REGULAR_H

#include <stdio.h>

/*
 * Open @path read-only if it is a regular file: 0 with *fd (blocking
 * again, O_CLOEXEC), or the open errno (*kind ""), or EISDIR (a
 * directory) / EINVAL with *kind naming what it is instead ("a FIFO",
 * "a directory", "a character device", "a block device", "a socket",
 * "not a regular file").
 */
int rperf_open_regular(const char *path, int *fd, const char **kind);
/* The same as a stdio stream (mode "r"): NULL with *rc and *kind set. */
FILE *rperf_fopen_regular(const char *path, int *rc, const char **kind);

#endif
