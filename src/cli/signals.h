/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef RPERF_CLI_SIGNALS_H
#define RPERF_CLI_SIGNALS_H

#include <signal.h>

/*
 * Install SIGINT/SIGTERM/SIGHUP handlers that only set the returned flag
 * (SIGHUP, an ssh session dropping, is a stop like SIGTERM: partial
 * results are written), and ignore SIGPIPE. The flag is the one piece of process-wide state: a signal
 * handler cannot reach anything else.
 */
volatile sig_atomic_t *rperf_signals_install(void);

#endif
