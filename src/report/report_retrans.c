/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * "retransmissions" (JSON) and "retransmissions likely: ..." (text): whether
 * RC likely retransmitted during the run, with the evidence (report.h,
 * struct rperf_retrans).
 */
#include "report_int.h"

#include <errno.h>
#include <rperf/report.h>

json_t *rperf_rpt_json_retrans(const struct rperf_retrans *t)
{
	json_t *o, *c = NULL;
	int err = 0;

	if (!t)
		return json_null();
	o = json_object();
	if (!o)
		return NULL;
	if (t->device) {
		c = json_object();
		for (size_t i = 0; c && i < t->ncounters; i++)
			err |= json_object_set_new(
				c, t->names[i],
				rperf_rpt_json_uint(t->deltas[i]));
	}
	err |= json_object_set_new(o, "likely", json_boolean(t->likely));
	err |= json_object_set_new(o, "source", rperf_rpt_json_str(t->source));
	err |= json_object_set_new(o, "device", rperf_rpt_json_str(t->device));
	err |= json_object_set_new(
		o, "port", t->device ? json_integer(t->port) : json_null());
	err |= json_object_set_new(o, "counters", c ? c : json_null());
	err |= json_object_set_new(o, "evidence",
				   rperf_rpt_json_str(t->evidence));
	err |= json_object_set_new(o, "unreadable",
				   rperf_rpt_json_str(t->unreadable));
	if (err || (t->device && !c)) {
		json_decref(o);
		return NULL;
	}
	return o;
}

int rperf_report_retrans_text(FILE *f, const struct rperf_retrans *t)
{
	if (!f)
		return EINVAL;
	if (!t)
		return 0;
	fprintf(f, "  retransmissions likely: %s (%s)\n",
		t->likely ? "yes" : "no",
		t->evidence ? t->evidence : "no evidence");
	return rperf_rpt_io_status(f);
}
