/* SPDX-License-Identifier: BSD-2-Clause */
/* The implicit job of rperf lat / bw HOST and its rounds (twohost.h). */
#include "twohost/twohost.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "job/options.h"

#define TWOHOST_TIMEOUT_NS 10000000000ull /* as rperf agent's --timeout */

/* One run of a client's rounds (rperf_twohost_run_rounds). */
struct rperf_twohost_exec {
	struct rperf_twohost_rounds rounds;
	struct rperf_run_opts opts;
	struct rperf_twohost_client *c;
	struct rperf_job **jobs; /* [rounds.n]: the results point into them */
	struct rperf_run_results **res; /* [rounds.n], NULL: not run */
};

int rperf_twohost_job(const struct rperf_cmdline *cfg, const char *path,
		      size_t ninst, struct rperf_job **out)
{
	struct rperf_job *job = calloc(1, sizeof(*job));

	*out = NULL;
	if (job)
		job->inst = calloc(ninst, sizeof(*job->inst));
	if (!job || !job->inst) {
		free(job);
		return ENOMEM;
	}
	snprintf(job->path, sizeof(job->path), "%s", path);
	job->duration_ns = cfg->global.duration_ns;
	job->timeout_ns = cfg->global.timeout_ns ? cfg->global.timeout_ns :
						   TWOHOST_TIMEOUT_NS;
	job->sink_completion = cfg->spec.completion; /* -e: poll or event */
	job->nhosts = 2;
	snprintf(job->hosts[0].name, sizeof(job->hosts[0].name),
		 RPERF_TWOHOST_CLIENT);
	snprintf(job->hosts[0].control, sizeof(job->hosts[0].control), "%s",
		 RPERF_JOB_CONTROL_LOCAL);
	job->hosts[0].local = true;
	job->hosts[0].sel = cfg->sel; /* -d, -i, -x, --cpu, placement */
	snprintf(job->hosts[1].name, sizeof(job->hosts[1].name),
		 RPERF_TWOHOST_SERVER);
	snprintf(job->hosts[1].control, sizeof(job->hosts[1].control), "%s",
		 cfg->host ? cfg->host : "");
	job->hosts[1].control_port = (uint16_t)cfg->tcp_port;
	/* the server's own -d, -i, -x and --cpu fill these in */
	rperf_host_sel_defaults(&job->hosts[1].sel);
	job->ninst = ninst;
	*out = job;
	return 0;
}

/* Round @k: a copy of @base (its own instances) shaped by the caller. */
static int round_job(const struct rperf_job *base, size_t k,
		     const struct rperf_twohost_rounds *r,
		     struct rperf_job **out)
{
	struct rperf_job *j = malloc(sizeof(*j));

	*out = NULL;
	if (!j)
		return ENOMEM;
	*j = *base;
	j->mesh = NULL;
	j->inst = malloc(base->ninst * sizeof(*j->inst));
	if (!j->inst) {
		free(j);
		return ENOMEM;
	}
	memcpy(j->inst, base->inst, base->ninst * sizeof(*j->inst));
	r->shape(r->arg, k, j);
	*out = j;
	return 0;
}

/* Preflight lines, the retransmission probe around the rounds of @job:
 * 0, or an errno with @e (nothing ran). */
static int execute(const struct rperf_job *job, struct rperf_twohost_exec *x,
		   struct rperf_err *e)
{
	struct rperf_twohost_rounds *r = &x->rounds;
	struct rperf_twohost_client *c = x->c;
	char err[512] = "";
	int rc;

	x->res = calloc(r->n ? r->n : 1, sizeof(*x->res));
	x->jobs = calloc(r->n ? r->n : 1, sizeof(*x->jobs));
	rc = x->res && x->jobs ? 0 : ENOMEM;
	for (size_t k = 0; !rc && k < r->n; k++)
		rc = round_job(job, k, r, &x->jobs[k]);
	if (rc)
		return rperf_err_set(e, RPERF_ERRC_INTERNAL, rc,
				     "out of memory");
	rperf_twohost_say_preflight(&c->host, &c->say);
	rperf_retrans_begin(&c->retrans, NULL, c->dev, c->dev_port,
			    (unsigned int)c->cfg->spec.path.qp_timeout);
	rc = rperf_run_execute_rounds((const struct rperf_job *const *)x->jobs,
				      r->n, &x->opts, c->stop, x->res, err,
				      sizeof(err));
	rperf_retrans_end(&c->retrans, NULL);
	if (rc)
		return rperf_err_set(e, RPERF_ERRC_RUNTIME, rc, "%s",
				     err[0] ? err : strerror(rc));
	return 0;
}

/* An agent's own words (REFUSE or ERROR), not a consequence. */
static bool said(const char *why)
{
	return !strncmp(why, "refused: ", 9) || !strncmp(why, "error: ", 7);
}

/* Why round @r failed, in @why; *usage when an agent refused before
 * anything ran. false: it did not fail. */
static bool failure(const struct rperf_run_results *r, char *why, size_t len,
		    bool *usage)
{
	const struct rperf_job *job = r->job;
	const struct rperf_run_host *f = NULL;
	size_t fh = 0;

	*usage = false;
	for (size_t k = 0; k < 2 * job->nhosts && !f; k++) {
		size_t h = job->nhosts - 1 - k % job->nhosts;

		if (r->hosts[h].failed &&
		    (k >= job->nhosts || said(r->hosts[h].why))) {
			f = &r->hosts[h];
			fh = h;
		}
	}
	if (f) {
		*usage = r->aborted && said(f->why) && !strstr(f->why, "busy:");
		snprintf(why, len, "%s: %s",
			 job->hosts[fh].local ? "this host" :
						job->hosts[fh].control,
			 f->why);
		return true;
	}
	if (r->aborted) {
		snprintf(why, len, "%s", r->abort_why);
		return true;
	}
	return false;
}

/* Whether round @k ran: its source began, or it failed. */
static bool ran(const struct rperf_twohost_exec *x, size_t k)
{
	const struct rperf_run_inst *in = &x->res[k]->inst[0];

	return in->have_source || in->status == RPERF_RUN_ST_ERROR;
}

/* Instance @i of round @r: what it counted (samples or messages), with
 * the word for it and the words before "run stopped". */
static unsigned long long counted(const struct rperf_run_results *r, size_t i,
				  const char **unit, const char **label)
{
	const struct rperf_gen_spec *s = &r->job->inst[i];
	bool lsg = rperf_gen_latency(s->kind);

	*unit = lsg ? "samples" : "messages";
	*label = lsg ? rperf_method_name(s->test.method) : "";
	return lsg ? r->inst[i].samples : r->inst[i].messages;
}

static int verdict(const struct rperf_twohost_exec *x, struct rperf_err *e)
{
	bool inf = x->c->cfg->run_infinitely;
	const char *unit, *label;
	char why[RPERF_ERR_MSG_LEN];
	unsigned long long n;
	size_t nran = 0;
	bool usage;

	while (nran < x->rounds.n && x->res[nran] && ran(x, nran))
		nran++;
	for (size_t k = 0; k < nran; k++) { /* the verbs' words first */
		const struct rperf_run_results *r = x->res[k];

		for (size_t i = 0; i < r->job->ninst; i++) {
			if (!r->inst[i].error[0] || (r->interrupted && inf))
				continue;
			n = counted(r, i, &unit, &label);
			return rperf_err_set(
				e, RPERF_ERRC_RUNTIME, EIO,
				"%s%srun stopped at %llu B after %llu %s: %s",
				label, *label ? " " : "",
				(unsigned long long)r->job->inst[i].size, n,
				unit, r->inst[i].error);
		}
	}
	for (size_t k = 0; k < nran; k++) { /* SIGINT ends -n infinite */
		const struct rperf_run_results *r = x->res[k];

		if (!r->interrupted || inf)
			continue;
		n = counted(r, 0, &unit, &label);
		return rperf_err_set(e, RPERF_ERRC_RUNTIME, EINTR,
				     "interrupted at %llu B after %llu %s",
				     (unsigned long long)r->job->inst[0].size,
				     n, unit);
	}
	for (size_t k = 0; k < x->rounds.n; k++) {
		if (!x->res[k])
			return rperf_err_set(e, RPERF_ERRC_RUNTIME, EINTR,
					     "interrupted");
		if (failure(x->res[k], why, sizeof(why), &usage))
			return rperf_err_set(e,
					     usage ? RPERF_ERRC_USAGE :
						     RPERF_ERRC_RUNTIME,
					     EIO, "%s", why);
	}
	return 0;
}

static int finish(struct rperf_twohost_exec *x, int rc,
		  const struct rperf_err *e)
{
	struct rperf_twohost_rounds *r = &x->rounds;
	struct rperf_twohost_notes *notes = &x->c->notes;
	struct rperf_twohost_host *host = &x->c->host;

	if (x->res && x->res[0] && x->res[0]->hosts[0].buffers_note[0]) {
		const char *note = x->res[0]->hosts[0].buffers_note;

		snprintf(host->place.buffers_note,
			 sizeof(host->place.buffers_note), "%.*s",
			 (int)sizeof(host->place.buffers_note) - 1, note);
		rperf_twohost_warn(notes, "%s", note);
	}
	if (rc && x->c->measured) {
		notes->partial = true;
		snprintf(notes->error, sizeof(notes->error), "%s", e->msg);
	}
	for (size_t k = 0; x->res && k < r->n; k++)
		rperf_run_results_free(x->res[k]);
	free(x->res);
	x->res = NULL;
	for (size_t k = 0; x->jobs && k < r->n; k++) { /* after the results */
		if (x->jobs[k])
			free(x->jobs[k]->inst);
		free(x->jobs[k]);
	}
	free(x->jobs);
	x->jobs = NULL;
	return rc;
}

int rperf_twohost_run_rounds(const struct rperf_job *job,
			     const struct rperf_twohost_rounds *rounds,
			     const struct rperf_run_opts *opts,
			     struct rperf_twohost_client *c,
			     struct rperf_err *e)
{
	struct rperf_twohost_exec x = { .rounds = *rounds,
					.opts = *opts,
					.c = c };
	int rc = execute(job, &x, e);

	for (size_t k = 0; !rc && k < rounds->n && x.res[k] && ran(&x, k);
	     k++) {
		c->measured = true;
		rc = rounds->take(rounds->arg, k, x.res[k], e);
	}
	if (!rc)
		rc = verdict(&x, e);
	return finish(&x, rc, e);
}
