/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * [mesh NAME] (job.h): the hosts of a port-pair latency matrix, its
 * schedule, the per-pair duration and warmup, and the LSG keys of every
 * pair (job_keys.c's table, as in [lsg]).
 */
#include "job/job_priv.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/schedule.h"
#include "util/units.h"

#define MESH_MAX_SAMPLES 100000000ull /* per pair */

const char *rperf_mesh_schedule_name(enum rperf_mesh_schedule s)
{
	return s == RPERF_MESH_CONCURRENT ? "concurrent" : "rounds";
}

struct mesh_ctx {
	struct rperf_job *job;
	struct rperf_job_mesh *mesh;
	struct job_gen hosts; /* the hosts key, parsed as a from list */
	struct rperf_gen_spec *lsg; /* where the LSG keys go */
	bool has_hosts;
	bool has_duration; /* the section has a duration key */
};

static int mesh_hosts(struct mesh_ctx *c, const char *v, char *why,
		      size_t whylen)
{
	if (!strcmp(v, "all") || !strcmp(v, "*"))
		return 0;
	c->has_hosts = true;
	return job_parse_from(c->job, &c->hosts, v, why, whylen);
}

/* schedule in [mesh] is the pair schedule (rounds | concurrent); the LSG
 * probe schedule ([lsg]'s closed | fixed:R | poisson:R) is probe_schedule. */
static int mesh_schedule(struct mesh_ctx *c, const char *v, char *why,
			 size_t whylen)
{
	struct rperf_sched probe;
	char ignored[8];

	if (!strcmp(v, "rounds") || !strcmp(v, "concurrent")) {
		c->mesh->schedule = strcmp(v, "rounds") ?
					    RPERF_MESH_CONCURRENT :
					    RPERF_MESH_ROUNDS;
		return 0;
	}
	if (!rperf_sched_parse(v, &probe, ignored, sizeof(ignored)))
		snprintf(
			why, whylen,
			"'%s' is an LSG probe schedule; in [mesh], schedule is the pair schedule (rounds or concurrent): write probe_schedule = %s",
			v, v);
	else
		snprintf(why, whylen,
			 "'%s' is not a choice; accepted: rounds, concurrent",
			 v);
	return EINVAL;
}

static int mesh_special(void *ctx, const struct job_kv *kv, char *why,
			size_t whylen)
{
	struct mesh_ctx *c = ctx;
	struct rperf_gen_spec *sp = &c->mesh->spec;
	double v;

	if (!strcmp(kv->key, "hosts"))
		return mesh_hosts(c, kv->val, why, whylen);
	if (!strcmp(kv->key, "parallel"))
		return rperf_parse_count(kv->val, 0, RPERF_JOB_MAX_HOSTS,
					 &c->mesh->parallel, why, whylen);
	if (!strcmp(kv->key, "statistic")) {
		if (!strcmp(kv->val, "p50") || !strcmp(kv->val, "p10")) {
			c->mesh->statistic = strcmp(kv->val, "p50") ?
						     RPERF_MESH_STAT_P10 :
						     RPERF_MESH_STAT_P50;
			return 0;
		}
		snprintf(why, whylen,
			 "'%s' is not a choice; accepted: p50, p10", kv->val);
		return EINVAL;
	}
	if (!strcmp(kv->key, "schedule"))
		return mesh_schedule(c, kv->val, why, whylen);
	if (!strcmp(kv->key, "probe_schedule"))
		return rperf_sched_parse(kv->val, &c->lsg->schedule, why,
					 whylen);
	if (!strcmp(kv->key, "samples"))
		return rperf_parse_count(kv->val, 1, MESH_MAX_SAMPLES,
					 &c->mesh->samples, why, whylen);
	if (!strcmp(kv->key, "duration") || !strcmp(kv->key, "warmup") ||
	    !strcmp(kv->key, "out_above")) {
		/* the [global] key's units and range (out_above: warmup's) */
		if (job_key_number(JOB_SECT_GLOBAL,
				   strcmp(kv->key, "out_above") ? kv->key :
								  "warmup",
				   kv->val, &v)) {
			snprintf(
				why, whylen,
				"'%s' is not a time (per pair) in range; e.g. 500ms, 2s",
				kv->val);
			return EINVAL;
		}
		if (!strcmp(kv->key, "duration"))
			sp->duration_ns = (uint64_t)v, c->has_duration = true;
		else if (!strcmp(kv->key, "warmup"))
			sp->warmup_ns = (uint64_t)v;
		else
			c->mesh->out_above_ns = (uint64_t)v;
		return 0;
	}
	/* from, to, count: the [lsg] keys a mesh plans itself */
	snprintf(
		why, whylen,
		"a mesh measures every ordered pair of its hosts; list them in hosts = H1,H2,... (or all) instead");
	return EINVAL;
}

/* samples = N: the pair duration that offers N probes at the LSG's pace
 * (its probe schedule's rate, or rate / (8 x size)). 0 or EINVAL. */
static int mesh_samples(const struct mesh_ctx *c,
			const struct rperf_gen_spec *lsg, uint64_t *dur,
			char *why, size_t whylen)
{
	double per_s =
		lsg->schedule.kind != RPERF_SCHED_CLOSED ? lsg->schedule.rate :
		lsg->rate_bps > 0 ? lsg->rate_bps / (8.0 * (double)lsg->size) :
				    0;
	double ns;

	if (c->has_duration) {
		snprintf(why, whylen,
			 "samples and duration both given; keep one of them");
		return EINVAL;
	}
	if (per_s <= 0) {
		snprintf(
			why, whylen,
			"samples needs a paced LSG (a closed loop's pace is known only once it runs): add rate = R or probe_schedule = fixed:R, or give duration instead");
		return EINVAL;
	}
	ns = ceil((double)c->mesh->samples / per_s * 1e9);
	if (ns > (double)RPERF_SPEC_MAX_TIME_NS) {
		snprintf(
			why, whylen,
			"%llu samples at %.6g/s take %.0f s per pair; ask fewer or pace faster",
			(unsigned long long)c->mesh->samples, per_s, ns / 1e9);
		return EINVAL;
	}
	*dur = (uint64_t)ns;
	return 0;
}

int job_mesh_build(struct rperf_job *job, const struct job_sect *s,
		   const struct job_msg *m)
{
	struct mesh_ctx c = { .job = job };
	struct job_gen g = { .sect = s, .to = -1 };
	struct rperf_job_mesh *mesh;
	char why[200];
	int rc;

	if (job->mesh)
		return job_fail(
			m, s->line, s, NULL,
			"a second mesh (the first is [mesh %s] at line %d); one [mesh] per job: list every host in its hosts key",
			job->mesh->name, job->mesh->line);
	mesh = calloc(1, sizeof(*mesh));
	if (!mesh)
		return ENOMEM;
	memcpy(mesh->name, s->name, sizeof(mesh->name));
	mesh->line = s->line;
	mesh->schedule = RPERF_MESH_ROUNDS;
	mesh->out_above_ns = RPERF_MESH_OUT_ABOVE_NS;
	rperf_gen_spec_defaults(&g.spec, RPERF_GEN_LSG);
	mesh->spec = g.spec;
	mesh->spec.duration_ns = job->duration_ns;
	mesh->spec.warmup_ns = job->warmup_ns;
	c.mesh = mesh;
	c.lsg = &g.spec;
	rc = job_keys_mesh(&g, m, mesh_special, &c);
	for (size_t i = 0; i < s->nkv && !rc; i++)
		if (!strcmp(s->kv[i].key, "max_p50") ||
		    !strcmp(s->kv[i].key, "max_p999"))
			rc = job_fail(
				m, s->kv[i].line, s, s->kv[i].key, "%s",
				"an RTT limit judges an [lsg]'s own instances; a mesh names its slow ports and pairs (out_above = TIME)");
	if (rc)
		goto free_mesh;
	/* its probes are an LSG's: schedule, method with verb (spec_lsg.c) */
	g.spec.sink_completion = job->sink_completion;
	if (rperf_spec_sched_check(&g.spec, why, sizeof(why)) ||
	    rperf_spec_lsg_check(&g.spec, false, why, sizeof(why))) {
		rc = job_fail(m, s->line, s, NULL, "%s", why);
		goto free_mesh;
	}
	if (mesh->samples && mesh_samples(&c, &g.spec, &mesh->spec.duration_ns,
					  why, sizeof(why))) {
		rc = job_fail(m, s->line, s, "samples", "%s", why);
		goto free_mesh;
	}
	/* the LSG keys went into g.spec, the mesh's own into mesh->spec */
	g.spec.duration_ns = mesh->spec.duration_ns;
	g.spec.warmup_ns = mesh->spec.warmup_ns;
	memcpy(g.spec.name, s->name, sizeof(g.spec.name));
	mesh->spec = g.spec;
	if (c.has_hosts) {
		memcpy(mesh->hosts, c.hosts.from, sizeof(mesh->hosts));
		mesh->nhosts = c.hosts.nfrom;
	} else {
		for (size_t i = 0; i < job->nhosts; i++)
			mesh->hosts[i] = (uint16_t)i;
		mesh->nhosts = job->nhosts;
	}
	if (mesh->nhosts < 2) {
		rc = job_fail(
			m, s->line, s, "hosts",
			"%zu host%s: a mesh needs at least 2; define more [host] sections or list them in hosts",
			mesh->nhosts, mesh->nhosts == 1 ? "" : "s");
		goto free_mesh;
	}
	job->mesh = mesh;
	return 0;
free_mesh:
	free(mesh);
	return rc;
}
