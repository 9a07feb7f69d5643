// SPDX-License-Identifier: BSD-2-Clause
/*
 * Shared fixture of the `rperf run` unit tests (test_run.c, test_run_ctl.c):
 * a job built in memory (no file), and decoded REPORTs built from
 * histograms, as an agent would send them.
 *
 * Every function is static inline so that a test program which does not use
 * one of them does not trip -Wunused-function under -Werror.
 */
#ifndef RPERF_TESTS_UNIT_RUN_FIXTURE_H
#define RPERF_TESTS_UNIT_RUN_FIXTURE_H

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include <rperf/hist.h>

#include "engine/proto.h"
#include "job/job.h"
#include "run/run.h"

/* A job of @nhosts hosts "h1".."hN" (control 127.0.0.1, port 0). */
static inline struct rperf_job *fx_job(size_t nhosts)
{
	struct rperf_job *j = calloc(1, sizeof(*j));

	assert_non_null(j);
	snprintf(j->path, sizeof(j->path), "test.ini");
	j->duration_ns = 200000000ull;
	j->warmup_ns = 50000000ull;
	j->timeout_ns = 2000000000ull;
	j->nhosts = nhosts;
	for (size_t i = 0; i < nhosts; i++) {
		struct rperf_job_host *h = &j->hosts[i];

		snprintf(h->name, sizeof(h->name), "h%zu", i + 1);
		snprintf(h->control, sizeof(h->control), "127.0.0.1");
		h->sel.port = 1;
		h->sel.gid_index = -1;
		h->sel.cpu = -1;
		h->line = (int)i + 1;
	}
	j->inst = calloc(RPERF_JOB_MAX_INSTANCES, sizeof(*j->inst));
	assert_non_null(j->inst);
	return j;
}

/* Add an instance; returns its id. */
static inline uint32_t fx_inst(struct rperf_job *j, enum rperf_gen_kind k,
			       const char *name, const char *from,
			       const char *to, uint8_t sl, uint8_t tclass)
{
	struct rperf_gen_spec *s = &j->inst[j->ninst];

	rperf_gen_spec_defaults(s, k);
	s->id = (uint32_t)j->ninst;
	snprintf(s->name, sizeof(s->name), "%s", name);
	snprintf(s->from, sizeof(s->from), "%s", from);
	snprintf(s->to, sizeof(s->to), "%s", to);
	s->path.sl = sl;
	s->path.tclass = tclass;
	s->duration_ns = j->duration_ns;
	s->warmup_ns = j->warmup_ns;
	return (uint32_t)j->ninst++;
}

static inline void fx_job_free(struct rperf_job *j)
{
	free(j->inst);
	free(j);
}

/* A histogram holding @n values lo, lo + step, ... */
static inline struct rperf_hist *fx_hist(int64_t lo, int64_t step, size_t n)
{
	struct rperf_hist *h = NULL;

	assert_int_equal(rperf_hist_create(RPERF_HIST_DEFAULT_BITS, &h), 0);
	for (size_t i = 0; i < n; i++)
		rperf_hist_record(h, lo + (int64_t)i * step);
	return h;
}

/* A REPORT with room for @cap results. */
static inline void fx_report(struct rperf_proto_report *r, const char *host,
			     size_t cap)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->host, sizeof(r->host), "%s", host);
	r->res = calloc(cap, sizeof(*r->res));
	assert_non_null(r->res);
}

/* An LSG source result (takes @rtt; wire and loop are made up). */
static inline void fx_lsg(struct rperf_proto_report *r, uint32_t id,
			  struct rperf_hist *rtt)
{
	struct rperf_proto_result *p = &r->res[r->n++];

	p->id = id;
	p->role = RPERF_ROLE_SOURCE;
	p->kind = RPERF_GEN_LSG;
	p->seconds = 0.2;
	p->samples = rperf_hist_count(rtt);
	p->rtt = rtt;
	p->wire = fx_hist(2000, 1, 10);
	p->loop = fx_hist(1000, 1, 10);
}

static inline void fx_counts(struct rperf_proto_report *r, uint32_t id,
			     enum rperf_proto_role role,
			     enum rperf_gen_kind kind, uint64_t bytes,
			     double seconds)
{
	struct rperf_proto_result *p = &r->res[r->n++];

	p->id = id;
	p->role = role;
	p->kind = kind;
	p->seconds = seconds;
	p->bytes = bytes;
	p->messages = bytes / 65536;
}

/* Merge @rep into @r (must succeed) and free it. */
static inline void fx_add(struct rperf_run_results *r,
			  struct rperf_proto_report *rep)
{
	char err[256] = "";

	assert_int_equal(rperf_run_results_add_report(r, rep->host, rep, NULL,
						      err, sizeof(err)),
			 0);
	rperf_proto_report_fini(rep);
}

#endif
