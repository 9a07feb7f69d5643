/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The start timer that the dry-run agents of one process share
 * (struct rperf_dry_starter_ops, src/agent/agent.h): one thread wakes at
 * each armed start instant and stamps every agent whose instant passed,
 * so N agents cost one wake-up, not N wake-ups queueing for the cores.
 * An agent's start is when that thread saw its instant pass (reported as
 * it is: the start skew). Used by fleet_agents (the scale benchmark) and
 * tests/unit/test_dry_run.c; an agent gets it with
 *
 *	cfg.dry_starter = &dry_starter_ops;
 *	cfg.dry_starter_arg = s;
 */
#ifndef RPERF_TESTS_DRY_STARTER_H
#define RPERF_TESTS_DRY_STARTER_H

#include <stdbool.h>
#include <stddef.h>

#include "agent/agent.h"

struct dry_starter;

/* The calls of an agent's engine; their arg: a struct dry_starter. */
extern const struct rperf_dry_starter_ops dry_starter_ops;

/* @nslots: at most that many experiments armed at once (one per agent).
 * 0 or errno. */
int dry_starter_create(size_t nslots, struct dry_starter **out);
/* After every agent using it is destroyed. NULL-safe. */
void dry_starter_destroy(struct dry_starter *s);
/* Whether its thread runs SCHED_FIFO (else: not allowed here). */
bool dry_starter_realtime(const struct dry_starter *s);

#endif
