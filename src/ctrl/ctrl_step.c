/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * One step of a conversation through its table of allowed transitions;
 * anything not in the table is a protocol error (EPROTO). ERROR is allowed
 * in both directions from every state but the closed one and closes it.
 */
#include <errno.h>
#include <stddef.h>

#include "ctrl/ctrl.h"

int rperf_ctrl_transition_step(const struct rperf_ctrl_transition *tab,
			       size_t n, int closed, int *state,
			       enum rperf_ctrl_dir dir, enum rperf_ctrl_type t)
{
	size_t i;

	if (!tab || !state ||
	    (dir != RPERF_CTRL_SEND && dir != RPERF_CTRL_RECV) ||
	    (int)t < RPERF_CTRL_TYPE_MIN || (int)t > RPERF_CTRL_TYPE_MAX)
		return EINVAL;
	if (*state == closed)
		return EPROTO;
	if (t == RPERF_CTRL_ERROR) {
		*state = closed;
		return 0;
	}
	for (i = 0; i < n; i++) {
		if (tab[i].from == *state && tab[i].dir == dir &&
		    tab[i].type == t) {
			*state = tab[i].to;
			return 0;
		}
	}
	return EPROTO;
}
