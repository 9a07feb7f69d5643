/* SPDX-License-Identifier: BSD-2-Clause */
/* The JSON document of a sweep (keys: run_sweep.h). */
#include "run/run_sweep.h"

#include <errno.h>
#include <string.h>

#include <rperf/report.h>

#include "report/report_json.h"

#define RPERF_SWEEP_SCHEMA 1

static int set(json_t *o, const char *k, json_t *v)
{
	return json_object_set_new(o, k, v) ? -1 : 0;
}

static json_t *rtt_obj(const struct rperf_sweep_sum *m)
{
	if (!m->have_rtt)
		return json_null();
	return json_pack("{s:I, s:I, s:I}", "p50", (json_int_t)m->p50, "p99",
			 (json_int_t)m->p99, "p999", (json_int_t)m->p999);
}

/* bsg_gbps_by_name, bsg_gbps_by_class */
static int by_maps(json_t *o, const struct rperf_sweep_point *p)
{
	const struct rperf_run_results *r = rperf_sweep_measured(p) ? p->res :
								      NULL;
	json_t *names = json_object(), *cls = json_object();
	int e = set(o, "bsg_gbps_by_name", names);

	e |= set(o, "bsg_gbps_by_class", cls);
	if (e || !names || !cls)
		return -1;
	for (size_t i = 0; r && i < r->job->ninst; i++) {
		const struct rperf_gen_spec *sp = &r->job->inst[i];
		double g;

		if (sp->kind == RPERF_GEN_BSG &&
		    !json_object_get(names, sp->name) &&
		    rperf_sweep_gbps_by_name(p, sp->name, &g))
			e |= set(names, sp->name, rperf_rpt_json_real(g));
	}
	for (size_t i = 0; r && i < r->ncls; i++)
		if (r->cls[i].agg.nbsg)
			e |= set(cls, r->cls[i].name,
				 rperf_rpt_json_real(r->cls[i].agg.gbps));
	return e;
}

static json_t *failed_hosts(const struct rperf_run_results *r)
{
	json_t *a = json_array();
	int e = a ? 0 : -1;

	for (size_t i = 0; !e && r && i < r->job->nhosts; i++)
		if (r->hosts[i].failed)
			e |= json_array_append_new(
				a, rperf_rpt_json_str(r->hosts[i].host->name));
	if (e) {
		json_decref(a);
		return NULL;
	}
	return a;
}

static json_t *point(const struct rperf_sweep_point *p, size_t idx)
{
	json_t *o = json_object(), *rep = NULL;
	struct rperf_sweep_sum m;
	int e = o ? 0 : -1;

	if (e)
		return NULL;
	rperf_sweep_summary(p, &m);
	if (p->res && rperf_run_report_json(p->res, &rep))
		e = -1;
	e |= set(o, "index", json_integer((json_int_t)idx));
	e |= set(o, "value", rperf_rpt_json_str(p->value));
	e |= set(o, "x", p->has_x ? rperf_rpt_json_real(p->x) : json_null());
	e |= set(o, "status", json_string(rperf_sweep_status_name(p->status)));
	e |= set(o, "exit_status",
		 json_integer(p->status == RPERF_SWEEP_OK ? 0 :
			      p->res			  ? 3 :
							    0));
	e |= set(o, "lsg_count", json_integer((json_int_t)m.nlsg));
	e |= set(o, "lsg_samples", rperf_rpt_json_uint(m.lsg_samples));
	e |= set(o, "lsg_rtt_ns", rtt_obj(&m));
	e |= set(o, "bsg_count", json_integer((json_int_t)m.nbsg));
	e |= set(o, "bsg_gbps",
		 rperf_sweep_measured(p) ? rperf_rpt_json_real(m.bsg_gbps) :
					   json_null());
	e |= set(o, "bsg_receiver_gbps",
		 rperf_sweep_measured(p) ?
			 rperf_rpt_json_real(m.bsg_receiver_gbps) :
			 json_null());
	e |= by_maps(o, p);
	e |= set(o, "failed_hosts", failed_hosts(p->res));
	e |= set(o, "instances_with_errors",
		 json_integer((json_int_t)m.nerrors));
	e |= set(o, "report", rep ? rep : json_null());
	if (e) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static json_t *sweep_obj(const struct rperf_sweep *s)
{
	json_t *o = json_object(), *vals = json_array();
	int e = o && vals ? 0 : -1;

	e |= set(o, "key", json_string(s->key));
	e |= set(o, "section", json_string(s->target.sect));
	e |= set(o, "name", rperf_rpt_json_str(s->target.name));
	e |= set(o, "param", json_string(s->target.key));
	e |= set(o, "values", vals);
	for (size_t i = 0; !e && i < s->npt; i++)
		e |= json_array_append_new(vals,
					   rperf_rpt_json_str(s->pt[i].value));
	if (e) {
		json_decref(o);
		return NULL;
	}
	return o;
}

int rperf_sweep_report_json(const struct rperf_sweep *s, json_t **out)
{
	json_t *root = json_object(), *pts = json_array(), *sets = json_array();
	int e = root && pts && sets ? 0 : -1;

	e |= set(root, "schema_version", json_integer(RPERF_SWEEP_SCHEMA));
	e |= set(root, "command", json_string("run"));
	e |= set(root, "job", rperf_rpt_json_str(s->job_path));
	e |= set(root, "hosts_map", rperf_rpt_json_str(s->hosts_map));
	e |= set(root, "sets", sets);
	for (size_t i = 0; !e && i < s->nsets; i++)
		e |= json_array_append_new(sets,
					   rperf_rpt_json_str(s->sets[i]));
	e |= set(root, "sweep", sweep_obj(s));
	e |= set(root, "interrupted", json_boolean(s->interrupted));
	e |= set(root, "points", pts);
	for (size_t i = 0; !e && i < s->npt; i++)
		e |= json_array_append_new(pts, point(&s->pt[i], i));
	if (e) {
		json_decref(root);
		return ENOMEM;
	}
	*out = root;
	return 0;
}

static int write_fn(FILE *f, void *arg)
{
	json_t *root = NULL;
	int rc = rperf_sweep_report_json(arg, &root);

	if (rc)
		return rc;
	return rperf_rpt_json_emit(f, root);
}

int rperf_sweep_write_json(const char *path, const struct rperf_sweep *s)
{
	return rperf_atomic_write(path, write_fn, (void *)s);
}
