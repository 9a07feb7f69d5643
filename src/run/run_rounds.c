/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Rounds on the same QPs (rperf run --sweep ... --same-qps): the jobs of a
 * sweep over message sizes run as one experiment whose agents keep their
 * connections, QPs and buffers from one round to the next (as rperf lat's
 * -a keeps its QPs from one size to the next), each round a GO -> REPORT
 * cycle at its jobs' sizes (engine/proto.h, PLAN "rounds"). The plan is
 * the first job with every instance made for its largest size and its
 * round_sizes listing each round's.
 */
#include "run/run_ctl.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool run_round_next(struct run_ctl *c)
{
	const struct rperf_run_results *done = c->res;

	if (c->round + 1 >= c->nrounds || (c->stop && *c->stop) ||
	    done->interrupted || done->aborted || done->cut_short)
		return false;
	for (size_t i = 0; i < c->nag; i++)
		if (c->ag[i].ph != AG_REPORTED)
			return false; /* one gone: the rounds end here */
	c->round++;
	c->res = c->rs[c->round];
	c->res->connect_seconds = done->connect_seconds;
	c->res->setup_seconds = done->setup_seconds;
	for (size_t i = 0; i < c->nag; i++) {
		struct run_agent *a = &c->ag[i];

		a->ph = AG_ARMED; /* CLOCK exchanges, then GO */
		a->finished = false;
		a->reported = false;
		a->nx = 0;
	}
	return true;
}

void run_bye_all(struct run_ctl *c)
{
	for (size_t i = 0; i < c->nag; i++) {
		struct run_agent *a = &c->ag[i];

		if (a->ph == AG_REPORTED &&
		    !run_send(c, a, RPERF_CTRL_BYE, NULL))
			a->ph = AG_BYE;
	}
}

/* @a and @b the same but for their size and an LSG's method (JSON: every
 * key on the wire). */
static bool same_but_size(const struct rperf_gen_spec *a,
			  const struct rperf_gen_spec *b)
{
	struct rperf_gen_spec x = *a, y = *b;
	json_t *jx = NULL, *jy = NULL;
	bool same;

	x.size = y.size = a->size > b->size ? a->size : b->size;
	x.round_sizes.n = y.round_sizes.n = 0;
	x.round_methods.n = y.round_methods.n = 0;
	if (rperf_gen_latency(a->kind))
		y.test.method = x.test.method;
	same = !rperf_gen_spec_encode(&x, &jx) &&
	       !rperf_gen_spec_encode(&y, &jy) && json_equal(jx, jy) &&
	       a->max_p50_ns == b->max_p50_ns &&
	       a->max_p999_ns == b->max_p999_ns;
	json_decref(jx);
	json_decref(jy);
	return same;
}

static bool same_host(const struct rperf_job_host *a,
		      const struct rperf_job_host *b)
{
	const struct rperf_host_sel *x = &a->sel, *y = &b->sel;

	return !strcmp(a->name, b->name) && !strcmp(a->control, b->control) &&
	       a->control_port == b->control_port &&
	       !strcmp(x->device, y->device) && x->port == y->port &&
	       x->gid_index == y->gid_index && x->cpu == y->cpu &&
	       x->cpu_node == y->cpu_node && x->mem_node == y->mem_node &&
	       x->hugepages == y->hugepages;
}

/* Round @k's job against round 0's: only message sizes and LSG methods may
 * differ. */
static int check_one(const struct rperf_job *j0, const struct rperf_job *j,
		     size_t k, char *err, size_t errlen)
{
	bool same = j->ninst == j0->ninst && j->nhosts == j0->nhosts &&
		    j->duration_ns == j0->duration_ns &&
		    j->warmup_ns == j0->warmup_ns &&
		    j->timeout_ns == j0->timeout_ns &&
		    j->sink_completion == j0->sink_completion &&
		    j->nswitches == j0->nswitches;

	for (size_t i = 0; same && i < j->nhosts; i++)
		same = same_host(&j->hosts[i], &j0->hosts[i]);
	for (size_t i = 0; same && i < j->ninst; i++) {
		if (!same_but_size(&j->inst[i], &j0->inst[i])) {
			snprintf(
				err, errlen,
				"--same-qps: point %zu changes '%s' in more than its message size and method: only 'size' and an LSG's 'method' may be swept on the same QPs",
				k + 1, j->inst[i].name);
			return EINVAL;
		}
	}
	if (!same) {
		snprintf(
			err, errlen,
			"--same-qps: point %zu changes more than message sizes and methods: only 'size' and an LSG's 'method' may be swept on the same QPs",
			k + 1);
		return EINVAL;
	}
	return 0;
}

int rperf_run_rounds_check(const struct rperf_job *const *jobs, size_t n,
			   char *err, size_t errlen)
{
	int rc = 0;

	if (!n || n > RPERF_SPEC_MAX_ROUNDS) {
		snprintf(err, errlen,
			 "--same-qps: %zu points; 1 to %d run on the same QPs",
			 n, RPERF_SPEC_MAX_ROUNDS);
		return EINVAL;
	}
	if (jobs[0]->mesh) {
		snprintf(err, errlen, "--same-qps with a [mesh] section");
		return EINVAL;
	}
	for (size_t i = 0; i < jobs[0]->ninst; i++) {
		if (jobs[0]->inst[i].sizes.n) {
			snprintf(
				err, errlen,
				"--same-qps: '%s' draws its sizes (sizes =): it has no one size per round",
				jobs[0]->inst[i].name);
			return EINVAL;
		}
	}
	for (size_t k = 1; !rc && k < n; k++)
		rc = check_one(jobs[0], jobs[k], k, err, errlen);
	return rc;
}

/* The plan of the rounds: round 0's job, each instance made for its
 * largest size, with every round's in round_sizes, and an LSG whose
 * method changes with every round's in round_methods. */
static int merge(const struct rperf_job *const *jobs, size_t n,
		 struct rperf_job *m)
{
	*m = *jobs[0];
	m->inst = calloc(m->ninst ? m->ninst : 1, sizeof(*m->inst));
	if (!m->inst)
		return ENOMEM;
	for (size_t i = 0; i < m->ninst; i++) {
		struct rperf_gen_spec *s = &m->inst[i];

		*s = jobs[0]->inst[i];
		s->round_sizes.n = (uint32_t)n;
		for (size_t k = 0; k < n; k++) {
			uint64_t z = jobs[k]->inst[i].size;

			s->round_sizes.v[k] = z;
			if (z > s->size)
				s->size = z;
			s->round_methods.v[k] = jobs[k]->inst[i].test.method;
			if (s->round_methods.v[k] != s->test.method)
				s->round_methods.n = (uint32_t)n;
		}
	}
	return 0;
}

int rperf_run_execute_rounds(const struct rperf_job *const *jobs, size_t n,
			     const struct rperf_run_opts *opts,
			     const volatile sig_atomic_t *stop,
			     struct rperf_run_results **out, char *err,
			     size_t errlen)
{
	struct rperf_job m;
	size_t k, nrun = 0;
	int rc;

	err[0] = '\0';
	rc = rperf_run_rounds_check(jobs, n, err, errlen);

	for (k = 0; k < n; k++)
		out[k] = NULL;
	if (rc)
		return rc;
	rc = merge(jobs, n, &m);
	for (k = 0; !rc && k < n; k++)
		rc = rperf_run_results_create(jobs[k], &out[k]);
	if (!rc)
		rc = run_ctl_execute(&m, out, n, opts, stop, &nrun, err,
				     errlen);
	for (k = 0; !rc && k < nrun; k++)
		rc = rperf_run_results_finish(out[k]);
	free(m.inst);
	for (k = rc ? 0 : nrun; k < n; k++) { /* not run, or all on failure */
		rperf_run_results_free(out[k]);
		out[k] = NULL;
	}
	if (rc && !err[0])
		snprintf(err, errlen, "rperf run: %s", strerror(rc));
	return rc;
}
