/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rperf run --raw FILE: every LSG's samples, sent by its agent in SAMPLES
 * frames between STOP and REPORT (engine/proto.h), kept in order and
 * checked against the REPORT's count, then written as rperf lat's --raw
 * CSV rows with the generator, from and to first (report/report_cdf.h).
 */
#include "run/run_ctl.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_cdf.h"

/* At most this many samples per instance (32 B each): a peer cannot make
 * the controller hold more than 2 GiB for one. */
#define RAW_MAX_SAMPLES (1ull << 26)

/* @in's raw LSG source on @a's host, or NULL. */
static struct rperf_run_inst *raw_inst(struct run_ctl *c,
				       const struct run_agent *a, uint32_t id)
{
	struct rperf_run_inst *in = id < c->job->ninst ? &c->res->inst[id] :
							 NULL;

	if (!in || !c->opts->raw || !rperf_gen_latency(in->spec->kind) ||
	    strcmp(in->spec->from, a->host->name))
		return NULL;
	return in;
}

static int append(struct rperf_run_inst *in,
		  const struct rperf_proto_samples *x)
{
	if (in->nraw + x->n > in->raw_cap) {
		size_t cap = in->raw_cap ? in->raw_cap : 65536;
		void *p;

		while (cap < in->nraw + x->n)
			cap *= 2;
		p = realloc(in->raw, cap * sizeof(*in->raw));
		if (!p)
			return ENOMEM;
		in->raw = p;
		in->raw_cap = cap;
	}
	for (size_t i = 0; i < x->n; i++) {
		in->raw[in->nraw + i] = x->s[i];
		in->raw[in->nraw + i].size = in->spec->size;
	}
	in->nraw += x->n;
	return 0;
}

void run_raw_samples(struct run_ctl *c, struct run_agent *a,
		     const struct rperf_ctrl_msg *m)
{
	struct rperf_proto_samples x;
	struct rperf_run_inst *in;
	char why[200] = "";
	int rc = rperf_proto_samples_decode(m, &x, why, sizeof(why));

	if (rc) {
		run_fail(c, a, "bad SAMPLES: %s", why[0] ? why : strerror(rc));
		return;
	}
	in = raw_inst(c, a, x.id);
	if (!in)
		run_fail(
			c, a,
			"SAMPLES for instance %u: not an LSG of this host that keeps its samples",
			x.id);
	else if (x.first != in->nraw)
		run_fail(
			c, a,
			"SAMPLES of '%s' from sample %llu: %zu came before (out of order)",
			in->spec->name, (unsigned long long)x.first, in->nraw);
	else if (in->nraw + x.n > RAW_MAX_SAMPLES)
		run_fail(c, a, "SAMPLES of '%s': more than %llu samples",
			 in->spec->name, RAW_MAX_SAMPLES);
	else if ((rc = append(in, &x)))
		run_fail(c, a, "SAMPLES of '%s': %s", in->spec->name,
			 strerror(rc));
	rperf_proto_samples_fini(&x);
}

bool run_raw_complete(struct run_ctl *c, struct run_agent *a,
		      const struct rperf_proto_report *rep)
{
	for (size_t i = 0; c->opts->raw && i < rep->n; i++) {
		const struct rperf_proto_result *p = &rep->res[i];
		const struct rperf_run_inst *in;

		if (p->role != RPERF_ROLE_SOURCE || !rperf_gen_latency(p->kind))
			continue;
		in = raw_inst(c, a, p->id);
		if (in && p->has_raw && p->nraw == in->nraw)
			continue;
		run_fail(c, a,
			 "bad REPORT: instance %u %s, %zu came in SAMPLES",
			 p->id,
			 p->has_raw ? "counts another number of samples" :
				      "sent no count of its samples",
			 in ? in->nraw : 0);
		return false;
	}
	return true;
}

static int write_rows(FILE *f, void *arg)
{
	const struct rperf_run_results *r = arg;
	char prefix[3 * RPERF_NAME_LEN + 8];
	int rc = 0;

	fputs("generator,from,to," RPERF_RPT_RAW_COLUMNS "\n", f);
	for (size_t i = 0; i < r->job->ninst && !rc; i++) {
		const struct rperf_run_inst *in = &r->inst[i];
		const struct rperf_gen_spec *s = in->spec;

		if (!rperf_gen_latency(s->kind))
			continue;
		snprintf(prefix, sizeof(prefix), "%s,%s,%s,", s->name, s->from,
			 s->to);
		rc = rperf_rpt_raw_rows(f, in->raw, in->nraw, prefix);
	}
	return rc ? rc : ferror(f) ? EIO : 0;
}

int rperf_run_write_raw(const char *path, const struct rperf_run_results *r)
{
	return rperf_atomic_write(path, write_rows, (void *)r);
}
