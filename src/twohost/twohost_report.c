/* SPDX-License-Identifier: BSD-2-Clause */
/* The report fields and files that rperf lat and rperf bw share. */
#include "twohost/twohost_report.h"

#include <string.h>

#include "report/report_prom.h"

void rperf_twohost_report_fill(const struct rperf_twohost_client *c,
			       const char *command,
			       const struct rperf_kv *config, size_t nconfig,
			       struct rperf_twohost_view *v,
			       struct rperf_report *rep)
{
	rep->command = command;
	rep->config = config;
	rep->nconfig = nconfig;
	rep->platform = &c->platform;
	rep->placement = &c->host.place;
	rep->preflight = &c->host.preflight;
	rep->cpu_util = c->cfg->cpu_util;
	rep->wide = c->cfg->wide;
	rep->warnings = v->warn;
	rep->nwarnings = rperf_twohost_warnings(&c->notes, v->warn);
	rep->partial = c->notes.partial;
	rep->error = c->notes.error[0] ? c->notes.error : NULL;
	if (rperf_retrans_view(&c->retrans, rep, &v->rt, v->rt_ev,
			       sizeof(v->rt_ev)))
		rep->retrans = &v->rt;
}

int rperf_twohost_report_files(const struct rperf_twohost_client *c,
			       const struct rperf_report *rep,
			       int (*write_json)(const char *path,
						 const struct rperf_report *))
{
	const struct rperf_cmdline *cfg = c->cfg;
	const char *path = cfg->out_json_file ? cfg->out_json_file :
						"rperf.json";
	int rc = 0, frc;

	if (cfg->out_json) {
		rc = write_json(path, rep);
		if (rc)
			rperf_say(&c->say,
				  "--out_json_file: cannot write %s: %s", path,
				  strerror(rc));
	}
	if (cfg->prom_file) {
		frc = rperf_prom_write_report(cfg->prom_file, rep);
		if (frc)
			rperf_say(&c->say, "--prom: cannot write %s: %s",
				  cfg->prom_file, strerror(frc));
		rc = rc ? rc : frc;
	}
	return rc;
}
