/* SPDX-License-Identifier: BSD-2-Clause */
/* The dry-run engine's side of the shared start timer (agent.h). */
#ifndef RPERF_AGENT_DRY_START_H
#define RPERF_AGENT_DRY_START_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct rperf_dry_starter;

/* Arm a slot at @at_ns (CLOCK_MONOTONIC): 0, or ENOSPC when every slot
 * is taken. */
int dry_starter_arm(struct rperf_dry_starter *s, uint64_t at_ns, size_t *slot);
/* Whether @slot's instant passed, and when the starter saw it pass. */
bool dry_starter_fired(struct rperf_dry_starter *s, size_t slot,
		       uint64_t *fired_ns);
/* Give @slot back (armed or not). */
void dry_starter_release(struct rperf_dry_starter *s, size_t slot);

#endif
