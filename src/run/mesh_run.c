/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Running a mesh (mesh.h): one experiment per round of the plan, each the
 * job's own generators plus the round's pairs in both directions, through
 * the controller of `rperf run` (rperf_run_execute). The cells are filled
 * from each round's merged results; each round's `rperf run` document is
 * kept whole in m->rounds.
 */
#include "run/mesh.h"

#include <errno.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rperf/hist.h>

/* Index of host @name among the mesh's hosts, n if none. */
static size_t mesh_index(const struct rperf_mesh_result *m, const char *name)
{
	const struct rperf_job_mesh *mesh = m->mesh;

	for (size_t i = 0; i < mesh->nhosts; i++)
		if (!strcmp(m->job->hosts[mesh->hosts[i]].name, name))
			return i;
	return mesh->nhosts;
}

static struct rperf_mesh_cell *cell(struct rperf_mesh_result *m, size_t i,
				    size_t j)
{
	return &m->cells[i * m->mesh->nhosts + j];
}

static const struct rperf_job_host *mhost(const struct rperf_mesh_result *m,
					  size_t i)
{
	return &m->job->hosts[m->mesh->hosts[i]];
}

/* One pair's LSG from mesh host @i to @j as instance @id. */
static void pair_spec(const struct rperf_mesh_result *m, size_t i, size_t j,
		      uint32_t id, struct rperf_gen_spec *sp)
{
	const struct rperf_job_host *f = mhost(m, i), *t = mhost(m, j);

	*sp = m->mesh->spec;
	sp->id = id;
	memcpy(sp->from, f->name, sizeof(sp->from));
	memcpy(sp->to, t->name, sizeof(sp->to));
	if (sp->cpu_node < 0) /* the source host's default, as [lsg] */
		sp->cpu_node = f->sel.cpu_node;
	if (sp->mem_node < 0)
		sp->mem_node = f->sel.mem_node;
}

/* Mark a cell not measured (@st) with @why, unless already filled. */
static void cell_lost(struct rperf_mesh_cell *c, enum rperf_run_status st,
		      const char *why)
{
	c->status = st;
	c->samples = c->again_samples = 0;
	c->p50_ns = c->p99_ns = c->p999_ns = c->min_ns = c->p10_ns = NAN;
	c->again_ns = NAN;
	snprintf(c->error, sizeof(c->error), "%s", why);
}

/* Pairs q0..q1 of @pairs (the plan's, round r): one experiment (a round,
 * or a part of it when the mesh's parallel key caps the pairs at once);
 * @again: a pair measured again to confirm it (confirm_pairs). */
struct mesh_slice {
	const struct rperf_mesh_pair *pairs;
	size_t r, q0, q1;
	bool again;
};

/* The slice's job: the job's generators, then the pairs of @sl whose
 * hosts are alive (@dead[i]: mesh host i failed before). */
static int round_job(struct rperf_mesh_result *m, const struct mesh_slice *sl,
		     const bool *dead, struct rperf_job **out, size_t *npairs)
{
	const struct rperf_mesh_pair *pairs = sl->pairs;
	const struct rperf_job *job = m->job;
	size_t n = 2 * (sl->q1 - sl->q0), k = job->ninst;
	struct rperf_job *sub = malloc(sizeof(*sub));

	*out = NULL;
	if (!sub)
		return ENOMEM;
	*sub = *job;
	sub->mesh = NULL;
	sub->inst = calloc(job->ninst + n, sizeof(*sub->inst)); /* n >= 2 */
	if (!sub->inst) {
		free(sub);
		return ENOMEM;
	}
	memcpy(sub->inst, job->inst, job->ninst * sizeof(*job->inst));
	for (size_t q = sl->q0; q < sl->q1; q++) {
		size_t a = pairs[q].a, b = pairs[q].b;

		if (dead[a] || dead[b])
			continue;
		pair_spec(m, a, b, (uint32_t)k, &sub->inst[k]);
		k++;
		pair_spec(m, b, a, (uint32_t)k, &sub->inst[k]);
		k++;
	}
	sub->ninst = k;
	*npairs = (k - job->ninst) / 2;
	*out = sub;
	return 0;
}

/* The cell's statistic measured again (confirm_pairs): NaN unless ok. */
static void fill_again(struct rperf_mesh_cell *c,
		       const struct rperf_run_inst *in, bool p10)
{
	double p = p10 ? 10.0 : 50.0;
	int64_t v;

	c->again_samples = in->rtt ? rperf_hist_count(in->rtt) : 0;
	if (in->status != RPERF_RUN_ST_OK || !c->again_samples)
		return;
	rperf_hist_percentiles(in->rtt, &p, 1, &v);
	c->again_ns = (double)v;
}

static void fill_cell(struct rperf_mesh_result *m,
		      const struct rperf_run_inst *in,
		      const struct mesh_slice *sl)
{
	size_t i = mesh_index(m, in->spec->from),
	       j = mesh_index(m, in->spec->to);
	static const double ps[] = { 10.0, 50.0, 99.0, 99.9 };
	struct rperf_mesh_cell *c;
	int64_t v[4];

	if (i == m->mesh->nhosts || j == m->mesh->nhosts)
		return;
	c = cell(m, i, j);
	if (sl->again) {
		fill_again(c, in, m->mesh->statistic == RPERF_MESH_STAT_P10);
		return;
	}
	c->round = sl->r;
	c->again_ns = NAN;
	c->status = in->status;
	snprintf(c->error, sizeof(c->error), "%s", in->error);
	c->samples = in->rtt ? rperf_hist_count(in->rtt) : 0;
	c->p50_ns = c->p99_ns = c->p999_ns = c->min_ns = c->p10_ns = NAN;
	if (!c->samples)
		return;
	rperf_hist_percentiles(in->rtt, ps, 4, v);
	c->min_ns = (double)rperf_hist_min(in->rtt);
	c->p10_ns = (double)v[0];
	c->p50_ns = (double)v[1];
	c->p99_ns = (double)v[2];
	c->p999_ns = (double)v[3];
}

/* Hosts that failed in @r become dead; their reasons in @why. */
static void note_dead(struct rperf_mesh_result *m,
		      const struct rperf_run_results *r, bool *dead,
		      char (*why)[RPERF_RUN_WHY_LEN])
{
	for (size_t h = 0; h < r->job->nhosts; h++) {
		size_t i;

		if (!r->hosts[h].failed)
			continue;
		i = mesh_index(m, r->hosts[h].host->name);
		if (i == m->mesh->nhosts || dead[i])
			continue;
		dead[i] = true;
		snprintf(why[i], sizeof(why[i]), "host %.60s failed: %.180s",
			 r->hosts[h].host->name, r->hosts[h].why);
	}
}

/* Cells of @sl that touch a dead host: failed, with the reason. */
static void mark_dead_cells(struct rperf_mesh_result *m,
			    const struct mesh_slice *sl, const bool *dead,
			    const char (*why)[RPERF_RUN_WHY_LEN])
{
	size_t r = sl->r;

	for (size_t q = sl->q0; q < sl->q1 && !sl->again; q++) {
		size_t a = sl->pairs[q].a, b = sl->pairs[q].b;
		const char *w = dead[a] ? why[a] : why[b];

		if (!dead[a] && !dead[b])
			continue;
		cell_lost(cell(m, a, b), RPERF_RUN_ST_FAILED, w);
		cell_lost(cell(m, b, a), RPERF_RUN_ST_FAILED, w);
		cell(m, a, b)->round = cell(m, b, a)->round = r;
	}
}

struct mesh_exec {
	struct rperf_mesh_result *m;
	const struct rperf_run_opts *opts;
	const volatile sig_atomic_t *stop;
	bool *dead;
	char (*why)[RPERF_RUN_WHY_LEN];
	char *err;
	size_t errlen;
};

/* One attempt at round @r: 0 (results folded in; *again when it failed
 * before GO because of a host, to be run once more without it). */
static int round_once(struct mesh_exec *x, const struct mesh_slice *sl,
		      bool *again)
{
	struct rperf_mesh_result *m = x->m;
	struct rperf_run_results *res = NULL;
	struct rperf_job *sub;
	size_t npairs;
	json_t *doc = NULL;
	int rc;

	*again = false;
	mark_dead_cells(m, sl, x->dead, x->why);
	rc = round_job(m, sl, x->dead, &sub, &npairs);
	if (rc || !npairs)
		goto free_sub;
	rc = rperf_run_execute(sub, x->opts, x->stop, &res, x->err, x->errlen);
	if (rc)
		goto free_sub;
	m->dry_run |= res->dry_run;
	m->interrupted |= res->interrupted;
	note_dead(m, res, x->dead, x->why);
	if (res->aborted && rperf_run_results_nfailed(res)) {
		*again = true; /* nothing measured; again without them */
	} else {
		for (size_t k = 0; k < m->job->ninst; k++)
			m->other_errors += res->inst[k].status !=
					   RPERF_RUN_ST_OK;
		for (size_t k = m->job->ninst; k < sub->ninst; k++)
			fill_cell(m, &res->inst[k], sl);
		m->experiments++;
	}
	rc = rperf_run_report_json(res, &doc);
	if (!rc) {
		json_object_set_new(doc, "mesh_round",
				    json_integer((json_int_t)sl->r));
		json_object_set_new(doc, "mesh_again", json_boolean(sl->again));
		rc = json_array_append_new(m->rounds, doc) ? ENOMEM : 0;
	}
	rperf_run_results_free(res);
free_sub:
	rperf_job_free(sub);
	return rc;
}

/* One slice, run again without a host that failed before GO. */
static int run_slice(struct mesh_exec *x, const struct mesh_slice *sl)
{
	bool again = false;
	int rc = round_once(x, sl, &again);

	if (!rc && again)
		rc = round_once(x, sl, &again);
	if (!rc && again) /* failed before GO twice: its cells lost */
		mark_dead_cells(x->m, sl, x->dead, x->why);
	return rc;
}

static int run_rounds(struct mesh_exec *x)
{
	struct rperf_mesh_result *m = x->m;
	size_t cap = m->mesh->parallel ? m->mesh->parallel : SIZE_MAX;
	int rc = 0;

	for (size_t r = 0; r < m->plan.nrounds && !rc; r++) {
		size_t end = m->plan.first[r + 1], before = m->experiments;

		for (size_t q = m->plan.first[r]; q < end && !rc;) {
			struct mesh_slice sl = { .pairs = m->plan.pairs,
						 .r = r,
						 .q0 = q };

			if (m->interrupted || (x->stop && *x->stop)) {
				m->interrupted = true;
				return 0;
			}
			sl.q1 = end - q > cap ? q + cap : end;
			rc = run_slice(x, &sl);
			q = sl.q1;
		}
		m->rounds_run += m->experiments > before;
	}
	return rc;
}

/*
 * A pair the first verdict names is measured again, alone (both
 * directions, one experiment each), and its cells count with the lower of
 * the two statistics: a slow pair is slow twice, while a busy host or a
 * late timer window lifts one measurement (lab.mesh8, 02:21 run: both
 * directions of h4 <-> h8 +287 and +390 us above h4's other cells, 49 and
 * 38 of 300 samples recorded).
 */
static int confirm_pairs(struct mesh_exec *x)
{
	struct rperf_mesh_result *m = x->m;
	struct rperf_mesh_pair pairs[RPERF_MESH_AGAIN_MAX];
	size_t k = rperf_mesh_again_pairs(&m->verdict, pairs);
	int rc = 0;

	for (size_t q = 0; q < k && !rc; q++) {
		struct mesh_slice sl = { .pairs = pairs,
					 .r = m->plan.nrounds,
					 .q0 = q,
					 .q1 = q + 1,
					 .again = true };

		if (m->interrupted || (x->stop && *x->stop))
			break;
		rc = run_slice(x, &sl);
		m->again_pairs += !rc;
	}
	if (!rc && k)
		rc = rperf_mesh_result_locate(m);
	return rc;
}

static int result_create(const struct rperf_job *job,
			 struct rperf_mesh_result **out)
{
	struct rperf_mesh_result *m = calloc(1, sizeof(*m));
	size_t n = job->mesh->nhosts;
	int rc;

	*out = NULL;
	if (!m)
		return ENOMEM;
	m->job = job;
	m->mesh = job->mesh;
	rc = rperf_mesh_plan_make(n, job->mesh->schedule, &m->plan);
	m->cells = calloc(n * n, sizeof(*m->cells));
	m->rounds = json_array();
	if (!rc && (!m->cells || !m->rounds))
		rc = ENOMEM;
	if (rc) {
		rperf_mesh_result_free(m);
		return rc;
	}
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < n; j++)
			if (i != j) {
				cell(m, i, j)->planned = true;
				cell_lost(
					cell(m, i, j), RPERF_RUN_ST_MISSING,
					"not measured (the mesh stopped before its round)");
			}
	*out = m;
	return 0;
}

int rperf_mesh_result_locate(struct rperf_mesh_result *m)
{
	size_t n = m->mesh->nhosts;
	double *p50 = calloc(n * n, sizeof(*p50));
	int rc;

	if (!p50)
		return ENOMEM;
	m->nfailed = 0;
	for (size_t i = 0; i < n * n; i++) {
		const struct rperf_mesh_cell *c = &m->cells[i];
		bool ok = c->planned && c->status == RPERF_RUN_ST_OK &&
			  c->samples;

		p50[i] = !ok					   ? NAN :
			 m->mesh->statistic == RPERF_MESH_STAT_P10 ? c->p10_ns :
								     c->p50_ns;
		if (ok && isfinite(c->again_ns)) /* confirm_pairs */
			p50[i] = fmin(p50[i], c->again_ns);
		m->nfailed += c->planned && c->status != RPERF_RUN_ST_OK;
		m->nfailed += c->planned && c->status == RPERF_RUN_ST_OK &&
			      !c->samples && !m->dry_run;
	}
	rperf_mesh_verdict_free(&m->verdict);
	rc = rperf_mesh_locate(p50, n, (double)m->mesh->out_above_ns,
			       &m->verdict);
	free(p50);
	return rc;
}

int rperf_mesh_execute(const struct rperf_job *job,
		       const struct rperf_run_opts *opts,
		       const volatile sig_atomic_t *stop,
		       struct rperf_mesh_result **out, char *err, size_t errlen)
{
	struct mesh_exec x = {
		.opts = opts, .stop = stop, .err = err, .errlen = errlen
	};
	struct timespec t0, t1;
	int rc;

	*out = NULL;
	if (!job->mesh) {
		snprintf(err, errlen, "%s: no [mesh] section", job->path);
		return EINVAL;
	}
	rc = result_create(job, &x.m);
	if (rc) {
		snprintf(err, errlen, "mesh plan of %zu hosts: %s",
			 job->mesh->nhosts, strerror(rc));
		return rc;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	x.dead = calloc(job->mesh->nhosts, sizeof(*x.dead));
	x.why = calloc(job->mesh->nhosts, sizeof(*x.why));
	rc = x.dead && x.why ? run_rounds(&x) : ENOMEM;
	if (!rc)
		rc = rperf_mesh_result_locate(x.m);
	if (!rc && !x.m->dry_run && !x.m->interrupted)
		rc = confirm_pairs(&x);
	free(x.dead);
	free(x.why);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	x.m->elapsed = (double)(t1.tv_sec - t0.tv_sec) +
		       (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	if (rc) {
		if (!err[0])
			snprintf(err, errlen, "mesh: %s", strerror(rc));
		rperf_mesh_result_free(x.m);
		return rc;
	}
	*out = x.m;
	return 0;
}

void rperf_mesh_result_free(struct rperf_mesh_result *m)
{
	if (!m)
		return;
	rperf_mesh_plan_free(&m->plan);
	rperf_mesh_verdict_free(&m->verdict);
	free(m->cells);
	json_decref(m->rounds);
	free(m);
}
