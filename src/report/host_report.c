/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Placement and preflight in the reports. JSON:
 *   placement: {nic_node, cpu_node, mem_node, cpu, cpu_source, mem_source,
 *               remote, hugepages, buffers_note}   (nodes/cpu -1 -> null)
 *   preflight: [{check, ok, detail}]
 */
#include <errno.h>
#include <string.h>

#include "host/place.h"
#include "report_int.h"

static json_t *node_or_null(int n)
{
	return n >= 0 ? json_integer(n) : json_null();
}

json_t *rperf_rpt_json_placement(const struct rperf_placement *p)
{
	json_t *o;
	int err = 0;

	if (!p)
		return json_null();
	o = json_object();
	err |= json_object_set_new(o, "nic_node", node_or_null(p->nic_node));
	err |= json_object_set_new(o, "cpu_node", node_or_null(p->cpu_node));
	err |= json_object_set_new(o, "mem_node", node_or_null(p->mem_node));
	err |= json_object_set_new(o, "cpu", node_or_null(p->cpu));
	err |= json_object_set_new(o, "cpu_source",
				   rperf_rpt_json_str(p->cpu_source));
	err |= json_object_set_new(o, "mem_source",
				   rperf_rpt_json_str(p->mem_source));
	err |= json_object_set_new(o, "remote", json_boolean(p->remote));
	err |= json_object_set_new(o, "hugepages",
				   rperf_rpt_json_str(p->hugepages));
	err |= json_object_set_new(o, "buffers_note",
				   rperf_rpt_json_str(p->buffers_note[0] ?
							      p->buffers_note :
							      NULL));
	return rperf_rpt_json_done(o, err);
}

json_t *rperf_rpt_json_preflight(const struct rperf_preflight *pf)
{
	json_t *a = json_array();
	int err = a ? 0 : -1;

	for (size_t i = 0; pf && i < pf->n && i < RPERF_MAX_CHECKS && !err;
	     i++) {
		json_t *o = json_object();

		err |= o ? 0 : -1;
		err |= json_object_set_new(o, "check",
					   rperf_rpt_json_str(pf->c[i].check));
		err |= json_object_set_new(o, "ok", json_boolean(pf->c[i].ok));
		err |= json_object_set_new(o, "detail",
					   rperf_rpt_json_str(pf->c[i].detail));
		err |= json_array_append_new(a, o);
	}
	return rperf_rpt_json_done(a, err);
}

int rperf_rpt_json_host(json_t *root, const struct rperf_placement *p,
			const struct rperf_preflight *pf)
{
	int err = 0;

	if (p)
		err |= json_object_set_new(root, "placement",
					   rperf_rpt_json_placement(p));
	if (pf)
		err |= json_object_set_new(root, "preflight",
					   rperf_rpt_json_preflight(pf));
	return err ? ENOMEM : 0;
}

void rperf_rpt_text_host(FILE *f, const struct rperf_placement *p,
			 const struct rperf_preflight *pf)
{
	char line[320];
	size_t failed = 0;

	if (p) {
		rperf_place_format(p, line, sizeof(line));
		fprintf(f, "  placement    : %s\n", line);
		fprintf(f, "  buffers      : hugepages %s%s%s\n", p->hugepages,
			p->buffers_note[0] ? "; " : "", p->buffers_note);
	}
	if (!pf)
		return;
	fprintf(f, "  preflight    :");
	for (size_t i = 0; i < pf->n && i < RPERF_MAX_CHECKS; i++)
		if (!pf->c[i].ok)
			fprintf(f, "%s %s", failed++ ? "," : " failed",
				pf->c[i].check);
	fprintf(f, "%s\n",
		failed ? " (details in the warnings printed before the run)" :
			 " all checks passed");
}
