/* SPDX-License-Identifier: BSD-2-Clause */
/* Live rows: GO asks for them, HEARTBEATs bring them (engine/proto.h). */
#include "run/run_ctl.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

int run_go_encode(const struct run_ctl *c, json_t **out)
{
	int rc = rperf_proto_go_encode(c->start_in_ns, c->heartbeat_ns, out);

	if (!rc && c->opts->on_live)
		rc = rperf_proto_go_set_live(*out);
	if (rc) {
		json_decref(*out);
		*out = NULL;
	}
	return rc;
}

/* Row @r is of a source @host runs, of its kind: its spec, else NULL. */
static const struct rperf_gen_spec *source_of(const struct run_ctl *c,
					      const char *host,
					      const struct rperf_live_row *r)
{
	const struct rperf_gen_spec *s;

	if (r->id >= c->job->ninst)
		return NULL;
	s = &c->job->inst[r->id];
	return strcmp(s->from, host) || s->kind != r->kind ? NULL : s;
}

void run_live_heartbeat(struct run_ctl *c, struct run_agent *a,
			const struct rperf_ctrl_msg *m)
{
	const char *host = a->host->name;
	struct rperf_proto_live l;
	char why[160];
	size_t i;

	if (!c->opts->on_live)
		return; /* not asked: whatever it carries is ignored */
	if (rperf_proto_live_decode(m, &l, why, sizeof(why))) {
		run_fail(c, a, "bad %s", why);
		return;
	}
	for (i = 0; i < l.n && source_of(c, host, &l.rows[i]); i++)
		;
	if (i < l.n) {
		run_fail(
			c, a,
			"bad HEARTBEAT: rows[%zu]: instance %u is not a %s source of this host",
			i, l.rows[i].id, rperf_gen_kind_name(l.rows[i].kind));
		rperf_proto_live_fini(&l);
		return;
	}
	for (i = 0; i < l.n; i++)
		c->opts->on_live(c->opts->live_arg,
				 source_of(c, host, &l.rows[i]), &l.rows[i]);
	if (l.skipped && c->opts->on_live_skipped)
		c->opts->on_live_skipped(c->opts->live_arg, host, l.skipped);
	rperf_proto_live_fini(&l);
}

void rperf_run_live_text(void *arg, const struct rperf_gen_spec *s,
			 const struct rperf_live_row *r)
{
	FILE *f = arg;
	double t0 = (double)r->start_ns / 1e9;

	if (rperf_gen_bandwidth(r->kind))
		fprintf(f,
			"live [%8.3f-%8.3f s] %s (%s -> %s) bsg: %.4f Gb/s, %" PRIu64
			" msgs\n",
			t0, t0 + (double)r->dur_ns / 1e9, s->name, s->from,
			s->to,
			r->dur_ns ? (double)r->bytes * 8 / (double)r->dur_ns :
				    0.0,
			r->messages);
	else
		fprintf(f,
			"live [%8.3f-%8.3f s] %s (%s -> %s) lsg: %" PRIu64
			" samples, RTT p50 %.3f us, p99 %.3f us, max %.3f us\n",
			t0, t0 + (double)s->interval_ns / 1e9, s->name, s->from,
			s->to, r->samples, (double)r->p50_ns / 1e3,
			(double)r->p99_ns / 1e3, (double)r->max_ns / 1e3);
	fflush(f);
}

void rperf_run_live_skipped_text(void *arg, const char *host, uint64_t n)
{
	FILE *f = arg;

	fprintf(f,
		"live: %" PRIu64
		" row(s) of %s's sources came faster than its HEARTBEATs took them: not shown live (the report's intervals have them)\n",
		n, host);
	fflush(f);
}
