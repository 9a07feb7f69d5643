/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * [mesh NAME] (job.h): the hosts of a port-pair latency matrix, its
 * schedule, the per-pair duration and warmup, and the LSG keys of every
 * pair (job_keys.c's table, as in [lsg]).
 */
#include "job/job_priv.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/units.h"

const char *rperf_mesh_schedule_name(enum rperf_mesh_schedule s)
{
	return s == RPERF_MESH_CONCURRENT ? "concurrent" : "rounds";
}

struct mesh_ctx {
	struct rperf_job *job;
	struct rperf_job_mesh *mesh;
	struct job_gen hosts; /* the hosts key, parsed as a from list */
	bool has_hosts;
};

static int mesh_hosts(struct mesh_ctx *c, const char *v, char *why,
		      size_t whylen)
{
	if (!strcmp(v, "all") || !strcmp(v, "*"))
		return 0;
	c->has_hosts = true;
	return job_parse_from(c->job, &c->hosts, v, why, whylen);
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
	if (!strcmp(kv->key, "schedule")) {
		if (!strcmp(kv->val, "rounds") ||
		    !strcmp(kv->val, "concurrent")) {
			c->mesh->schedule = strcmp(kv->val, "rounds") ?
						    RPERF_MESH_CONCURRENT :
						    RPERF_MESH_ROUNDS;
			return 0;
		}
		snprintf(why, whylen,
			 "'%s' is not a choice; accepted: rounds, concurrent",
			 kv->val);
		return EINVAL;
	}
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
			sp->duration_ns = (uint64_t)v;
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
	rc = job_keys_mesh(&g, m, mesh_special, &c);
	if (rc)
		goto free_mesh;
	if (rperf_spec_sched_check(&g.spec, why, sizeof(why))) {
		rc = job_fail(m, s->line, s, NULL, "%s", why);
		goto free_mesh;
	}
	/* the LSG keys went into g.spec, the mesh's own into mesh->spec */
	g.spec.duration_ns = mesh->spec.duration_ns;
	g.spec.warmup_ns = mesh->spec.warmup_ns;
	g.spec.sink_completion = job->sink_completion;
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
