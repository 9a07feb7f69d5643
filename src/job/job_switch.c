/* SPDX-License-Identifier: BSD-2-Clause */
/* [switch NAME]: counters = CMD, the hook that reads any switch's counters
 * (job.h; run by the controller, src/run/run_hook.c). */
#include "job/job_priv.h"

#include <string.h>

int job_switch_add(struct rperf_job *job, const struct job_sect *s,
		   const struct job_msg *m)
{
	struct rperf_job_switch *w = &job->switches[job->nswitches];

	if (job->nswitches == RPERF_JOB_MAX_SWITCHES)
		return job_fail(m, s->line, s, NULL,
				"too many switches (at most %d)",
				RPERF_JOB_MAX_SWITCHES);
	memset(w, 0, sizeof(*w));
	memcpy(w->name, s->name, sizeof(w->name));
	w->line = s->line;
	for (size_t i = 0; i < s->nkv; i++) {
		const struct job_kv *kv = &s->kv[i];
		size_t len = strlen(kv->val);

		if (strcmp(kv->key, "counters"))
			return job_fail(
				m, kv->line, s, kv->key,
				"unknown key; a [switch NAME] takes counters = CMD (a command printing 'name value' lines)");
		if (!len || len >= sizeof(w->counters))
			return job_fail(
				m, kv->line, s, kv->key,
				"give a command of 1 to %d characters, e.g. counters = /usr/local/bin/port-counters sw1",
				RPERF_JOB_CMD_LEN - 1);
		memcpy(w->counters, kv->val, len + 1);
	}
	if (!w->counters[0])
		return job_fail(
			m, s->line, s, NULL,
			"no 'counters' key; add counters = CMD, a command printing 'name value' lines");
	for (size_t i = 0; i < job->nhosts; i++)
		if (!strcmp(job->hosts[i].name, w->name))
			return job_fail(
				m, s->line, s, NULL,
				"a host has this name too; counters are named NAME:counter, so give the switch its own name");
	job->nswitches++;
	return 0;
}
