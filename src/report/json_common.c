// SPDX-License-Identifier: BSD-2-Clause
/*
 * JSON building blocks shared by the run report and rperf info: the clock and
 * platform objects are the same in both (one function each).
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "report_int.h"

json_t *rperf_rpt_json_done(json_t *o, int err)
{
	if (!err)
		return o;
	json_decref(o);
	return NULL;
}

json_t *rperf_rpt_json_str(const char *s)
{
	json_t *v;
	char *copy;
	size_t i;

	if (!s)
		return json_null();
	v = json_string(s);
	if (v)
		return v;
	/* not UTF-8 (e.g. a hostname in Latin-1): keep ASCII, '?' the rest */
	copy = strdup(s);
	if (!copy)
		return NULL;
	for (i = 0; copy[i]; i++)
		if ((unsigned char)copy[i] >= 0x80)
			copy[i] = '?';
	v = json_string(copy);
	free(copy);
	return v;
}

json_t *rperf_rpt_json_real(double d)
{
	if (!isfinite(d))
		return json_null();
	return json_real(d);
}

json_t *rperf_rpt_json_uint(uint64_t u)
{
	if (u > (uint64_t)INT64_MAX)
		return json_real((double)u);
	return json_integer((json_int_t)u);
}

static json_t *json_selftest_or_null(const struct rperf_clock_selftest *st,
				     double v)
{
	return st ? rperf_rpt_json_real(v) : json_null();
}

static json_t *json_overhead(const struct rperf_clock_selftest *st)
{
	json_t *o;
	int err = 0;

	if (!st)
		return json_null();
	o = json_object();
	err |= json_object_set_new(o, "min",
				   rperf_rpt_json_real(st->overhead_ns_min));
	err |= json_object_set_new(o, "median",
				   rperf_rpt_json_real(st->overhead_ns_median));
	return rperf_rpt_json_done(o, err);
}

/*
 * The clock object: calibration, decision and (when given) the self-test.
 * Self-test figures are null when no self-test ran.
 */
json_t *rperf_rpt_json_clock(const struct rperf_clock *c,
			     const struct rperf_clock_selftest *st)
{
	json_t *o;
	int err = 0;

	if (!c)
		return json_null();
	o = json_object();
	err |= json_object_set_new(
		o, "source",
		rperf_rpt_json_str(rperf_clock_source_name(c->source)));
	err |= json_object_set_new(o, "trusted", json_boolean(c->trusted));
	err |= json_object_set_new(o, "forced", json_boolean(c->forced));
	err |= json_object_set_new(o, "hz", rperf_rpt_json_real(c->hz));
	err |= json_object_set_new(o, "method", rperf_rpt_json_str(c->method));
	err |= json_object_set_new(o, "error_ppm",
				   rperf_rpt_json_real(c->error_ppm));
	err |= json_object_set_new(o, "overhead_ns", json_overhead(st));
	err |= json_object_set_new(
		o, "resolution_ns",
		json_selftest_or_null(st, st ? st->resolution_ns : 0));
	err |= json_object_set_new(
		o, "max_gap_ns",
		json_selftest_or_null(st, st ? st->max_gap_ns : 0));
	err |= json_object_set_new(
		o, "spin_ms", json_selftest_or_null(st, st ? st->spin_ms : 0));
	err |= json_object_set_new(
		o, "reads", st ? rperf_rpt_json_uint(st->reads) : json_null());
	err |= json_object_set_new(o, "invariant",
				   json_boolean(c->platform.invariant_tsc));
	err |= json_object_set_new(o, "hypervisor",
				   json_boolean(c->platform.hypervisor));
	err |= json_object_set_new(o, "clocksource",
				   rperf_rpt_json_str(c->platform.clocksource));
	err |= json_object_set_new(o, "cpuid15_hz",
				   c->cpuid15_hz != 0 ?
					   rperf_rpt_json_real(c->cpuid15_hz) :
					   json_null());
	err |= json_object_set_new(o, "cross_check_ppm",
				   rperf_rpt_json_real(c->cross_check_ppm));
	err |= json_object_set_new(o, "reason", rperf_rpt_json_str(c->reason));
	return rperf_rpt_json_done(o, err);
}

json_t *rperf_rpt_json_pcie(const char *speed, int width)
{
	if (!speed[0] && width <= 0)
		return json_null();
	return json_pack("{s:o,s:o}", "speed",
			 rperf_rpt_json_str(speed[0] ? speed : NULL), "width",
			 width > 0 ? json_integer(width) : json_null());
}

json_t *rperf_rpt_json_platform(const struct rperf_platform *p)
{
	json_t *o;
	int err = 0;

	if (!p)
		return json_null();
	o = json_object();
	err |= json_object_set_new(o, "hostname",
				   rperf_rpt_json_str(p->hostname));
	err |= json_object_set_new(o, "kernel", rperf_rpt_json_str(p->kernel));
	err |= json_object_set_new(o, "arch", rperf_rpt_json_str(p->arch));
	err |= json_object_set_new(o, "os", rperf_rpt_json_str(p->os));
	err |= json_object_set_new(o, "cpu_model",
				   rperf_rpt_json_str(p->cpu_model));
	err |= json_object_set_new(o, "cpus_online",
				   json_integer(p->cpus_online));
	err |= json_object_set_new(o, "numa_nodes",
				   json_integer(p->numa_nodes));
	err |= json_object_set_new(o, "rperf_version",
				   rperf_rpt_json_str(p->rperf_version));
	err |= json_object_set_new(o, "ibverbs_version",
				   rperf_rpt_json_str(p->ibverbs_version));
	err |= json_object_set_new(o, "rdmacm_version",
				   rperf_rpt_json_str(p->rdmacm_version));
	err |= json_object_set_new(o, "json_library",
				   rperf_rpt_json_str(p->json_library));
	err |= json_object_set_new(o, "timestamp",
				   rperf_rpt_json_str(p->timestamp));
	err |= json_object_set_new(o, "rdma_core_version",
				   rperf_rpt_json_str(p->rdma_core_version));
	err |= json_object_set_new(o, "numa_summary",
				   rperf_rpt_json_str(p->numa_summary));
	err |= json_object_set_new(o, "device", rperf_rpt_json_str(p->device));
	err |= json_object_set_new(o, "fw_ver", rperf_rpt_json_str(p->fw_ver));
	err |= json_object_set_new(
		o, "pcie", rperf_rpt_json_pcie(p->pcie_speed, p->pcie_width));
	return rperf_rpt_json_done(o, err);
}

int rperf_rpt_json_emit(FILE *f, json_t *root)
{
	int rc;

	if (!root)
		return ENOMEM;
	/*
	 * 15 significant digits: 99.9 prints as 99.9 (17 would print
	 * 99.900000000000006); far below any measurement's precision.
	 */
	rc = json_dumpf(root, f,
			JSON_INDENT(2) | JSON_PRESERVE_ORDER |
				JSON_REAL_PRECISION(15));
	json_decref(root);
	if (rc != 0)
		return EIO;
	if (fputc('\n', f) == EOF)
		return EIO;
	return rperf_rpt_io_status(f);
}

static int emit_fn(FILE *f, void *root)
{
	return rperf_rpt_json_emit(f, json_incref(root));
}

int rperf_rpt_json_write(const char *path, json_t *root)
{
	int rc = root ? rperf_atomic_write(path, emit_fn, root) : ENOMEM;

	json_decref(root);
	return rc;
}
