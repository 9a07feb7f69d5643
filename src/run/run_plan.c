/* SPDX-License-Identifier: BSD-2-Clause */
/* The plan of a job without agents (run_plan.h). */
#include "run/run_plan.h"
#include "run/run_hook.h"

#include <errno.h>
#include <string.h>

#define START_IN_BASE_NS 200000000ull
#define START_IN_PER_AGENT_NS 1000000ull

uint64_t rperf_run_default_start_in_ns(size_t nagents)
{
	return START_IN_BASE_NS + START_IN_PER_AGENT_NS * nagents;
}

uint64_t rperf_run_planned_ns(const struct rperf_job *job)
{
	uint64_t m = 0;

	for (size_t i = 0; i < job->ninst; i++) {
		uint64_t e = rperf_spec_end_ns(&job->inst[i]);

		if (e > m)
			m = e;
	}
	return m;
}

void rperf_run_host_roles(const struct rperf_job *job,
			  const struct rperf_job_host *h, size_t *nsrc,
			  size_t *ndst)
{
	*nsrc = 0;
	*ndst = 0;
	for (size_t j = 0; j < job->ninst; j++) {
		*nsrc += !strcmp(job->inst[j].from, h->name);
		*ndst += !strcmp(job->inst[j].to, h->name);
	}
}

size_t rperf_run_nagents(const struct rperf_job *job)
{
	size_t n = 0;

	for (size_t i = 0; i < job->nhosts; i++) {
		size_t s, d;

		rperf_run_host_roles(job, &job->hosts[i], &s, &d);
		n += s || d;
	}
	return n;
}

uint64_t rperf_run_expected_ns(const struct rperf_job *job)
{
	return rperf_run_default_start_in_ns(rperf_run_nagents(job)) +
	       rperf_run_planned_ns(job);
}

static double sec(uint64_t ns)
{
	return (double)ns / 1e9;
}

static void plan_hosts(FILE *f, const struct rperf_job *job)
{
	fprintf(f, "%-16s %-32s %8s %6s\n", "host", "agent", "sources",
		"sinks");
	for (size_t i = 0; i < job->nhosts; i++) {
		const struct rperf_job_host *h = &job->hosts[i];
		char addr[300];
		size_t s, d;

		rperf_run_host_roles(job, h, &s, &d);
		if (h->local)
			snprintf(addr, sizeof(addr), "local (in rperf run)");
		else
			snprintf(addr, sizeof(addr), "%s%s%s:%u",
				 strchr(h->control, ':') ? "[" : "", h->control,
				 strchr(h->control, ':') ? "]" : "",
				 (unsigned)h->control_port);
		if (s || d)
			fprintf(f, "%-16s %-32s %8zu %6zu\n", h->name, addr, s,
				d);
		else
			fprintf(f, "%-16s %-32s %15s\n", h->name, addr,
				"not used");
	}
}

static void plan_instances(FILE *f, const struct rperf_job *job)
{
	fprintf(f, "%4s %-16s %4s %-33s %9s %9s %9s %9s\n", "id", "section",
		"kind", "from -> to", "start s", "warmup s", "window s",
		"end s");
	for (size_t i = 0; i < job->ninst; i++) {
		const struct rperf_gen_spec *s = &job->inst[i];
		char path[2 * RPERF_NAME_LEN + 8];

		snprintf(path, sizeof(path), "%s -> %s", s->from, s->to);
		fprintf(f, "%4u %-16s %4s %-33s %9.3f %9.3f %9.3f %9.3f\n",
			s->id, s->name, rperf_gen_kind_name(s->kind), path,
			sec(s->start_ns), sec(s->warmup_ns),
			sec(s->duration_ns),
			sec(s->start_ns + s->warmup_ns + s->duration_ns));
	}
}

int rperf_run_plan_text(FILE *f, const struct rperf_job *job)
{
	size_t nlsg = 0, nag = rperf_run_nagents(job);

	for (size_t i = 0; i < job->ninst; i++)
		nlsg += rperf_gen_latency(job->inst[i].kind);
	fprintf(f,
		"job %s: %zu host(s), %zu agent(s) to contact, %zu instance(s) (%zu LSG, %zu BSG), control-plane timeout %.3g s\n",
		job->path, job->nhosts, nag, job->ninst, nlsg,
		job->ninst - nlsg, sec(job->timeout_ns));
	plan_hosts(f, job);
	plan_instances(f, job);
	for (size_t i = 0; i < job->nswitches; i++)
		fprintf(f,
			"switch %-9s counters = %s (run every %.3f s, cut after as long)\n",
			job->switches[i].name, job->switches[i].counters,
			sec(run_hook_interval_ns(job)));
	fprintf(f,
		"expected: %.3f s from GO (start barrier %.3f s + planned end %.3f s), plus set-up (connect, PLAN, QPs) and the reports\n",
		sec(rperf_run_expected_ns(job)),
		sec(rperf_run_default_start_in_ns(nag)),
		sec(rperf_run_planned_ns(job)));
	return ferror(f) ? EIO : 0;
}
