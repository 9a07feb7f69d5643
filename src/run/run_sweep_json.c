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

		if (rperf_gen_bandwidth(sp->kind) &&
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
	return rperf_rpt_json_done(a, e);
}

static json_t *stat_obj(const struct rperf_sweep_stat *st)
{
	json_t *o = json_object(), *v = json_array();
	int e = o && v ? 0 : -1;

	e |= set(o, "mean",
		 st->n ? rperf_rpt_json_real(st->mean) : json_null());
	e |= set(o, "ci95",
		 st->n > 1 ? rperf_rpt_json_real(st->ci95) : json_null());
	e |= set(o, "n", json_integer((json_int_t)st->n));
	e |= set(o, "values", v);
	for (size_t i = 0; !e && i < st->n; i++)
		e |= json_array_append_new(v, rperf_rpt_json_real(st->v[i]));
	return rperf_rpt_json_done(o, e);
}

/* stats {figure: {mean, ci95, n, values}}, stats_by_name, stats_by_class,
 * reports [every repeat's document] */
static int repeats(json_t *o, const struct rperf_sweep_point *p)
{
	json_t *st = json_object(), *bn = json_object(), *bc = json_object();
	json_t *reps = json_array();
	const json_t *names = json_object_get(o, "bsg_gbps_by_name");
	const json_t *classes = json_object_get(o, "bsg_gbps_by_class");
	struct rperf_sweep_stat x;
	const char *k;
	json_t *v;
	int e = st && bn && bc && reps ? 0 : -1;

	e |= set(o, "repeats", json_integer((json_int_t)p->nrep));
	for (int f = 0; !e && f < RPERF_SWEEP_NFIG; f++) {
		rperf_sweep_stat(p, (enum rperf_sweep_fig)f, &x);
		e |= set(st, rperf_sweep_fig_names[f], stat_obj(&x));
	}
	json_object_foreach((json_t *)names, k, v)
	{
		rperf_sweep_stat_by(p, k, false, &x);
		e |= set(bn, k, stat_obj(&x));
	}
	json_object_foreach((json_t *)classes, k, v)
	{
		rperf_sweep_stat_by(p, k, true, &x);
		e |= set(bc, k, stat_obj(&x));
	}
	for (size_t i = 0; !e && i < p->nrep; i++) {
		json_t *doc = NULL;

		e |= rperf_run_report_json(p->rep[i], &doc) ? -1 : 0;
		e |= json_array_append_new(reps, doc);
	}
	e |= set(o, "stats", st);
	e |= set(o, "stats_by_name", bn);
	e |= set(o, "stats_by_class", bc);
	e |= set(o, "reports", reps);
	return e;
}

/* values {key: value as given}, xs {key: number or null} */
static int axes_values(json_t *o, const struct rperf_sweep *s,
		       const struct rperf_sweep_point *p)
{
	json_t *vals = json_object(), *xs = json_object();
	int e = vals && xs ? 0 : -1;

	for (size_t k = 0; !e && k < s->nax; k++) {
		e |= set(vals, s->ax[k].key, rperf_rpt_json_str(p->vals[k]));
		e |= set(xs, s->ax[k].key,
			 p->has_xs[k] ? rperf_rpt_json_real(p->xs[k]) :
					json_null());
	}
	e |= set(o, "values", vals);
	e |= set(o, "xs", xs);
	return e;
}

static json_t *point(const struct rperf_sweep *s,
		     const struct rperf_sweep_point *p, size_t idx)
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
	e |= axes_values(o, s, p);
	if (!e && s->repeat > 1)
		e |= repeats(o, p);
	return rperf_rpt_json_done(o, e);
}

static json_t *axis_obj(const struct rperf_sweep_axis *a)
{
	json_t *o = json_object(), *vals = json_array();
	int e = o && vals ? 0 : -1;

	e |= set(o, "key", json_string(a->key));
	e |= set(o, "section", json_string(a->target.sect));
	e |= set(o, "name", rperf_rpt_json_str(a->target.name));
	e |= set(o, "param", json_string(a->target.key));
	e |= set(o, "values", vals);
	for (size_t i = 0; !e && i < a->nvalues; i++)
		e |= json_array_append_new(vals,
					   rperf_rpt_json_str(a->values[i]));
	return rperf_rpt_json_done(o, e);
}

int rperf_sweep_report_json(const struct rperf_sweep *s, json_t **out)
{
	json_t *root = json_object(), *pts = json_array(), *sets = json_array();
	json_t *axes = json_array();
	int e = root && pts && sets && axes ? 0 : -1;

	e |= set(root, "schema_version", json_integer(RPERF_SWEEP_SCHEMA));
	e |= set(root, "command", json_string("run"));
	e |= set(root, "job", rperf_rpt_json_str(s->job_path));
	e |= set(root, "hosts_map", rperf_rpt_json_str(s->hosts_map));
	e |= set(root, "sets", sets);
	for (size_t i = 0; !e && i < s->nsets; i++)
		e |= json_array_append_new(sets,
					   rperf_rpt_json_str(s->sets[i]));
	e |= set(root, "sweep", s->nax ? axis_obj(&s->ax[0]) : json_null());
	e |= set(root, "sweeps", axes);
	for (size_t i = 0; !e && i < s->nax; i++)
		e |= json_array_append_new(axes, axis_obj(&s->ax[i]));
	e |= set(root, "zip", json_boolean(s->zip));
	e |= set(root, "same_qps", json_boolean(s->same_qps));
	e |= set(root, "repeat", json_integer((json_int_t)s->repeat));
	e |= set(root, "interrupted", json_boolean(s->interrupted));
	e |= set(root, "points", pts);
	for (size_t i = 0; !e && i < s->npt; i++)
		e |= json_array_append_new(pts, point(s, &s->pt[i], i));
	*out = rperf_rpt_json_done(root, e);
	return *out ? 0 : ENOMEM;
}

int rperf_sweep_write_json(const char *path, const struct rperf_sweep *s)
{
	json_t *root = NULL;
	int rc = rperf_sweep_report_json(s, &root);

	return rc ? rc : rperf_rpt_json_write(path, root);
}
