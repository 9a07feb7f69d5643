// SPDX-License-Identifier: BSD-2-Clause
/*
 * JSON run report (jansson; never printf'ed). Layout, schema_version 1:
 *
 *   { schema_version, command, rperf_version, config{key: typed value},
 *     platform{...}, clock{...}, results[{method, size, samples, warmup,
 *     nonpositive, precompleted, seconds, figure, unit, [cpu_pct], rtt_ns{...},
 *     [wire_ns{...}], [loop_ns{...}]}], warnings[], partial, error }
 *
 * Each *_ns object: count (samples), rel_error (the histogram's worst
 * relative error of a reported percentile; min and max are exact), min,
 * p50, p99, p999, p9999, max (integers, ns), mean,
 * stdev (doubles, ns), percentiles {"50": v, ...} for the requested list and
 * unreliable [p, ...]: the requested percentiles fewer than 10/(1-p) samples
 * support (see rperf_percentile_reliable()).
 * cpu_pct (with --cpu_util): this process's CPU time over the wall time of
 * the size's run, percent of one CPU.
 *
 * Values are the histogram's as recorded: with half_rtt the generator records
 * RTT/2 and "figure" says "half_rtt"; the renderer never halves anything.
 */
#include <errno.h>
#include <stdint.h>

#include "report_int.h"
#include "version.h"

static json_t *json_list(const struct rperf_kv *kv)
{
	json_t *a = json_array();
	size_t i;
	int err = 0;

	for (i = 0; i < kv->v.list.n; i++) {
		if (kv->type == RPERF_KV_LIST_UINT)
			err |= json_array_append_new(
				a, rperf_rpt_json_uint(kv->v.list.u[i]));
		else
			err |= json_array_append_new(
				a, rperf_rpt_json_real(kv->v.list.d[i]));
	}
	return rperf_rpt_json_done(a, err);
}

/* One configuration value; *@bad set when the entry is malformed. */
json_t *rperf_rpt_json_kv(const struct rperf_kv *kv, bool *bad)
{
	switch (kv->type) {
	case RPERF_KV_STR:
		return rperf_rpt_json_str(kv->v.s);
	case RPERF_KV_INT:
		return json_integer(kv->v.i);
	case RPERF_KV_UINT:
		return rperf_rpt_json_uint(kv->v.u);
	case RPERF_KV_DOUBLE:
		return rperf_rpt_json_real(kv->v.d);
	case RPERF_KV_BOOL:
		return json_boolean(kv->v.b);
	case RPERF_KV_LIST_UINT:
		if (kv->v.list.n && !kv->v.list.u)
			break;
		return json_list(kv);
	case RPERF_KV_LIST_DOUBLE:
		if (kv->v.list.n && !kv->v.list.d)
			break;
		return json_list(kv);
	}
	*bad = true;
	return NULL;
}

static int json_config(const struct rperf_report *r, json_t **out)
{
	json_t *o = json_object();
	bool bad = false;
	size_t i;

	if (!o)
		return ENOMEM;
	for (i = 0; i < r->nconfig; i++) {
		const struct rperf_kv *kv = &r->config[i];
		json_t *v;

		if (!kv->key) {
			bad = true;
			break;
		}
		v = rperf_rpt_json_kv(kv, &bad);
		if (bad || json_object_set_new(o, kv->key, v) != 0)
			break;
	}
	if (i < r->nconfig) {
		json_decref(o);
		return bad ? EINVAL : ENOMEM;
	}
	*out = o;
	return 0;
}

static json_t *json_pct_map(const struct rperf_hist *h, const double *ps,
			    size_t n, json_t **unreliable)
{
	json_t *m = json_object();
	json_t *u = json_array();
	uint64_t cnt = rperf_hist_count(h);
	char key[32];
	size_t i;
	int err = (m && u) ? 0 : -1;

	for (i = 0; i < n && !err; i++) {
		rperf_rpt_pct_key(ps[i], key, sizeof(key));
		err |= json_object_set_new(
			m, key, json_integer(rperf_hist_percentile(h, ps[i])));
		if (!rperf_percentile_reliable(ps[i], cnt))
			err |= json_array_append_new(
				u, rperf_rpt_json_real(ps[i]));
	}
	if (err) {
		json_decref(m);
		json_decref(u);
		return NULL;
	}
	*unreliable = u;
	return m;
}

/* The statistics of one histogram (rtt_ns, wire_ns, loop_ns). */
json_t *rperf_rpt_json_stats(const struct rperf_hist *h, const double *ps,
			     size_t n)
{
	json_t *o = json_object();
	json_t *unrel = NULL, *map;
	int err = 0;

	err |= json_object_set_new(o, "count",
				   rperf_rpt_json_uint(rperf_hist_count(h)));
	err |= json_object_set_new(o, "rel_error",
				   json_real(rperf_hist_rel_error(h)));
	err |= json_object_set_new(o, "min", json_integer(rperf_hist_min(h)));
	err |= json_object_set_new(o, "p50",
				   json_integer(rperf_hist_percentile(h, 50)));
	err |= json_object_set_new(o, "p99",
				   json_integer(rperf_hist_percentile(h, 99)));
	err |= json_object_set_new(
		o, "p999", json_integer(rperf_hist_percentile(h, 99.9)));
	err |= json_object_set_new(
		o, "p9999", json_integer(rperf_hist_percentile(h, 99.99)));
	err |= json_object_set_new(o, "max", json_integer(rperf_hist_max(h)));
	err |= json_object_set_new(o, "mean",
				   rperf_rpt_json_real(rperf_hist_mean(h)));
	err |= json_object_set_new(o, "stdev",
				   rperf_rpt_json_real(rperf_hist_stdev(h)));
	map = json_pct_map(h, ps, n, &unrel);
	err |= json_object_set_new(o, "percentiles", map);
	if (map)
		err |= json_object_set_new(o, "unreliable", unrel);
	return rperf_rpt_json_done(o, err);
}

/* The statistics of @h under @key, when there is @h. */
static int opt_stats(json_t *o, const char *key, const struct rperf_hist *h,
		     const double *ps, size_t n)
{
	return h ? json_object_set_new(o, key, rperf_rpt_json_stats(h, ps, n)) :
		   0;
}

static json_t *json_result(const struct rperf_lat_result *l, const double *ps,
			   size_t n, bool cpu_util)
{
	json_t *o = json_object();
	int err = 0;

	err |= json_object_set_new(o, "method", rperf_rpt_json_str(l->method));
	err |= json_object_set_new(o, "size", rperf_rpt_json_uint(l->size));
	if (l->repeat)
		err |= json_object_set_new(o, "repeat",
					   rperf_rpt_json_uint(l->repeat));
	err |= json_object_set_new(o, "samples",
				   rperf_rpt_json_uint(l->samples));
	err |= json_object_set_new(o, "warmup", rperf_rpt_json_uint(l->warmup));
	err |= json_object_set_new(o, "nonpositive",
				   rperf_rpt_json_uint(l->nonpositive));
	err |= json_object_set_new(o, "precompleted",
				   rperf_rpt_json_uint(l->precompleted));
	err |= json_object_set_new(o, "seconds",
				   rperf_rpt_json_real(l->seconds));
	err |= json_object_set_new(
		o, "figure", json_string(l->half_rtt ? "half_rtt" : "rtt"));
	err |= json_object_set_new(o, "unit", json_string("ns"));
	if (cpu_util)
		err |= json_object_set_new(o, "cpu_pct",
					   rperf_rpt_json_real(l->cpu_pct));
	err |= json_object_set_new(o, "rtt_ns",
				   rperf_rpt_json_stats(l->rtt, ps, n));
	err |= opt_stats(o, "wire_ns", l->wire, ps, n);
	err |= opt_stats(o, "loop_ns", l->loop, ps, n);
	err |= opt_stats(o, "half_rtt_ns", l->half, ps, n);
	err |= opt_stats(o, "post_wire_ns", l->post_wire, ps, n);
	err |= opt_stats(o, "post_loop_ns", l->post_loop, ps, n);
	if (l->interval_ns)
		err |= json_object_set_new(
			o, "intervals",
			rperf_rpt_json_lsg_intervals(l->intervals,
						     l->nintervals));
	return rperf_rpt_json_done(o, err);
}

static json_t *json_results(const struct rperf_report *r)
{
	json_t *a = json_array();
	const double *ps;
	size_t n, i;
	int err = 0;

	rperf_rpt_pcts(r, &ps, &n);
	for (i = 0; i < r->nlat && !err; i++)
		err |= json_array_append_new(a, json_result(&r->lat[i], ps, n,
							    r->cpu_util));
	return rperf_rpt_json_done(a, err);
}

static json_t *json_warnings(const struct rperf_report *r)
{
	json_t *a = json_array();
	size_t i;
	int err = 0;

	for (i = 0; i < r->nwarnings && !err; i++)
		err |= json_array_append_new(
			a, rperf_rpt_json_str(r->warnings[i]));
	return rperf_rpt_json_done(a, err);
}

static int check_report(const struct rperf_report *r)
{
	size_t i;

	if ((r->nconfig && !r->config) || (r->nlat && !r->lat) ||
	    (r->nwarnings && !r->warnings))
		return EINVAL;
	for (i = 0; i < r->nlat; i++)
		if (!r->lat[i].rtt)
			return EINVAL;
	return 0;
}

/* "timestamps": "nic"|"cpu", "nic_clock_hz": Hz or null, the note. */
static int json_stamps(json_t *root, const struct rperf_report *r)
{
	bool nic = r->nic_clock_hz > 0;
	int err = 0;

	err |= json_object_set_new(root, "timestamps",
				   rperf_rpt_json_str(r->timestamps));
	err |= json_object_set_new(root, "nic_clock_hz",
				   nic ? json_real(r->nic_clock_hz) :
					 json_null());
	err |= json_object_set_new(root, "timestamps_note",
				   rperf_rpt_json_str(r->timestamps_note));
	return err;
}

int rperf_report_json(FILE *f, const struct rperf_report *r)
{
	json_t *root, *config = NULL;
	int err;

	if (!f || !r)
		return EINVAL;
	err = check_report(r);
	if (!err)
		err = json_config(r, &config);
	if (err)
		return err;
	root = json_object();
	if (!root) {
		json_decref(config);
		return ENOMEM;
	}
	err |= json_object_set_new(root, "schema_version",
				   json_integer(RPERF_SCHEMA_VERSION));
	err |= json_object_set_new(root, "command",
				   rperf_rpt_json_str(r->command));
	err |= json_object_set_new(root, "rperf_version",
				   json_string(RPERF_VERSION));
	err |= json_object_set_new(root, "config", config);
	err |= json_object_set_new(root, "platform",
				   rperf_rpt_json_platform(r->platform));
	err |= json_object_set_new(root, "clock",
				   rperf_rpt_json_clock(r->clock, r->selftest));
	if (r->timestamps)
		err |= json_stamps(root, r);
	err |= rperf_rpt_json_host(root, r->placement, r->preflight);
	err |= json_object_set_new(root, "results", json_results(r));
	err |= json_object_set_new(root, "warnings", json_warnings(r));
	err |= json_object_set_new(root, "partial", json_boolean(r->partial));
	err |= json_object_set_new(root, "error", rperf_rpt_json_str(r->error));
	if (r->retrans)
		err |= json_object_set_new(root, "retransmissions",
					   rperf_rpt_json_retrans(r->retrans));
	return rperf_rpt_json_emit(f, rperf_rpt_json_done(root, err));
}
